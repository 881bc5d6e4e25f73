public import Foundation
import HarkAudio
public import HarkSpeech
import HarkRuntime

/// Measures wake phrases on a corpus laid out as bench/make-wake-corpus.py makes it:
///
///     positives/PHRASE/CONDITION/SPLIT-ID.wav   each holds the phrase once ("hey-chatterbox" is "hey chatterbox")
///     negatives/SPLIT-FAMILY-NNN.wav            long streams without it; FAMILY "wake-PHRASE" is
///                                               left out when that phrase is measured
///
/// SPLIT is "tune" or "test": the figures are the "test" files'; the "tune" files' candidates
/// are written out (with `--json`) for fitting the verifier, and the operating point "chosen on
/// tune" is the loosest confidence with no false alarm on tune negatives.
///
/// Every file is one stream fed in 100 ms pieces to a spotter listening for all the phrases at
/// once and reporting every candidate: the audio is scored once for them all. Each stream starts
/// from the spotter's first state (`WakeWordSpotter.startAfresh`), whatever the job heard
/// before, so the figures repeat exactly. A positive is found at a threshold when a candidate
/// for its phrase, overlapping its recording, reaches it; on negatives, overlapping candidates
/// for a phrase are one false alarm, judged by the best.
///
/// Beside Hark's rows, its first search alone: the same search's likelihood ratio (not per frame,
/// no second look) at pocketsphinx's default threshold, 1, and at its own best threshold. With
/// `baseline`, every stream is also heard by plain pocketsphinx (`PlainKeywordSpotter`: Debian's
/// model, its defaults, none of Hark's front end), in the same run.
public struct WakeWordBenchmark: Sendable {
    public var corpus: URL
    public var phrases: [String]
    public var verifier: WakeWordVerifierModel
    public var sensitivity: Double
    public var jobs: Int
    /// Only the files of this split ("tune" or "test"); nil for both.
    public var split: String?
    /// Phones for the phrases' words the dictionary lacks ("chatterbox").
    public var pronunciations: [String: String] = [:]
    /// The acoustic adaptation the spotter listens through (`WakeWordConfiguration.acousticTransform`).
    public var acousticTransform: URL?
    /// The hiss added before the spotter hears the audio (`WakeWordConfiguration.noiseFloor`).
    public var noiseFloor: Double? = NoiseFloor.standardLevel
    /// Whether a faint voice is brought up first (`WakeWordConfiguration.amplifiesFaintVoices`).
    public var amplifiesFaintVoices = false
    /// The keyword search's beam (`WakeWordConfiguration.searchBeam`).
    public var searchBeam = WakeWordSpotter.searchBeam
    /// The search score below which candidates get no second look (`WakeWordConfiguration.proposalThreshold`).
    public var proposalThreshold = WakeWordSpotter.proposalThreshold
    /// What the front end's cepstral mean learns from (`WakeWordConfiguration.meanGate`).
    public var meanGate = WakeWordSpotter.meanGate
    /// The room level above which the spotter hears through noise suppression (`WakeWordConfiguration.denoisesAbove`).
    public var denoisesAbove: Double? = WakeWordSpotter.denoisingRoomLevel
    /// Common words candidates are checked against (`WakeWordConfiguration.otherWords`).
    public var otherWords: [String] = []
    /// Log odds the threshold is lowered by in a noisy room (`WakeWordConfiguration.noisyRoomAllowance`).
    public var noisyRoomAllowance = WakeWordSpotter.noisyRoomAllowance
    /// Also hear every stream with plain pocketsphinx's keyword search (`PlainKeywordSpotter`).
    public var baseline = false

    public init(corpus: URL, phrases: [String], verifier: WakeWordVerifierModel, sensitivity: Double, jobs: Int,
                split: String? = nil) {
        self.split = split
        self.corpus = corpus
        self.phrases = phrases
        self.verifier = verifier
        self.sensitivity = sensitivity
        self.jobs = jobs
    }

    /// One candidate the spotter proposed, or the best of overlapping ones.
    public struct Candidate: Sendable, Codable {
        public var phrase: String
        public var file: String
        public var split: String
        /// Seconds into the file where it ended.
        public var end: Double
        /// The search's score per frame and its likelihood ratio over the phrase (log10).
        public var score: Double
        public var ratio: Double
        public var confidence: Double
        public var evidence: WakeWordEvidence?
        /// How far (dB) it stood above its room (`WakeWordDetection.signalToNoise`).
        public var signalToNoise: Double?

        /// What a threshold is held against: the confidence, plus what a noisy room lets off
        /// (`WakeWordSpotter.allowance(signalToNoise:allowance:)`).
        public func judged(allowance: Double) -> Double {
            confidence + WakeWordSpotter.allowance(signalToNoise: signalToNoise, allowance: allowance)
        }
    }

    /// A positive recording and the best candidate for its phrase that overlapped it.
    public struct Positive: Sendable, Codable {
        public var phrase: String
        public var condition: String
        public var file: String
        public var split: String
        public var best: Candidate?
        /// The best likelihood ratio of any candidate for its phrase that overlapped it (log10).
        public var bestRatio: Double?
        /// The best confidence of any of them, with no noisy room's allowance (`best` is chosen with it).
        public var bestConfidence: Double?
        /// Whether plain pocketsphinx's keyword search reported the phrase; nil without the baseline.
        public var plainFound: Bool?
    }

    /// A phrase plain pocketsphinx's keyword search reported on a negative file.
    public struct PlainAlarm: Sendable, Codable {
        public var phrase: String
        public var file: String
        public var split: String
        /// Seconds into the file where the piece that brought it ended.
        public var end: Double
    }

    struct Stream: Sendable {
        var url: URL
        var split: String
        /// For positives: the phrase and condition, and where each recording lies (samples).
        var phrase: String?
        var condition: String?
        var family: String?
    }

    struct StreamOutcome: Sendable {
        var stream: Stream
        var candidates: [Candidate] = []
        var positives: [Positive] = []
        var plainAlarms: [PlainAlarm] = []
        var seconds = 0.0
    }

    public static func words(_ slug: String) -> String { slug.replacingOccurrences(of: "-", with: " ") }

    /// The streams of the corpus: positive recordings folder by folder, negatives file by file.
    func streams() throws -> [Stream] {
        var streams: [Stream] = []
        let files = FileManager.default
        for phrase in phrases {
            let folder = corpus.appendingPathComponent("positives").appendingPathComponent(phrase)
            for condition in try files.contentsOfDirectory(atPath: folder.path).sorted() {
                for url in try WAVFile.files(in: folder.appendingPathComponent(condition)) {
                    streams.append(Stream(url: url, split: Self.split(of: url), phrase: phrase, condition: condition))
                }
            }
        }
        for url in try WAVFile.files(in: corpus.appendingPathComponent("negatives")) {
            let name = url.deletingPathExtension().lastPathComponent
            // SPLIT-FAMILY-NNN
            let family = name.split(separator: "-").dropFirst().dropLast().joined(separator: "-")
            streams.append(Stream(url: url, split: Self.split(of: url), family: family))
        }
        return streams.filter { split == nil || $0.split == split }
    }

    /// The file's size: its share of the run's work. A symbolic link counts as the recording it
    /// points to (a corpus of links to another's files is a quick way to measure part of it), not
    /// as the few bytes of the link itself, which would leave the bar standing still.
    static func byteCount(of url: URL) throws -> Int {
        let path = url.resolvingSymlinksInPath().path
        let size: Any?
        do {
            size = try FileManager.default.attributesOfItem(atPath: path)[.size]
        } catch {
            throw WakeBenchmarkError("cannot read the size of \(url.path): \(error.localizedDescription)")
        }
        guard let bytes = (size as? NSNumber)?.intValue else {
            throw WakeBenchmarkError("cannot read the size of \(url.path): the file system gave none")
        }
        return bytes
    }

    static func split(of url: URL) -> String {
        url.lastPathComponent.hasPrefix("tune-") ? "tune" : "test"
    }

    func spotter() throws -> WakeWordSpotter {
        var configuration = listening()
        configuration.otherPhrases = phrases.dropFirst().map(Self.words)
        configuration.reportsCandidates = true
        return try WakeWordSpotter(configuration: configuration)
    }

    /// The spotter's settings as measured, listening for the first phrase.
    func listening() -> WakeWordConfiguration {
        var configuration = WakeWordConfiguration(keyPhrase: Self.words(phrases[0]), sensitivity: sensitivity)
        configuration.pronunciations = pronunciations
        configuration.verifier = verifier
        configuration.acousticTransform = acousticTransform
        configuration.noiseFloor = noiseFloor
        configuration.amplifiesFaintVoices = amplifiesFaintVoices
        configuration.searchBeam = searchBeam
        configuration.proposalThreshold = proposalThreshold
        configuration.meanGate = meanGate
        configuration.denoisesAbove = denoisesAbove
        configuration.otherWords = otherWords
        configuration.noisyRoomAllowance = noisyRoomAllowance
        return configuration
    }

    func run(_ stream: Stream, spotter: WakeWordSpotter, plain: PlainKeywordSpotter?) throws -> StreamOutcome {
        var outcome = StreamOutcome(stream: stream)
        let samples = try WAVFile.read(contentsOf: stream.url).pipelineSamples()
        // Every stream is heard from the same starting point, so the figures do not depend on
        // which stream a job happened to hear before (that moved misses by several in a hundred).
        try spotter.startAfresh()
        if stream.phrase != nil { try hearTheRoom(of: samples, spotter: spotter) }
        let origin = spotter.samplesProcessed
        let detections = try Self.fed(samples, to: spotter.process)
        outcome.seconds = Double(samples.count) / Double(PipelineAudio.sampleRate)
        let file = stream.url.lastPathComponent
        for (phrase, events) in Self.events(detections) {
            let slug = phrase.replacingOccurrences(of: " ", with: "-")
            outcome.candidates += events.map { event in
                Candidate(phrase: slug, file: file, split: stream.split, end: Double(event.best.endSample - origin) / 16_000,
                          score: event.best.score, ratio: event.ratio,
                          confidence: event.best.confidence, evidence: event.best.evidence,
                          signalToNoise: event.best.signalToNoise)
            }
        }
        let plainAlarms = try plain.map { (plain) throws in
            try Self.plainDetections(in: samples, heardAfterItsRoom: stream.phrase != nil, by: plain).map {
                PlainAlarm(phrase: $0.phrase.replacingOccurrences(of: " ", with: "-"), file: file, split: stream.split, end: $0.seconds)
            }
        }
        if let phrase = stream.phrase, let condition = stream.condition {
            let own = outcome.candidates.filter { $0.phrase == phrase }
            outcome.positives = [Positive(phrase: phrase, condition: condition, file: file, split: stream.split,
                                          best: own.max { ($0.judged(allowance: noisyRoomAllowance), $0.score) < ($1.judged(allowance: noisyRoomAllowance), $1.score) }, bestRatio: own.map(\.ratio).max(),
                                          bestConfidence: own.map(\.confidence).max(),
                                          plainFound: plainAlarms.map { $0.contains { $0.phrase == phrase } })]
            outcome.candidates = []
        } else {
            outcome.plainAlarms = plainAlarms ?? []
        }
        return outcome
    }

    /// Feeds a stream as the benchmark hears every one, to either spotter: in 100 ms pieces, then
    /// half a second of silence, which lets a phrase at the very end settle.
    static func fed<Heard>(_ samples: [Int16], to process: ([Int16]) throws -> [Heard]) throws -> [Heard] {
        var heard: [Heard] = []
        for start in stride(from: 0, to: samples.count, by: 1600) {
            heard += try process(Array(samples[start..<min(start + 1600, samples.count)]))
        }
        return heard + (try process([Int16](repeating: 0, count: 8_000)))
    }

    /// What plain pocketsphinx's keyword search reports on one stream, heard from its first state
    /// as Hark's spotter hears it (`fed`); a positive after the same five seconds of its room
    /// (what it reports there is not counted), since pocketsphinx too would have been listening
    /// before anyone spoke.
    static func plainDetections(in samples: [Int16], heardAfterItsRoom: Bool,
                                by plain: PlainKeywordSpotter) throws -> [PlainKeywordSpotter.Detection] {
        try plain.startAfresh()
        let room = heardAfterItsRoom ? roomBefore(samples) : []
        for piece in room { _ = try plain.process(piece) }
        // Seconds into the stream itself, not into what was fed.
        let warmUp = Double(room.map(\.count).reduce(0, +)) / Double(PipelineAudio.sampleRate)
        return try fed(samples, to: plain.process).map { detection in
            var inTheStream = detection
            inTheStream.seconds -= warmUp
            return inTheStream
        }
    }

    /// A device has heard its room for a while before anyone speaks; a positive recording holds
    /// only `roomSeconds` of it before the speech. The spotter hears that stretch `warmUpSeconds`
    /// over first, so that what it knows of the room (its running cepstral mean, the front end's
    /// estimate of the background noise) is what it would be after a quiet spell, then starts its
    /// search afresh. (In a quiet room that mean is the room's hiss, which costs the clean
    /// recordings dearly: heard through the model's starting mean instead, "jarvis" was missed
    /// about 12 % of the time at the default, not 26 %.)
    func hearTheRoom(of samples: [Int16], spotter: WakeWordSpotter) throws {
        let room = Self.roomBefore(samples)
        guard !room.isEmpty else { return }
        for piece in room { _ = try spotter.process(piece) }
        try spotter.reset()
    }

    /// The room a positive recording starts with, over and over for `warmUpSeconds` (nothing for
    /// an empty recording).
    static func roomBefore(_ samples: [Int16]) -> [[Int16]] {
        let room = Array(samples.prefix(roomSeconds * PipelineAudio.sampleRate))
        return room.isEmpty ? [] : Array(repeating: room, count: warmUpSeconds / roomSeconds)
    }

    /// Seconds of room before the speech in every positive (bench/make-wake-corpus.py).
    static let roomSeconds = 1
    /// Seconds of room heard before a positive: a live cepstral mean is the average of about the
    /// last five to eight seconds.
    static let warmUpSeconds = 5

    /// Overlapping candidates of one phrase are one event, represented by its most confident
    /// (of equals, the best search score),
    /// with the best likelihood ratio (log10) of any of them for the baseline.
    static func events(_ detections: [WakeWordDetection]) -> [String: [(best: WakeWordDetection, ratio: Double)]] {
        var byPhrase: [String: [(end: Int, best: WakeWordDetection, ratio: Double)]] = [:]
        for detection in detections.sorted(by: { $0.startSample < $1.startSample }) {
            var events = byPhrase[detection.phrase] ?? []
            let ratio = detection.score * Double(detection.endSample - detection.startSample) / 160
            if let last = events.last, detection.startSample <= last.end {
                let best = (detection.confidence, detection.score) > (last.best.confidence, last.best.score) ? detection : last.best
                events[events.count - 1] = (max(last.end, detection.endSample), best, max(last.ratio, ratio))
            } else {
                events.append((detection.endSample, detection, ratio))
            }
            byPhrase[detection.phrase] = events
        }
        return byPhrase.mapValues { $0.map { ($0.best, $0.ratio) } }
    }

    /// How far a run has got. The streams differ a thousandfold in length (a recording of a
    /// phrase against ten minutes of speech), so the share done is counted in bytes of audio,
    /// not in streams: counted in streams, a run that starts with the long negatives seems stuck.
    public struct Progress: Sendable, Equatable {
        public var streams = 0
        public var totalStreams: Int
        public var bytes = 0
        public var totalBytes: Int
        /// Seconds of audio the streams done held.
        public var secondsHeard = 0.0

        public var fraction: Double {
            totalBytes > 0 ? Double(bytes) / Double(totalBytes) : Double(streams) / Double(max(totalStreams, 1))
        }

        /// "12/1780 streams, 2.1 h of audio heard".
        public var summary: String {
            "\(streams)/\(totalStreams) streams, " + String(format: "%.1f", secondsHeard / 3600) + " h of audio heard"
        }
    }

    /// Runs every stream; `progress` hears after each one ends (on the worker that ran it).
    public func run(progress: @Sendable (Progress) -> Void) throws -> WakeWordBenchmarkReport {
        let streams = try streams()
        guard streams.contains(where: { $0.phrase != nil }) else {
            throw WakeBenchmarkError("\(corpus.path) has no recordings under positives/\(phrases.joined(separator: ", "))/")
        }
        guard streams.contains(where: { $0.family != nil }) else {
            throw WakeBenchmarkError("\(corpus.path)/negatives has no WAV files")
        }
        // Longest first, so the two workers end together.
        let order = streams.indices.sorted { streams[$0].family != nil && streams[$1].family == nil }
        let sizes = try streams.map { try Self.byteCount(of: $0.url) }
        // Before any worker's spotter exists: measured after them, the listening spotter's memory
        // was largely pages the workers' spotters had left free (9 MB in one run, 45 MB in another).
        let cost = try measureCost(on: streams)
        let results = Results(count: streams.count, totalBytes: sizes.reduce(0, +))
        let workers = max(1, min(jobs, streams.count))
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            do {
                let spotter = try spotter()
                let plain = baseline ? try PlainKeywordSpotter(phrases: phrases.map(Self.words), pronunciations: pronunciations) : nil
                while let index = results.next() {
                    let outcome = try run(streams[order[index]], spotter: spotter, plain: plain)
                    progress(results.finish(outcome, bytes: sizes[order[index]]))
                }
            } catch {
                results.fail(error)
            }
        }
        if let error = results.error { throw error }
        var report = WakeWordBenchmarkReport(phrases: phrases, sensitivity: sensitivity,
                                             threshold: WakeWordSpotter.threshold(sensitivity: sensitivity))
        report.acousticModel = AcousticTransform.modelDescription(acousticTransform)
        report.noiseFloor = noiseFloor
        report.amplifiesFaintVoices = amplifiesFaintVoices
        report.denoisesAbove = denoisesAbove
        report.otherWords = otherWords.count
        report.proposalThreshold = proposalThreshold
        report.noisyRoomAllowance = noisyRoomAllowance
        let outcomes = results.outcomes.compactMap { $0 }
        report.positives = outcomes.flatMap(\.positives)
        report.negatives = outcomes.filter { $0.stream.family != nil }.flatMap(\.candidates)
        report.plainAlarms = baseline ? outcomes.flatMap(\.plainAlarms) : nil
        report.negativeFiles = outcomes.filter { $0.stream.family != nil }.map {
            .init(file: $0.stream.url.lastPathComponent, split: $0.stream.split, family: $0.stream.family ?? "", seconds: $0.seconds)
        }.sorted { $0.file < $1.file }
        report.summarise()
        report.cpuPerSecondSpeech = cost.cpuPerSecondSpeech
        report.cpuPerSecondQuiet = cost.cpuPerSecondQuiet
        report.spotterMegabytes = cost.spotterMegabytes
        report.listeningPeakMegabytes = cost.peakMegabytes
        report.peakResidentMegabytes = ProcessClock.peakResidentMegabytes()
        return report
    }

    /// What listening costs, measured on one spotter alone in the process.
    struct ListeningCost {
        var cpuPerSecondSpeech = 0.0
        var cpuPerSecondQuiet = 0.0
        /// What the spotter added to the process's resident memory once made.
        var spotterMegabytes = 0.0
        /// The process's peak resident memory by then: the program and one spotter, no audio.
        var peakMegabytes = 0.0
    }

    /// CPU and memory of the spotter as it listens for the first phrase at the sensitivity: one
    /// spotter, one thread, before any other spotter is made, on the first ten minutes of the
    /// first test negative (of the first negative, when only tune files are heard) and on a minute
    /// of faint noise.
    func measureCost(on streams: [Stream]) throws -> ListeningCost {
        let negatives = streams.filter { $0.family != nil }.sorted { $0.url.lastPathComponent < $1.url.lastPathComponent }
        guard let stream = negatives.first(where: { $0.split == "test" }) ?? negatives.first else { return ListeningCost() }
        // Made before the audio is read: the pages a read frees stay resident, and the spotter
        // would be counted in them (0.2 MB for a spotter that holds about 13).
        var cost = ListeningCost()
        let residentBefore = ProcessClock.residentMegabytes()
        let spotter = try WakeWordSpotter(configuration: listening())
        cost.spotterMegabytes = ProcessClock.residentMegabytes() - residentBefore
        cost.peakMegabytes = ProcessClock.peakResidentMegabytes()
        let samples = try WAVFile.read(contentsOf: stream.url).pipelineSamples()
        let speech = Array(samples.prefix(600 * PipelineAudio.sampleRate))
        var generator = SystemRandomNumberGenerator()
        let quiet = (0..<(60 * PipelineAudio.sampleRate)).map { _ in Int16.random(in: -33...33, using: &generator) }
        for (audio, keyPath) in [(speech, \ListeningCost.cpuPerSecondSpeech), (quiet, \.cpuPerSecondQuiet)] {
            let before = ProcessClock.cpuSeconds()
            for start in stride(from: 0, to: audio.count, by: 480) {
                _ = try spotter.process(Array(audio[start..<min(start + 480, audio.count)]))
            }
            cost[keyPath: keyPath] = (ProcessClock.cpuSeconds() - before) / (Double(audio.count) / Double(PipelineAudio.sampleRate))
        }
        return cost
    }

    /// The workers' shared queue and results.
    private final class Results: @unchecked Sendable {
        // @unchecked: every field is read and written under `lock`.
        private let lock = NSLock()
        private var handedOut = 0
        private var progress: Progress
        var outcomes: [StreamOutcome?]
        var error: (any Error)?

        init(count: Int, totalBytes: Int) {
            outcomes = Array(repeating: nil, count: count)
            progress = Progress(totalStreams: count, totalBytes: totalBytes)
        }

        func next() -> Int? {
            lock.lock()
            defer { lock.unlock() }
            guard error == nil, handedOut < outcomes.count else { return nil }
            handedOut += 1
            return handedOut - 1
        }

        func finish(_ outcome: StreamOutcome, bytes: Int) -> Progress {
            lock.lock()
            defer { lock.unlock() }
            outcomes[progress.streams] = outcome
            progress.streams += 1
            progress.bytes += bytes
            progress.secondsHeard += outcome.seconds
            return progress
        }

        func fail(_ error: any Error) {
            lock.lock()
            defer { lock.unlock() }
            if self.error == nil { self.error = error }
        }
    }
}

public struct WakeBenchmarkError: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
