public import Foundation
import HarkAudio
import HarkSpeech

/// The figures of one wake-word benchmark run.
public struct WakeWordBenchmarkReport: Sendable, Codable {
    public struct Point: Sendable, Codable {
        public var sensitivity: Double
        /// Score per frame (log10) a candidate had to reach.
        public var threshold: Double
        public var missed: Int
        public var missRate: Double
        public var falseAlarms: Int
        public var falseAlarmsPerHour: Double
    }

    public var phrase = ""
    public var positives = 0
    public var positiveSeconds = 0.0
    public var negatives = 0
    public var negativeSeconds = 0.0
    public var sweep: [Point] = []
    /// The spotter as it listens (accepting and restarting) at `defaultSensitivity`, if run.
    public var live: Point?
    /// CPU seconds per second of audio while spotting: on the negative speech, and on quiet noise.
    public var cpuPerSecondSpeech = 0.0
    public var cpuPerSecondQuiet = 0.0
    public var peakResidentMegabytes = 0.0
    /// Positive recordings no sensitivity of the sweep found.
    public var neverFound: [String] = []

    public func summary() -> String {
        var lines = [
            "wake phrase:          \"\(phrase)\"",
            String(format: "positives:            %d recordings (%.1f min), each must be spotted once", positives, positiveSeconds / 60),
            String(format: "negatives:            %d recordings (%.1f min) without the phrase", negatives, negativeSeconds / 60),
            "",
            "sensitivity  threshold  miss rate          false alarms",
        ]
        func row(_ point: Point) -> String {
            String(format: "%11.2f  %9.3f  %4d (%5.1f%%)    %5d (%.2f per hour)", point.sensitivity, point.threshold,
                   point.missed, 100 * point.missRate, point.falseAlarms, point.falseAlarmsPerHour)
        }
        lines += sweep.map(row)
        if let live {
            lines.append("")
            lines.append("as it listens, at the default sensitivity:")
            lines.append(row(live))
        }
        lines += [
            "",
            String(format: "CPU per audio second: %.4f on speech, %.4f on quiet noise (one core)", cpuPerSecondSpeech, cpuPerSecondQuiet),
            String(format: "peak resident memory: %.1f MB", peakResidentMegabytes),
        ]
        if !neverFound.isEmpty {
            lines.append("never spotted at any sensitivity: \(neverFound.count)")
            lines += neverFound.prefix(20).map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// Measures a wake phrase: how many recordings of it the spotter misses and how often it fires
/// on speech without it, for a sweep of sensitivities, and what spotting costs.
///
/// Each set is fed as one continuous stream, as a microphone would deliver it: the recordings in
/// order, each followed by a second of silence. The sweep comes from one pass per set with the
/// spotter reporting every candidate and its score: a recording counts as found at a sensitivity
/// when a candidate ending inside it (or in its second of silence) reaches that sensitivity's
/// threshold, and overlapping candidates on the negatives count as one false alarm. The spotter as
/// it really listens (accept, then start afresh) can be run too, at one sensitivity.
public struct WakeWordBenchmark: Sendable {
    public var phrase: String
    public var sensitivities: [Double]
    /// Run the listening spotter at this sensitivity as well (nil: sweep only).
    public var liveSensitivity: Double?

    public init(phrase: String, sensitivities: [Double], liveSensitivity: Double?) {
        self.phrase = phrase
        self.sensitivities = sensitivities
        self.liveSensitivity = liveSensitivity
    }

    /// The WAV files of a folder (not its subfolders), in name order.
    public static func recordings(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension.lowercased() == "wav" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    static let gap = [Int16](repeating: 0, count: PipelineAudio.sampleRate)

    struct Pass {
        /// Per recording: where its span ends in the stream (its audio and its second of silence).
        var spanEnds: [Int] = []
        var detections: [WakeWordDetection] = []
        var cpuSeconds = 0.0
        var audioSeconds = 0.0
    }

    /// Feeds the recordings as one stream to a fresh spotter.
    func pass(_ recordings: [URL], candidates: Bool, sensitivity: Double,
              progress: (Int) -> Void) throws -> Pass {
        var configuration = WakeWordConfiguration(keyPhrase: phrase, sensitivity: sensitivity)
        configuration.reportsCandidates = candidates
        let spotter = try WakeWordSpotter(configuration: configuration)
        var result = Pass()
        for (index, url) in recordings.enumerated() {
            let samples = try WAVFile.read(contentsOf: url).pipelineSamples()
            let before = ProcessClock.cpuSeconds()
            for start in stride(from: 0, to: samples.count, by: 1600) {
                result.detections += try spotter.process(Array(samples[start..<min(start + 1600, samples.count)]))
            }
            result.detections += try spotter.process(Self.gap)
            result.cpuSeconds += ProcessClock.cpuSeconds() - before
            result.audioSeconds += Double(samples.count + Self.gap.count) / Double(PipelineAudio.sampleRate)
            result.spanEnds.append(spotter.samplesProcessed)
            progress(index + 1)
        }
        return result
    }

    /// Overlapping candidates are one event, scored by its best candidate.
    static func events(_ detections: [WakeWordDetection]) -> [(end: Int, score: Double)] {
        var events: [(start: Int, end: Int, score: Double)] = []
        for detection in detections.sorted(by: { $0.startSample < $1.startSample }) {
            if let last = events.last, detection.startSample <= last.end {
                events[events.count - 1] = (last.start, max(last.end, detection.endSample), max(last.score, detection.score))
            } else {
                events.append((detection.startSample, detection.endSample, detection.score))
            }
        }
        return events.map { ($0.end, $0.score) }
    }

    /// The best score of an event ending in each recording's span (nil when none did).
    static func bestScores(_ pass: Pass) -> [Double?] {
        var best = [Double?](repeating: nil, count: pass.spanEnds.count)
        for event in events(pass.detections) {
            // The first span whose end is at or after the event's end holds it.
            guard let index = pass.spanEnds.firstIndex(where: { event.end <= $0 }) else { continue }
            best[index] = max(best[index] ?? -.infinity, event.score)
        }
        return best
    }

    public func run(positives: [URL], negatives: [URL],
                    progress: (_ stage: String, _ done: Int, _ total: Int) -> Void) throws -> WakeWordBenchmarkReport {
        var report = WakeWordBenchmarkReport()
        report.phrase = phrase
        report.positives = positives.count
        report.negatives = negatives.count
        let loosest = 1.0
        let positive = try pass(positives, candidates: true, sensitivity: loosest) { progress("positives", $0, positives.count) }
        let negative = try pass(negatives, candidates: true, sensitivity: loosest) { progress("negatives", $0, negatives.count) }
        report.positiveSeconds = positive.audioSeconds - Double(positives.count)
        report.negativeSeconds = negative.audioSeconds - Double(negatives.count)
        report.cpuPerSecondSpeech = negative.audioSeconds > 0 ? negative.cpuSeconds / negative.audioSeconds : 0

        let found = Self.bestScores(positive)
        let negativeEvents = Self.events(negative.detections)
        let hours = negative.audioSeconds / 3600
        for sensitivity in sensitivities {
            let threshold = WakeWordSpotter.threshold(sensitivity: sensitivity)
            let missed = found.filter { ($0 ?? -.infinity) < threshold }.count
            let alarms = negativeEvents.filter { $0.score >= threshold }.count
            report.sweep.append(.init(sensitivity: sensitivity, threshold: threshold, missed: missed,
                                      missRate: positives.isEmpty ? 0 : Double(missed) / Double(positives.count),
                                      falseAlarms: alarms, falseAlarmsPerHour: hours > 0 ? Double(alarms) / hours : 0))
        }
        report.neverFound = zip(positives, found).filter { $0.1 == nil }.map(\.0.lastPathComponent)

        if let liveSensitivity {
            let livePositive = try pass(positives, candidates: false, sensitivity: liveSensitivity) { progress("positives, listening", $0, positives.count) }
            let liveNegative = try pass(negatives, candidates: false, sensitivity: liveSensitivity) { progress("negatives, listening", $0, negatives.count) }
            // Listening, every detection is accepted; a recording is found when one ends in its span.
            let missed = Self.bestScores(livePositive).filter { $0 == nil }.count
            let alarms = liveNegative.detections.count
            report.live = .init(sensitivity: liveSensitivity, threshold: WakeWordSpotter.threshold(sensitivity: liveSensitivity),
                                missed: missed, missRate: positives.isEmpty ? 0 : Double(missed) / Double(positives.count),
                                falseAlarms: alarms, falseAlarmsPerHour: hours > 0 ? Double(alarms) / hours : 0)
        }

        // Quiet: a minute of faint noise (-60 dBFS), the cost of waiting for the phrase in a still room.
        let spotter = try WakeWordSpotter(configuration: WakeWordConfiguration(keyPhrase: phrase))
        var generator = SystemRandomNumberGenerator()
        let quiet = (0..<(60 * PipelineAudio.sampleRate)).map { _ in Int16.random(in: -33...33, using: &generator) }
        let before = ProcessClock.cpuSeconds()
        for start in stride(from: 0, to: quiet.count, by: 1600) {
            _ = try spotter.process(Array(quiet[start..<(start + 1600)]))
        }
        report.cpuPerSecondQuiet = (ProcessClock.cpuSeconds() - before) / 60
        report.peakResidentMegabytes = ProcessClock.peakResidentMegabytes()
        return report
    }
}
