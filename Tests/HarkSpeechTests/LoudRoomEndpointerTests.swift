import Foundation
import HarkSpeech
import Testing

/// The endpointer in a loud room: a room loud from the start is learnt, a voice 10 dB above its
/// steady noise is speech there and the noise alone is not, and every quiet room keeps the
/// strict threshold.
@Suite struct LoudRoomEndpointerTests {
    /// White noise of `seconds` at `amplitude` (its RMS in sample units), the same on every run.
    static func noise(_ seconds: Double, rms: Double, seed: UInt64 = 1) -> [Int16] {
        var state = seed
        return (0..<Int(seconds * 16_000)).map { _ in
            // Sum of uniforms: near-Gaussian, so frame levels vary as a steady real noise's do.
            var sum = 0.0
            for _ in 0..<4 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                sum += Double(state >> 11) / Double(1 << 53) - 0.5
            }
            return Int16(clamping: Int(sum * rms * sqrt(3)))
        }
    }

    /// Steady noise near -36 dBFS with a stretch 10 dB louder (a voice at 10 dB SNR) in its middle.
    static func voiceInSteadyNoise(rms: Double) -> [Int16] {
        noise(5, rms: rms) + noise(1.2, rms: rms * sqrt(10), seed: 2) + noise(1.5, rms: rms, seed: 3)
    }

    @Test func aVoiceTenDecibelsAboveASteadyRoomIsHeard() {
        var room = EnergyEndpointer()
        let audio = Self.voiceInSteadyNoise(rms: 520)
        room.observe(Array(audio.prefix(5 * 16_000)))
        #expect(room.background > -45 && room.background < -30)
        #expect(room.isLoudRoom && room.speechThreshold < 12)
        var endpointer = EnergyEndpointer(room: room)
        let utterances = endpointer.feed(Array(audio.dropFirst(5 * 16_000)))
        #expect(utterances.count == 1)
        let seconds = Double(utterances.first?.count ?? 0) / 16_000
        // The voice, up to a second of the room before it and the quiet that ended it.
        #expect(seconds > 1.1 && seconds < 3.2, "utterance of \(seconds) s")
    }

    /// The strict threshold would not have heard it: what the loud-room rule is for.
    @Test func theQuietRoomThresholdWouldMissIt() {
        var settings = EnergyEndpointer.Settings()
        settings.loudRoomAbove = .infinity
        var room = EnergyEndpointer(settings: settings)
        let audio = Self.voiceInSteadyNoise(rms: 520)
        room.observe(Array(audio.prefix(5 * 16_000)))
        var endpointer = EnergyEndpointer(settings: settings, room: room)
        #expect(endpointer.feed(Array(audio.dropFirst(5 * 16_000))).isEmpty)
    }

    @Test func aQuietRoomKeepsTheStrictThreshold() {
        var room = EnergyEndpointer()
        room.observe(Self.noise(3, rms: 10))
        #expect(room.background < -55)
        #expect(room.speechThreshold == 12)
    }

    /// The room's own steady noise, however long, is not speech.
    @Test func aLoudRoomsOwnNoiseIsNotSpeech() {
        var room = EnergyEndpointer()
        room.observe(Self.noise(5, rms: 520))
        var endpointer = EnergyEndpointer(room: room)
        #expect(endpointer.feed(Self.noise(8, rms: 520, seed: 4)).isEmpty)
        #expect(!endpointer.isInSpeech)
    }
}
