public import Foundation
import HarkAudio
public import HarkSpeech
import HarkIntents
public import HarkRuntime

/// What a recording should be understood as, in the rhasspy-test sidecar
/// layout (`NAME.json` beside `NAME.wav`). A null or missing intent marks
/// speech that must be rejected.
public struct ExpectedUnderstanding: Sendable, Decodable {
    public struct Intent: Sendable, Decodable { public var name: String }
    public var text: String?
    public var intent: Intent?
    public var slots: [String: String]?
    /// Who spoke it, in generated corpora (extra key; rhasspy-test sidecars have none).
    public var voice: String?
    /// The noise mixed under it and at what signal-to-noise ratio in dB, in generated corpora.
    public var noise: String?
    public var snr: Double?
    /// Seconds into the recording at which the wake word was heard, in corpora that give each
    /// request the room before it (make bench-noise): the request is then cut from what follows
    /// as the live loop cuts one (`StreamedRequest`), and plain pocketsphinx hears all of it.
    public var wakeAt: Double?
    /// The wake phrase said before the request, from `wakeStartsAt` to `wakeAt` s (recorded
    /// turns, make bench-noise's turns/): with `Benchmark.wakeSettings` the spotter must find it
    /// (`SpottedWake`), and the request is cut from where it ended the phrase.
    public var wakePhrase: String?
    public var wakeStartsAt: Double?
}

/// What plain pocketsphinx (`BaselineRecognizer`) made of the same recording.
public struct BaselineOutcome: Sendable, Codable {
    /// Its words formed a phrase the dialogue understood (it has no confidence threshold).
    public var understood: Bool
    public var commandRight: Bool
    public var account: String
}

/// What became of one recording, decoded with no margin threshold so that every
/// threshold can be judged afterwards from the same decoding.
public struct BenchmarkOutcome: Sendable, Codable {
    public var recording: String
    /// The folder it came from (one per noise condition in a corpus).
    public var folder: String
    /// The sidecar's "voice", when it names one.
    public var voice: String?
    /// The sidecar's "noise" and "snr", when it names them.
    public var noise: String? = nil
    public var snr: Double? = nil
    public var mustReject: Bool
    /// The grammar-over-phone-loop margin; accepted at threshold t when `understood` and margin ≥ t.
    public var margin: Double
    /// The margin's parts (see `Confidence`): over the whole utterance, and the word that
    /// fitted worst.
    public var utteranceMargin: Double = 0
    public var weakestWord: WordFit? = nil
    /// Every word heard with its fit, in order: what a rule judging words one by one needs
    /// (nil in reports written before it was kept).
    public var wordFits: [WordFit]? = nil
    /// The passes' other measurements (see `ConfidenceFeatures`).
    public var features: ConfidenceFeatures? = nil
    /// Whether the words formed a phrase the dialogue understood (before any margin threshold).
    public var understood: Bool
    /// Understood with the expected intent and every expected slot.
    public var intentRight: Bool
    public var commandRight: Bool
    /// "slot: expected → heard" for each wrong slot.
    public var slotConfusions: [String]
    /// What was heard against what was expected, for the list of failures.
    public var account: String
    /// Plain pocketsphinx on the same recording, when the benchmark ran it.
    public var baseline: BaselineOutcome? = nil
    /// The phrase of Hark's own it was heard as (`TurnReport.builtIn`), if one.
    public var builtIn: String? = nil
    /// In a recorded turn, what the spotter made of the wake phrase before the request
    /// (`SpottedWake.Verdict`). After a tentative one, a request not accepted clearly (at the
    /// report's threshold plus `NoisyConfirmation`'s reach, in `LiveSettings.tentativeRequestWords`
    /// words or more) is dropped in silence: its margin is set below every threshold.
    public var wake: String? = nil
    /// The spotter's confidence in that wake word (log odds), when it heard one.
    public var wakeConfidence: Double? = nil

    public func accepted(at threshold: Double) -> Bool { understood && margin >= threshold }

    /// "margin -2.10: words -1.62, weakest word \"garage\" -2.10, 45 % of the speech in words":
    /// every figure the margin is the lowest of, as `hark run` gives them, so a list of failures
    /// says which one fell short.
    var marginAccount: String {
        let signalToNoise = features?.signalToNoise
        return String(format: "margin %.2f: ", margin)
            + Confidence.describe(features: features, utterance: utteranceMargin, weakest: weakestWord,
                                  noisePenalty: features == nil ? 0 : Confidence.noisePenalty(signalToNoise: signalToNoise),
                                  signalToNoise: signalToNoise)
    }
}

/// Accuracy at one margin threshold.
public struct ThresholdFigures: Sendable, Codable {
    public var threshold: Double
    public var commandsAccepted = 0
    public var falseRejections = 0
    public var misrecognitions = 0
    public var falseAcceptances = 0
}

/// Command acceptance of one group of recordings (a folder, a voice, a noise).
public struct GroupFigures: Sendable, Codable {
    public var mustAccept = 0
    public var commandsAccepted = 0
    /// Commands heard right whatever their margin: those above `commandsAccepted` were thrown
    /// away by the threshold.
    public var commandsRightAtAnyMargin = 0
    public var mustReject = 0
    public var falseAcceptances = 0
    /// The same for plain pocketsphinx, when it ran.
    public var baselineCommandsAccepted = 0
    public var baselineFalseAcceptances = 0

    /// Commands right but rejected for want of confidence.
    public var falseRejectionsByThreshold: Int { commandsRightAtAnyMargin - commandsAccepted }
}

/// Plain pocketsphinx's figures on the same recordings.
public struct BaselineFigures: Sendable, Codable {
    public var commandsAccepted = 0
    public var misrecognitions = 0
    /// Commands it found no phrase for.
    public var rejections = 0
    public var falseAcceptances = 0
    public var cpuSeconds = 0.0
    public var audioSeconds = 0.0
    public var realTimeFactor: Double { audioSeconds > 0 ? cpuSeconds / audioSeconds : 0 }

    init(_ outcomes: [BenchmarkOutcome]) {
        for outcome in outcomes {
            guard let baseline = outcome.baseline else { continue }
            if outcome.mustReject {
                if baseline.understood { falseAcceptances += 1 }
            } else if !baseline.understood {
                rejections += 1
            } else if baseline.commandRight {
                commandsAccepted += 1
            } else {
                misrecognitions += 1
            }
        }
    }
}

/// What "Did you say …?" would ask about at one width of the ask band: phrases understood with a
/// margin below the threshold but no further below it than the band.
public struct AskFigures: Sendable, Codable, Equatable {
    public var band: Double
    /// Commands the question would name rightly (intent and every slot).
    public var commandsRight = 0
    /// Commands the question would name wrongly.
    public var commandsWrong = 0
    /// Speech that must be rejected, asked about.
    public var mustReject = 0
    public var asked: Int { commandsRight + commandsWrong + mustReject }
}

/// The figures of one benchmark run.
public struct BenchmarkReport: Sendable, Codable {
    /// The margin threshold the main figures are given at (the recogniser's setting).
    public var threshold: Double
    /// The acoustic model Hark listened with (the baseline always uses Debian's as it is).
    public var acousticModel = ""
    /// The hiss (dBFS) added to each utterance before decoding, nil for none.
    public var noiseFloor: Double?
    /// How far below a fainter voice the floor was kept (`RecognizerConfiguration.noiseFloorHeadroom`).
    public var noiseFloorHeadroom: Double?
    /// The room level (dBFS) above which utterances were heard through noise suppression, nil for never.
    public var denoisesAbove: Double?
    /// The other words searched beside short phrases in quiet rooms, e.g. "500 beside one-word
    /// phrases heard at 15 dB SNR or more"; empty for none.
    public var otherWords = ""
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
    /// Those of them heard as a phrase of Hark's own ("turn it up", "never mind"): acted on, though
    /// no app's intent.
    public var falseAcceptancesAsOwnPhrases = 0
    /// Accepted with the wrong intent or a wrong slot.
    public var misrecognitions = 0
    /// "slot: expected → got" → count.
    public var slotConfusions: [String: Int] = [:]
    /// The same recordings judged at other thresholds, loosest first.
    public var thresholds: [ThresholdFigures] = []
    public var byFolder: [String: GroupFigures] = [:]
    public var byVoice: [String: GroupFigures] = [:]
    public var byNoise: [String: GroupFigures] = [:]
    public var bySNR: [String: GroupFigures] = [:]
    /// Plain pocketsphinx on the same recordings, when the benchmark ran it.
    public var baseline: BaselineFigures?
    /// What the recogniser's ask band would ask about, and other widths of it (`measureAsking`).
    public var asking: AskFigures?
    public var askingByBand: [AskFigures] = []
    public var audioSeconds = 0.0
    public var cpuSeconds = 0.0
    public var modelLoadSeconds = 0.0
    public var decodeLatencyP50 = 0.0
    public var decodeLatencyP95 = 0.0
    public var peakResidentMegabytes = 0.0
    public var failures: [String] = []
    public var outcomes: [BenchmarkOutcome] = []

    public var realTimeFactor: Double { audioSeconds > 0 ? cpuSeconds / audioSeconds : 0 }

    /// Thresholds the table covers: every quarter from -4 to 0, and the setting.
    static let tableThresholds = stride(from: -4.0, through: 0.0, by: 0.25).map { $0 }

    public init(outcomes: [BenchmarkOutcome], threshold: Double) {
        self.threshold = threshold
        self.outcomes = outcomes
        recordings = outcomes.count
        for outcome in outcomes {
            let accepted = outcome.accepted(at: threshold)
            if outcome.mustReject {
                mustReject += 1
                if accepted {
                    falseAcceptances += 1
                    if outcome.builtIn != nil { falseAcceptancesAsOwnPhrases += 1 }
                    failures.append("\(outcome.recording): must be rejected, \(outcome.account)")
                }
                continue
            }
            mustAccept += 1
            if !accepted {
                falseRejections += 1
                failures.append("\(outcome.recording): rejected (\(outcome.understood ? outcome.marginAccount : outcome.account))")
                continue
            }
            if outcome.intentRight { intentsRight += 1 }
            if outcome.commandRight {
                commandsAccepted += 1
            } else {
                misrecognitions += 1
                failures.append("\(outcome.recording): \(outcome.account)")
                for confusion in outcome.slotConfusions { slotConfusions[confusion, default: 0] += 1 }
            }
        }
        thresholds = Self.distinctSorted(Self.tableThresholds + [threshold]).map { Self.figures(outcomes, at: $0) }
        byFolder = Self.groups(outcomes, threshold: threshold) { $0.folder }
        byVoice = Self.groups(outcomes, threshold: threshold) { $0.voice }
        byNoise = Self.groups(outcomes, threshold: threshold) { $0.noise }
        bySNR = Self.groups(outcomes, threshold: threshold) { $0.snr.map { Self.snrName($0) } }
        if outcomes.contains(where: { $0.baseline != nil }) { baseline = BaselineFigures(outcomes) }
    }

    /// Widths the ask table covers, besides the setting's.
    static let tableAskBands = [0.1, 0.2, 0.3, 0.4, 0.5, 0.8, 1.0]

    /// Works out what "Did you say …?" would ask about with the recogniser's ask band `band`
    /// (0: it never asks) and at the other widths of the table, from the same decoding.
    public mutating func measureAsking(band: Double) {
        asking = band > 0 ? Self.asking(outcomes, threshold: threshold, band: band) : nil
        askingByBand = Self.distinctSorted(Self.tableAskBands + (band > 0 ? [band] : []))
            .map { Self.asking(outcomes, threshold: threshold, band: $0) }
    }

    /// `values` in order, each once (the setting may be one of the table's own values).
    static func distinctSorted(_ values: [Double]) -> [Double] {
        values.sorted().reduce(into: [Double]()) { kept, value in
            if kept.last.map({ abs($0 - value) > 1e-9 }) ?? true { kept.append(value) }
        }
    }

    static func asking(_ outcomes: [BenchmarkOutcome], threshold: Double, band: Double) -> AskFigures {
        var figures = AskFigures(band: band)
        for outcome in outcomes where outcome.understood && outcome.margin < threshold && outcome.margin >= threshold - band {
            if outcome.mustReject {
                figures.mustReject += 1
            } else if outcome.commandRight {
                figures.commandsRight += 1
            } else {
                figures.commandsWrong += 1
            }
        }
        return figures
    }

    /// "05 dB", so that levels sort as numbers do.
    static func snrName(_ snr: Double) -> String { String(format: "%02.0f dB", snr) }

    static func figures(_ outcomes: [BenchmarkOutcome], at threshold: Double) -> ThresholdFigures {
        var figures = ThresholdFigures(threshold: threshold)
        for outcome in outcomes {
            let accepted = outcome.accepted(at: threshold)
            if outcome.mustReject {
                if accepted { figures.falseAcceptances += 1 }
            } else if !accepted {
                figures.falseRejections += 1
            } else if outcome.commandRight {
                figures.commandsAccepted += 1
            } else {
                figures.misrecognitions += 1
            }
        }
        return figures
    }

    static func groups(_ outcomes: [BenchmarkOutcome], threshold: Double,
                       by key: (BenchmarkOutcome) -> String?) -> [String: GroupFigures] {
        var groups: [String: GroupFigures] = [:]
        for outcome in outcomes {
            guard let name = key(outcome) else { continue }
            let accepted = outcome.accepted(at: threshold)
            let baseline = outcome.baseline
            if outcome.mustReject {
                groups[name, default: .init()].mustReject += 1
                if accepted { groups[name, default: .init()].falseAcceptances += 1 }
                if baseline?.understood == true { groups[name, default: .init()].baselineFalseAcceptances += 1 }
            } else {
                groups[name, default: .init()].mustAccept += 1
                if outcome.understood && outcome.commandRight { groups[name, default: .init()].commandsRightAtAnyMargin += 1 }
                if accepted && outcome.commandRight { groups[name, default: .init()].commandsAccepted += 1 }
                if baseline?.understood == true && baseline?.commandRight == true {
                    groups[name, default: .init()].baselineCommandsAccepted += 1
                }
            }
        }
        return groups
    }

    /// The loosest threshold at which at most `fraction` of the must-reject recordings are accepted,
    /// with the false rejections it costs; nil without must-reject recordings.
    public func threshold(forFalseAcceptances fraction: Double) -> ThresholdFigures? {
        guard mustReject > 0 else { return nil }
        // Every margin is a candidate: between two margins nothing changes.
        let candidates = Set(outcomes.filter(\.understood).map(\.margin) + [-Double.infinity]).sorted()
        for candidate in candidates {
            let figures = Self.figures(outcomes, at: candidate)
            if Double(figures.falseAcceptances) <= fraction * Double(mustReject) { return figures }
        }
        return nil
    }

    static func percent(_ part: Int, _ whole: Int) -> String {
        whole == 0 ? "–" : String(format: "%d/%d (%.1f%%)", part, whole, 100 * Double(part) / Double(whole))
    }

    /// The printed report; `failuresShown` caps the list of failures (all are in the JSON).
    public func summary(failuresShown: Int = 40) -> String {
        let percent = Self.percent
        var lines = [
            "recordings:           \(recordings) (\(mustAccept) in the grammar, \(mustReject) to reject)",
            "at margin threshold \(Self.format(threshold)):",
            "commands accepted:    \(percent(commandsAccepted, mustAccept))   (intent and every slot right)",
            "intent accuracy:      \(percent(intentsRight, mustAccept))",
            "false rejections:     \(percent(falseRejections, mustAccept))",
            "misrecognitions:      \(percent(misrecognitions, mustAccept))   (accepted, but wrong)",
            "false acceptances:    \(percent(falseAcceptances, mustReject))"
                + (falseAcceptancesAsOwnPhrases > 0 ? "   (\(falseAcceptancesAsOwnPhrases) heard as phrases of Hark's own)" : ""),
        ]
        if let asking {
            // Rejected, but close enough to ask about: a question names the command or the wrong
            // one, or answers speech that was never a request.
            lines.append("asked \"Did you say …?\": \(asking.commandsRight + asking.commandsWrong) commands "
                         + "(\(asking.commandsRight) named right, \(asking.commandsWrong) wrong), "
                         + "\(percent(asking.mustReject, mustReject)) of the speech to reject   "
                         + "(margins \(Self.format(threshold - asking.band)) to \(Self.format(threshold)))")
        }
        lines += [
            String(format: "real-time factor:     %.4f   (CPU %.2f s for %.1f s of audio)", realTimeFactor, cpuSeconds, audioSeconds),
            String(format: "decode latency:       p50 %.0f ms, p95 %.0f ms", decodeLatencyP50 * 1000, decodeLatencyP95 * 1000),
            "acoustic model:       \(acousticModel.isEmpty ? "–" : acousticModel)",
            "noise floor:          " + (noiseFloor.map { String(format: "%.0f dBFS of white noise added before decoding", $0)
                + (noiseFloorHeadroom.map { String(format: ", kept %g dB below a fainter voice", $0) } ?? "")
                + " (plain pocketsphinx hears the audio as it is)" } ?? "none added"),
            "noise suppression:    " + (denoisesAbove.map { String(format: "in rooms louder than %g dBFS (plain pocketsphinx hears the audio as it is)", $0) } ?? "none"),
            "other words:          " + (otherWords.isEmpty ? "none" : otherWords),
            String(format: "model load:           %.0f ms", modelLoadSeconds * 1000),
            String(format: "peak resident memory: %.1f MB", peakResidentMegabytes),
        ]
        if let baseline {
            lines += [
                "plain pocketsphinx (same model and grammar, default settings, no rejection):",
                "commands accepted:    \(percent(baseline.commandsAccepted, mustAccept))",
                "no phrase found:      \(percent(baseline.rejections, mustAccept))",
                "misrecognitions:      \(percent(baseline.misrecognitions, mustAccept))",
                "false acceptances:    \(percent(baseline.falseAcceptances, mustReject))",
                String(format: "real-time factor:     %.4f", baseline.realTimeFactor),
            ]
        }
        let compared = baseline != nil
        if byFolder.count > 1 { lines += Self.table("folder", byFolder, compared: compared) }
        if byNoise.count > 1 { lines += Self.table("noise", byNoise, compared: compared) }
        if bySNR.count > 1 { lines += Self.table("SNR", bySNR, compared: compared) }
        if byVoice.count > 1 { lines += Self.table("voice", byVoice, compared: compared) }
        lines.append("by margin threshold (rejecting below it):")
        lines.append("  threshold  accepted right  false rejections  misrecognitions  false acceptances")
        for row in thresholds {
            let marker = abs(row.threshold - threshold) < 1e-9 ? " ← setting" : ""
            let cells = [(Self.format(row.threshold), 9), (percent(row.commandsAccepted, mustAccept), 14),
                         (percent(row.falseRejections, mustAccept), 16), (percent(row.misrecognitions, mustAccept), 15),
                         (percent(row.falseAcceptances, mustReject), 17)]
            lines.append(Self.row(cells) + marker)
        }
        if !askingByBand.isEmpty {
            lines.append("by ask band (\"Did you say …?\" below the threshold; 0 never asks):")
            lines.append("       band  named right  named wrong  speech to reject asked  right of asked")
            for row in askingByBand {
                let marker = abs(row.band - (asking?.band ?? -1)) < 1e-9 ? " ← setting" : ""
                let share = row.asked > 0 ? String(format: "%.0f%%", 100 * Double(row.commandsRight) / Double(row.asked)) : "–"
                let cells = [(Self.format(row.band), 9), (String(row.commandsRight), 11), (String(row.commandsWrong), 11),
                             (percent(row.mustReject, mustReject), 22), (share, 14)]
                lines.append(Self.row(cells) + marker)
            }
        }
        if let chosen = threshold(forFalseAcceptances: 0.01) {
            let unthresholded = Self.figures(outcomes, at: -.infinity)
            lines.append("loosest threshold with ≤ 1% false acceptances: \(Self.format(chosen.threshold)) — "
                         + "false rejections \(percent(chosen.falseRejections, mustAccept)), "
                         + "\(chosen.falseRejections - unthresholded.falseRejections) caused by the threshold")
        }
        if !slotConfusions.isEmpty {
            lines.append("slot confusions:")
            for (confusion, count) in slotConfusions.sorted(by: { ($0.value, $1.key) > ($1.value, $0.key) }) {
                lines.append("  \(count) × \(confusion)")
            }
        }
        if !failures.isEmpty {
            lines.append("not understood as expected (\(failures.count)):")
            lines += failures.prefix(failuresShown).map { "  \($0)" }
            if failures.count > failuresShown { lines.append("  … \(failures.count - failuresShown) more in the JSON report") }
        }
        return lines.joined(separator: "\n")
    }

    /// A table row: each cell right-aligned to its width.
    static func row(_ cells: [(text: String, width: Int)]) -> String {
        "  " + cells.map { String(repeating: " ", count: max(0, $0.width - $0.text.count)) + $0.text }.joined(separator: "  ")
    }

    static func format(_ threshold: Double) -> String {
        threshold == -.infinity ? "none" : String(format: "%.2f", threshold)
    }

    static func table(_ title: String, _ groups: [String: GroupFigures], compared: Bool) -> [String] {
        guard compared else {
            return ["by \(title):"] + groups.sorted { $0.key < $1.key }.map { name, figures in
                "  \(name): commands \(percent(figures.commandsAccepted, figures.mustAccept)), "
                    + "false acceptances \(percent(figures.falseAcceptances, figures.mustReject))"
            }
        }
        // One row a group, Hark beside plain pocketsphinx; "thrown away" are commands heard
        // right that the threshold rejected.
        let header = ["by \(title)", "commands: hark", "baseline", "thrown away", "must reject: hark FA", "baseline FA"]
        var rows = [header]
        for (name, figures) in groups.sorted(by: { $0.key < $1.key }) {
            rows.append([name, percent(figures.commandsAccepted, figures.mustAccept),
                         percent(figures.baselineCommandsAccepted, figures.mustAccept),
                         percent(figures.falseRejectionsByThreshold, figures.mustAccept),
                         percent(figures.falseAcceptances, figures.mustReject),
                         percent(figures.baselineFalseAcceptances, figures.mustReject)])
        }
        let widths = header.indices.map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            "  " + row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column == 0 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }
    }
}

/// Decodes folders of recordings with sidecars and measures accuracy, speed and memory.
///
/// The assistant must be started with no margin threshold (`rejectionMargin = -infinity`):
/// every recording's margin is kept, and the figures at `threshold` and at every other
/// threshold are worked out from the same decoding.
public struct Benchmark: Sendable {
    public var assistant: Assistant
    /// Resample every recording to this rate first, to measure other input rates.
    public var inputRate: Int?
    /// The threshold the main figures are given at.
    public var threshold: Double
    /// Also decode every recording with plain pocketsphinx (`BaselineRecognizer`).
    public var baseline: Bool
    /// How the live loop listens for the wake word: recordings whose sidecar names a wake phrase
    /// have it spotted so (`SpottedWake`); nil cuts them at `wakeAt` as if it were always heard.
    public var wakeSettings: LiveSettings?

    public init(assistant: Assistant, inputRate: Int? = nil, threshold: Double, baseline: Bool = false) {
        self.assistant = assistant
        self.inputRate = inputRate
        self.threshold = threshold
        self.baseline = baseline
    }

    /// Recordings in `directory` that have a sidecar, sorted by name.
    public static func recordings(in directory: URL) throws -> [URL] {
        try WAVFile.files(in: directory)
            .filter { FileManager.default.fileExists(atPath: $0.deletingPathExtension().appendingPathExtension("json").path) }
    }

    /// Runs every recording; `progress` is told after each one (done, total).
    public func run(_ recordings: [URL], progress: (Int, Int) -> Void) async throws -> BenchmarkReport {
        var outcomes: [BenchmarkOutcome] = []
        var latencies: [Double] = []
        var cpuSeconds = 0.0, audioSeconds = 0.0, baselineCPUSeconds = 0.0
        let catalog = await assistant.catalog
        if baseline { try await assistant.recognition.startBaseline() }
        var spotters: [String: WakeWordSpotter] = [:]
        for (index, url) in recordings.enumerated() {
            let sidecarURL = url.deletingPathExtension().appendingPathExtension("json")
            let expected = try JSONDecoder().decode(ExpectedUnderstanding.self, from: Data(contentsOf: sidecarURL))
            var clip = try WAVFile.read(contentsOf: url)
            if let inputRate { clip = try clip.resampled(to: inputRate) }

            let cpuBefore = ProcessClock.cpuSeconds()
            let started = Date()
            let stream = try clip.pipelineSamples()
            var samples = stream, afterWake = stream[...]
            var wake: SpottedWake.Verdict?, wakeConfidence: Double?
            if let wakeAt = expected.wakeAt {
                afterWake = stream[min(stream.count, max(0, Int(wakeAt * Double(PipelineAudio.sampleRate))))...]
                if let phrase = expected.wakePhrase, let wakeSettings {
                    var settings = wakeSettings
                    settings.wakePhrase = phrase
                    let spotter = try spotters[phrase] ?? WakeWordSpotter(configuration: settings.wakeWord)
                    spotters[phrase] = spotter
                    let found = try SpottedWake.find(in: stream, startsAt: expected.wakeStartsAt ?? 0, endsAt: wakeAt, spotter: spotter)
                    wake = found.verdict
                    wakeConfidence = found.confidence
                    samples = found.endSample.flatMap {
                        StreamedRequest.cut(stream, roomSeconds: Double($0) / Double(PipelineAudio.sampleRate), dropsWakeTail: true)
                    } ?? []
                } else {
                    samples = StreamedRequest.cut(stream, roomSeconds: wakeAt) ?? []
                }
            }
            var outcome: BenchmarkOutcome
            if wake == .missed {
                outcome = Self.nothingHeard(expected: expected, url: url, because: "wake word missed")
            } else if samples.isEmpty {
                outcome = Self.nothingHeard(expected: expected, url: url)
            } else {
                let (turn, _) = try await assistant.answer(samples: samples, name: url.lastPathComponent, speaks: false)
                outcome = Self.outcome(turn, expected: expected, url: url, catalog: catalog)
                // As the live loop judges it: the margin clears the noisy room's reach
                // (`Recognition.isClear`), and the request has enough words.
                if wake == .tentative && !(outcome.accepted(at: threshold + NoisyConfirmation.standard.reach)
                                           && turn.text.split(separator: " ").count >= LiveSettings.tentativeRequestWords) {
                    outcome.account = "after a tentative wake word, dropped in silence: " + outcome.account
                    outcome.margin = Self.unheardMargin
                }
            }
            outcome.wake = wake?.rawValue
            outcome.wakeConfidence = wakeConfidence
            latencies.append(Date().timeIntervalSince(started))
            cpuSeconds += ProcessClock.cpuSeconds() - cpuBefore
            audioSeconds += clip.duration
            if baseline {
                let before = ProcessClock.cpuSeconds()
                let heard = try await assistant.hearWithBaseline(Array(afterWake))
                baselineCPUSeconds += ProcessClock.cpuSeconds() - before
                let (plain, _) = try await assistant.answer(heard, name: url.lastPathComponent, speaks: false)
                let judged = Self.outcome(plain, expected: expected, url: url, catalog: catalog)
                outcome.baseline = BaselineOutcome(understood: judged.understood, commandRight: judged.commandRight,
                                                   account: judged.account)
            }
            outcomes.append(outcome)
            progress(index + 1, recordings.count)
        }
        var report = BenchmarkReport(outcomes: outcomes, threshold: threshold)
        report.modelLoadSeconds = assistant.loadSeconds
        report.cpuSeconds = cpuSeconds
        report.audioSeconds = audioSeconds
        report.baseline?.cpuSeconds = baselineCPUSeconds
        report.baseline?.audioSeconds = audioSeconds
        latencies.sort()
        report.decodeLatencyP50 = ProcessClock.percentile(latencies, 0.5)
        report.decodeLatencyP95 = ProcessClock.percentile(latencies, 0.95)
        report.peakResidentMegabytes = ProcessClock.peakResidentMegabytes()
        return report
    }

    /// Slots by name, so two runs' accounts of the same result read the same.
    static func describe(_ slots: [String: String]) -> String {
        slots.isEmpty ? "[:]" : "[" + slots.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
            .joined(separator: ", ") + "]"
    }

    static func outcome(_ turn: TurnReport, expected: ExpectedUnderstanding, url: URL,
                        catalog: AppCatalog) -> BenchmarkOutcome {
        var outcome = BenchmarkOutcome(
            recording: url.lastPathComponent, folder: url.deletingLastPathComponent().lastPathComponent,
            voice: expected.voice, noise: expected.noise, snr: expected.snr, mustReject: expected.intent == nil,
            margin: turn.margin,
            utteranceMargin: turn.utteranceMargin, weakestWord: turn.weakestWord, wordFits: turn.wordFits, features: turn.features,
            // A phrase of Hark's own ("turn it up") is acted on as surely as an app's intent: speech
            // that must be rejected heard as one is a false acceptance, a command heard as one is
            // misrecognised.
            understood: !turn.rejected && (turn.intent != nil || turn.builtIn != nil), intentRight: false, commandRight: false,
            slotConfusions: [], account: "", builtIn: turn.builtIn)
        let heard = turn.intent.map { "heard \"\(turn.text)\" as \($0) \(Self.describe(turn.slots))" }
            ?? turn.builtIn.map { "heard \"\(turn.text)\" as Hark's own \($0)" }
            ?? "heard \"\(turn.text)\": \(turn.rejection ?? "not understood")"
        guard let intent = expected.intent else {
            outcome.account = heard
            return outcome
        }
        outcome.account = "\(heard), expected \(intent.name) \(Self.describe(expected.slots ?? [:]))"
        guard outcome.understood else { return outcome }
        outcome.intentRight = turn.intent == intent.name
        let match = catalog.apps.first { $0.identifier == turn.app }
        for (slot, value) in (expected.slots ?? [:]).sorted(by: { $0.key < $1.key }) {
            let heard = turn.slots[slot]
            let spoken = heard.flatMap { identifier in
                match?.types.values.lazy.compactMap { $0.value(identifier: identifier)?.spoken }.first
            }
            if !Self.same(value, heard) && !Self.same(value, spoken) {
                outcome.slotConfusions.append("\(slot): \(value) → \(heard ?? "nothing")")
            }
        }
        outcome.commandRight = outcome.intentRight && outcome.slotConfusions.isEmpty
        return outcome
    }

    /// A request in which the endpointer found no speech after the wake word: the live loop
    /// would have stopped listening, so it is neither understood nor acted on. Its margin is
    /// below every threshold the report judges at.
    static func nothingHeard(expected: ExpectedUnderstanding, url: URL,
                             because reason: String = "no speech found after the wake word") -> BenchmarkOutcome {
        BenchmarkOutcome(recording: url.lastPathComponent, folder: url.deletingLastPathComponent().lastPathComponent,
                         voice: expected.voice, noise: expected.noise, snr: expected.snr, mustReject: expected.intent == nil,
                         margin: unheardMargin, understood: false, intentRight: false, commandRight: false, slotConfusions: [],
                         account: reason
                             + (expected.intent.map { ", expected \($0.name) \(Self.describe(expected.slots ?? [:]))" } ?? ""))
    }

    /// The margin of a request never heard: below every threshold a report judges at.
    static let unheardMargin = -100.0

    /// Equal ignoring case and spacing, as the sidecar format intends.
    static func same(_ expected: String, _ heard: String?) -> Bool {
        guard let heard else { return false }
        func normal(_ text: String) -> String { text.lowercased().filter { !$0.isWhitespace && $0 != "_" } }
        return normal(expected) == normal(heard)
    }
}
