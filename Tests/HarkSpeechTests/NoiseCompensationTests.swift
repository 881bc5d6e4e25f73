import Foundation
import HarkAudio
import HarkGrammar
import HarkSpeech
import HarkTestSupport
import Testing

/// A noisy room's requests heard through the shipped noise compensation
/// (`RecognizerConfiguration.noiseCompensation`), by real decoding of real voices.
@Suite(.serialized) struct NoiseCompensationTests {
    static let shipped = Fixtures.root.appendingPathComponent("models/en-us.noise-network")

    /// A recogniser as Hark listens (the shipped adaptation), with or without the compensation.
    static func recognizer(compensated: Bool) throws -> Recognizer {
        var settings = RecognizerConfiguration()
        settings.acousticTransform = AcousticTransformTests.shipped
        settings.noiseCompensation = compensated ? shipped : nil
        let recognizer = try Recognizer(configuration: settings)
        try recognizer.use(RecognizerTests.home)
        return recognizer
    }

    @Test func aNoisyKitchensTurnOffIsHeardAsTurnOff() throws {
        // A real voice at 5 dB over household noise (audio-fixtures/noisy, from make bench-real).
        let samples = try RecognizerTests.samples("noisy/home-turn_the_garage_light_off.wav")
        let heard = try Self.recognizer(compensated: true).recognize(samples)
        let asItCame = try Self.recognizer(compensated: false).recognize(samples)
        let room = try #require(heard.features?.signalToNoise)
        #expect(room < RecognizerConfiguration.standardCompensatesBelow, "measured at \(room) dB")
        // What Hark would act on or ask about ("Did you say …?").
        func offered(_ recognition: Recognition) -> String {
            (recognition.isRejected ? recognition.guess : recognition.words).joined(separator: " ")
        }
        #expect(offered(heard) == "turn the garage light off", "\(heard)")
        // Without it the room turns "off" into "on".
        #expect(offered(asItCame) == "turn the garage light on", "\(asItCame)")
    }

    /// `samples` with noise that has nothing above 3.7 kHz (a sum of tones at random pitches and
    /// phases), `signalToNoise` dB below their loudest tenth: a room as a telephone-band
    /// microphone hears it.
    static func inTelephoneBandNoise(_ samples: [Int16], signalToNoise: Double) -> [Int16] {
        var generator = SeededGenerator(seed: 66)
        let tones = (0..<300).map { _ in (Double.random(in: 100...3_700, using: &generator), Double.random(in: 0...(2 * .pi), using: &generator)) }
        var noise = [Double](repeating: 0, count: samples.count)
        for (pitch, phase) in tones {
            let step = 2 * Double.pi * pitch / 16_000
            for index in noise.indices { noise[index] += sin(step * Double(index) + phase) }
        }
        let loudest = samples.map { Double($0) * Double($0) }.sorted().suffix(samples.count / 10)
        let voicePower = loudest.reduce(0, +) / Double(loudest.count)
        let noisePower = noise.map { $0 * $0 }.reduce(0, +) / Double(noise.count)
        let gain = (voicePower / noisePower / pow(10, signalToNoise / 10)).squareRoot()
        return zip(samples, noise).map { Int16(clamping: Int((Double($0) + gain * $1).rounded())) }
    }

    @Test func aTelephoneBandRequestIsHeardAsItCameInAnyRoom() throws {
        // A real digit recorded at 8 kHz (audio-fixtures/digits) in a noisy room heard through
        // the same band: the compensation learnt full-band speech, and is not used on it.
        let (said, clean) = try OtherWordsRecognizerTests.digit("digits/digit-yweweler-4-17")
        let samples = Self.inTelephoneBandNoise(clean, signalToNoise: 8)
        #expect(TelephoneBand.isTelephoneBand(samples))
        let room = try #require(SignalToNoise.estimate(samples))
        #expect(room < RecognizerConfiguration.standardCompensatesBelow, "measured at \(room) dB")
        func heard(compensated: Bool) throws -> Recognition {
            var settings = RecognizerConfiguration()
            settings.acousticTransform = AcousticTransformTests.shipped
            settings.noiseCompensation = compensated ? Self.shipped : nil
            let recognizer = try Recognizer(configuration: settings)
            try recognizer.use(OtherWordsRecognizerTests.keypad)
            return try recognizer.recognize(samples)
        }
        let (with, without) = (try heard(compensated: true), try heard(compensated: false))
        #expect((with.isRejected ? with.guess : with.words) == [said], "\(with)")
        #expect(with.utteranceMargin == without.utteranceMargin)
        #expect(with.features?.otherHearing?.heardMargin == without.features?.otherHearing?.heardMargin)
    }

    @Test(arguments: ["home-en/turn_on_the_garage_light", "home-en/what_time_is_it", "home-en/make_bedroom_light_blue"])
    func aQuietRoomIsHeardExactlyAsWithout(_ fixture: String) throws {
        let samples = try RecognizerTests.samples(fixture + ".wav")
        let compensated = try Self.recognizer(compensated: true).recognize(samples)
        let plain = try Self.recognizer(compensated: false).recognize(samples)
        let quiet = try #require(compensated.features?.signalToNoise)
        #expect(quiet >= RecognizerConfiguration.standardCompensatesBelow, "\(fixture) measured at \(quiet) dB")
        #expect(compensated.text == plain.text)
        #expect(compensated.margin == plain.margin)
    }

    @Test func aStrengthOutsideItsRangeIsRefused() throws {
        var settings = RecognizerConfiguration()
        settings.noiseCompensation = Self.shipped
        for strength in [0.0, 1.5, -0.5, Double.nan] {
            settings.compensationStrength = strength
            do {
                _ = try Recognizer(configuration: settings)
                Issue.record("a strength of \(strength) was taken")
            } catch {
                #expect(error.message.contains("strength"), "\(error.message)")
            }
        }
    }
}
