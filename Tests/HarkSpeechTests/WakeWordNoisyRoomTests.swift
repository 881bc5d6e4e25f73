import Foundation
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// A wake word said into a noisy room is sure from lower odds (`WakeWordSpotter+NoisyRoom`).
@Suite struct WakeWordNoisyRoomTests {
    @Test func onlyANoisyRoomLowersTheThreshold() {
        #expect(WakeWordSpotter.allowance(signalToNoise: 12, allowance: 1) == 1)
        #expect(WakeWordSpotter.allowance(signalToNoise: WakeWordSpotter.noisyRoomBelow - 0.1, allowance: 1) == 1)
        #expect(WakeWordSpotter.allowance(signalToNoise: WakeWordSpotter.noisyRoomBelow, allowance: 1) == 0)
        #expect(WakeWordSpotter.allowance(signalToNoise: 45, allowance: 1) == 0)
        // Louder noise than that lends other speech the phrase's odds too.
        #expect(WakeWordSpotter.allowance(signalToNoise: WakeWordSpotter.noisyRoomFrom, allowance: 1) == 1)
        #expect(WakeWordSpotter.allowance(signalToNoise: WakeWordSpotter.noisyRoomFrom - 0.1, allowance: 1) == 0)
        #expect(WakeWordSpotter.allowance(signalToNoise: nil, allowance: 1) == 0)
        #expect(WakeWordSpotter.allowance(signalToNoise: 12, allowance: 0) == 0)
    }

    /// Five seconds of a room, then a phrase 12 dB louder: measured against the room of those five
    /// seconds (its quietest fifth), from the audio's last samples.
    @Test func aPhraseIsMeasuredAgainstTheFiveSecondsUpToItsEnd() throws {
        var generator = SystemRandomNumberGenerator()
        func noise(_ count: Int, amplitude: Double) -> [Int16] {
            (0..<count).map { _ in Int16(Double.random(in: -amplitude...amplitude, using: &generator)) }
        }
        let room = noise(80_000, amplitude: 400), phrase = noise(8_000, amplitude: 400 * pow(10, 12.0 / 20))
        let measured = try #require(WakeWordSpotter.signalToNoise(endingAudio: (room + phrase)[...], phraseSamples: 8_000))
        #expect(abs(measured - 12) < 0.5, "measured \(measured) dB")
        // Only the last five seconds are the room: a loud past does not make a phrase quiet.
        let loudPast = noise(80_000, amplitude: 20_000) + room
        let again = try #require(WakeWordSpotter.signalToNoise(endingAudio: (loudPast + phrase)[...], phraseSamples: 8_000))
        #expect(abs(again - measured) < 0.5)
        #expect(WakeWordSpotter.signalToNoise(endingAudio: phrase[...], phraseSamples: 100) == nil)
        #expect(WakeWordSpotter.signalToNoise(endingAudio: phrase.prefix(1_000), phraseSamples: 1_600) == nil)
    }

    /// The real fixtures at the default sensitivity, with the allowance and with one threshold in
    /// every room. In the kitchen (about 10 dB) it finds wake words one threshold misses, each of
    /// them measured in a noisy room, sure from odds below the threshold but not from more than
    /// the allowance below it; in the quiet room it finds exactly what one threshold finds.
    @Test func aKitchensWakeWordsAreSureFromLowerOddsAndAQuietRoomsAreNot() throws {
        func detections(_ name: String, allowance: Double) throws -> [WakeWordDetection] {
            var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
            configuration.otherPhrases = ["athena", "amelia"]
            configuration.noisyRoomAllowance = allowance
            return try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples(name), with: WakeWordSpotter(configuration: configuration))
        }
        func ends(_ found: [WakeWordDetection]) -> [Int] { found.map(\.endSample) }
        let threshold = WakeWordSpotter.threshold(sensitivity: WakeWordSpotter.defaultSensitivity)

        let kitchen = try detections("real_wakes_noisy", allowance: WakeWordSpotter.noisyRoomAllowance)
        let kitchenOneThreshold = try detections("real_wakes_noisy", allowance: 0)
        let wakes = try WakeWordSpotterTests.segments("real_wakes_noisy").filter { $0.kind == "wake" }
        let gained = kitchen.filter { !ends(kitchenOneThreshold).contains($0.endSample) }
        #expect(!gained.isEmpty, "the allowance found nothing more: \(kitchen.map(\.confidence))")
        for detection in gained {
            let snr = try #require(detection.signalToNoise)
            #expect(snr >= WakeWordSpotter.noisyRoomFrom && snr < WakeWordSpotter.noisyRoomBelow)
            #expect(detection.isAccepted)
            #expect(detection.confidence < threshold && detection.confidence >= threshold - WakeWordSpotter.noisyRoomAllowance)
            #expect(wakes.contains { $0.start < detection.endSeconds && detection.endSeconds <= $0.end + 0.5 && $0.text == detection.phrase },
                    "\(detection.phrase) at \(detection.endSeconds) s is no wake word")
        }
        // What one threshold finds, the allowance finds too.
        #expect(Set(ends(kitchenOneThreshold)).isSubset(of: Set(ends(kitchen))))

        let quiet = try detections("real_wakes", allowance: WakeWordSpotter.noisyRoomAllowance)
        #expect(ends(quiet) == ends(try detections("real_wakes", allowance: 0)))
        #expect(quiet.allSatisfy { ($0.signalToNoise ?? 0) >= WakeWordSpotter.noisyRoomBelow && $0.confidence >= threshold })
    }

    @Test func anAllowanceThatIsNoNumberIsRefused() {
        var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
        configuration.noisyRoomAllowance = -1
        #expect(throws: RecognitionError.self) { try WakeWordSpotter(configuration: configuration) }
        configuration.noisyRoomAllowance = .nan
        #expect(throws: RecognitionError.self) { try WakeWordSpotter(configuration: configuration) }
    }
}
