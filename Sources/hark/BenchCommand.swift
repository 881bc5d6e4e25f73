import ArgumentParser
import Foundation
import HarkBench
import HarkRuntime
import HarkSpeech

/// `hark bench`: accuracy, speed and memory on a folder of labelled recordings.
struct Bench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Measure recognition on a folder of recordings with sidecars.",
        discussion: """
        Decodes every NAME.wav in each DIR that has a NAME.json sidecar in the rhasspy-test \
        layout ({"text": …, "intent": {"name": …}, "slots": {…}}; an intent of null means the \
        recording must be rejected) against the installed apps' phrases. Prints commands \
        understood and acted on, wrong actions (a command acted on with a wrong intent or value; \
        Hark's own commands count), false acceptances of speech to reject, what "Did you say …?" \
        would ask about, real-time factor (and the recogniser's CPU stage by stage), latency and \
        memory, by folder and by voice, and the same recordings judged at other thresholds. A \
        sidecar's "wakeAt" gives the seconds of room before the request, which is then cut as the \
        live loop cuts it. With --baseline, \
        plain pocketsphinx (the same model and grammar, its own defaults) hears every recording \
        too, beside Hark, and Hark's CPU is also given as a multiple of plain pocketsphinx's, which         a machine's changing speed moves less. docs/benchmarks.md describes the benchmarks built on it.
        """)

    @Argument(help: ArgumentHelp("Folders of recordings with sidecars (one per condition, e.g. clean and noisy).",
                                 valueName: "dir"))
    var directories: [String]

    @OptionGroup var apps: AppsOptions
    @OptionGroup var recognizer: RecognizerOptions

    @Option(help: ArgumentHelp("Write the figures as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the figures by folder as a Markdown table to this file, as docs/benchmarks.md keeps them.",
                               valueName: "file"))
    var markdown: String?

    @Flag(help: "Also decode every recording with plain pocketsphinx and print its figures beside Hark's.")
    var baseline = false

    @Option(help: ArgumentHelp("Resample each recording to this rate first (e.g. 48000) to measure other input rates.",
                               valueName: "hz"))
    var inputRate: Int?

    @Flag(help: "Find the wake phrase a sidecar names (\"wakePhrase\") with the wake-word spotter, as the live loop does, and cut the request from where it ended (recorded turns, make bench-noise's turns).")
    var spotWake = false

    @Option(help: ArgumentHelp("With --spot-wake, the odds from which a wake word is tentative, or none (default: \(String(format: "%g", LiveSettings.standardTentativeWakeOdds))).",
                               valueName: "odds|none"))
    var tentativeWake: String?

    /// --tentative-wake as a setting: nil for none.
    private var tentativeWakeOdds: Double? {
        get throws {
            guard let tentativeWake else { return LiveSettings.standardTentativeWakeOdds }
            if ["none", "never"].contains(tentativeWake) { return nil }
            guard let odds = Double(tentativeWake), odds.isFinite else {
                throw ValidationError("--tentative-wake \(tentativeWake) is neither log odds (e.g. 1) nor none")
            }
            return odds
        }
    }

    func validate() throws {
        if tentativeWake != nil && !spotWake { throw ValidationError("--tentative-wake needs --spot-wake") }
        _ = try tentativeWakeOdds
        if let inputRate, !(8_000...192_000).contains(inputRate) {
            throw ValidationError("--input-rate \(inputRate) is outside 8000–192000 Hz")
        }
    }

    func run() async throws {
        var recordings: [URL] = []
        for directory in directories {
            let found: [URL]
            do {
                found = try Benchmark.recordings(in: URL(fileURLWithPath: directory))
            } catch {
                throw ValidationError("cannot read \(directory): \(error.localizedDescription)")
            }
            guard !found.isEmpty else {
                throw ValidationError("\(directory) has no NAME.wav with a NAME.json sidecar")
            }
            recordings += found
        }
        do {
            // Decoded once with no threshold, so every threshold can be judged from the same decoding.
            var configuration = try assistantConfiguration(apps: apps, recognizer: recognizer)
            let threshold = configuration.recognizer.rejectionMargin
            configuration.recognizer.rejectionMargin = -.infinity
            // The search beside other words runs where it could change the verdict at the setting,
            // and a noisy room's requests are asked about as they would be at it.
            configuration.recognizer.judgedAt = threshold
            // A benchmark measures the apps' grammar alone, and what it decodes is not something the person did.
            configuration.database = nil
            let assistant = try await Assistant.start(configuration)
            for problem in assistant.startupProblems { printError("hark: warning: \(problem)") }
            let bar = ProgressBar(label: "decoding")
            var benchmark = Benchmark(assistant: assistant, inputRate: inputRate, threshold: threshold,
                                      baseline: baseline)
            benchmark.askBand = configuration.recognizer.askBand
            benchmark.noisyConfirmation = configuration.recognizer.noisyConfirmation
            benchmark.telephoneBandReach = configuration.recognizer.telephoneBandReach
            if spotWake {
                var wake = LiveSettings()
                wake.tentativeWakeOdds = try tentativeWakeOdds
                try wake.prepareWakeWord(recognizer: recognizer)
                benchmark.wakeSettings = wake
            }
            var report = try await benchmark.run(recordings) { done, total in
                bar.show(done, of: total)
            }
            report.acousticModel = AcousticTransform.modelDescription(configuration.recognizer.acousticTransform)
            report.noiseFloor = configuration.recognizer.noiseFloor
            report.noiseFloorHeadroom = configuration.recognizer.noiseFloorHeadroom
            report.fillerProbability = configuration.recognizer.fillerProbability
            report.noiseCompensation = configuration.recognizer.noiseCompensationDescription
            report.denoisesAbove = configuration.recognizer.denoisesAbove
            report.denoisesBelow = configuration.recognizer.denoisesBelow
            let recognizer = try configuration.recognizerConfiguration()
            report.otherWords = recognizer.otherWords.isEmpty ? "" : "\(recognizer.otherWords.count) beside \(recognizer.otherWordsScope)"
            report.measureAsking(band: configuration.recognizer.askBand)
            bar.finish()
            print(report.summary())
            if let json { try writeFigures(report, to: json) }
            if let markdown { try writeMarkdown(report.markdown(), to: markdown) }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}

/// A one-line progress bar on standard error, redrawn in place when it is a terminal.
/// Written to a log instead, a line each time another cell of the bar fills (at most 31 lines).
final class ProgressBar: @unchecked Sendable {
    // @unchecked: `cellsWritten` is read and written under `lock` (workers report from their threads).
    private let label: String
    private let interactive = isatty(STDERR_FILENO) != 0
    private let lock = NSLock()
    private var cellsWritten: Int?
    private static let width = 30

    init(label: String) {
        self.label = label
    }

    func show(_ done: Int, of total: Int) {
        show(fraction: total > 0 ? Double(done) / Double(total) : 1, detail: "\(done)/\(total)")
    }

    /// `fraction` of the work done (0…1), with `detail` ("12/40") after the bar.
    func show(fraction: Double, detail: String) {
        let filled = min(max(Int(fraction * Double(Self.width)), 0), Self.width)
        let line = "\(label) [\(String(repeating: "#", count: filled))\(String(repeating: ".", count: Self.width - filled))] \(detail)"
        lock.lock()
        defer { lock.unlock() }
        if interactive {
            FileHandle.standardError.write(Data("\r\(line)".utf8))
        } else if filled != cellsWritten {
            cellsWritten = filled
            FileHandle.standardError.write(Data("\(line)\n".utf8))
        }
    }

    func finish() {
        if interactive { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
