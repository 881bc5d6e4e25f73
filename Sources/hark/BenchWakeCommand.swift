import ArgumentParser
import Foundation
import HarkRuntime
import HarkSpeech

/// `hark bench-wake`: miss rate and false alarms of the wake phrase, over a sweep of sensitivities.
struct BenchWake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-wake",
        abstract: "Measure wake-word spotting: misses, false alarms per hour, CPU and memory.",
        discussion: """
        Every WAV in --positives must hold the phrase once (e.g. ../shared/corpora/wake-jarvis); every \
        WAV in --negatives must not hold it (bench/make-negatives.sh makes hours of such speech). Each \
        folder is fed to the spotter as one stream, each recording followed by a second of silence. \
        Prints, for each sensitivity, the recordings missed and the false alarms per hour of \
        negative audio, then the spotter as it listens at the default sensitivity, the CPU seconds \
        spotting costs per second of audio, and peak memory.
        """)

    @Option(help: ArgumentHelp("Folder of recordings that each say the phrase once.", valueName: "dir"))
    var positives: String

    @Option(help: ArgumentHelp("Folder of recordings that never say it.", valueName: "dir"))
    var negatives: String

    @Option(help: ArgumentHelp("The wake phrase, in dictionary words.", valueName: "phrase"))
    var phrase = WakeWordConfiguration().keyPhrase

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Sensitivities to sweep, 0…1.", valueName: "s"))
    var sensitivities: [Double] = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]

    @Flag(help: "Skip running the spotter as it listens at the default sensitivity (halves the time).")
    var sweepOnly = false

    @Option(help: ArgumentHelp("Write the figures as JSON to this file.", valueName: "file"))
    var json: String?

    func validate() throws {
        for value in sensitivities where !(0...1).contains(value) {
            throw ValidationError("--sensitivities \(value) is outside 0…1")
        }
    }

    func run() throws {
        let positiveFiles = try Self.recordings(positives, flag: "--positives")
        let negativeFiles = try Self.recordings(negatives, flag: "--negatives")
        do {
            let benchmark = WakeWordBenchmark(phrase: phrase, sensitivities: sensitivities,
                                              liveSensitivity: sweepOnly ? nil : WakeWordSpotter.defaultSensitivity)
            var bars: [String: ProgressBar] = [:]
            let report = try benchmark.run(positives: positiveFiles, negatives: negativeFiles) { stage, done, total in
                let bar = bars[stage] ?? ProgressBar(label: stage)
                bars[stage] = bar
                bar.show(done, of: total)
                if done == total { bar.finish() }
            }
            print(report.summary())
            if let json { try writeFigures(report, to: json) }
        } catch {
            throw fail(error)
        }
    }

    static func recordings(_ path: String, flag: String) throws -> [URL] {
        let files: [URL]
        do {
            files = try WakeWordBenchmark.recordings(in: URL(fileURLWithPath: path))
        } catch {
            throw ValidationError("\(flag) \(path): \(error.localizedDescription)")
        }
        guard !files.isEmpty else { throw ValidationError("\(flag) \(path) has no WAV files") }
        return files
    }
}

/// Writes a benchmark's figures as pretty, key-sorted JSON and says where.
func writeFigures(_ report: some Encodable, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(report).write(to: URL(fileURLWithPath: path))
    print("figures written to \(path)")
}
