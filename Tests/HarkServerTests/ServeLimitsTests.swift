import Foundation
import HarkTestSupport
import Testing

/// `hark serve`'s connection limits, tried with the reference Wyoming client: a connection that
/// says nothing is closed after the idle timeout with an error event saying why, connections
/// beyond the cap are refused the same way, each with a log line, and others are served on.
@Suite(.serialized) struct ServeLimitsTests {
    @Test func idleConnectionsAreClosedAndThoseBeyondTheCapRefused() async throws {
        let errors = Pipe()
        let (server, port, _) = try ServeCommandTests.startServe(["--idle-timeout", "2", "--max-connections", "3"],
                                                                 errors: errors)
        defer { if server.isRunning { server.terminate() } }
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "Tests/Wyoming/limits.py", "--port", String(port), "--cap", "3", "--wait", "10"]
        client.currentDirectoryURL = Fixtures.root
        let (printed, complaints) = try ServeCommandTests.runToEnd(client)
        try #require(client.terminationStatus == 0, "the wyoming client failed (make test installs it): \(complaints)")
        let result = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])

        let refused = try #require((result["refused"] as? [[String: Any]])?.first)
        #expect(refused["type"] as? String == "error")
        #expect((refused["data"] as? [String: Any])?["code"] as? String == "too-many-connections")
        #expect(result["refused_closed"] as? Bool == true)
        let held = try #require(result["held"] as? [[[String: Any]]])
        #expect(held.count == 3)
        for events in held {
            #expect(events.map { $0["type"] as? String } == ["error"])
            #expect((events.first?["data"] as? [String: Any])?["code"] as? String == "idle-timeout")
        }
        #expect(result["held_closed"] as? [Bool] == [true, true, true])
        // Closed after about the idle timeout, not at once and not never.
        let after = try #require(result["held_closed_after"] as? Double)
        #expect(after > 1.5 && after < 8, "closed after \(after) s")
        #expect(result["served_after"] as? Bool == true)

        server.terminate()
        server.waitUntilExit()
        let log = String(decoding: try errors.fileHandleForReading.readToEnd() ?? Data(), as: UTF8.self)
        #expect(log.components(separatedBy: "3 connections at once").count - 1 == 1, "log: \(log)")
        #expect(log.components(separatedBy: "said nothing for 2 s").count - 1 == 3, "log: \(log)")
    }
}
