import Foundation
import HarkAudio
import HarkTestSupport
import Testing

/// `hark bench-wake` on a tiny set made from the wake fixtures.
@Suite struct BenchWakeCommandTests {
    @Test func sweepsSensitivitiesAndCountsMissesAndFalseAlarms() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let positives = directory.appendingPathComponent("positives")
        let negatives = directory.appendingPathComponent("negatives")
        for folder in [positives, negatives] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        }
        // The first 3 s of the sequence hold its first "jarvis" (flite awb, ending at 1.5 s) and nothing else said.
        let sequence = try WAVFile.read(contentsOf: Fixtures.audio("wake/wake_sequence.wav"))
        let firstWake = AudioClip(samples: Array(sequence.samples.prefix(3 * sequence.sampleRate)),
                                  sampleRate: sequence.sampleRate, channels: 1)
        try WAVFile.write(firstWake, to: positives.appendingPathComponent("jarvis.wav"))
        try FileManager.default.copyItem(at: Fixtures.audio("wake/no_wake.wav"), to: negatives.appendingPathComponent("no_wake.wav"))
        let json = directory.appendingPathComponent("wake.json")

        let outcome = try CommandLineTests.hark(["bench-wake", "--positives", positives.path, "--negatives", negatives.path,
                                                 "--sensitivities", "0.1", "1", "--json", json.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("positives:            1 recordings"))
        // At 0.1 the synthetic "jarvis" is found and the near misses are not; at 1 they are.
        #expect(outcome.output.contains("       0.10     -0.140     0 (  0.0%)        0 (0.00 per hour)"))
        #expect(outcome.output.contains("as it listens, at the default sensitivity:"))
        #expect(outcome.output.contains("CPU per audio second:"))
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let sweep = try #require(figures["sweep"] as? [[String: Any]])
        #expect(sweep.count == 2)
        #expect((sweep.last?["falseAlarms"] as? Int ?? 0) > 0)
        #expect((figures["cpuPerSecondSpeech"] as? Double ?? 0) > 0)
    }

    @Test func anEmptyFolderIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let outcome = try CommandLineTests.hark(["bench-wake", "--positives", directory.path, "--negatives", directory.path])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("has no WAV files"))
    }
}
