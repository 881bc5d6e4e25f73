import Foundation
import HarkSpeech
import HarkRuntime

/// The figures of a wake-word benchmark run (see `WakeWordBenchmark`), and the candidates
/// behind them.
public struct WakeWordBenchmarkReport: Sendable, Codable {
    public struct NegativeFile: Sendable, Codable {
        public var file: String
        public var split: String
        public var family: String
        public var seconds: Double
    }

    /// One way of judging candidates at one threshold, on one phrase's test recordings.
    public struct Point: Sendable, Codable {
        public var threshold: Double
        /// Per condition ("clean", "snr10"): test recordings of the phrase and how many were missed.
        public var recordings: [String: Int] = [:]
        public var missed: [String: Int] = [:]
        public var falseAlarms = 0
        public var falseAlarmsPer10Hours = 0.0
    }

    public struct PhraseFigures: Sendable, Codable {
        public var phrase: String
        /// The files the figures count: "test", or "tune" when only tune files were heard (a
        /// `--split tune` run), whose figures are then no measure on other speakers.
        public var split = "test"
        /// Hours of test (and tune) negatives measured for this phrase: every negative file but
        /// the phrase's own family, counted as audio.
        public var testHours = 0.0
        public var tuneHours = 0.0
        /// Test recordings no candidate was proposed for, per condition.
        public var neverProposed: [String: Int] = [:]
        /// Hark at the benchmark's sensitivity.
        public var atSetting = Point(threshold: 0)
        /// The same with one threshold in every room (no noisy-room allowance); nil when the
        /// allowance is 0, as it would be `atSetting` again.
        public var atSettingEveryRoom: Point? = nil
        /// Hark at the loosest threshold with no false alarm on the tune negatives; nil when none
        /// were heard (--split test), as nothing was chosen on them, and when the figures are the
        /// tune files' own.
        public var chosenOnTune: Point? = nil
        /// Hark at the loosest threshold with at most one false alarm per 10 hours of the counted
        /// negatives (chosen on the figures it reports: a bound, not a setting).
        public var bestAtOnePer10Hours = Point(threshold: 0)
        /// Hark's first search alone: its likelihood ratio at pocketsphinx's default threshold (1).
        public var baselineDefault = Point(threshold: 0)
        /// Hark's first search alone at its loosest threshold with at most one false alarm per 10 hours.
        public var baselineBestAtOnePer10Hours = Point(threshold: 0)
        /// Plain pocketsphinx's keyword search with its defaults (`PlainKeywordSpotter`), heard in
        /// the same run; nil without `--baseline`. Its threshold is pocketsphinx's, 1 (log10 0).
        public var plainPocketsphinx: Point? = nil
    }

    public var phrases: [String]
    public var sensitivity: Double
    public var threshold: Double
    public var figures: [PhraseFigures] = []
    public var cpuPerSecondSpeech = 0.0
    public var cpuPerSecondQuiet = 0.0
    /// What the listening spotter adds to the process's resident memory, measured before any
    /// other spotter was made or any audio read; the process's peak by then (the program and one
    /// spotter); and the benchmark's peak, every worker's spotter and audio included.
    public var spotterMegabytes = 0.0
    public var listeningPeakMegabytes = 0.0
    public var peakResidentMegabytes = 0.0
    /// The acoustic model the spotter listened with.
    public var acousticModel = ""
    /// The hiss (dBFS) the spotter heard the audio with, nil for none.
    public var noiseFloor: Double?
    /// Whether a voice quieter than -40 dBFS was brought up before the spotter heard it.
    public var amplifiesFaintVoices = false
    /// The room level (dBFS) above which the spotter heard through noise suppression, nil for never.
    public var denoisesAbove: Double?
    /// How many common words a likely candidate was checked against (`WakeWordConfiguration.otherWords`); 0 for none.
    public var otherWords = 0
    /// The search score per frame from which a candidate got a second look (`WakeWordConfiguration.proposalThreshold`).
    public var proposalThreshold = WakeWordSpotter.proposalThreshold
    /// Log odds the threshold was lowered by in a noisy room (`WakeWordConfiguration.noisyRoomAllowance`).
    public var noisyRoomAllowance = WakeWordSpotter.noisyRoomAllowance
    public var positives: [WakeWordBenchmark.Positive] = []
    public var negatives: [WakeWordBenchmark.Candidate] = []
    /// What plain pocketsphinx reported on the negatives; nil when it did not listen.
    public var plainAlarms: [WakeWordBenchmark.PlainAlarm]?
    public var negativeFiles: [NegativeFile] = []

    init(phrases: [String], sensitivity: Double, threshold: Double) {
        self.phrases = phrases
        self.sensitivity = sensitivity
        self.threshold = threshold
    }

    mutating func summarise() {
        figures = phrases.map(figures(for:))
    }

    /// The split the figures count: the test files, or the tune files when no test file was heard.
    var measuredSplit: String {
        positives.contains { $0.split == "test" } || negativeFiles.contains { $0.split == "test" } ? "test" : "tune"
    }

    func figures(for phrase: String) -> PhraseFigures {
        var figures = PhraseFigures(phrase: phrase)
        figures.split = measuredSplit
        let own = "wake-" + phrase
        let measured = negativeFiles.filter { $0.family != own }
        let testFiles = Set(measured.filter { $0.split == "test" }.map(\.file))
        let tuneFiles = Set(measured.filter { $0.split == "tune" }.map(\.file))
        figures.testHours = measured.filter { $0.split == "test" }.map(\.seconds).reduce(0, +) / 3600
        figures.tuneHours = measured.filter { $0.split == "tune" }.map(\.seconds).reduce(0, +) / 3600
        let alarms = negatives.filter { $0.phrase == phrase }
        let tune = alarms.filter { tuneFiles.contains($0.file) }
        // The negatives and recordings counted: the test files', or the tune files' in a tune run.
        let countsTune = figures.split == "tune"
        let counted = countsTune ? tune : alarms.filter { testFiles.contains($0.file) }
        let hours = countsTune ? figures.tuneHours : figures.testHours
        let recordings = positives.filter { $0.phrase == phrase && $0.split == figures.split }
        for recording in recordings where recording.best == nil {
            figures.neverProposed[recording.condition, default: 0] += 1
        }
        let allowed = Int(hours / 10)

        /// The recordings `found` misses, per condition, and `falseAlarms` in the counted hours.
        func tally(_ threshold: Double, found: (WakeWordBenchmark.Positive) -> Bool, falseAlarms: Int) -> Point {
            var point = Point(threshold: threshold)
            for recording in recordings {
                point.recordings[recording.condition, default: 0] += 1
                point.missed[recording.condition, default: 0] += found(recording) ? 0 : 1
            }
            point.falseAlarms = falseAlarms
            point.falseAlarmsPer10Hours = hours > 0 ? 10 * Double(falseAlarms) / hours : 0
            return point
        }
        /// Candidates judged by `value` (a recording by its best) against `threshold`.
        func point(_ threshold: Double, _ value: (WakeWordBenchmark.Positive) -> Double?,
                   _ alarm: (WakeWordBenchmark.Candidate) -> Double) -> Point {
            tally(threshold, found: { (value($0) ?? -.infinity) >= threshold },
                  falseAlarms: counted.filter { alarm($0) >= threshold }.count)
        }
        /// Just above the (k+1)-th highest value: at most k of them reach it.
        func loosest(_ values: [Double], allowing k: Int) -> Double {
            let sorted = values.sorted(by: >)
            return sorted.count > k ? sorted[k].nextUp : -1e9  // anything passes (JSON has no infinity)
        }
        // Hark's rows hold each candidate's confidence, with what its room lets off, against the threshold.
        let allowance = noisyRoomAllowance
        let judged: (WakeWordBenchmark.Candidate) -> Double = { $0.judged(allowance: allowance) }
        let confidence: (WakeWordBenchmark.Positive) -> Double? = { $0.best.map(judged) }
        let ratio: (WakeWordBenchmark.Positive) -> Double? = { $0.bestRatio }
        figures.atSetting = point(threshold, confidence, judged)
        if allowance != 0 {
            figures.atSettingEveryRoom = point(threshold, \.bestConfidence, \.confidence)
        }
        if figures.tuneHours > 0 && !countsTune {
            figures.chosenOnTune = point(loosest(tune.map(judged), allowing: 0), confidence, judged)
        }
        figures.bestAtOnePer10Hours = point(loosest(counted.map(judged), allowing: allowed), confidence, judged)
        figures.baselineDefault = point(0, ratio, \.ratio)
        figures.baselineBestAtOnePer10Hours = point(loosest(counted.map(\.ratio), allowing: allowed), ratio, \.ratio)
        if let plainAlarms {
            let countedFiles = countsTune ? tuneFiles : testFiles
            figures.plainPocketsphinx = tally(0, found: { $0.plainFound == true },
                                              falseAlarms: plainAlarms.filter { $0.phrase == phrase && countedFiles.contains($0.file) }.count)
        }
        return figures
    }

    static let labelWidth = 42

    public func summary() -> String {
        var lines: [String] = []
        let conditions = Array(Set(positives.map(\.condition))).sorted()
        func cells(_ point: Point) -> String {
            conditions.map { condition in
                let total = point.recordings[condition] ?? 0, missed = point.missed[condition] ?? 0
                return String(format: "%4d/%-4d %5.1f%%", missed, total, total > 0 ? 100 * Double(missed) / Double(total) : 0)
            }.joined(separator: "  ") + String(format: "  %5d  %7.2f", point.falseAlarms, point.falseAlarmsPer10Hours)
        }
        /// "+3.50", or "none" when no threshold keeps the false alarms within the bound.
        func odds(_ value: Double) -> String { value <= -1e8 ? " none" : String(format: "%+.2f", value) }
        let header = String(repeating: " ", count: Self.labelWidth + 2) + conditions.map { $0.padding(toLength: 17, withPad: " ", startingAt: 0) }.joined(separator: " ")
            + " false alarms  per 10 h"
        for phrase in figures {
            let neverProposed = "never proposed: " + conditions.map { "\($0) \(phrase.neverProposed[$0] ?? 0)" }.joined(separator: ", ")
            let countsTune = phrase.split == "tune"
            lines.append(String(format: "\"%@\": ", WakeWordBenchmark.words(phrase.phrase)) + (countsTune
                ? String(format: "tune negatives %.2f h; the tune files' own figures, as no test file was heard; ", phrase.tuneHours)
                : String(format: "test negatives %.2f h (tune %.2f h); ", phrase.testHours, phrase.tuneHours)) + neverProposed)
            lines.append(header)
            let chosen: (String, Point?)? = countsTune ? nil : phrase.chosenOnTune.map { ("Hark, chosen on tune (odds \(odds($0.threshold)))", $0) }
                ?? ("Hark, chosen on tune: no tune negatives were heard, so no threshold was chosen on them", nil)
            // A tune run has no row chosen on tune: it would be its own figures again.
            let rows: [(String, Point?)] = [
                (String(format: "Hark, sensitivity %.2f (odds %@)", sensitivity, odds(threshold)), phrase.atSetting),
            ] + (phrase.atSettingEveryRoom.map { [("  the same, one threshold in every room", $0)] } ?? []) + [
                chosen,
            ].compactMap { $0 } + [
                ("Hark, best at <=1/10 h (odds \(odds(phrase.bestAtOnePer10Hours.threshold)))", phrase.bestAtOnePer10Hours),
                ("its search alone, threshold 1", phrase.baselineDefault),
                ("search alone, best at <=1/10 h (1e\(odds(phrase.baselineBestAtOnePer10Hours.threshold)))", phrase.baselineBestAtOnePer10Hours),
            ] + (phrase.plainPocketsphinx.map { [("plain pocketsphinx kws, its defaults", $0)] } ?? [])
            for (label, point) in rows {
                lines.append("  " + (point.map { label.padding(toLength: Self.labelWidth, withPad: " ", startingAt: 0) + cells($0) } ?? label))
            }
            lines.append("")
        }
        lines.append(String(format: "CPU per audio second, listening for \"%@\": %.4f on speech, %.4f on quiet noise (one core)",
                            WakeWordBenchmark.words(phrases.first ?? ""), cpuPerSecondSpeech, cpuPerSecondQuiet))
        lines.append(String(format: "memory: the spotter takes %.1f MB once made, the process %.1f MB with it alone; the benchmark's peak %.1f MB",
                            spotterMegabytes, listeningPeakMegabytes, peakResidentMegabytes))
        if !acousticModel.isEmpty { lines.append("acoustic model: \(acousticModel)") }
        if plainAlarms != nil {
            lines.append("baseline: plain pocketsphinx's keyword search, the same audio without Hark's front end, en-us as Debian ships it, its default settings")
        }
        lines.append("noise floor: " + (noiseFloor.map { String(format: "%.0f dBFS of white noise added before the spotter", $0) } ?? "none added"))
        lines.append("faint voices: " + (amplifiesFaintVoices
            ? String(format: "a voice quieter than %g dBFS brought up to %g dBFS", FaintVoiceGain.quietestUsualVoice, FaintVoiceGain.usualVoice)
            : "heard as they come"))
        lines.append("noise suppression: " + (denoisesAbove.map { String(format: "while the room is louder than %g dBFS", $0) } ?? "never"))
        lines.append(String(format: "proposals: a second look at candidates whose search scores %g or more a frame", proposalThreshold))
        lines.append("other words: " + (otherWords > 0 ? "\(otherWords) common words checked against a likely wake word" : "none"))
        return lines.joined(separator: "\n")
    }
}
