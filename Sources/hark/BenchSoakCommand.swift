import ArgumentParser
import Foundation
import HarkBench
import HarkAudio
import HarkRuntime

/// `hark bench-soak`: many utterances in one process, to show that nothing grows with use.
struct BenchSoak: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-soak",
        abstract: "Answer thousands of recorded requests in one process and report memory as it goes.",
        discussion: """
        Reads the recordings once (WAV files, or folders of them), then answers them in turn, \
        again and again, until --utterances have been heard: each is decoded, understood, carried \
        out with the installed apps and answered in speech (synthesised, not played), and every \
        request carried out is donated to a fresh shortcuts database in a temporary folder, so the \
        whole path a device runs every day is exercised. Prints resident memory, peak memory and \
        CPU per utterance at each checkpoint; memory that keeps rising between checkpoints is a leak.
        """)

    @Argument(help: ArgumentHelp("Recordings (WAV) or folders of them.", valueName: "wav-or-dir"))
    var inputs: [String]

    @OptionGroup var apps: AppsOptions

    @Option(help: ArgumentHelp("How many utterances to answer in all (default 10000).", valueName: "n"))
    var utterances = 10_000

    @Option(help: ArgumentHelp("Report memory after these many utterances, comma-separated (default 100,1000; and always at the end).",
                               valueName: "list"))
    var checkpoints = "100,1000"

    @Option(help: ArgumentHelp("Write the checkpoints as JSON to this file.", valueName: "file"))
    var json: String?

    func validate() throws {
        guard utterances > 0 else { throw ValidationError("--utterances must be at least 1") }
        guard parsedCheckpoints() != nil else {
            throw ValidationError("--checkpoints takes positive whole numbers separated by commas, e.g. 100,1000")
        }
    }

    func parsedCheckpoints() -> Set<Int>? {
        var numbers = Set<Int>()
        for part in checkpoints.split(separator: ",", omittingEmptySubsequences: false) {
            guard let number = Int(part.trimmingCharacters(in: .whitespaces)), number > 0 else { return nil }
            numbers.insert(number)
        }
        return numbers
    }

    func run() async throws {
        let recordings = try wavFiles()
        var said: [(name: String, samples: [Int16])] = []
        for url in recordings {
            do {
                said.append((url.lastPathComponent, try WAVFile.read(contentsOf: url).pipelineSamples()))
            } catch {
                throw fail(error)
            }
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("hark-soak-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: false)
        } catch {
            throw fail(error)
        }
        defer { try? FileManager.default.removeItem(at: scratch) }
        do {
            var configuration = try assistantConfiguration(apps: apps)
            configuration.database = scratch.appendingPathComponent("shortcuts.sqlite")
            configuration.dataDirectory = scratch
            configuration.donates = true
            let assistant = try await Assistant.start(configuration)
            for problem in assistant.startupProblems { printError("hark: warning: \(problem)") }
            print("\(said.count) recordings, \(utterances) utterances; memory at start \(Self.megabytes(ProcessClock.residentMegabytes()))")
            let bar = ProgressBar(label: "answering")
            let soak = SoakRun(assistant: assistant, utterances: said)
            let outcome = try await soak.run(count: utterances, checkpoints: parsedCheckpoints() ?? []) { done, total in
                bar.show(done, of: total)
            }
            bar.finish()
            print("understood \(outcome.understood) of \(utterances), \(outcome.replies) replies spoken")
            print("  utterances   resident   peak       CPU per utterance")
            for checkpoint in outcome.checkpoints {
                let resident = Self.megabytes(checkpoint.residentMegabytes).padding(toLength: 9, withPad: " ", startingAt: 0)
                let peak = Self.megabytes(checkpoint.peakResidentMegabytes).padding(toLength: 9, withPad: " ", startingAt: 0)
                print(String(format: "  %10d   ", checkpoint.utterances) + resident + "  " + peak + "  "
                      + String(format: "%.0f ms", checkpoint.cpuSecondsPerUtterance * 1000))
            }
            if let first = outcome.checkpoints.first, let last = outcome.checkpoints.last, last.utterances > first.utterances {
                let growth = (last.residentMegabytes - first.residentMegabytes) / Double(last.utterances - first.utterances) * 1000
                print(String(format: "resident growth after %d utterances: %+.2f MB per 1,000", first.utterances, growth))
            }
            if let json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(outcome.checkpoints).write(to: URL(fileURLWithPath: json))
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }

    static func megabytes(_ value: Double) -> String { String(format: "%.1f MB", value) }

    /// The WAV files named, and those in the folders named, in order.
    func wavFiles() throws -> [URL] {
        var files: [URL] = []
        for input in inputs {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: input, isDirectory: &isDirectory) else {
                throw ValidationError("\(input): no such file or folder")
            }
            if isDirectory.boolValue {
                let found: [URL]
                do {
                    found = try WAVFile.files(in: URL(fileURLWithPath: input))
                } catch {
                    throw ValidationError("cannot read \(input): \(error.localizedDescription)")
                }
                guard !found.isEmpty else { throw ValidationError("\(input) has no WAV files") }
                files += found
            } else {
                files.append(URL(fileURLWithPath: input))
            }
        }
        return files
    }
}
