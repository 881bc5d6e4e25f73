import Foundation
import HarkSpeech
import HarkTestSupport
import Testing

/// Each measured wake phrase's offset to the verifier's odds (models/wake-phrases.tsv): read
/// strictly, and added to exactly that phrase's candidates by the real spotter.
@Suite(.serialized) struct WakePhraseCalibrationTests {
    static func table(_ text: String) throws -> URL {
        let file = try temporaryDirectory().appendingPathComponent("wake-phrases.tsv")
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func readsPhrasesAndOffsetsAndSkipsComments() throws {
        let calibration = try WakePhraseCalibration.read(Self.table("""
            # phrase\toffset
            jarvis\t0.8
            Hey  Chatterbox\t2.5   # chosen on tune

            athena\t-1.25
            """))
        #expect(calibration.offset(for: "jarvis") == 0.8)
        #expect(calibration.offset(for: "hey chatterbox") == 2.5)
        #expect(calibration.offset(for: "hey-chatterbox") == 2.5)
        #expect(calibration.offset(for: "ATHENA") == -1.25)
        #expect(calibration.offset(for: "computer") == 0)
    }

    @Test(arguments: [("jarvis 0.8", ":1: expected a phrase, a tab and an offset"),
                      ("jarvis\tlots", ":1: expected a phrase, a tab and an offset"),
                      ("jarvis\t0.5\nJarvis\t1", ":2: \"jarvis\" is given twice"),
                      ("jarvis\t9", ":1: the offset 9 is beyond ±5.0")])
    func aLineItCannotReadIsRefusedWithItsNumber(_ text: String, _ message: String) throws {
        let file = try Self.table(text)
        #expect {
            try WakePhraseCalibration.read(file)
        } throws: { error in
            "\(error)".contains(file.path + message)
        }
    }

    /// The same real recording heard with and without a calibration: the same candidates, each
    /// phrase's confidence moved by its own offset and no other.
    @Test func theSpotterAddsEachPhrasesOffsetToItsOdds() throws {
        func candidates(_ calibration: WakePhraseCalibration) throws -> [WakeWordDetection] {
            var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
            configuration.otherPhrases = ["athena", "amelia"]
            configuration.reportsCandidates = true
            configuration.calibration = calibration
            return try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples("real_wakes"),
                                                 with: WakeWordSpotter(configuration: configuration))
        }
        let plain = try candidates(WakePhraseCalibration())
        let offsets: [String: Double] = ["athena": -2, "amelia": 1.5]
        let calibrated = try candidates(WakePhraseCalibration(offsets: offsets))
        #expect(plain.count == calibrated.count)
        #expect(Set(plain.map(\.phrase)) == ["jarvis", "athena", "amelia"])
        for (before, after) in zip(plain, calibrated) {
            #expect(before.phrase == after.phrase && before.endSample == after.endSample)
            let offset = offsets[before.phrase] ?? 0
            #expect(abs(after.confidence - (before.confidence + offset)) < 1e-9, "\(before.phrase) at \(before.endSeconds) s")
        }
        // A phrase lifted over the threshold wakes Hark; one pushed under it no longer does.
        let threshold = WakeWordSpotter.threshold(sensitivity: WakeWordSpotter.defaultSensitivity)
        for detection in calibrated { #expect(detection.isAccepted == (detection.confidence >= threshold)) }
    }
}
