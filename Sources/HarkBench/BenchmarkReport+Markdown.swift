import Foundation

/// The report as the Markdown table docs/benchmarks.md keeps (`hark bench --markdown`), so the
/// document's figures come from the run itself (`bench/update-figures.py` puts it in place).
extension BenchmarkReport {
    /// One row per folder (a condition), then all: commands acted on right, asked about first and
    /// heard right, acted on wrong, and false acceptances; plain pocketsphinx's beside them when it ran.
    public func markdown() -> String {
        let folders = outcomes.reduce(into: [String]()) { seen, outcome in
            if !seen.contains(outcome.folder) { seen.append(outcome.folder) }
        }
        let band = asking?.band ?? 0
        let hasBaseline = baseline != nil
        var lines = [
            "| condition | commands | Hark: right / asked, heard right / **wrong** | false acceptances"
                + (hasBaseline ? " | plain pocketsphinx: right / **wrong** | false acceptances |" : " |"),
            "|---|---|---|---" + (hasBaseline ? "|---|---|" : "|"),
        ]
        let groups = folders.map { folder in (folder, outcomes.filter { $0.folder == folder }) }
            + (folders.count > 1 ? [("all", outcomes)] : [])
        for (name, group) in groups {
            let tally = MarkdownTally(group, threshold: threshold, askBand: band)
            var row = "| \(name) | \(tally.commands) | \(tally.right) / \(tally.asked) / **\(tally.wrong)** | "
                + "\(tally.falseAcceptances) of \(tally.toReject)"
            if hasBaseline {
                row += " | \(tally.plainRight) / **\(tally.plainWrong)** | \(tally.plainFalseAcceptances) of \(tally.toReject)"
            }
            lines.append(row + " |")
        }
        lines.append("")
        lines.append("Threshold " + String(format: "%.2f", threshold) + ", ask band " + String(format: "%.2f", band)
                     + "; real-time factor " + String(format: "%.3f", realTimeFactor)
                     + (baseline.map { " (plain pocketsphinx " + String(format: "%.3f", $0.realTimeFactor) + ")" } ?? "")
                     + ", decode p50 " + String(format: "%.0f", decodeLatencyP50 * 1000) + " ms, p95 "
                     + String(format: "%.0f", decodeLatencyP95 * 1000) + " ms, peak "
                     + String(format: "%.0f", peakResidentMegabytes) + " MB.")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// One group's counts for the table.
private struct MarkdownTally {
    var commands = 0, right = 0, asked = 0, wrong = 0, toReject = 0, falseAcceptances = 0
    var plainRight = 0, plainWrong = 0, plainFalseAcceptances = 0

    init(_ outcomes: [BenchmarkOutcome], threshold: Double, askBand: Double) {
        for outcome in outcomes {
            let acted = outcome.accepted(at: threshold)
            let plainActed = outcome.baseline?.understood ?? false
            if outcome.mustReject {
                toReject += 1
                if acted { falseAcceptances += 1 }
                if plainActed { plainFalseAcceptances += 1 }
                continue
            }
            commands += 1
            if acted {
                if outcome.commandRight { right += 1 } else { wrong += 1 }
            } else if outcome.understood, outcome.commandRight, outcome.margin >= threshold - askBand {
                asked += 1
            }
            if plainActed {
                if outcome.baseline?.commandRight == true { plainRight += 1 } else { plainWrong += 1 }
            }
        }
    }
}
