import ArgumentParser
import Foundation
import HarkBench
import HarkRuntime
import HarkSpeech

/// `hark bench-wake`: misses and false alarms of wake phrases on a real-voice corpus.
struct BenchWake: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-wake",
        abstract: "Measure wake-word spotting: misses, false alarms per 10 hours, CPU and memory.",
        discussion: """
        --corpus is a folder as bench/make-wake-corpus.py makes it (make bench-wake does): \
        positives/PHRASE/CONDITION/*.wav, each saying the phrase once, and negatives/*.wav, hours \
        of speech that must not wake Hark. Files named tune-* may have been learned from; the \
        figures are the test-* files'. Every file is fed to the spotter as a stream, in 100 ms \
        pieces, on --jobs threads.

        For each phrase and condition it prints the test recordings missed and the false alarms \
        on the test negatives (per 10 hours of audio, the phrase's own recordings left out): \
        Hark at --sensitivity, Hark at the threshold chosen on the tune negatives, Hark at its \
        best threshold with at most one false alarm per 10 hours, and Hark's first search alone \
        (its likelihood ratio, no second look) at pocketsphinx's default threshold and at its own \
        best. With --baseline (make bench-wake gives it), every file is also heard by plain \
        pocketsphinx's keyword search in the same run: Debian's model, its dictionary and every \
        setting at its default, none of Hark's front end, as someone would spot the phrase without \
        Hark. Then the CPU and memory of the spotter as it listens.
        """)

    @Option(help: ArgumentHelp("The corpus folder (positives/ and negatives/).", valueName: "dir"))
    var corpus: String

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Phrases to measure: folder names under positives/ (\"hey-chatterbox\" is \"hey chatterbox\").", valueName: "phrase"))
    var phrases: [String] = ["jarvis", "athena", "amelia"]

    @Option(help: ArgumentHelp("Sensitivity 0…1 of the first row.", valueName: "s"))
    var sensitivity = WakeWordSpotter.defaultSensitivity

    @Option(help: ArgumentHelp("A verifier to measure instead of the shipped one (JSON, as bench/fit-wake-verifier.py writes).", valueName: "file"))
    var verifier: String?

    @Flag(help: "Also hear every file with plain pocketsphinx's keyword search (its defaults, Debian's model) and print its figures beside Hark's.")
    var baseline = false

    @Option(help: RecognizerOptions.wakeAdaptationHelp)
    var acousticAdaptation: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The faint white noise (dBFS) added before the spotter hears the audio, as `hark listen` does, or none to hear the recordings as they are.", valueName: "dB|none"))
    var noiseFloor = String(format: "%.0f", NoiseFloor.standardLevel)

    @Flag(help: ArgumentHelp("Bring a voice quieter than \(String(format: "%g", FaintVoiceGain.quietestUsualVoice)) dBFS (its loudest 100 ms of the last ten seconds) up to \(String(format: "%g", FaintVoiceGain.usualVoice)) dBFS before the spotter hears it (as `hark listen` does with wake_faint_voice_gain: on)."))
    var faintVoiceGain = false

    @Option(help: ArgumentHelp("How far a partial phrase may fall behind the search's best path before it is given up (pocketsphinx's -beam, a likelihood ratio between 0 and 1).", valueName: "ratio"))
    var searchBeam = WakeWordSpotter.searchBeam

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Give a second look only to candidates whose search score per 10 ms frame (log10 of the phrase's likelihood over the phone loop's) is at least this; lower finds more real renderings and costs CPU.", valueName: "log10"))
    var proposalThreshold = WakeWordSpotter.proposalThreshold

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How far (dB) above the room's level audio must be for the front end's cepstral mean to learn from it, or none to learn from everything (pocketsphinx's way).", valueName: "dB|none"))
    var meanGate = WakeWordSpotter.meanGate.map { String(format: "%g", $0) } ?? "none"

    @Option(parsing: .unconditional,
            help: ArgumentHelp("The room level (dBFS) above which the spotter hears through WebRTC's noise suppression, or none never to.", valueName: "dBFS|none"))
    var denoiseAbove = String(format: "%g", WakeWordSpotter.denoisingRoomLevel)

    @Option(help: ArgumentHelp("Check the candidates the verifier finds likely against these common words (one a line), or none not to. Without it, the installed models/other-words.txt, as hark listen does.", valueName: "file|none"))
    var otherWords: String?

    @Option(help: ArgumentHelp("Threads decoding at once.", valueName: "n"))
    var jobs = max(1, ProcessInfo.processInfo.activeProcessorCount)

    @Option(help: ArgumentHelp("Decode only the tune-* or the test-* files (e.g. tune, to fit a verifier on).", valueName: "split"))
    var split: String?

    @Option(help: ArgumentHelp("Write the figures and every candidate as JSON to this file.", valueName: "file"))
    var json: String?

    @Option(help: ArgumentHelp("Write the figures by phrase as a Markdown table to this file, as docs/benchmarks.md keeps them.",
                               valueName: "file"))
    var markdown: String?

    func validate() throws {
        guard (0...1).contains(sensitivity) else { throw ValidationError("--sensitivity \(sensitivity) is outside 0…1") }
        if let split, !["tune", "test"].contains(split) { throw ValidationError("--split is tune or test, not \(split)") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        if let otherWords { _ = try RecognizerOptions.otherWordsList(otherWords) }
        guard proposalThreshold.isFinite else { throw ValidationError("--proposal-threshold \(proposalThreshold) is not a number") }
        guard WakeWordSpotter.isSearchBeam(searchBeam) else { throw ValidationError("--search-beam \(searchBeam) is not between 0 and 1 (e.g. 1e-100)") }
        try RecognizerOptions.requireReadableWakeAdaptation(acousticAdaptation)
        _ = try noiseFloorLevel(noiseFloor)
        _ = try meanGateLevel(meanGate)
        _ = try denoisingLevel(denoiseAbove)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ValidationError("--corpus \(corpus) is not a folder (make bench-wake makes one with bench/make-wake-corpus.py)")
        }
        for phrase in phrases {
            let folder = URL(fileURLWithPath: corpus).appendingPathComponent("positives").appendingPathComponent(phrase)
            guard FileManager.default.fileExists(atPath: folder.path) else {
                throw ValidationError("--corpus \(corpus) has no positives/\(phrase) folder")
            }
        }
    }

    func run() throws {
        do {
            let model = try verifier.map { (path) throws(RecognitionError) in try WakeWordVerifierModel.load(from: path) }
                ?? WakeWordVerifierModel.shipped ?? WakeWordVerifierModel.neutral
            var benchmark = WakeWordBenchmark(corpus: URL(fileURLWithPath: corpus), phrases: phrases, verifier: model,
                                              sensitivity: sensitivity, jobs: jobs, split: split)
            // Words the dictionary lacks are pronounced as `hark listen` would: lexicon, then espeak-ng.
            var words = WakeWordConfiguration(keyPhrase: WakeWordBenchmark.words(phrases[0]))
            words.otherPhrases = phrases.dropFirst().map(WakeWordBenchmark.words)
            try Pronouncer.pronounceMissingWords(of: &words, models: HarkPaths.modelsDirectory())
            benchmark.pronunciations = words.pronunciations
            benchmark.acousticTransform = RecognizerOptions.adaptationOrInstalled(acousticAdaptation)
            benchmark.noiseFloor = try noiseFloorLevel(noiseFloor)
            benchmark.amplifiesFaintVoices = faintVoiceGain
            benchmark.searchBeam = searchBeam
            benchmark.proposalThreshold = proposalThreshold
            benchmark.meanGate = try meanGateLevel(meanGate)
            benchmark.denoisesAbove = try denoisingLevel(denoiseAbove)
            benchmark.otherWords = try RecognizerOptions.otherWordsListOrInstalled(otherWords)
            benchmark.baseline = baseline
            // Before the bar: the cost is measured first, on one spotter alone, and takes a while.
            printError("hark: measuring what listening costs (one spotter, ten minutes of speech and one of quiet; about half a minute)")
            let bar = ProgressBar(label: "audio")
            let report = try benchmark.run { progress in
                bar.show(fraction: progress.fraction, detail: progress.summary)
                if progress.streams == progress.totalStreams { bar.finish() }
            }
            print(report.summary())
            if let json { try writeFigures(report, to: json) }
            if let markdown { try writeMarkdown(report.markdown(), to: markdown) }
        } catch {
            throw fail(error)
        }
    }
}

/// Writes a benchmark's figures as pretty, key-sorted JSON and says where.
func writeFigures(_ report: some Encodable, to path: String) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    try encoder.encode(report).write(to: URL(fileURLWithPath: path), options: .atomic)
    print("figures written to \(path)")
}

/// Writes a benchmark's Markdown table (`bench/update-figures.py` puts it into docs/benchmarks.md).
func writeMarkdown(_ table: String, to path: String) throws {
    try Data(table.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
    print("table written to \(path)")
}
