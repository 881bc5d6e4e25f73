import ArgumentParser
import Foundation
import HarkBench
import HarkAudio
import HarkRuntime
import HarkSpeech

/// `hark bench-echo`: wake words said while Hark speaks, with and without the echo canceller.
struct BenchEcho: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench-echo",
        abstract: "Measure the echo canceller: wake words said while Hark speaks, in a simulated room.",
        discussion: """
        Hark's own reply (which names the wake word) comes back into the microphone through a \
        loudspeaker 37 ms and a reverberant room away, at 0, -6 and -12 dB relative to the person, \
        and each recording of a person saying "jarvis" lands 3 s into it. Each is heard by the \
        wake-word spotter in a quiet room, over the echo, and over the echo after the canceller \
        (its delay estimated from the audio). Prints wakes found each way, the echo return loss \
        enhancement, and how often Hark's own voice woke it. The spotter checks a likely wake \
        word against the installed common words (models/other-words.txt), as hark listen does \
        (--other-words chooses another list, or none), and hears through the installed \
        adaptation of the acoustic model (models/en-us.mllr; --acoustic-adaptation chooses another, \
        or none). \
        With --noise, household noise goes on throughout. make bench-echo runs it on the test \
        recordings of make bench-wake's corpus, in a quiet room and with household noise at 10 dB.
        """)

    @Argument(help: ArgumentHelp("Recordings of people saying \"jarvis\" (WAV files, or folders of them: a folder's test-* files when it has any).", valueName: "wav|dir"))
    var recordings: [String]

    @Option(help: ArgumentHelp("Use at most this many recordings.", valueName: "n"))
    var count = 100

    @Option(help: ArgumentHelp("Then play this many minutes of Hark's own replies naming the wake word, and as many not naming it, into a quiet room, and count how often its own voice wakes it (0: skip).", valueName: "minutes"))
    var ownVoiceMinutes = 0.0

    @Option(help: ArgumentHelp("Also hear each recording through this program's echo canceller, for comparison: run as PROGRAM CAPTURED.raw PLAYED.raw CLEANED.raw DELAY_MS (16 kHz mono 16-bit raw); make bench-echo builds bench/webrtc-aec.cc for it.", valueName: "program"))
    var externalCanceller: String?

    @Option(name: .customLong("noise"), help: ArgumentHelp("Household noise heard throughout, in the quiet room too (a WAV file; give several and each recording takes the next).", valueName: "wav"))
    var noiseFiles: [String] = []

    @Option(help: ArgumentHelp("How far the noise stays below the person's speech (dB; the speech's power is that of its 20 ms frames within 30 dB of its loudest).", valueName: "dB"))
    var noiseSnr = 10.0

    @Option(help: ArgumentHelp("Check a likely wake word against these common words (one a line), or none not to. Without it, the installed models/other-words.txt, as hark listen does.", valueName: "file|none"))
    var otherWords: String?

    @Option(help: RecognizerOptions.wakeAdaptationHelp)
    var acousticAdaptation: String?

    func validate() throws {
        if let otherWords { _ = try RecognizerOptions.otherWordsList(otherWords) }
        try RecognizerOptions.requireReadableWakeAdaptation(acousticAdaptation)
    }

    func run() async throws {
        var files: [URL] = []
        for path in recordings {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw ValidationError("\(path) does not exist")
            }
            if isDirectory.boolValue {
                var names = try FileManager.default.contentsOfDirectory(atPath: path).filter { $0.hasSuffix(".wav") }.sorted()
                // A bench-wake corpus folder: the test recordings (the verifier learnt from tune-*).
                if names.contains(where: { $0.hasPrefix("test-") }) { names = names.filter { $0.hasPrefix("test-") } }
                files += names.map { URL(fileURLWithPath: path).appendingPathComponent($0) }
            } else {
                files.append(URL(fileURLWithPath: path))
            }
        }
        guard !files.isEmpty else { throw ValidationError("no WAV recordings in \(recordings.joined(separator: ", "))") }
        var benchmark = EchoBenchmark(recordings: Array(files.prefix(count)))
        if let externalCanceller {
            guard FileManager.default.isExecutableFile(atPath: externalCanceller) else {
                throw ValidationError("--external-canceller: \(externalCanceller) is not an executable program")
            }
            benchmark.externalCanceller = URL(fileURLWithPath: externalCanceller)
        }
        do {
            benchmark.noises = try noiseFiles.map { try WAVFile.read(contentsOf: URL(fileURLWithPath: $0)).pipelineSamples() }
        } catch {
            throw ValidationError("--noise: \(error)")
        }
        benchmark.noiseSNR = noiseSnr
        // Without --other-words, the wake word is checked against the installed common words, as
        // hark listen checks it.
        let otherWords: [String]
        do {
            otherWords = try RecognizerOptions.otherWordsListOrInstalled(self.otherWords)
        } catch {
            throw fail(error)
        }
        benchmark.otherWords = otherWords
        print(otherWords.isEmpty ? "the wake word is not checked against other words"
                                 : "the wake word is checked against \(otherWords.count) other words")
        let acousticTransform = RecognizerOptions.adaptationOrInstalled(acousticAdaptation)
        benchmark.acousticTransform = acousticTransform
        print("acoustic model: \(AcousticTransform.modelDescription(acousticTransform))")
        if !noiseFiles.isEmpty {
            print("household noise at \(String(format: "%g", noiseSnr)) dB below the person: \(noiseFiles.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", "))")
        }
        do {
            let rows = try await benchmark.run { FileHandle.standardError.write(Data("\r\($0)   ".utf8)) }
            printError("")
            print(EchoBenchmark.table(rows))
            if let externalCanceller {
                print(EchoBenchmark.externalTable(rows, name: URL(fileURLWithPath: externalCanceller).lastPathComponent))
            }
            if ownVoiceMinutes > 0 {
                var ownVoiceBenchmark = OwnVoiceBenchmark(minutes: ownVoiceMinutes)
                ownVoiceBenchmark.otherWords = otherWords
                ownVoiceBenchmark.acousticTransform = acousticTransform
                let ownVoice = try await ownVoiceBenchmark.run { FileHandle.standardError.write(Data("\r\($0)   ".utf8)) }
                printError("")
                print(OwnVoiceBenchmark.table(ownVoice))
            }
        } catch {
            throw fail(error)
        }
    }
}
