public import Foundation
import HarkAudio
import HarkVoice

/// What passes between Hark and a speech worker (`hark speak-worker`), a child process with an
/// espeak-ng of its own: espeak-ng keeps one engine per process, so more than one text is spoken
/// at once only by more processes. One JSON line sets the worker up; then each request is a JSON
/// line, and each answer a JSON line followed by its audio (16-bit little-endian mono).
public enum SpeechWorkerWire {
    public struct Setup: Codable, Sendable {
        public var voice: String
        public var rate: Int
        public var pitch: Int
        /// `SpokenLexicon.mnemonics`.
        public var lexicon: [String: String]
    }

    public struct Request: Codable, Sendable {
        public var text: String
        public var voice: String?
    }

    public struct Answer: Codable, Sendable {
        /// Samples per second and how many follow; nil with an error.
        public var rate: Int?
        public var samples: Int?
        public var error: String?
    }

    /// The worker's side: reads the setup, then answers each request until its input ends.
    /// Returns when Hark closes the pipe (or goes away); throws only when it cannot go on.
    public static func serve(input: FileHandle, output: FileHandle) throws {
        var lines = LineReader(input)
        guard let first = lines.next() else { return }
        let setup = try JSONDecoder().decode(Setup.self, from: Data(first.utf8))
        let synthesizer = try SpeechSynthesizer(settings: VoiceSettings(voice: setup.voice, rate: setup.rate, pitch: setup.pitch),
                                                lexicon: SpokenLexicon(mnemonics: setup.lexicon))
        while let line = lines.next() {
            let request = try JSONDecoder().decode(Request.self, from: Data(line.utf8))
            var answer = Answer()
            var audio = Data()
            do {
                let clip = try synthesizer.synthesize(request.text, voice: request.voice).mixedToMono()
                let samples = clip.int16Samples()
                answer.rate = clip.sampleRate
                answer.samples = samples.count
                audio = samples.withUnsafeBufferPointer { Data(buffer: $0) }
            } catch {
                answer.error = error.description
            }
            try output.write(contentsOf: try JSONEncoder().encode(answer) + Data("\n".utf8) + audio)
        }
    }

    /// Lines of a pipe, read as they come.
    struct LineReader {
        let handle: FileHandle
        var buffer = Data()

        init(_ handle: FileHandle) {
            self.handle = handle
        }

        mutating func next() -> String? {
            while true {
                if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer = Data(buffer[(newline + 1)...])
                    return line
                }
                // What the pipe holds now (read(upToCount:) would wait for all of the count).
                let more = handle.availableData
                guard !more.isEmpty else { return nil }
                buffer += more
            }
        }

        /// Exactly `count` bytes after what was read as lines.
        mutating func bytes(_ count: Int) -> Data? {
            while buffer.count < count {
                let more = handle.availableData
                guard !more.isEmpty else { return nil }
                buffer += more
            }
            let taken = Data(buffer.prefix(count))
            buffer = Data(buffer.dropFirst(count))
            return taken
        }
    }
}

/// Hark's side of one speech worker: the child process, started at its first request and again
/// after it fails. Its reads block, so it runs on a thread of its own.
actor SpeechWorker {
    private let executor = DedicatedExecutor(label: "hark.speech-worker")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let executable: URL
    private let setup: SpeechWorkerWire.Setup
    private var process: Process?
    private var input: FileHandle?
    private var output: SpeechWorkerWire.LineReader?

    init(executable: URL, setup: SpeechWorkerWire.Setup) {
        self.executable = executable
        self.setup = setup
    }

    /// `text` spoken by the worker. A worker that fails is stopped, and started afresh next time.
    func speak(_ text: String, voice: String?) throws(VoiceError) -> AudioClip {
        do {
            try startIfNeeded()
            guard let input else { throw VoiceError(.synthesis, "the speech worker has no input") }
            try input.write(contentsOf: try JSONEncoder().encode(SpeechWorkerWire.Request(text: text, voice: voice)) + Data("\n".utf8))
            guard let header = output?.next() else { throw VoiceError(.synthesis, "the speech worker ended") }
            let answer = try JSONDecoder().decode(SpeechWorkerWire.Answer.self, from: Data(header.utf8))
            if let error = answer.error { throw VoiceError(.synthesis, error) }
            guard let rate = answer.rate, let count = answer.samples, count >= 0,
                  let bytes = output?.bytes(count * 2) else {
                throw VoiceError(.synthesis, "the speech worker's answer was cut short")
            }
            let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
            return AudioClip(int16: samples, sampleRate: rate, channels: 1)
        } catch {
            stop()
            if let error = error as? VoiceError { throw error }
            throw VoiceError(.synthesis, "the speech worker failed: \(error)")
        }
    }

    /// Writing to a worker that has just died must fail with EPIPE, not kill Hark with SIGPIPE.
    private static let ignoreBrokenPipes: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    private func startIfNeeded() throws {
        Self.ignoreBrokenPipes
        if let process, process.isRunning { return }
        stop()
        let process = Process()
        process.executableURL = executable
        process.arguments = ["speak-worker"]
        let toWorker = Pipe(), fromWorker = Pipe()
        process.standardInput = toWorker
        process.standardOutput = fromWorker
        try process.run()
        self.process = process
        input = toWorker.fileHandleForWriting
        output = SpeechWorkerWire.LineReader(fromWorker.fileHandleForReading)
        try input?.write(contentsOf: try JSONEncoder().encode(setup) + Data("\n".utf8))
    }

    /// Ends the worker: its input closed, it returns; if it does not, it is killed.
    func stop() {
        // Closing our end of a pipe to a worker being dropped: should it fail, the worker is
        // killed below all the same.
        try? input?.close()
        input = nil
        output = nil
        if let process {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        process = nil
    }
}
