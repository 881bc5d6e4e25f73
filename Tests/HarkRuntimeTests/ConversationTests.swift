import Foundation
import HarkDialogue
import HarkExampleApps
import HarkIntents
import HarkRuntime
import HarkTestSupport
import Testing

/// The golden conversations of Tests/Conversations, typed, against the bundled
/// apps and their real handlers (Swift in process, Python as a program).
@Suite struct GoldenConversationTests {
    static let folder = Fixtures.root.appendingPathComponent("Tests/Conversations")
    static let scripts: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
        .filter { $0.hasSuffix(".chat") }.sorted()

    static func engine(pin: String?, data: URL) async throws -> DialogueEngine {
        let configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: nil,
            inProcessHandlers: ExampleApps.handlers, authenticator: FixedPIN(pin), dataDirectory: data,
            database: data.appendingPathComponent("shortcuts.sqlite"))
        let (engine, problems) = try await Assistant.dialogueEngine(configuration)
        #expect(problems.isEmpty, "\(problems)")
        return engine
    }

    @Test func everyRuleHasAScript() {
        #expect(Self.scripts.count >= 10, "\(Self.scripts)")
    }

    @Test(arguments: scripts) func playsAsWritten(_ name: String) async throws {
        let script = try ConversationScript(String(contentsOf: Self.folder.appendingPathComponent(name), encoding: .utf8))
        var engine = try await Self.engine(pin: script.pin, data: try temporaryDirectory())
        let mismatches = await script.run(&engine)
        #expect(mismatches.isEmpty, "\(name):\n\(mismatches.map(\.description).joined(separator: "\n"))")
    }

    /// The message really reaches the Python handler, which stores it in its data folder.
    @Test func theExternalHandlerDidItsWork() async throws {
        let data = try temporaryDirectory()
        let script = try ConversationScript(String(contentsOf: Self.folder.appendingPathComponent("amy.chat"), encoding: .utf8))
        var engine = try await Self.engine(pin: nil, data: data)
        #expect(await script.run(&engine).isEmpty)
        let sent = try String(contentsOf: data.appendingPathComponent("apps/messages/sent.jsonl"), encoding: .utf8)
        let lines = sent.split(separator: "\n")
        #expect(lines.count == 1)
        let message = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: String]
        #expect(message == ["to": "amy_jones", "text": "Running late, start without me."])
    }
}

/// A handler program that crashes, hangs or writes garbage: the person hears a
/// specific error, and the next request works again.
@Suite struct ProgramHandlerTests {
    static func app(handler script: String, timeout: Double = 1) throws -> (AppCatalog, URL) {
        let directory = try temporaryDirectory()
        let folder = directory.appendingPathComponent("echo")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        name: Parrot
        intents:
          RepeatWord:
            phrases: [say hello]
            responses:
              success: Done, ${result.word}.
        handler:
          command: [./handler.sh]
          timeout: \(timeout)
        """.write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        let handler = folder.appendingPathComponent("handler.sh")
        try ("#!/bin/sh\n" + script).write(to: handler, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler.path)
        return (try AppCatalog.load(from: directory), directory)
    }

    static func engine(_ script: String, timeout: Double = 1) async throws -> (DialogueEngine, URL) {
        let (catalog, directory) = try app(handler: script, timeout: timeout)
        let data = directory.appendingPathComponent("data")
        let configuration = AssistantConfiguration(appsDirectory: directory, modelsDirectory: nil, dataDirectory: data)
        let (engine, _) = try await Assistant.dialogueEngine(configuration)
        #expect(engine.catalog.apps.map(\.identifier) == catalog.apps.map(\.identifier))
        return (engine, directory)
    }

    /// Answers every request with success and a word, one JSON line each.
    static let working = ProgramHandlerSupervisionTests.working

    @Test func aWorkingProgramAnswers() async throws {
        var (engine, _) = try await Self.engine(Self.working)
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Done, hello.")
        #expect(reply.handled?.response.code == .success)
    }

    @Test func aProgramThatCrashes() async throws {
        var (engine, _) = try await Self.engine("echo 'something broke' >&2\nexit 3")
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot stopped working.")
        // The log names the program and its exit status: a crash, not a wait that ran out.
        #expect(reply.problem?.contains("./handler.sh") == true, "\(reply.problem ?? "")")
        #expect(reply.problem?.contains("exit status 3") == true, "\(reply.problem ?? "")")
        #expect(!reply.expectsAnswer)
        // Hark goes on: the next request is heard (and fails the same way, the program being broken).
        #expect(await engine.respond(to: .text("what can i say")).speech.hasPrefix("You can say"))
    }

    @Test func aStrayReplyDoesNotAnswerTheNextRequest() async throws {
        // Every request is answered twice: first as if it were request 999, then for real.
        let script = """
        while read -r line; do
          printf '{"id": 999, "code": "failure"}\\n'
        \(ProgramHandlerSupervisionTests.answer)
        done
        """
        let (catalog, directory) = try Self.app(handler: script)
        let dropped = Reports()
        let handler = ProgramHandler(app: try #require(catalog.app("echo")), command: ["./handler.sh"], timeoutSeconds: 2,
                                     dataDirectory: directory, report: { dropped.add($0) })
        var engine = DialogueEngine(catalog: catalog, handlers: HandlerDirectory(["echo": handler]))
        #expect(await engine.respond(to: .text("say hello")).speech == "Parrot: Done, hello.")
        #expect(await engine.respond(to: .text("say hello")).speech == "Parrot: Done, hello.")
        #expect(dropped.all.count == 2)
        #expect(dropped.all.first?.contains("dropped a reply for request 999 while waiting for ") == true, "\(dropped.all)")
        await handler.stop()
    }

    /// Whether `pid` has ended but not yet been collected by its parent (state Z in /proc).
    static func isZombie(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
              let afterName = stat.range(of: ") ", options: .backwards) else { return false }
        return stat[afterName.upperBound...].first == "Z"
    }

    @Test func aProgramThatIgnoresSIGTERMIsKilledWithWhatItStarted() async throws {
        let script = """
        trap '' TERM
        echo $$ > "$HARK_APP_DIR/pid"
        sleep 60 &
        echo $! > "$HARK_APP_DIR/child"
        while true; do sleep 1; done
        """
        var (engine, directory) = try await Self.engine(script, timeout: 0.5)
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot didn't answer in time.")
        for name in ["pid", "child"] {
            let text = try String(contentsOf: directory.appendingPathComponent("echo/\(name)"), encoding: .utf8)
            let pid = try #require(Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)))
            // Gone: signal 0 finds no such process (Hark reaps the program, so it must not stay a
            // zombie). Its child, orphaned, may be a zombie a while, dead and waiting for init to
            // collect it whenever init gets to it (this machine's took up to 1.7 s), which says
            // nothing about Hark.
            var gone = false
            for _ in 0..<100 where !gone {
                gone = (kill(pid, 0) != 0 && errno == ESRCH) || (name == "child" && Self.isZombie(pid))
                if !gone { usleep(20_000) }
            }
            #expect(gone, "the handler's \(name) \(pid) is still running")
        }
    }

    @Test func aProgramThatClosesItsOutputAndGoesOnIsNotWaitedForPastItsDeadline() async throws {
        // On a machine busy with other tests the news of a closed pipe can take many seconds to
        // reach the request; the bound only needs to be far below the program's 300 s.
        var (engine, _) = try await Self.engine("exec >&-\nsleep 300", timeout: 0.5)
        let started = ContinuousClock.now
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot stopped working.")
        #expect(reply.problem?.contains("closed its stdout while still running") == true, "\(reply.problem ?? "")")
        #expect(ContinuousClock.now - started < .seconds(100), "Hark waited for the program to end")
    }

    @Test func aProgramThatHangs() async throws {
        // Had the timeout not fired, the program would end after 30 s and be reported as stopped instead.
        var (engine, _) = try await Self.engine("sleep 30", timeout: 0.5)
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot didn't answer in time.")
    }

    @Test func aProgramThatWritesGarbage() async throws {
        var (engine, _) = try await Self.engine("while read -r line; do echo 'this is not json'; done")
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot sent a reply I couldn't read.")
        #expect(reply.problem?.contains("this is not json") == true)
    }

    @Test func aProgramRunsWithACleanEnvironmentAndNoShell() async throws {
        setenv("HARK_TEST_SECRET", "leaked", 1)
        defer { unsetenv("HARK_TEST_SECRET") }
        var (engine, directory) = try await Self.engine("env > \"$HARK_APP_DIR/env.txt\"\n" + Self.working)
        #expect(await engine.respond(to: .text("say hello")).speech == "Parrot: Done, hello.")
        let environment = try String(contentsOf: directory.appendingPathComponent("echo/env.txt"), encoding: .utf8)
        #expect(!environment.contains("HARK_TEST_SECRET"))
        #expect(environment.contains("HARK_APP=echo"))
        #expect(environment.contains("HARK_APP_DATA=\(directory.appendingPathComponent("data/apps/echo").path)"))
    }

    @Test func aMissingProgramIsNamed() async throws {
        let (catalog, directory) = try Self.app(handler: "")
        try FileManager.default.removeItem(at: directory.appendingPathComponent("echo/handler.sh"))
        var engine = DialogueEngine(catalog: catalog, handlers: HandlerDirectory(["echo": ProgramHandler(
            app: try #require(catalog.app("echo")), command: ["./handler.sh"], timeoutSeconds: 1, dataDirectory: directory)]))
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot's handler isn't installed.")
    }
}

/// Lines reported from another task, kept for a test to read.
final class Reports: @unchecked Sendable {
    // @unchecked: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
