import Foundation
import HarkAudio
import HarkDialogue
import HarkTestSupport
import Testing

/// Over Wyoming, the transcript of a spoken PIN is `hiddenPIN`: the digits never reach the
/// client (a satellite's log, Home Assistant's), yet the turn is answered from what was heard.
struct SpokenPINServerTests {
    @Test func theTranscriptOfASpokenPINIsDotsAndItsTurnIsStillChecked() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("conversations/grind.4.wav"))   // "one two three four"
        let bytes = try WyomingServerTests.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        let port = try await WyomingServerTests.port()
        let (asked, transcript, reply) = try await onOwnThread { () throws -> (String, String, String) in
            let client = try WyomingTestClient(port: port)
            func turn(_ text: String) throws -> String {
                try client.send("handle", ["text": text])
                return try client.expect("handled").data["text"] as? String ?? ""
            }
            _ = try turn("order some ground coffee")
            _ = try turn("yes")
            let asked = try turn("yes")
            let (transcript, _) = try WyomingServerTests.transcribe(client, bytes, rate: clip.sampleRate, width: 2, channels: 1)
            return (asked, transcript, try turn(transcript))
        }
        #expect(asked == "What's your PIN?")
        #expect(transcript == hiddenPIN)
        // The server's PIN is 5150: "one two three four" was checked, and is wrong.
        #expect(reply == "That PIN isn't right. Try once more.")
    }
}
