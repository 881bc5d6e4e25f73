import Foundation

/// The report as the Markdown table docs/benchmarks.md keeps (`hark bench-wake --markdown`).
extension WakeWordBenchmarkReport {
    /// One row per phrase and one for all: recordings missed in each condition and false alarms
    /// (per 10 hours) at the setting; missed at each phrase's best threshold with at most one false
    /// alarm per 10 hours (chosen on the very figures it reports: a bound on what a threshold can
    /// do, not a setting); plain pocketsphinx's keyword search beside them when it ran.
    public func markdown() -> String {
        let conditions = Set(figures.flatMap { $0.atSetting.recordings.keys }).sorted { Self.order($0) < Self.order($1) }
        let hasPlain = figures.contains { $0.plainPocketsphinx != nil }
        let missedHeader = conditions.joined(separator: " / ")
        var lines = ["| phrase | Hark missed, \(missedHeader) | Hark false alarms"
                        + " | Hark at its best threshold with ≤ 1 false alarm / 10 h: missed, \(missedHeader)"
                        + (hasPlain ? " | plain pocketsphinx missed, \(missedHeader) | plain false alarms |" : " |"),
                     "|---|---|---|---" + (hasPlain ? "|---|---|" : "|")]
        func missed(_ points: [Point]) -> String {
            conditions.map { condition in
                let missed = points.reduce(0) { $0 + ($1.missed[condition] ?? 0) }
                let recordings = points.reduce(0) { $0 + ($1.recordings[condition] ?? 0) }
                return recordings == 0 ? "–" : String(format: "%.1f %%", 100 * Double(missed) / Double(recordings))
            }.joined(separator: " / ")
        }
        func alarms(_ points: [Point], hours: Double) -> String {
            let count = points.reduce(0) { $0 + $1.falseAlarms }
            return "\(count)" + (hours > 0 ? String(format: " (%.1f per 10 h)", 10 * Double(count) / hours) : "")
        }
        var rows = figures.map { ($0.phrase, [$0], $0.testHours) }
        if figures.count > 1 { rows.append(("all", figures, figures.reduce(0) { $0 + $1.testHours })) }
        for (name, group, hours) in rows {
            var row = "| \(name) | \(missed(group.map(\.atSetting))) | \(alarms(group.map(\.atSetting), hours: hours))"
                + " | \(missed(group.map(\.bestAtOnePer10Hours)))"
            if hasPlain {
                let plain = group.compactMap(\.plainPocketsphinx)
                row += " | \(missed(plain)) | \(alarms(plain, hours: hours))"
            }
            lines.append(row + " |")
        }
        let hours = figures.map(\.testHours)
        lines.append("")
        lines.append("Sensitivity " + String(format: "%.2f", sensitivity) + " (odds " + String(format: "%+.2f", threshold)
                     + "); " + String(format: "%.1f", hours.min() ?? 0) + "–" + String(format: "%.1f", hours.max() ?? 0)
                     + " hours of other speech a phrase (\(figures.first?.split ?? "test") half); listening costs "
                     + String(format: "%.1f", 100 * cpuPerSecondSpeech) + " % of a core on speech, "
                     + String(format: "%.1f", 100 * cpuPerSecondQuiet) + " % in quiet.")
        return lines.joined(separator: "\n") + "\n"
    }

    /// Clean first, then from the quietest noise to the loudest ("snr20" before "snr10").
    private static func order(_ condition: String) -> Double {
        condition.hasPrefix("snr") ? -(Double(condition.dropFirst(3)) ?? 0) : -.infinity
    }
}
