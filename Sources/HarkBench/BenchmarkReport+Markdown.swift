import Foundation

/// The report as the Markdown table docs/benchmarks.md keeps (`hark bench --markdown`), so the
/// document's figures come from the run itself (`bench/update-figures.py` puts it in place).
extension BenchmarkReport {
    /// One row per folder (a condition), then all: commands acted on right, asked about first and
    /// heard right, acted on wrong; commands heard right at any margin (the most any judging of
    /// these hearings could accept, beside plain pocketsphinx's right, which judges nothing); false
    /// acceptances; plain pocketsphinx's beside them when it ran.
    public func markdown() -> String {
        let folders = outcomes.reduce(into: [String]()) { seen, outcome in
            if !seen.contains(outcome.folder) { seen.append(outcome.folder) }
        }
        let band = asking?.band ?? 0
        let hasBaseline = baseline != nil
        var lines = [
            "| condition | commands | Hark: right / asked, heard right / **wrong** | Hark: heard right at any margin | false acceptances"
                + (hasBaseline ? " | plain pocketsphinx: right / **wrong** | false acceptances |" : " |"),
            "|---|---|---|---|---" + (hasBaseline ? "|---|---|" : "|"),
        ]
        let groups = folders.map { folder in (folder, outcomes.filter { $0.folder == folder }) }
            + (folders.count > 1 ? [("all", outcomes)] : [])
        for (name, group) in groups {
            // The same counts as the whole report's, for this group alone.
            let figures = BenchmarkReport(outcomes: group, threshold: threshold)
            let asked = Self.asking(group, threshold: threshold, band: band).commandsRight
            let heardRight = group.filter(\.heardRightAtAnyMargin).count
            var row = "| \(name) | \(figures.mustAccept) | \(figures.commandsAccepted) / \(asked) / **\(figures.misrecognitions)** | "
                + "\(heardRight) | \(figures.falseAcceptances) of \(figures.mustReject)"
            if let plain = figures.baseline {
                row += " | \(plain.commandsAccepted) / **\(plain.misrecognitions)** | \(plain.falseAcceptances) of \(figures.mustReject)"
            }
            lines.append(row + " |")
        }
        lines.append("")
        lines.append("Threshold " + String(format: "%.2f", threshold) + ", ask band " + String(format: "%.2f", band)
                     + "; real-time factor " + String(format: "%.3f", realTimeFactor)
                     + (baseline.map { " (plain pocketsphinx " + String(format: "%.3f", $0.realTimeFactor)
                         + (cpuAgainstBaseline.map { String(format: "; Hark %.2f× its CPU", $0) } ?? "") + ")" } ?? "")
                     + ", decode p50 " + String(format: "%.0f", decodeLatencyP50 * 1000) + " ms, p95 "
                     + String(format: "%.0f", decodeLatencyP95 * 1000) + " ms, peak "
                     + String(format: "%.0f", peakResidentMegabytes) + " MB. CPU by stage: " + cpuByStageText + ".")
        return lines.joined(separator: "\n") + "\n"
    }
}
