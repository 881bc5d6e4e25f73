import Foundation
import HarkAudio
import HarkSpeech
import HarkTestSupport
import Testing

/// `hark run` says how far each request's voice stood above its room, as the recogniser judged
/// it (`SignalToNoise` on the recording): what someone in a noisy kitchen reads to see why Hark
/// asked first.
@Suite struct VoiceAboveRoomReportTests {
    @Test func eachRequestSaysHowFarTheVoiceStoodAboveTheRoom() throws {
        let noisy = "audio-fixtures/noisy/home-turn_on_living_room_lamp.wav"
        let padded = "audio-fixtures/home-en/how_cold_is_it.wav"
        let outcome = try CommandLineTests.hark(["run", noisy, padded])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let samples = try WAVFile.read(contentsOf: Fixtures.root.appendingPathComponent(noisy)).pipelineSamples()
        let estimate = try #require(SignalToNoise.estimate(samples))
        #expect(estimate > 5 && estimate < 30)
        #expect(outcome.output.contains(String(format: "  room:       the voice %.0f dB above the room", estimate)), "\(outcome.output)")
        // A recording padded with digital silence has no room to measure against.
        #expect(outcome.output.contains("  room:       the voice 60 dB or more above the room"))
    }
}
