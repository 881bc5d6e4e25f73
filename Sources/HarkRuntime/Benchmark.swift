public import Foundation
import HarkAudio
import HarkIntents

/// What a recording should be understood as, in the rhasspy-test sidecar
/// layout (`NAME.json` beside `NAME.wav`). A null or missing intent marks
/// speech that must be rejected.
public struct ExpectedUnderstanding: Sendable, Decodable {
    public struct Intent: Sendable, Decodable { public var name: String }
    public var text: String?
    public var intent: Intent?
    public var slots: [String: String]?
}

/// The figures of one benchmark run.
public struct BenchmarkReport: Sendable, Codable {
    public var recordings = 0
    public var mustAccept = 0
    public var mustReject = 0
    /// Intent and every slot right.
    public var commandsAccepted = 0
    public var intentsRight = 0
    /// In-grammar recordings that were rejected.
    public var falseRejections = 0
    /// Must-reject recordings that were accepted.
    public var falseAcceptances = 0
    /// Accepted with the wrong intent or a wrong slot.
    public var misrecognitions = 0
    /// "slot: expected → got" → count.
    public var slotConfusions: [String: Int] = [:]
    public var audioSeconds = 0.0
    public var cpuSeconds = 0.0
    public var modelLoadSeconds = 0.0
    public var decodeLatencyP50 = 0.0
    public var decodeLatencyP95 = 0.0
    public var peakResidentMegabytes = 0.0
    public var failures: [String] = []

    public var realTimeFactor: Double { audioSeconds > 0 ? cpuSeconds / audioSeconds : 0 }

    public func summary() -> String {
        func percent(_ part: Int, _ whole: Int) -> String {
            whole == 0 ? "–" : String(format: "%d/%d (%.1f%%)", part, whole, 100 * Double(part) / Double(whole))
        }
        var lines = [
            "recordings:           \(recordings) (\(mustAccept) in the grammar, \(mustReject) to reject)",
            "commands accepted:    \(percent(commandsAccepted, mustAccept))   (intent and every slot right)",
            "intent accuracy:      \(percent(intentsRight, mustAccept))",
            "false rejections:     \(percent(falseRejections, mustAccept))",
            "misrecognitions:      \(percent(misrecognitions, mustAccept))   (accepted, but wrong)",
            "false acceptances:    \(percent(falseAcceptances, mustReject))",
            String(format: "real-time factor:     %.4f   (CPU %.2f s for %.1f s of audio)", realTimeFactor, cpuSeconds, audioSeconds),
            String(format: "decode latency:       p50 %.0f ms, p95 %.0f ms", decodeLatencyP50 * 1000, decodeLatencyP95 * 1000),
            String(format: "model load:           %.0f ms", modelLoadSeconds * 1000),
            String(format: "peak resident memory: %.1f MB", peakResidentMegabytes),
        ]
        if !slotConfusions.isEmpty {
            lines.append("slot confusions:")
            for (confusion, count) in slotConfusions.sorted(by: { $0.value > $1.value }) {
                lines.append("  \(count) × \(confusion)")
            }
        }
        if !failures.isEmpty {
            lines.append("not understood as expected:")
            lines += failures.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }
}

/// Decodes a folder of recordings with sidecars and measures accuracy, speed and memory.
public struct Benchmark: Sendable {
    public var assistant: Assistant
    /// Resample every recording to this rate first, to measure other input rates.
    public var inputRate: Int?

    public init(assistant: Assistant, inputRate: Int? = nil) {
        self.assistant = assistant
        self.inputRate = inputRate
    }

    /// Recordings in `directory` that have a sidecar, sorted by name.
    public static func recordings(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension.lowercased() == "wav" }
            .filter { FileManager.default.fileExists(atPath: $0.deletingPathExtension().appendingPathExtension("json").path) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Runs every recording; `progress` is told after each one (done, total).
    public func run(_ recordings: [URL], progress: (Int, Int) -> Void) async throws -> BenchmarkReport {
        var report = BenchmarkReport()
        report.modelLoadSeconds = assistant.loadSeconds
        var latencies: [Double] = []
        let catalog = await assistant.catalog
        for (index, url) in recordings.enumerated() {
            let sidecarURL = url.deletingPathExtension().appendingPathExtension("json")
            let expected = try JSONDecoder().decode(ExpectedUnderstanding.self, from: Data(contentsOf: sidecarURL))
            var clip = try WAVFile.read(contentsOf: url)
            if let inputRate { clip = try clip.resampled(to: inputRate) }

            let cpuBefore = ProcessClock.cpuSeconds()
            let started = Date()
            let samples = try clip.pipelineSamples()
            let (turn, _) = try await assistant.answer(samples: samples, name: url.lastPathComponent, speaks: false)
            latencies.append(Date().timeIntervalSince(started))
            report.cpuSeconds += ProcessClock.cpuSeconds() - cpuBefore
            report.audioSeconds += clip.duration
            report.recordings += 1
            score(turn, expected: expected, name: url.lastPathComponent, catalog: catalog, into: &report)
            progress(index + 1, recordings.count)
        }
        latencies.sort()
        report.decodeLatencyP50 = Self.percentile(latencies, 0.5)
        report.decodeLatencyP95 = Self.percentile(latencies, 0.95)
        report.peakResidentMegabytes = ProcessClock.peakResidentMegabytes()
        return report
    }

    private func score(_ turn: TurnReport, expected: ExpectedUnderstanding, name: String, catalog: AppCatalog,
                       into report: inout BenchmarkReport) {
        guard let intent = expected.intent else {
            report.mustReject += 1
            if !turn.rejected {
                report.falseAcceptances += 1
                report.failures.append("\(name): must be rejected, heard \"\(turn.text)\" as \(turn.intent ?? "?")")
            }
            return
        }
        report.mustAccept += 1
        guard !turn.rejected, let heardIntent = turn.intent else {
            report.falseRejections += 1
            report.failures.append("\(name): rejected (\(turn.rejection ?? "no reason")), expected \(intent.name)")
            return
        }
        let intentRight = heardIntent == intent.name
        if intentRight { report.intentsRight += 1 }
        var slotsRight = true
        let match = catalog.apps.first { $0.identifier == turn.app }
        for (slot, value) in expected.slots ?? [:] {
            let heard = turn.slots[slot]
            let spoken = heard.flatMap { identifier in
                match?.types.values.lazy.compactMap { $0.value(identifier: identifier)?.spoken }.first
            }
            if !Self.same(value, heard) && !Self.same(value, spoken) {
                slotsRight = false
                report.slotConfusions["\(slot): \(value) → \(heard ?? "nothing")", default: 0] += 1
            }
        }
        if intentRight && slotsRight {
            report.commandsAccepted += 1
        } else {
            report.misrecognitions += 1
            report.failures.append("\(name): heard \"\(turn.text)\" as \(heardIntent) \(turn.slots), expected \(intent.name) \(expected.slots ?? [:])")
        }
    }

    /// Equal ignoring case and spacing, as the sidecar format intends.
    static func same(_ expected: String, _ heard: String?) -> Bool {
        guard let heard else { return false }
        func normal(_ text: String) -> String { text.lowercased().filter { !$0.isWhitespace && $0 != "_" } }
        return normal(expected) == normal(heard)
    }

    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        let index = min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))
        return sorted[index]
    }
}

/// CPU time and peak memory of this process, from getrusage(2).
public enum ProcessClock {
    public static func cpuSeconds() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1e6
            + Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1e6
    }

    /// Peak resident set size in megabytes (ru_maxrss is in kilobytes on Linux).
    public static func peakResidentMegabytes() -> Double {
        var usage = rusage()
        guard getrusage(RUSAGE_SELF.rawValue, &usage) == 0 else { return 0 }
        return Double(usage.ru_maxrss) / 1024
    }
}
