import Foundation
import HarkTestSupport
import Testing

/// `hark serve`'s speech through the reference Wyoming client: a long text is streamed piece by
/// piece (its first audio comes long before the last), and text over the limit is refused.
@Suite(.serialized) struct ServeSpeechTests {
    @Test func aLongTextIsStreamedAndAnOverlongOneRefused() async throws {
        let (server, port, _) = try ServeCommandTests.startServe(["--max-text", "3000"])
        defer { if server.isRunning { server.terminate() } }
        let sentence = "The kitchen light is on, the oven is warming up, and the kettle will boil in two minutes. "
        let long = String(repeating: sentence, count: 30)  // 2,730 characters, about three minutes of speech
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "Tests/Wyoming/speak.py", "--port", String(port),
                            long, String(repeating: "a", count: 3001), "Done."]
        client.currentDirectoryURL = Fixtures.root
        let (printed, complaints) = try ServeCommandTests.runToEnd(client)
        try #require(client.terminationStatus == 0, "the wyoming client failed (make test installs it): \(complaints)")
        let results = try #require(try JSONSerialization.jsonObject(with: printed) as? [[String: Any]])
        try #require(results.count == 3)

        let streamed = results[0]
        #expect(streamed["types"] as? [String] == ["audio-start", "audio-stop"])
        let seconds = try #require(streamed["seconds"] as? Double)
        #expect(seconds > 120 && seconds < 300, "\(seconds) s of speech")
        // Streamed: the first sentence's audio arrives while the other 29 are still being made.
        let first = try #require(streamed["first_chunk_at"] as? Double)
        let stop = try #require(streamed["stop_at"] as? Double)
        #expect(first < stop / 5, "first audio after \(first) s, the last after \(stop) s")

        let refused = results[1]
        #expect(refused["types"] as? [String] == ["error"])
        let error = try #require(refused["error"] as? [String: Any])
        #expect(error["code"] as? String == "bad-data")
        #expect((error["text"] as? String)?.contains("3001 characters, over the limit of 3000") == true)

        // A short text on a new connection is spoken whole.
        #expect(results[2]["types"] as? [String] == ["audio-start", "audio-stop"])
        #expect((results[2]["seconds"] as? Double).map { $0 > 0.2 && $0 < 3 } == true)
    }

    /// A synthesize event's voice (a name or a language espeak-ng has) is the voice heard; one it
    /// does not have is refused with an error event, not spoken in Hark's own.
    @Test func theEventsVoiceIsSpokenAndAnUnknownOneRefused() async throws {
        let (server, port, _) = try ServeCommandTests.startServe()
        defer { if server.isRunning { server.terminate() } }
        let text = "The garage light is on."
        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "Tests/Wyoming/speak.py", "--port", String(port),
                            text, "en-us::" + text, "en-gb::" + text, "en-us+f3::" + text, "no-such-voice::" + text]
        client.currentDirectoryURL = Fixtures.root
        let (printed, complaints) = try ServeCommandTests.runToEnd(client)
        try #require(client.terminationStatus == 0, "the wyoming client failed (make test installs it): \(complaints)")
        let results = try #require(try JSONSerialization.jsonObject(with: printed) as? [[String: Any]])
        try #require(results.count == 5)
        for result in results.prefix(4) {
            #expect(result["types"] as? [String] == ["audio-start", "audio-stop"])
        }
        // espeak-ng's audio is not the same to the sample from one call to the next, but a voice's
        // length is (within 2 ms here): Hark's own voice is en-us; British English and a female
        // variant say the sentence at other lengths (22 ms shorter and 110 ms longer here).
        let lengths = results.prefix(4).map { $0["seconds"] as? Double ?? 0 }
        #expect(abs(lengths[0] - lengths[1]) < 0.005, "\(lengths)")
        #expect(abs(lengths[2] - lengths[1]) > 0.01, "\(lengths)")
        #expect(abs(lengths[3] - lengths[1]) > 0.05, "\(lengths)")
        #expect(results[4]["types"] as? [String] == ["error"])
        let error = try #require(results[4]["error"] as? [String: Any])
        #expect(error["code"] as? String == "bad-data")
        #expect((error["text"] as? String)?.contains("no voice \"no-such-voice\"") == true)
    }
}
