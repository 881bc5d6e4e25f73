import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// Requests heard in a loud room go through WebRTC's noise suppression before the decoders hear
/// them; in a quiet room they are heard exactly as before (real pocketsphinx, a real voice).
@Suite struct LoudRoomRecognitionTests {
    static func recognizer(denoisingAbove line: Double?) throws -> Recognizer {
        var configuration = RecognizerConfiguration()
        configuration.denoisesAbove = line
        // The room's level alone decides here, not the request's own signal-to-noise ratio
        // (`NoisyRequestDenoisingTests`).
        configuration.denoisesBelow = nil
        // Heard through the suppressor alone (SecondHearingTests hears a request both ways).
        configuration.hearsSuppressedRequestsAsTheyCameToo = false
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(RecognizerTests.home)
        return recognizer
    }

    /// The request under steady white noise about 23 dB below full scale (seeded, so it repeats).
    static func loud(_ samples: [Int16]) -> [Int16] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return samples.map { sample -> Int16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int(Int64(bitPattern: state) >> 51)  // -4096..<4096
            return Int16(clamping: Int(sample) + noise)
        }
    }

    @Test func aLoudRoomIsHeardThroughTheSuppressorAndAQuietOneAsItCame() throws {
        let suppressing = try Self.recognizer(denoisingAbove: Recognizer.denoisingRoomLevel)
        let asItCame = try Self.recognizer(denoisingAbove: nil)
        // The recording's own room is a fan at about -35 dBFS: padded with a second of silence
        // either side, its quietest fifth is a quiet room's.
        let silence = [Int16](repeating: 0, count: 16_000)
        let quiet = silence + (try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")) + silence
        let noisy = Self.loud(quiet)
        // A room some 25 dB above the line, and one far below it.
        #expect(try #require(RoomLevel.of(noisy)) > Recognizer.denoisingRoomLevel + 20)
        #expect(try #require(RoomLevel.of(quiet)) < Recognizer.denoisingRoomLevel - 20)

        // Each hearing in a room of its own, so no recogniser hears one through another's background.
        let quietSuppressing = try suppressing.recognize(quiet, heardIn: "quiet")
        let quietAsItCame = try asItCame.recognize(quiet, heardIn: "quiet")
        #expect(quietSuppressing.margin == quietAsItCame.margin)
        #expect(quietSuppressing.text == "turn on the garage light")

        // In the noise, the decoders hear other audio: the suppressor's.
        let loudSuppressing = try suppressing.recognize(noisy, heardIn: "loud")
        let loudAsItCame = try asItCame.recognize(noisy, heardIn: "loud")
        #expect(loudSuppressing.utteranceMargin != loudAsItCame.utteranceMargin)
        // The noise penalty is judged on the audio as it came, both ways.
        #expect(loudSuppressing.features?.signalToNoise == loudAsItCame.features?.signalToNoise)
    }

    @Test func suppressionKeepsTheRecordingInStepAndAsLong() throws {
        let clean = try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")
        let noisy = Self.loud(clean)
        let suppressed = try NoiseSuppressor.suppressing(noisy)
        #expect(suppressed.count == noisy.count)
        // In step with the voice: it matches the clean recording best where it lies, not some
        // samples earlier or later (the module's 10 ms delay is 160 samples).
        func match(_ lag: Int) -> Double {
            var sum = 0.0
            for index in 400..<(clean.count - 400) { sum += Double(clean[index]) * Double(suppressed[index + lag]) }
            return sum
        }
        let best = (-200...200).max { match($0) < match($1) }!
        #expect(abs(best) <= 2, "best match \(best) samples off")
        // And the hiss is mostly gone: the signal-to-noise estimate rose (measured: 8.7 → 15.2 dB).
        let before = try #require(SignalToNoise.estimate(noisy)), after = try #require(SignalToNoise.estimate(suppressed))
        #expect(after > before + 4, "\(before) dB → \(after) dB")
    }
}
