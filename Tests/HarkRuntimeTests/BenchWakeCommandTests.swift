import Foundation
import HarkAudio
@testable import HarkRuntime
@testable import HarkBench
import HarkTestSupport
import Testing

/// `hark bench-wake` on a tiny corpus in bench/make-wake-corpus.py's layout, made from the real
/// wake fixtures.
@Suite struct BenchWakeCommandTests {
    /// positives/jarvis/clean/test-4142863d.wav (a real "jarvis" with the quiet around it) and two
    /// negative streams of real speech, one tune and one test.
    static func corpus(in directory: URL) throws -> URL {
        let corpus = directory.appendingPathComponent("wake")
        let positives = corpus.appendingPathComponent("positives/jarvis/clean")
        let negatives = corpus.appendingPathComponent("negatives")
        for folder in [positives, negatives] {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        }
        // real_wakes.txt: the second "jarvis" lies from 5.572 s to 8.644 s.
        let wakes = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav"))
        let rate = wakes.sampleRate
        let piece = AudioClip(samples: Array(wakes.samples[(5 * rate)..<(9 * rate + rate / 2)]), sampleRate: rate, channels: 1)
        try WAVFile.write(piece, to: positives.appendingPathComponent("test-4142863d.wav"))
        let speech = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_speech.wav"))
        try WAVFile.write(speech, to: negatives.appendingPathComponent("test-speech-000.wav"))
        let start = AudioClip(samples: Array(speech.samples.prefix(20 * rate)), sampleRate: rate, channels: 1)
        try WAVFile.write(start, to: negatives.appendingPathComponent("tune-speech-000.wav"))
        return corpus
    }

    @Test func withTheTestFilesAloneNothingIsShownAsChosenOnTune() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.corpus(in: directory)
        let json = directory.appendingPathComponent("wake.json")
        let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", corpus.path, "--phrases", "jarvis", "--split", "test",
                                                 "--json", json.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("\"jarvis\": test negatives 0.01 h (tune 0.00 h)"))
        #expect(outcome.output.contains("Hark, chosen on tune: no tune negatives were heard, so no threshold was chosen on them"))
        #expect(!outcome.output.contains("Hark, chosen on tune (odds"))
        #expect(outcome.output.contains("Hark, best at <=1/10 h"))
        // As hark listen hears the wake word: through the installed adaptation.
        #expect(outcome.output.contains("acoustic model: en-us adapted by \(Fixtures.root.appendingPathComponent("models/en-us.mllr").path)"))
        // The report holds no threshold chosen on tune either, rather than one every candidate passes.
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let phrase = try #require((figures["figures"] as? [[String: Any]])?.first)
        #expect(phrase["chosenOnTune"] == nil && phrase["atSetting"] != nil)
    }

    /// `hark bench-wake --split tune` on `corpus(in:)` with its "jarvis" copied to a tune file,
    /// checked against no other words; its output and its JSON report.
    static func tuneRun(in directory: URL, arguments: [String] = []) throws -> (outcome: CommandLineTests.Outcome, figures: [String: Any]) {
        let corpus = try corpus(in: directory)
        let positives = corpus.appendingPathComponent("positives/jarvis/clean")
        try FileManager.default.copyItem(at: positives.appendingPathComponent("test-4142863d.wav"),
                                         to: positives.appendingPathComponent("tune-4142863d.wav"))
        let json = directory.appendingPathComponent("wake.json")
        let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", corpus.path, "--phrases", "jarvis", "--split", "tune",
                                                 "--other-words", "none", "--json", json.path] + arguments)
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        return (outcome, figures)
    }

    /// Listening's cost is measured on one spotter alone in the process, before the workers make
    /// theirs, and on the first negative heard when only tune files are.
    @Test func theCostOfListeningIsMeasuredOnASpotterAloneEvenInATuneRun() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, figures) = try Self.tuneRun(in: directory, arguments: ["--acoustic-adaptation", "none"])
        #expect(outcome.output.contains("acoustic model: en-us as Debian ships it"))
        #expect((figures["cpuPerSecondSpeech"] as? Double ?? 0) > 0)
        #expect((figures["cpuPerSecondQuiet"] as? Double ?? 0) > 0)
        // The spotter holds the acoustic model's tables: megabytes, not the fraction of one it
        // seemed to take when made after the audio was read.
        let spotter = figures["spotterMegabytes"] as? Double ?? 0
        let alone = figures["listeningPeakMegabytes"] as? Double ?? 0
        let peak = figures["peakResidentMegabytes"] as? Double ?? 0
        #expect(spotter > 5 && spotter < alone && alone <= peak, "spotter \(spotter), alone \(alone), peak \(peak)")
        #expect(outcome.output.contains(String(format: "memory: the spotter takes %.1f MB once made, the process %.1f MB with it alone", spotter, alone)))
        #expect(outcome.errors.contains("hark: measuring what listening costs"))
    }

    /// A run of the tune files alone prints their figures (it printed the empty test split's: 0/0).
    @Test func aTuneRunPrintsTheTuneFilesFigures() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (outcome, figures) = try Self.tuneRun(in: directory)
        // 20 s of tune negatives, in hours.
        #expect(outcome.output.contains("\"jarvis\": tune negatives 0.01 h; the tune files' own figures, as no test file was heard"))
        let setting = try #require(outcome.output.split(separator: "\n").first { $0.contains("Hark, sensitivity 0.50") })
        // The one tune recording is counted, found (this "jarvis" is clear) or not.
        #expect(setting.contains("/1 "), "\(setting)")
        #expect(!outcome.output.contains("Hark, chosen on tune"))
        let phrase = try #require((figures["figures"] as? [[String: Any]])?.first)
        #expect(phrase["split"] as? String == "tune")
        let atSetting = try #require(phrase["atSetting"] as? [String: Any])
        #expect((atSetting["recordings"] as? [String: Int]) == ["clean": 1])
    }

    @Test func printsMissesAndFalseAlarmsPerPhraseBesidePlainKeywordSpotting() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.corpus(in: directory)
        let json = directory.appendingPathComponent("wake.json"), markdown = directory.appendingPathComponent("wake.md")

        let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", corpus.path, "--phrases", "jarvis",
                                                 "--jobs", "2", "--baseline", "--json", json.path, "--markdown", markdown.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        // 46 s of test negatives and 20 s of tune, in hours.
        #expect(outcome.output.contains("\"jarvis\": test negatives 0.01 h (tune 0.01 h); never proposed: clean 0"))
        for row in ["Hark, sensitivity 0.50", "Hark, chosen on tune", "Hark, best at <=1/10 h",
                    "its search alone, threshold 1", "search alone, best at <=1/10 h", "plain pocketsphinx kws, its defaults",
                    "CPU per audio second",
                    "baseline: plain pocketsphinx's keyword search, the same audio without Hark's front end, en-us as Debian ships it"] {
            #expect(outcome.output.contains(row), "no row \"\(row)\"")
        }
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
        let phrases = try #require(figures["figures"] as? [[String: Any]])
        #expect(phrases.count == 1)
        let atSetting = try #require(phrases.first?["atSetting"] as? [String: Any])
        #expect((atSetting["recordings"] as? [String: Int])?["clean"] == 1)
        // Plain pocketsphinx heard the same files: the recording, found or not, and what it
        // reported on the negatives, each counted in its row.
        let plain = try #require(phrases.first?["plainPocketsphinx"] as? [String: Any])
        #expect((plain["recordings"] as? [String: Int]) == ["clean": 1])
        let plainFound = try #require((figures["positives"] as? [[String: Any]])?.first?["plainFound"] as? Bool)
        #expect((plain["missed"] as? [String: Int]) == ["clean": plainFound ? 0 : 1])
        let plainAlarms = try #require(figures["plainAlarms"] as? [[String: Any]])
        #expect(plain["falseAlarms"] as? Int == plainAlarms.filter { $0["split"] as? String == "test" }.count)
        // The recording was proposed, looked at again and judged.
        let positives = try #require(figures["positives"] as? [[String: Any]])
        let best = try #require(positives.first?["best"] as? [String: Any])
        #expect(best["evidence"] != nil)
        let files = try #require(figures["negativeFiles"] as? [[String: Any]])
        #expect(Set(files.compactMap { $0["split"] as? String }) == ["tune", "test"])
        #expect((figures["cpuPerSecondSpeech"] as? Double ?? 0) > 0)
        // It says how the spotter treated the room's noise.
        #expect(outcome.output.contains("noise suppression: while the room is louder than -55 dBFS"))
        #expect(figures["denoisesAbove"] as? Double == -55)
        #expect(outcome.output.contains("proposals: a second look at candidates whose search scores -2 or more a frame"))
        // Progress is counted in audio (a stream of minutes weighs more than one of seconds), and
        // a log gets a line per cell of the bar, not one per stream.
        let bar = outcome.errors.split(separator: "\n").filter { $0.hasPrefix("audio [") }
        #expect(bar.last == "audio [##############################] 3/3 streams, 0.0 h of audio heard", "\(bar)")
        #expect(bar.count <= 3)
        // The table docs/benchmarks.md keeps: the phrase's row, Hark's and plain pocketsphinx's.
        let table = try String(contentsOf: markdown, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(table.first == "| phrase | Hark missed, clean | Hark false alarms | Hark at its best threshold with ≤ 1 false alarm / 10 h: "
                + "missed, clean | plain pocketsphinx missed, clean | plain false alarms |")
        let missed = (atSetting["missed"] as? [String: Int])?["clean"] == 0 ? "0.0 %" : "100.0 %"
        let bestPoint = try #require(phrases.first?["bestAtOnePer10Hours"] as? [String: Any])
        let bestMissed = (bestPoint["missed"] as? [String: Int])?["clean"] == 0 ? "0.0 %" : "100.0 %"
        let plainMissed = plainFound ? "0.0 %" : "100.0 %"
        let row = try #require(table.first { $0.hasPrefix("| jarvis |") })
        #expect(row.hasPrefix("| jarvis | \(missed) | \(atSetting["falseAlarms"] as? Int ?? -1) ("), "\(row)")
        #expect(row.contains(") | \(bestMissed) | \(plainMissed) |"), "\(row)")
        #expect(row.contains("| \(plainMissed) | \(plain["falseAlarms"] as? Int ?? -1) ("), "\(row)")
        #expect(table.last?.hasPrefix("Sensitivity 0.50 (odds +3.50)") == true)
    }

    /// Each recording is heard from the same start whatever the job heard before it (with one
    /// job, the negatives come first), so a positive's figures do not depend on the negatives
    /// beside it or on which job took which file.
    @Test func aRecordingIsHeardTheSameWhateverWasHeardBeforeIt() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let quiet = try Self.corpus(in: directory.appendingPathComponent("quiet"))
        // The same positive, with negatives from a kitchen instead of a quiet room.
        let kitchen = try Self.corpus(in: directory.appendingPathComponent("kitchen"))
        let noisy = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes_noisy.wav"))
        try WAVFile.write(noisy, to: kitchen.appendingPathComponent("negatives/test-speech-000.wav"))
        try WAVFile.write(noisy, to: kitchen.appendingPathComponent("negatives/tune-speech-000.wav"))
        func positives(_ corpus: URL, jobs: Int) throws -> String {
            let json = corpus.appendingPathComponent("wake-\(jobs).json")
            let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", corpus.path, "--phrases", "jarvis",
                                                     "--jobs", "\(jobs)", "--json", json.path])
            #expect(outcome.status == 0, "stderr: \(outcome.errors)")
            let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: json)) as? [String: Any])
            let positives = try #require(figures["positives"] as? [[String: Any]])
            let best = try #require(positives.first?["best"] as? [String: Any])
            return "\(best["confidence"] ?? "none") \(best["score"] ?? "none") \(best["end"] ?? "none")"
        }
        let alone = try positives(quiet, jobs: 1)
        #expect(try positives(kitchen, jobs: 1) == alone)
        #expect(try positives(quiet, jobs: 2) == alone)
    }

    /// `hark bench-echo` on the same real "jarvis": found in a quiet room, and the echo of Hark's
    /// reply cut by the canceller at every level, as `hark listen` hears (checked against the
    /// installed other words, through the installed adaptation) and with neither.
    @Test(arguments: [nil, "none"])
    func benchEchoPrintsWakesFoundEachWayAndTheEchoTakenOut(_ otherWordsAndAdaptation: String?) throws {
        let corpus = try Self.corpus(in: try temporaryDirectory())
        let outcome = try CommandLineTests.hark(["bench-echo", corpus.appendingPathComponent("positives/jarvis/clean").path]
                                                + (otherWordsAndAdaptation.map { ["--other-words", $0, "--acoustic-adaptation", $0] } ?? []))
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n")
        let asListenHears = otherWordsAndAdaptation == nil
        #expect(lines.first == (asListenHears ? "the wake word is checked against 500 other words"
                                              : "the wake word is not checked against other words"), "\(outcome.output)")
        #expect(lines.dropFirst().first.map(String.init)
                == (asListenHears ? "acoustic model: en-us adapted by \(Fixtures.root.appendingPathComponent("models/en-us.mllr").path)"
                                  : "acoustic model: en-us as Debian ships it"), "\(outcome.output)")
        let rows = lines.dropFirst(3).map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.map { $0.first } == ["+0 dB", "-6 dB", "-12 dB"], "\(outcome.output)")
        for row in rows {
            #expect(row[1] == "1/1", "\(row)")
            let enhancement = Double(row[4].replacingOccurrences(of: " dB", with: "")) ?? 0
            #expect(enhancement > 5, "\(row)")
            // Each stop is measured from where a forced alignment puts the phrase's end in the
            // person's recording: the reply stops after it, never before, and soon.
            let found = Int(row[3].split(separator: "/")[0]) ?? -1
            let stops = row[6].split(separator: " ")
            try #require(stops.count == 5, "\(row)")
            #expect(stops[4] == "(\(found))", "a stop measured for each wake found while speaking: \(row)")
            if found > 0, let median = Double(stops[0]) {
                #expect(median >= 0 && median <= 400, "\(row)")
            }
        }
        guard asListenHears else { return }
        let unreadable = try CommandLineTests.hark(["bench-echo", "/nonexistent/jarvis", "--other-words", "/nonexistent/words.txt"])
        #expect(unreadable.status != 0 && unreadable.errors.contains("--other-words:"), "\(unreadable.errors)")
        let noAdaptation = try CommandLineTests.hark(["bench-echo", "/nonexistent/jarvis", "--acoustic-adaptation", "/nonexistent/en-us.mllr"])
        #expect(noAdaptation.status != 0 && noAdaptation.errors.contains("--acoustic-adaptation: cannot read /nonexistent/en-us.mllr"),
                "\(noAdaptation.errors)")
        let missing = try CommandLineTests.hark(["bench-echo", "/nonexistent/jarvis"])
        #expect(missing.status != 0 && missing.errors.contains("/nonexistent/jarvis does not exist"), "\(missing.errors)")
    }

    /// With noise going on throughout, what is left after the canceller counts the noise, so the
    /// enhancement falls; a noise file that cannot be read is refused.
    @Test func benchEchoHearsNoiseThroughout() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.corpus(in: directory)
        var generator = SystemRandomNumberGenerator()
        let hiss = (0..<(8 * 16_000)).map { _ in Float.random(in: -0.1...0.1, using: &generator) }
        let noise = directory.appendingPathComponent("hiss.wav")
        try WAVFile.write(AudioClip(samples: hiss, sampleRate: 16_000, channels: 1), to: noise)
        let recordings = corpus.appendingPathComponent("positives/jarvis/clean").path
        let outcome = try CommandLineTests.hark(["bench-echo", recordings, "--noise", noise.path, "--noise-snr", "5"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = outcome.output.split(separator: "\n")
        #expect(lines.dropFirst(2).first == "household noise at 5 dB below the person: hiss.wav", "\(outcome.output)")
        let rows = lines.dropFirst(4).map { $0.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) } }
        #expect(rows.map { $0.first } == ["+0 dB", "-6 dB", "-12 dB"], "\(outcome.output)")
        for row in rows {
            let enhancement = Double(row[4].replacingOccurrences(of: " dB", with: "")) ?? 99
            #expect(enhancement < 5, "the noise is left, and counted: \(row)")
        }
        let unreadable = try CommandLineTests.hark(["bench-echo", recordings, "--noise", directory.appendingPathComponent("none.wav").path])
        #expect(unreadable.status != 0 && unreadable.errors.contains("--noise:"), "\(unreadable.errors)")
    }

    @Test func aProposalThresholdThatIsNoNumberIsRefused() throws {
        let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", "/nonexistent", "--proposal-threshold", "nan"])
        #expect(outcome.status != 0 && outcome.errors.contains("--proposal-threshold nan is not a number"), "\(outcome.errors)")
    }

    @Test func aPhraseWithoutRecordingsIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.corpus(in: directory)
        let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", corpus.path, "--phrases", "athena"])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("has no positives/athena folder"))
    }

    @Test func aCorpusWithoutNegativesIsRefused() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.corpus(in: directory)
        try FileManager.default.removeItem(at: corpus.appendingPathComponent("negatives/test-speech-000.wav"))
        try FileManager.default.removeItem(at: corpus.appendingPathComponent("negatives/tune-speech-000.wav"))
        let outcome = try CommandLineTests.hark(["bench-wake", "--corpus", corpus.path, "--phrases", "jarvis"])
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("negatives has no WAV files"))
    }

    /// A corpus of symbolic links to another corpus's files (to measure part of it) shows its
    /// progress by the recordings' sizes, not the links': by the links', ten minutes of speech
    /// weighed as much as a three-second phrase and the bar stood still through the negatives.
    @Test func aLinkedRecordingWeighsWhatTheRecordingDoes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let corpus = try Self.corpus(in: directory)
        let speech = corpus.appendingPathComponent("negatives/test-speech-000.wav")
        let link = directory.appendingPathComponent("linked.wav")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: speech)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: speech.path)[.size] as? NSNumber).intValue
        #expect(size > 100_000)
        #expect(try WakeWordBenchmark.byteCount(of: link) == size)
        #expect(try WakeWordBenchmark.byteCount(of: speech) == size)
        #expect(throws: WakeBenchmarkError.self) {
            try WakeWordBenchmark.byteCount(of: directory.appendingPathComponent("missing.wav"))
        }
    }
}
