import Foundation
import HarkSpeech
import HarkTestSupport
import Testing

/// A noisy room's requests heard through the shipped noise compensation
/// (`RecognizerConfiguration.noiseCompensation`), by real decoding of real voices.
@Suite(.serialized) struct NoiseCompensationTests {
    static let shipped = Fixtures.root.appendingPathComponent("models/en-us.splice")

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
        let samples = try RecognizerTests.samples("noisy/home-turn_living_room_lamp_off.wav")
        let heard = try Self.recognizer(compensated: true).recognize(samples)
        let asItCame = try Self.recognizer(compensated: false).recognize(samples)
        let room = try #require(heard.features?.signalToNoise)
        #expect(room < RecognizerConfiguration.standardCompensatesBelow, "measured at \(room) dB")
        // What Hark would act on or ask about ("Did you say …?").
        func offered(_ recognition: Recognition) -> String {
            (recognition.isRejected ? recognition.guess : recognition.words).joined(separator: " ")
        }
        #expect(offered(heard) == "turn living room lamp off", "\(heard)")
        // Without it the room turns "off" into "on".
        #expect(offered(asItCame) == "turn living room lamp on", "\(asItCame)")
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
