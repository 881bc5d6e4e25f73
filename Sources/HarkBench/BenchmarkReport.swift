import Foundation
import HarkAudio
public import HarkSpeech
import HarkIntents
import HarkRuntime

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

    /// The CPU Hark spent on the group's recordings and their length (`BenchmarkOutcome`).
    public var cpuSeconds = 0.0
    public var audioSeconds = 0.0

    /// Commands right but rejected for want of confidence.
    public var falseRejectionsByThreshold: Int { commandsRightAtAnyMargin - commandsAccepted }
    /// Nil when the recordings' CPU was not kept.
    public var realTimeFactor: Double? { audioSeconds > 0 ? cpuSeconds / audioSeconds : nil }
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
    /// How readily noise between words was heard as a filler (`RecognizerConfiguration.fillerProbability`);
    /// nil for pocketsphinx's own.
    public var fillerProbability: Double?
    /// The noise compensation of noisy rooms' requests (`RecognizerConfiguration.noiseCompensationDescription`).
    public var noiseCompensation = ""
    /// The room level (dBFS) above which utterances were heard through noise suppression, nil for never.
    public var denoisesAbove: Double?
    /// The signal-to-noise estimate (dB) below which utterances were heard through noise
    /// suppression, nil for never.
    public var denoisesBelow: Double?

    /// "below 14 dB of signal over noise (plain pocketsphinx hears the audio as it is)".
    var noiseSuppressionText: String {
        let when = [denoisesBelow.map { String(format: "below %g dB of signal over noise", $0) },
                    denoisesAbove.map { String(format: "in rooms louder than %g dBFS", $0) }].compactMap { $0 }
        return when.isEmpty ? "none" : when.joined(separator: " or ") + " (plain pocketsphinx hears the audio as it is)"
    }
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
    /// The recogniser's share of `cpuSeconds`, stage by stage (`DecodeCPU`); the rest is reading
    /// the audio, the conversation and the wake-word spotter where it ran.
    public var decodeCPU = DecodeCPU()
    public var modelLoadSeconds = 0.0
    public var decodeLatencyP50 = 0.0
    public var decodeLatencyP95 = 0.0
    public var peakResidentMegabytes = 0.0
    public var failures: [String] = []
    public var outcomes: [BenchmarkOutcome] = []

    public var realTimeFactor: Double { audioSeconds > 0 ? cpuSeconds / audioSeconds : 0 }

    /// Hark's CPU over plain pocketsphinx's on the same recordings in the same run; nil without a
    /// baseline. This machine's speed drifts by up to a tenth between runs, and moves both alike,
    /// so this ratio compares two runs where their real-time factors alone do not.
    public var cpuAgainstBaseline: Double? {
        guard let baseline, baseline.realTimeFactor > 0, realTimeFactor > 0 else { return nil }
        return realTimeFactor / baseline.realTimeFactor
    }

    /// The recogniser's stages, dearest first, each as a share of all the benchmark's CPU:
    /// "phone loop 40 %, grammar 30 %, …".
    public var cpuByStageText: String {
        guard cpuSeconds > 0, decodeCPU.total > 0 else { return "not measured" }
        let stages = decodeCPU.stages.map { "\($0.name) \(Self.share($0.seconds, of: cpuSeconds))" }
        return (stages + ["the rest \(Self.share(max(0, cpuSeconds - decodeCPU.total), of: cpuSeconds))"]).joined(separator: ", ")
    }

    static func share(_ part: Double, of whole: Double) -> String {
        String(format: "%.0f %%", 100 * part / whole)
    }

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
            if let cpu = outcome.cpuSeconds, let audio = outcome.audioSeconds {
                groups[name, default: .init()].cpuSeconds += cpu
                groups[name, default: .init()].audioSeconds += audio
            }
            let accepted = outcome.accepted(at: threshold)
            let baseline = outcome.baseline
            if outcome.mustReject {
                groups[name, default: .init()].mustReject += 1
                if accepted { groups[name, default: .init()].falseAcceptances += 1 }
                if baseline?.understood == true { groups[name, default: .init()].baselineFalseAcceptances += 1 }
            } else {
                groups[name, default: .init()].mustAccept += 1
                if outcome.heardRightAtAnyMargin { groups[name, default: .init()].commandsRightAtAnyMargin += 1 }
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
            "CPU by stage:         " + cpuByStageText,
            String(format: "decode latency:       p50 %.0f ms, p95 %.0f ms", decodeLatencyP50 * 1000, decodeLatencyP95 * 1000),
            "acoustic model:       \(acousticModel.isEmpty ? "–" : acousticModel)",
            "noise floor:          " + (noiseFloor.map { String(format: "%.0f dBFS of white noise added before decoding", $0)
                + (noiseFloorHeadroom.map { String(format: ", kept %g dB below a fainter voice", $0) } ?? "")
                + " (plain pocketsphinx hears the audio as it is)" } ?? "none added"),
            "noise suppression:    " + noiseSuppressionText,
            "noise between words:  " + (fillerProbability.map { String(format: "heard as a filler with probability %g", $0) }
                                          ?? "pocketsphinx's own filler probability"),
            "noise compensation:   " + (noiseCompensation.isEmpty ? "–" : noiseCompensation)
                + (noiseCompensation.isEmpty || noiseCompensation == "none" ? "" : " (plain pocketsphinx hears the audio as it is)"),
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
            if let ratio = cpuAgainstBaseline {
                lines.append(String(format: "Hark's CPU:           %.2f × plain pocketsphinx's (machine speed moves both alike)", ratio))
            }
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
                    + (figures.realTimeFactor.map { String(format: ", real-time factor %.3f", $0) } ?? "")
            }
        }
        // One row a group, Hark beside plain pocketsphinx; "thrown away" are commands heard
        // right that the threshold rejected.
        let header = ["by \(title)", "commands: hark", "baseline", "thrown away", "must reject: hark FA", "baseline FA",
                      "hark RTF"]
        var rows = [header]
        for (name, figures) in groups.sorted(by: { $0.key < $1.key }) {
            rows.append([name, percent(figures.commandsAccepted, figures.mustAccept),
                         percent(figures.baselineCommandsAccepted, figures.mustAccept),
                         percent(figures.falseRejectionsByThreshold, figures.mustAccept),
                         percent(figures.falseAcceptances, figures.mustReject),
                         percent(figures.baselineFalseAcceptances, figures.mustReject),
                         figures.realTimeFactor.map { String(format: "%.3f", $0) } ?? "–"])
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

