import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HarkDialogue
import HarkIntents
import HarkRuntime
import HarkTestSupport
import Testing

/// Handler programs that misbehave in the ways a tester found: each is a real shell script, and
/// Hark must neither hang, nor be fooled, nor leave it running.
@Suite struct ProgramHandlerSupervisionTests {
    /// Sets `id` to the request's id as written (a JSON string or number), for the reply to echo.
    static let readID = #"id=$(printf '%s' "$line" | sed 's/.*"id":\("[^"]*"\|[0-9]*\).*/\1/')"#
    /// Answers one request (in `$line`) with success.
    static let answer = readID + "\n" + #"printf '{"id": %s, "code": "success", "values": {"word": "hello"}}\n' "$id""#
    static let working = "while read -r line; do\n\(answer)\ndone"

    static func handler(_ script: String, timeout: Double, report: @escaping @Sendable (String) -> Void = { _ in })
        throws -> (ProgramHandler, DialogueEngine, URL) {
        let (catalog, directory) = try ProgramHandlerTests.app(handler: script, timeout: timeout)
        let handler = ProgramHandler(app: try #require(catalog.app("echo")), command: ["./handler.sh"], timeoutSeconds: timeout,
                                     dataDirectory: directory, report: report)
        return (handler, DialogueEngine(catalog: catalog, handlers: HandlerDirectory(["echo": handler])), directory.appendingPathComponent("echo"))
    }

    static func pid(in file: URL) throws -> Int32 {
        try #require(writtenPID(in: file), "no process id in \(file.lastPathComponent)")
    }

    /// The process id a script wrote to `file`, or nil while the file is missing or still empty:
    /// `echo $$ > file` creates the file before it writes the number.
    static func writtenPID(in file: URL) -> Int32? {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func aProgramThatClosesItsStdinAndStaysIsStoppedAndStartedAgain() async throws {
        let script = """
        echo $$ >> "$HARK_APP_DIR/pids"
        if [ -e "$HARK_APP_DIR/closed" ]; then
        \(Self.working)
        fi
        read -r line
        \(Self.answer)
        exec 0<&-
        touch "$HARK_APP_DIR/closed"
        sleep 20
        """
        var (handler, engine, folder) = try Self.handler(script, timeout: 15)
        #expect(await engine.respond(to: .text("say hello")).speech == "Parrot: Done, hello.")
        #expect(await eventually(within: 5) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("closed").path) })
        let started = ContinuousClock.now
        let refused = await engine.respond(to: .text("say hello"))
        #expect(ContinuousClock.now - started < .seconds(5), "Hark waited for a program that closed its stdin")
        #expect(refused.speech == "Parrot: Sorry, Parrot stopped taking requests.")
        #expect(refused.problem?.contains("closed its stdin while still running") == true, "\(refused.problem ?? "")")
        let first = try Self.pid(in: folder.appendingPathComponent("pids"))
        #expect(await eventually(within: 5) { processIsGone(first) }, "the program that closed its stdin \(first) is still running")
        // The next request starts it again, and it answers.
        #expect(await engine.respond(to: .text("say hello")).speech == "Parrot: Done, hello.")
        await handler.stop()
    }

    @Test func aDescendantThatLeavesTheSessionCannotHoldUpTheProgramsEnd() async throws {
        // The descendant keeps the program's stdout and stderr open after the program exits.
        let script = """
        setsid sh -c 'echo $$ > "$HARK_APP_DIR/descendant"; exec sleep 30' &
        read -r line
        echo 'giving up' >&2
        exit 3
        """
        var (handler, engine, folder) = try Self.handler(script, timeout: 20)
        defer {
            if let descendant = Self.writtenPID(in: folder.appendingPathComponent("descendant")) { kill(descendant, SIGKILL) }
        }
        let started = ContinuousClock.now
        let reply = await engine.respond(to: .text("say hello"))
        #expect(ContinuousClock.now - started < .seconds(10), "Hark waited for the program's descendant")
        #expect(reply.speech == "Parrot: Sorry, Parrot stopped working.")
        #expect(reply.problem?.contains("exit status 3") == true, "\(reply.problem ?? "")")
        #expect(reply.problem?.contains("giving up") == true, "\(reply.problem ?? "")")
        await handler.stop()
    }

    @Test func aProgramStartsWithNoSignalBlockedOrIgnoredAndHearsSIGTERM() async throws {
        // hark serve ignores SIGTERM to catch it through a dispatch source, and Hark ignores SIGPIPE:
        // a program must not inherit either (a shell cannot even trap a signal ignored at its start).
        let previous = signal(SIGTERM, SIG_IGN)
        defer { signal(SIGTERM, previous) }
        let script = """
        # With builtins only: while the shell waits for a child of its own it blocks every signal.
        while read -r field value; do
          case $field in SigBlk:|SigIgn:) echo "$field\\t$value" ;; esac
        done < /proc/$$/status > "$HARK_APP_DIR/signals"
        trap 'echo stopped > "$HARK_APP_DIR/terminated"; exit 0' TERM
        \(Self.working)
        # Its stdin closes as it is stopped: it waits for SIGTERM all the same.
        while :; do sleep 0.05; done
        """
        var (handler, engine, folder) = try Self.handler(script, timeout: 5)
        #expect(await engine.respond(to: .text("say hello")).speech == "Parrot: Done, hello.")
        signal(SIGTERM, previous)
        let signals = try String(contentsOf: folder.appendingPathComponent("signals"), encoding: .utf8)
        #expect(signals.contains("SigBlk:\t0000000000000000"), "\(signals)")
        #expect(signals.contains("SigIgn:\t0000000000000000"), "\(signals)")
        await handler.stop()
        #expect(await eventually(within: 3) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("terminated").path) },
                "the program never saw SIGTERM")
    }

    @Test func aLateLineFromAStoppedProgramNeverReachesTheNext() async throws {
        // The first run hangs, and leaves behind a descendant (out of reach of the stop) that
        // writes a late reply to the first run's stdout 1.5 s after its deadline, then closes it.
        // The runs after it answer in half the timeout, as a healthy program does.
        let script = """
        if [ ! -e "$HARK_APP_DIR/first" ]; then
          touch "$HARK_APP_DIR/first"
          read -r line
          \(Self.readID)
          export id
          setsid sh -c 'sleep 3.5; printf "{\\"id\\": %s, \\"code\\": \\"failure\\"}\\n" "$id"' &
          sleep 30
        fi
        while read -r line; do
          sleep 1
          \(Self.answer)
        done
        """
        var (handler, engine, _) = try Self.handler(script, timeout: 2)
        let late = await engine.respond(to: .text("say hello"))
        #expect(late.speech == "Parrot: Sorry, Parrot didn't answer in time.", "\(late.speech) \(late.problem ?? "")")
        for _ in 0..<4 {
            let reply = await engine.respond(to: .text("say hello"))
            #expect(reply.speech.hasSuffix("Done, hello."), "\(reply.speech) \(reply.problem ?? "")")
        }
        await handler.stop()
    }

    @Test func aReplyWithAGuessedIdIsDropped() async throws {
        // Before each real reply, failures for the ids a program could guess: small numbers, as
        // numbers and as strings.
        let script = """
        while read -r line; do
          for guess in 0 1 2 3 4 5 6; do
            printf '{"id": %s, "code": "failure"}\\n{"id": "%s", "code": "failure"}\\n' "$guess" "$guess"
          done
        \(Self.answer)
        done
        """
        let dropped = Reports()
        var (handler, engine, _) = try Self.handler(script, timeout: 5) { dropped.add($0) }
        for _ in 0..<3 {
            let reply = await engine.respond(to: .text("say hello"))
            #expect(reply.speech.hasSuffix("Done, hello."), "\(reply.speech) \(reply.problem ?? "")")
        }
        #expect(dropped.all.count == 3 * 14, "\(dropped.all)")
        await handler.stop()
    }

    @Test(.timeLimit(.minutes(1))) func requestsMadeAtOnceAreAnsweredInTurn() async throws {
        // Two conversations (two Wyoming clients, say) reach the same handler together.
        let script = "while read -r line; do\n  sleep 0.3\n\(Self.answer)\ndone"
        let (handler, _, _) = try Self.handler(script, timeout: 5)
        let request = IntentRequest(app: "echo", intent: "RepeatWord", values: [:])
        let answered = try await withThrowingTaskGroup(of: ResponseCode.self) { group in
            for _ in 0..<3 { group.addTask { try await handler.handle(request).code } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answered == [.success, .success, .success])
        await handler.stop()
    }

    @Test func an8MBReplyIsRefusedQuicklyAndNamesTheLimit() async throws {
        let script = """
        read -r line
        head -c 8000000 /dev/zero | tr '\\0' 'a'
        echo
        sleep 30
        """
        var (handler, engine, _) = try Self.handler(script, timeout: 30)
        let started = ContinuousClock.now
        let reply = await engine.respond(to: .text("say hello"))
        #expect(ContinuousClock.now - started < .seconds(10))
        #expect(reply.speech == "Parrot: Sorry, Parrot sent a reply that was too long.")
        #expect(reply.problem?.contains("longer than the limit of 1048576 bytes") == true, "\(reply.problem ?? "")")
        await handler.stop()
    }

    @Test(arguments: [("exit 3", "exit status 3"), ("kill -KILL $$", "killed by signal 9")])
    func aProgramThatDiesMidReplyIsACrash(_ ending: String, _ said: String) async throws {
        let script = """
        read -r line
        printf '{"id": "0", "code": "succ'
        \(ending)
        """
        var (handler, engine, _) = try Self.handler(script, timeout: 10)
        let reply = await engine.respond(to: .text("say hello"))
        #expect(reply.speech == "Parrot: Sorry, Parrot stopped working.")
        #expect(reply.problem?.contains(said) == true, "\(reply.problem ?? "")")
        #expect(reply.problem?.contains("partway through a reply") == true, "\(reply.problem ?? "")")
        await handler.stop()
    }

    @Test func harkChatExitsPromptlyAndStopsItsHandler() async throws {
        // The handler ignores SIGTERM (so only SIGKILL to its group ends it) and leaves behind a
        // descendant in a session of its own that holds the handler's pipes.
        let (_, directory) = try ProgramHandlerTests.app(handler: """
        echo $$ > "$HARK_APP_DIR/pid"
        setsid sh -c 'echo $$ > "$HARK_APP_DIR/descendant"; exec sleep 30' &
        trap '' TERM
        \(Self.working)
        """, timeout: 5)
        let folder = directory.appendingPathComponent("echo")
        defer {
            if let descendant = Self.writtenPID(in: folder.appendingPathComponent("descendant")) { kill(descendant, SIGKILL) }
        }
        let process = Process()
        process.executableURL = try CommandLineTests.executable()
        process.arguments = ["chat", "--apps", directory.path]
        let environment = try isolatedHarkEnvironment()
        process.environment = environment
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        try input.fileHandleForWriting.write(contentsOf: Data("say hello\n".utf8))
        try input.fileHandleForWriting.close()
        let started = Date()
        #expect(await eventually(within: 10) { !process.isRunning }, "hark chat did not exit")
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        #expect(Date().timeIntervalSince(started) < 10)
        let said = String(decoding: try output.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        #expect(said.contains("Done, hello."), "\(said)")
        let handler = try Self.pid(in: folder.appendingPathComponent("pid"))
        #expect(await eventually(within: 3) { processIsGone(handler) }, "the handler \(handler) outlived hark chat")
    }
}
