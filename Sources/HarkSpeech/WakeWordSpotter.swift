import Foundation

/// What to listen for and how eagerly.
public struct WakeWordConfiguration: Sendable {
    /// The phrase to spot, in dictionary words ("jarvis", "hey jarvis", "computer").
    public var keyPhrase = "jarvis"
    /// 0…1: higher catches more of the phrases said and also fires more often on other speech.
    /// See `WakeWordSpotter.threshold(sensitivity:phones:)` for the mapping and its measurement.
    public var sensitivity = WakeWordSpotter.defaultSensitivity
    public var modelDirectory = RecognizerConfiguration.debianModel
    public var dictionary = RecognizerConfiguration.debianDictionary
    /// pocketsphinx's own log. /dev/null unless someone is debugging it.
    public var logFile = "/dev/null"
    /// Report every candidate the search finds, with `isAccepted` telling whether it reached the
    /// sensitivity's threshold, and never restart after one: for benchmarks that sweep the
    /// sensitivity over one pass. Off for listening.
    public var reportsCandidates = false

    public init(keyPhrase: String = "jarvis", sensitivity: Double = WakeWordSpotter.defaultSensitivity) {
        self.keyPhrase = keyPhrase
        self.sensitivity = sensitivity
    }
}

/// One spotted key phrase.
public struct WakeWordDetection: Sendable, Equatable {
    /// The key phrase as configured.
    public var phrase: String
    /// Where the phrase began and ended, in 16 kHz samples counted from the first sample the
    /// spotter was fed (samples skipped with `reset(skipping:)` count too).
    public var startSample: Int
    public var endSample: Int
    /// How much better the phrase explained the audio than free phones did, per 10 ms frame:
    /// log10 of the likelihood ratio (phrase over phone loop) divided by the phrase's frames.
    /// Usually negative; the closer to 0 (or above), the surer.
    public var score: Double
    /// Whether the score reached the sensitivity's threshold (always true unless the spotter
    /// reports candidates).
    public var isAccepted: Bool

    public var endSeconds: Double { Double(endSample) / 16_000 }
}

/// Spots a key phrase in a continuous stream of 16 kHz mono audio with pocketsphinx's keyword
/// search: a phone loop runs alongside the phrase's phones, and where the phrase's path comes
/// close enough to the loop's the search proposes a candidate. The spotter accepts a candidate
/// when its score per frame (the log likelihood ratio of phrase over phone loop, divided by the
/// phrase's length) reaches the threshold the sensitivity sets: per frame, so that the score
/// does not favour long, slow renderings or depend on the phrase's length.
///
/// The spotter has its own decoder, separate from the recogniser's, so the command grammar is
/// never swapped out to listen for the wake word. Feed it audio as it arrives, in any chunk
/// size; each call returns the detections the audio completed. A detection is reported about
/// `delayFrames` (10 ms each) after the phrase ended, because the search waits that long for a
/// better-scoring end. After a detection the search starts afresh.
///
/// Not Sendable: one pocketsphinx decoder, used from one thread. `process` does the acoustic
/// scoring inline (a few percent of a core in real time), so call it from the thread or
/// dedicated executor that reads the microphone, not from the shared cooperative pool.
public final class WakeWordSpotter {
    /// The sensitivity used when none is given: about 2 false alarms an hour on speech, with a
    /// quarter of real speakers' "jarvis" missed (see `threshold(sensitivity:)`).
    public static let defaultSensitivity = 0.3
    /// Frames the search waits after a phrase ends for a better-scoring end (pocketsphinx's
    /// -kws_delay, 10 by default).
    public static let delayFrames = 10
    /// Samples per 10 ms frame at 16 kHz.
    static let frameSamples = 160
    /// The audio is fed in pieces of at most this many samples (100 ms), so a detection is
    /// noticed within a piece of the search settling on it.
    static let stepSamples = 1_600
    /// A long stretch with no detection is ended in the next silence, so the utterance and its
    /// bookkeeping do not grow without bound (frames searched, 10 ms each).
    static let restartFrames = 6_000

    public let configuration: WakeWordConfiguration
    /// The score per frame (log10) a candidate must reach to be accepted; see `threshold(sensitivity:)`.
    public let threshold: Double
    /// The dictionary pronunciations the search listens for (alternates of each word included).
    public let pronunciations: [String]
    /// Samples fed (and skipped) so far.
    public private(set) var samplesProcessed = 0
    /// Seconds it took to load the model and install the search.
    public let loadSeconds: Double

    private let decoder: Decoder
    private static let searchName = "hark-wake"
    /// Samples skipped with `reset(skipping:)`: the search's frame numbers do not count them.
    private var samplesSkipped = 0
    /// Frames searched in the current utterance.
    private var framesSearched = 0
    /// Candidates of this utterance already judged, by first and last frame.
    private var judged: Set<[Int]> = []

    public init(configuration: WakeWordConfiguration = WakeWordConfiguration()) throws(RecognitionError) {
        let started = Date()
        let words = configuration.keyPhrase.lowercased().split(whereSeparator: \.isWhitespace).map(String.init)
        guard !words.isEmpty else {
            throw RecognitionError(.grammar, "the wake phrase is empty: give one or more dictionary words")
        }
        guard (0...1).contains(configuration.sensitivity) else {
            throw RecognitionError(.grammar, "wake-word sensitivity \(configuration.sensitivity) is outside 0…1")
        }
        // Every frame goes to the search, silence included: the keyword search numbers its frames
        // from the decoder's start across utterances, which gives each detection its place in
        // the stream only if the front end drops nothing. (With silence removal the numbers run
        // ahead of the audio.) Measured cost: 0.03 × real time on one core instead of 0.01 on
        // recordings with pauses; the same on continuous speech.
        // The decoder gets a dictionary of the phrase's words alone: the full one would hold
        // some 135,000 pronunciations in memory (about 20 MB) for a search that uses a handful.
        let entries = try PronunciationDictionary(path: configuration.dictionary).entries(for: Set(words))
        let decoder = try Decoder.make(entries: entries, modelDirectory: configuration.modelDirectory,
                                       logFile: configuration.logFile, extraArguments: ["-remove_silence", "no"])
        // Every pronunciation of every word: "jarvis" is JH AA R V AH S or JH AA R V IH S.
        var variants: [[String]] = [[]]
        var phoneCount = 0
        for word in words {
            let alternates = Self.alternates(of: word, in: decoder)
            guard let first = alternates.first else {
                throw RecognitionError(.unknownWords([word]),
                                       "the wake phrase \"\(configuration.keyPhrase)\" uses \"\(word)\", which the dictionary does not know; choose dictionary words")
            }
            phoneCount += first.phones.split(separator: " ").count
            variants = variants.flatMap { prefix in alternates.map { prefix + [$0.entry] } }
            // A handful of spellings is enough; past that the search cost grows for nothing.
            if variants.count > Self.maximumVariants { variants = Array(variants.prefix(Self.maximumVariants)) }
        }
        // The search's own threshold only bounds which candidates it proposes; the spotter judges them.
        let floor = pow(10, Self.candidateLog10PerPhone * Double(phoneCount))
        let lines = variants.map { "\($0.joined(separator: " ")) /\(String(format: "%.3e", floor))/" }
        try PronunciationDictionary.withTemporaryFile(lines.joined(separator: "\n") + "\n", extension: "kws") { (path) throws(RecognitionError) in
            try decoder.installKeyphrases(name: Self.searchName, file: path)
        }
        try decoder.startUtterance()
        self.configuration = configuration
        self.decoder = decoder
        self.threshold = Self.threshold(sensitivity: configuration.sensitivity)
        self.pronunciations = variants.map { $0.joined(separator: " ") }
        self.loadSeconds = Date().timeIntervalSince(started)
    }

    static let maximumVariants = 16

    /// The sensitivity → threshold mapping: the score per frame a candidate must reach falls
    /// linearly from `strictestThreshold` at sensitivity 0 to `loosestThreshold` at 1.
    ///
    /// Measured for "jarvis" with `hark bench-wake` (release build) on the 384 recordings of the
    /// wake-jarvis corpus (many real speakers) and 3.1 hours of synthetic speech without the
    /// word, a third of it in noise (bench/make-negatives.sh):
    ///
    ///     sensitivity  threshold  missed   false alarms per hour
    ///     0.0           0.00      62.8 %   0.00
    ///     0.1          -0.14      49.0 %   0.32
    ///     0.2          -0.28      37.2 %   0.95
    ///     0.3          -0.42      26.8 %   2.2
    ///     0.5          -0.70      16.1 %   9.5
    ///     0.7          -0.98      13.3 %   38
    ///     1.0          -1.40      12.5 %   125
    ///
    /// 12 % of the recordings are never proposed as candidates at all. Synthetic voices (flite)
    /// score higher than real ones: their "jarvis" scores 0.1 to 0.4.
    public static func threshold(sensitivity: Double) -> Double {
        strictestThreshold + (loosestThreshold - strictestThreshold) * sensitivity
    }

    /// Scores per frame (log10 of the likelihood ratio per 10 ms) at sensitivity 0 and 1.
    public static let strictestThreshold = 0.0
    public static let loosestThreshold = -1.4
    /// Candidates are proposed down to this likelihood ratio per phone of the phrase (log10):
    /// looser than any sensitivity accepts, so the threshold alone decides.
    static let candidateLog10PerPhone = -7.0

    /// Feeds the next audio (16 kHz mono); returns the phrases it completed, oldest first.
    public func process(_ samples: [Int16]) throws(RecognitionError) -> [WakeWordDetection] {
        var detections: [WakeWordDetection] = []
        var offset = 0
        while offset < samples.count {
            let count = min(Self.stepSamples, samples.count - offset)
            let decoder = self.decoder
            let result: Result<Int, RecognitionError> = samples.withUnsafeBufferPointer { buffer in
                do throws(RecognitionError) {
                    return .success(try decoder.processPartial(UnsafeBufferPointer(rebasing: buffer[offset..<(offset + count)])))
                } catch {
                    return .failure(error)
                }
            }
            let frames = try result.get()
            offset += count
            samplesProcessed += count
            guard frames > framesSearched else { continue }  // not a whole frame yet
            framesSearched = frames
            let found = candidates()
            if configuration.reportsCandidates {
                detections += found
            } else if let accepted = found.filter(\.isAccepted).max(by: { $0.score < $1.score }) {
                detections.append(accepted)
                try restart()
                continue
            }
            if frames > Self.restartFrames && !decoder.inSpeech {
                try restart()
            }
        }
        return detections
    }

    /// Starts the search afresh, e.g. once the command after a wake word has been heard.
    /// `skipping` counts audio that was not fed (while the command was recorded or the reply
    /// played), so that later detections keep their place on the same timeline.
    public func reset(skipping skipped: Int = 0) throws(RecognitionError) {
        precondition(skipped >= 0, "cannot skip \(skipped) samples")
        samplesProcessed += skipped
        samplesSkipped += skipped
        try restart()
    }

    private func restart() throws(RecognitionError) {
        try decoder.endUtterance()
        try decoder.startUtterance()
        framesSearched = 0
        judged.removeAll(keepingCapacity: true)
    }

    /// The candidates the search has settled on since the last call, judged against the threshold.
    private func candidates() -> [WakeWordDetection] {
        var found: [WakeWordDetection] = []
        for segment in decoder.segments() where judged.insert([segment.startFrame, segment.endFrame]).inserted {
            let frames = max(1, segment.endFrame - segment.startFrame + 1)
            let score = Double(segment.probability + Self.scoreOffset) * Self.scoreToLog10 / Double(frames)
            found.append(WakeWordDetection(phrase: configuration.keyPhrase,
                                           startSample: sample(atFrame: segment.startFrame),
                                           endSample: sample(atFrame: segment.endFrame + 1),
                                           score: score, isAccepted: score >= threshold))
        }
        return found
    }

    /// pocketsphinx scores are log base 1.0001, shifted right by 10 bits.
    static let scoreToLog10 = 1024 * log10(1.0001)
    /// This pocketsphinx subtracts a constant (its KWS_MAX, 1500) from the phrase-over-loop
    /// score before reporting it as the segment's probability; adding it back gives the ratio.
    static let scoreOffset: Int32 = 1500

    /// The sample at which frame `frame` starts: the keyword search numbers frames from the
    /// decoder's start, 10 ms each, and every sample fed makes frames.
    private func sample(atFrame frame: Int) -> Int {
        min(samplesProcessed, frame * Self.frameSamples + samplesSkipped)
    }

    /// The word and its alternates ("word(2)", …) with their phones, as the dictionary has them.
    private static func alternates(of word: String, in decoder: Decoder) -> [(entry: String, phones: String)] {
        var found: [(entry: String, phones: String)] = []
        if let phones = decoder.pronunciation(of: word) { found.append((word, phones)) } else { return [] }
        var index = 2
        while let phones = decoder.pronunciation(of: "\(word)(\(index))") {
            found.append(("\(word)(\(index))", phones))
            index += 1
        }
        return found
    }
}

@available(*, unavailable, message: "WakeWordSpotter owns a pocketsphinx decoder; use it from one thread")
extension WakeWordSpotter: Sendable {}
