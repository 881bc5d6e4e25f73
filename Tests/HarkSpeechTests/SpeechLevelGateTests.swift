import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

@Suite struct SpeechLevelGateTests {
    /// White noise of the given RMS level (dBFS), 100 ms at 16 kHz.
    static func noise(at level: Double, seconds: Double = 0.1) -> [Int16] {
        var floor = NoiseFloor(level: level)
        return floor.adding(to: [Int16](repeating: 0, count: Int(seconds * 16_000))[...])
    }

    @Test func aPieceWellAboveTheRoomIsSpeechAndTheRoomIsNot() {
        var gate = SpeechLevelGate()
        let heard = [-60, -60, -60, -60, -56, -30, -60].map { gate.isSpeech(Self.noise(at: $0)[...]) }
        // The first piece only sets the background; 4 dB above it is still the room.
        #expect(heard == [false, false, false, false, false, true, false])
        #expect(abs((gate.background ?? 0) - -60) < 1)
    }

    @Test func aLouderRoomBecomesTheBackgroundSlowlyAndAQuieterOneAtOnce() {
        var gate = SpeechLevelGate()
        _ = gate.isSpeech(Self.noise(at: -60)[...])
        // Ten seconds of a room 15 dB louder: still above the old background, rising 0.5 dB a second.
        for _ in 0..<100 { _ = gate.isSpeech(Self.noise(at: -45)[...]) }
        let background = gate.background ?? 0
        #expect(background > -56 && background < -54, "\(background)")
        let quieter = gate.isSpeech(Self.noise(at: -70)[...])
        #expect(!quieter)
        #expect(abs((gate.background ?? 0) - -70) < 1)
    }

    @Test func digitalSilenceHasALevel() {
        #expect(SpeechLevelGate.level([Int16](repeating: 0, count: 160)[...]) == -120)
        #expect(abs(SpeechLevelGate.level([Int16](repeating: 16_384, count: 160)[...]) - -6.02) < 0.01)
    }

    /// The spotter's cepstral mean learns from speech, not from the quiet between: after ten
    /// seconds of a quiet room it has counted nothing; after real speech it has.
    @Test func theSpottersMeanLearnsFromSpeechOnly() throws {
        let spotter = try WakeWordSpotter(configuration: WakeWordConfiguration())
        _ = try spotter.process(Self.noise(at: -65, seconds: 10))
        #expect(try spotter.cepstralMeanFrames() == 0)
        let speech = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_speech.wav")).pipelineSamples()
        _ = try spotter.process(Array(speech.prefix(5 * 16_000)))
        #expect(try spotter.cepstralMeanFrames() > 100)
    }
}
