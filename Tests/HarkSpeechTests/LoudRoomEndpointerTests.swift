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

    /// Noise whose level jumps up to 3 dB either way every 30 ms, as dishes or a running tap
    /// clatter: its frames stand 2 dB above the room's level every few frames.
    static func clatter(_ seconds: Double, rms: Double, seed: UInt64) -> [Int16] {
        var state = seed &+ 99
        let steady = noise(seconds, rms: rms, seed: seed)
        var gain = 1.0
        return steady.enumerated().map { index, sample in
            if index % 480 == 0 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                gain = pow(10, (Double(state >> 11) / Double(1 << 53) - 0.5) * 6 / 20)
            }
            return Int16(clamping: Int(Double(sample) * gain))
        }
    }

    /// In a clattering room a request ends soon after the voice does (its level over a fifth of a
    /// second falls back to the room's), where judged frame by frame it ran on to the limit.
    @Test(arguments: [0.2, 0.01])
    func aRequestInAClatteringRoomEndsWhenTheVoiceDoes(smoothing: Double) {
        var settings = EnergyEndpointer.Settings()
        settings.loudRoomSmoothing = smoothing
        var room = EnergyEndpointer(settings: settings)
        room.observe(Self.clatter(5, rms: 520, seed: 5))
        #expect(room.isLoudRoom)
        var endpointer = EnergyEndpointer(settings: settings, room: room)
        let voice = Self.noise(1.2, rms: 520 * sqrt(10), seed: 6)
        let utterances = endpointer.feed(voice + Self.clatter(12, rms: 520, seed: 7))
        #expect(utterances.count >= 1)
        let seconds = Double(utterances.first?.count ?? 0) / 16_000
        if smoothing >= 0.2 {
            // The voice, then the room until its level has stayed down for the end silence.
            #expect(seconds > 1.2 && seconds < 4, "utterance of \(seconds) s")
        } else {
            #expect(seconds >= settings.maximumUtterance - 0.1, "judged frame by frame it runs to the limit: \(seconds) s")
        }
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
