import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HarkTestSupport
import Testing

/// `hark serve` stopped with SIGTERM while a handler program runs that ignores SIGTERM and has
/// left a descendant, in a session of its own, holding the handler's pipes.
@Suite struct ServeStopsHandlersTests {
    static func pid(in file: URL) -> Int32? {
        (try? String(contentsOf: file, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
    }

    @Test func sigtermEndsServeAndItsHandlerPromptly() async throws {
        // The contacts are dynamic, so the handler starts with the server (asked for its options).
        let apps = try temporaryDirectory()
        let folder = apps.appendingPathComponent("chirp")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try """
        name: Chirp
        systemIntents: [SendMessage]
        types:
          Contact:
            dynamic: true
        handler:
          command: [./handler.sh]
          timeout: 5
        """.write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        let handler = folder.appendingPathComponent("handler.sh")
        try #"""
        #!/bin/sh
        echo $$ > "$HARK_APP_DIR/pid"
        setsid sh -c 'echo $$ > "$HARK_APP_DIR/descendant"; exec sleep 30' &
        trap '' TERM
        while read -r line; do
          id=$(printf '%s' "$line" | sed 's/.*"id":\("[^"]*"\|[0-9]*\).*/\1/')
          printf '{"id": %s, "options": [{"id": "amy", "spoken": "Amy"}]}\n' "$id"
        done
        """#.write(to: handler, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler.path)
        defer {
            if let descendant = Self.pid(in: folder.appendingPathComponent("descendant")) { kill(descendant, SIGKILL) }
        }

        let log = apps.appendingPathComponent("serve.log")
        try #require(FileManager.default.createFile(atPath: log.path, contents: nil))
        let server = try Self.serve(apps: apps.path, log: try FileHandle(forWritingTo: log))
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        let handlerPID = try #require(Self.pid(in: folder.appendingPathComponent("pid")), "the handler did not start with the server")

        server.terminate()
        let stopped = Date()
        #expect(await eventually(within: 10) { !server.isRunning },
                "hark serve was still running 10 s after SIGTERM: \((try? String(contentsOf: log, encoding: .utf8)) ?? "")")
        #expect(Date().timeIntervalSince(stopped) < 10)
        #expect(await eventually(within: 3) { processIsGone(handlerPID) }, "the handler \(handlerPID) outlived hark serve")
    }

    /// SIGTERM sent the moment the address is printed, over and over: each time `hark serve`
    /// stops. (A signal handler registered a moment after the print let 2 of 30 such signals go
    /// unheard on a loaded machine, and serve ran on.)
    @Test func aSigtermSentAsSoonAsTheAddressIsPrintedStopsServe() async throws {
        for round in 1...10 {
            let server = try Self.serve(apps: "apps", log: nil)
            defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
            server.terminate()
            #expect(await eventually(within: 10) { !server.isRunning }, "round \(round): hark serve was still running 10 s after SIGTERM")
        }
    }

    /// `hark serve` on a free loopback port, once it has printed its address.
    static func serve(apps: String, log: FileHandle?) throws -> Process {
        let server = Process()
        server.executableURL = try Fixtures.executable("hark")
        server.arguments = ["serve", "--uri", "tcp://127.0.0.1:0", "--apps", apps]
        server.currentDirectoryURL = Fixtures.root
        server.environment = try isolatedHarkEnvironment()
        let output = Pipe()
        server.standardOutput = output
        if let log { server.standardError = log }
        try server.run()
        var printed = ""
        while !printed.contains("\n") {
            let chunk = try readSome(output.fileHandleForReading)
            if chunk.isEmpty {
                kill(server.processIdentifier, SIGKILL)
                throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "hark serve ended before it served"])
            }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        return server
    }
}
