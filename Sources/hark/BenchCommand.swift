import ArgumentParser
import Foundation
import HarkRuntime

/// `hark bench`: accuracy, speed and memory on a folder of labelled recordings.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure recognition on a folder of recordings with sidecars.",
        discussion: """
        Decodes every NAME.wav in DIR that has a NAME.json sidecar in the rhasspy-test layout
        ({"text": …, "intent": {"name": …}, "slots": {…}}; an intent of null means the recording
        must be rejected) against the installed apps' phrases, in one process with one warm decoder.
        Prints command acceptance, intent accuracy, false rejections and acceptances, slot
        confusions, real-time factor (CPU seconds / audio seconds), decode latency and peak memory.
        """)

    @Argument(help: ArgumentHelp("Folder of recordings with sidecars.", valueName: "dir"))
    var directory: String

    @OptionGroup var apps: AppsOptions
    @OptionGroup var recognizer: RecognizerOptions

    @Option(help: ArgumentHelp("Write the figures as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Resample each recording to this rate first (e.g. 48000) to measure other input rates.",
                               valueName: "hz"))
    var inputRate: Int?

    func validate() throws {
        if let inputRate, !(8_000...192_000).contains(inputRate) {
            throw ValidationError("--input-rate \(inputRate) is outside 8000–192000 Hz")
        }
    }

    func run() async throws {
        let recordings: [URL]
        do {
            recordings = try Benchmark.recordings(in: URL(fileURLWithPath: directory))
        } catch {
            throw ValidationError("cannot read \(directory): \(error.localizedDescription)")
        }
        guard !recordings.isEmpty else {
            throw ValidationError("\(directory) has no NAME.wav with a NAME.json sidecar")
        }
        do {
            // A benchmark measures the apps' grammar alone, and what it decodes is not something the person did.
            let assistant = try await startAssistant(apps: apps, recognizer: recognizer, database: nil)
            let bar = ProgressBar(label: "decoding")
            let report = try await Benchmark(assistant: assistant, inputRate: inputRate).run(recordings) { done, total in
                bar.show(done, of: total)
            }
            bar.finish()
            print(report.summary())
            if let json { try writeFigures(report, to: json) }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place when it is a terminal.
final class ProgressBar: Sendable {
    private let label: String
    private let interactive = isatty(STDERR_FILENO) != 0

    init(label: String) {
        self.label = label
    }

    func show(_ done: Int, of total: Int) {
        let width = 30
        let filled = total > 0 ? done * width / total : width
        let line = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: width - filled))] \(done)/\(total)"
        if interactive {
            FileHandle.standardError.write(Data("\r\(line)".utf8))
        } else if done == total || done % 10 == 0 {
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        }
    }

    func finish() {
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
