public import Foundation
import HarkAudio

/// What to listen for and how eagerly.
public struct WakeWordConfiguration: Sendable {
    /// The phrase to spot, in dictionary words ("jarvis", "hey jarvis", "computer").
    public var keyPhrase = "jarvis"
    /// Phones ("CH AE T ER B AA K S") for words of the phrases the dictionary lacks, e.g. from the
    /// project's lexicon or espeak-ng (`pronounceMissingWords`). A word the dictionary has keeps
    /// the dictionary's pronunciations.
    public var pronunciations: [String: String] = [:]
    /// Further phrases listened for at the same time, in the same search: the audio is scored
    /// once for all of them, so a second phrase costs almost nothing. Each detection says which.
    public var otherPhrases: [String] = []
    /// 0…1: higher catches more of the phrases said and also fires more often on other speech.
    /// See `WakeWordSpotter.threshold(sensitivity:verified:)` for the mapping and its measurement.
    public var sensitivity = WakeWordSpotter.defaultSensitivity
    public var modelDirectory = RecognizerConfiguration.debianModel
    public var dictionary = RecognizerConfiguration.debianDictionary
    /// An adaptation of the acoustic model (see `RecognizerConfiguration.acousticTransform`),
    /// heard by the search and the verifier alike, or nil for the model as it is.
    public var acousticTransform: URL?
    /// pocketsphinx's own log. /dev/null unless someone is debugging it.
    public var logFile = "/dev/null"
    /// Report every candidate the search finds, with `isAccepted` telling whether it reached the
    /// sensitivity's threshold, and never restart after one: for benchmarks that sweep the
    /// sensitivity over one pass. Off for listening.
    public var reportsCandidates = false
    /// The second look (see `WakeWordVerifier`): nil judges candidates by the keyword search's
    /// score alone, as plain keyword spotting does.
    public var verifier: WakeWordVerifierModel? = .shipped
    /// The level (dBFS) of the faint hiss added before the search and the verifier hear the
    /// audio (see `NoiseFloor`), or nil to hear it as it comes.
    public var noiseFloor: Double? = NoiseFloor.standardLevel
    /// Whether a voice quieter than -40 dBFS is brought up to a usual level before the search
    /// hears it (`FaintVoiceGain`), or heard as it comes. Off: measured, it finds far more faint
    /// phrases but loses some usual ones (see `FaintVoiceGain`).
    public var amplifiesFaintVoices = false
    /// How far (a likelihood ratio, pocketsphinx's -beam) a partial phrase may fall behind the
    /// best path in the search before it is given up; see `WakeWordSpotter.searchBeam`.
    public var searchBeam = WakeWordSpotter.searchBeam
    /// The search score per frame below which a candidate is not given a second look; see
    /// `WakeWordSpotter.proposalThreshold`. Needs the verifier.
    public var proposalThreshold = WakeWordSpotter.proposalThreshold
    /// How far (dB) above the room's level a 100 ms piece of audio must be for the front end's
    /// cepstral mean to learn from it, or nil to learn from everything as pocketsphinx does; see
    /// `WakeWordSpotter.meanGate`.
    public var meanGate: Double? = WakeWordSpotter.meanGate
    /// The room level (dBFS) above which the spotter hears the audio through WebRTC's noise
    /// suppression, or nil never to; see `WakeWordSpotter.denoisingRoomLevel`.
    public var denoisesAbove: Double? = WakeWordSpotter.denoisingRoomLevel
    /// Common words (`OtherWords.read`, e.g. models/other-words.txt) that a candidate the
    /// verifier finds likely enough is checked against (`WakeWordVerifier.otherWordsGap`), or
    /// none for no such check. Needs the verifier.
    public var otherWords: [String] = []

    /// Every phrase listened for, the main one first.
    public var phrases: [String] { [keyPhrase] + otherPhrases.filter { $0 != keyPhrase } }

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
    /// What the second look found, when the spotter has a verifier.
    public var evidence: WakeWordEvidence?
    /// What the spotter judged by: the verifier's log odds that this is the phrase, or without
    /// a verifier the search's score.
    public var confidence: Double
    /// Whether the confidence reached the sensitivity's threshold (always true unless the
    /// spotter reports candidates).
    public var isAccepted: Bool

    public var endSeconds: Double { Double(endSample) / 16_000 }
}

/// Spots a key phrase in a continuous stream of 16 kHz mono audio, in two stages.
///
/// First pocketsphinx's keyword search: a phone loop runs alongside the phrase's phones, and
/// where the phrase's path comes close enough to the loop's the search proposes a candidate,
/// scored per frame (the log likelihood ratio of phrase over phone loop, divided by the
/// phrase's length, so that the score does not favour long, slow renderings or depend on the
/// phrase's length). Proposals are loose: the search alone cannot tell a softly said phrase
/// from a near miss.
///
/// Then the verifier takes a second look at each proposal's audio (`WakeWordVerifier`): the
/// phrase forced onto it phone by phone against free phones, and a model learned on real
/// speakers weighs what it finds into the log odds that this is the phrase. The sensitivity
/// sets the odds a candidate must reach. Without a verifier, the search's score is judged
/// against the sensitivity's threshold instead, as before.
///
/// The spotter has its own decoders, separate from the recogniser's, so the command grammar is
/// never swapped out to listen for the wake word. Feed it audio as it arrives, in any chunk
/// size; each call returns the detections the audio completed. A detection is reported about
/// `delayFrames` (10 ms each) after the phrase ended, because the search waits that long for a
/// better-scoring end. After a detection the search starts afresh.
///
/// Not Sendable: pocketsphinx decoders, used from one thread. `process` does the acoustic
/// scoring inline (a few percent of a core in real time), so call it from the thread or
/// dedicated executor that reads the microphone, not from the shared cooperative pool.
public final class WakeWordSpotter {
    /// The sensitivity used when none is given; see `threshold(sensitivity:)`.
    public static let defaultSensitivity = 0.5
    /// Frames the search waits after a phrase ends for a better-scoring end (pocketsphinx's
    /// -kws_delay, 10 by default).
    public static let delayFrames = 10
    /// Samples per 10 ms frame at 16 kHz.
    static let frameSamples = 160
    /// The audio is fed in pieces of at most this many samples (100 ms), so a detection is
    /// noticed within a piece of the search settling on it.
    static let stepSamples = 1_600
    /// Where pocketsphinx places a new utterance on the stream, and so every frame the search
    /// reports after a restart: at the frame its voice-activity detector first calls speech, less
    /// -vad_prespeech frames. Without silence removal that call comes -vad_startspeech frames
    /// into every utterance, so with the two equal the utterance is placed where it began. With
    /// the defaults (20 and 10) every detection after the first restart was placed 80–90 ms
    /// early, and the verifier looked at a window cut that much short of the phrase's end. Nothing
    /// else changes: the detector's prespeech buffer still holds every frame before the call.
    static let utteranceAnchoring = ["-vad_startspeech", "10", "-vad_prespeech", "10"]
    /// A long stretch with no detection is ended in the next quiet spell, so the utterance and its
    /// bookkeeping do not grow without bound (frames searched, 10 ms each): pocketsphinx lists
    /// every proposal of an utterance and the spotter walks that list every piece.
    static let restartFrames = 6_000
    /// A quiet spell, for that restart: this many pieces in a row (0.5 s) no more than
    /// `quietAboveRoom` dB above the room's level. No phrase is being said then, and the one
    /// before it was reported a piece after it ended. (pocketsphinx's own voice detector cannot
    /// say: without silence removal it calls everything speech, and the restart never came.)
    static let quietPiecesBeforeRestart = 5
    static let quietAboveRoom = 6.0
    /// The verifier hears this much audio before the candidate's start and after its end
    /// (samples): the search's edges are rough, and the alignment needs room to place them.
    static let windowBefore = 4_000, windowAfter = 2_400
    /// Audio kept for the verifier (samples): the longest phrase plus the window's margins.
    static let keptSamples = 6 * 16_000

    public let configuration: WakeWordConfiguration
    /// The confidence a candidate must reach; see `threshold(sensitivity:verified:)`.
    public let threshold: Double
    /// The dictionary pronunciations the search listens for (alternates of each word included).
    public let pronunciations: [String]
    /// The phones of each of `pronunciations`, in the same order.
    public var phoneSequences: [[String]] { pronunciations.compactMap { spellings[$0]?.phones } }
    /// While true, the front end's cepstral mean learns nothing from what is fed, gate or not:
    /// for audio that is neither the room nor someone in it, such as what is left of Hark's own
    /// reply after echo cancellation.
    public var holdsMean = false
    /// Samples fed (and skipped) so far.
    public private(set) var samplesProcessed = 0
    /// Whether the room is loud enough that the spotter now hears through the noise suppression
    /// (see `WakeWordSpotter.denoisingRoomLevel`).
    public private(set) var isDenoising = false
    /// Seconds it took to load the model and install the search.
    public let loadSeconds: Double

    private let decoder: Decoder
    /// The front end's cepstral mean normaliser before the spotter heard anything (the model's
    /// own starting mean, no history), for `startAfresh()`.
    private let initialMean: Decoder.CepstralMeanState
    /// The second look and the model that weighs it; nil when the configuration has no verifier.
    private let verifier: (decoder: WakeWordVerifier, model: WakeWordVerifierModel)?
    private static let searchName = "hark-wake"
    /// Each pronunciation the search listens for: the phrase it spells and its phones.
    private let spellings: [String: (phrase: String, phones: [String])]
    /// The forced alignment `alignedPhrase` uses, made the first time it is asked for.
    private var aligner: WakeWordVerifier?
    /// Samples the search's frame numbers do not count: those skipped with `reset(skipping:)`,
    /// and after `startAfresh()` every sample before it (a new stream numbers frames from 0).
    private var samplesSkipped = 0
    /// Frames searched in the current utterance.
    private(set) var framesSearched = 0
    /// Candidates of this utterance already judged, by pronunciation, first and last frame.
    private var judged: Set<String> = []
    /// The latest audio fed, for the verifier; `recentStart` is the stream position of its first sample.
    private var recent: [Int16] = []
    private var recentStart = 0
    /// Added to everything fed, so near-silent rooms do not starve the front end.
    private var hiss: NoiseFloor?
    /// The voice a faint stream is amplified by (`FaintVoiceGain`).
    private var voice = StreamVoiceLevel()
    /// Follows the room's level, for `configuration.meanGate` and the restart in a quiet spell;
    /// nil until the first piece, whose level it starts from.
    private var room: EnergyEndpointer?
    /// Pieces in a row no more than `quietAboveRoom` above the room.
    private var quietPieces = 0
    /// Hears everything fed when the configuration may denoise, so that it knows the room by the
    /// time the room is loud; nil when it never denoises.
    private var suppressor: NoiseSuppressor?
    /// The room's level as the switch to the suppressed audio judges it.
    private var roomLevel = RoomLevel()
    /// The other words each phrase is checked against (those that may stand beside it), by phrase;
    /// empty without `configuration.otherWords`.
    private let otherWordsBeside: [String: [String]]

    public init(configuration: WakeWordConfiguration = WakeWordConfiguration()) throws(RecognitionError) {
        let started = Date()
        guard (0...1).contains(configuration.sensitivity) else {
            throw RecognitionError(.grammar, "wake-word sensitivity \(configuration.sensitivity) is outside 0…1")
        }
        guard configuration.proposalThreshold.isFinite else {
            throw RecognitionError(.grammar, "the wake-word proposal threshold \(configuration.proposalThreshold) is not a number")
        }
        guard Self.isSearchBeam(configuration.searchBeam) else {
            throw RecognitionError(.grammar, "the wake-word search beam \(configuration.searchBeam) is not between 0 and 1 (e.g. 1e-100)")
        }
        if let gate = configuration.meanGate, !Self.meanGateRange.contains(gate) {
            throw RecognitionError(.grammar, "the wake-word mean gate \(gate) dB is not between \(Self.meanGateRangeText) (e.g. 6)")
        }
        if let level = configuration.denoisesAbove, !Self.denoisingRange.contains(level) {
            throw RecognitionError(.grammar, "the wake-word denoising level \(level) dBFS is not between \(Self.denoisingRangeText) (e.g. \(Self.denoisingRoomLevel))")
        }
        let phrases = configuration.phrases.map { $0.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) }
        guard phrases.allSatisfy({ !$0.isEmpty }) else {
            throw RecognitionError(.grammar, "a wake phrase is empty: give one or more dictionary words")
        }
        // Every frame goes to the search, silence included: the keyword search numbers its frames
        // from the decoder's start across utterances, which gives each detection its place in
        // the stream only if the front end drops nothing. (With silence removal the numbers run
        // ahead of the audio.) Measured cost: 0.03 × real time on one core instead of 0.01 on
        // recordings with pauses; the same on continuous speech.
        // The decoder gets a dictionary of the phrases' words alone: the full one would hold
        // some 135,000 pronunciations in memory (about 20 MB) for a search that uses a handful.
        let (found, missing) = try configuration.dictionaryEntries()
        let entries = found + missing.compactMap { word in configuration.pronunciations[word].map { (word, $0) } }
        let adaptation = try Recognizer.adaptationArguments(configuration.acousticTransform)
        let decoder = try Decoder.make(entries: entries, modelDirectory: configuration.modelDirectory, logFile: configuration.logFile,
                                       extraArguments: ["-remove_silence", "no", "-beam", "\(configuration.searchBeam)"] + Self.utteranceAnchoring + adaptation)
        var lines: [String] = []
        var pronunciations: [String] = []
        var spellings: [String: (phrase: String, phones: [String])] = [:]
        for (phrase, words) in zip(configuration.phrases, phrases) {
            // Every pronunciation of every word: "jarvis" is JH AA R V AH S or JH AA R V IH S.
            var variants: [(entries: [String], phones: [String])] = [([], [])]
            for word in words {
                let alternates = Self.alternates(of: word, in: decoder)
                guard !alternates.isEmpty else {
                    throw RecognitionError(.unknownWords([word]),
                                           "the wake phrase \"\(phrase)\" uses \"\(word)\", which the dictionary does not know and no pronunciation was given for; choose dictionary words or add it to models/lexicon.dict")
                }
                variants = variants.flatMap { prefix in
                    alternates.map { (prefix.entries + [$0.entry], prefix.phones + $0.phones.split(separator: " ").map(String.init)) }
                }
                // A handful of spellings is enough; past that the search cost grows for nothing.
                if variants.count > Self.maximumVariants { variants = Array(variants.prefix(Self.maximumVariants)) }
            }
            for variant in variants {
                let spelling = variant.entries.joined(separator: " ")
                // The search's own threshold only bounds which candidates it proposes; the spotter judges them.
                let floor = pow(10, Self.candidateLog10PerPhone * Double(variant.phones.count))
                lines.append("\(spelling) /\(String(format: "%.3e", floor))/")
                pronunciations.append(spelling)
                spellings[spelling] = (phrase, variant.phones)
            }
        }
        try PronunciationDictionary.withTemporaryFile(lines.joined(separator: "\n") + "\n", extension: "kws") { (path) throws(RecognitionError) in
            try decoder.installKeyphrases(name: Self.searchName, file: path)
        }
        try decoder.startUtterance()
        self.configuration = configuration
        self.decoder = decoder
        initialMean = try decoder.cepstralMeanState
        self.spellings = spellings
        hiss = configuration.noiseFloor.map { NoiseFloor(level: $0) }
        suppressor = configuration.denoisesAbove == nil ? nil : try Self.noiseSuppressor()
        var otherWordsBeside: [String: [String]] = [:]
        if let model = configuration.verifier {
            var otherEntries: [(word: String, phones: String)] = []
            if !configuration.otherWords.isEmpty {
                otherEntries = try PronunciationDictionary(path: configuration.dictionary).entries(for: Set(configuration.otherWords))
                var sounds: [String: [String]] = [:]
                for entry in otherEntries { sounds[Decoder.baseWord(entry.word), default: []].append(entry.phones) }
                for (phrase, words) in zip(configuration.phrases, phrases) {
                    otherWordsBeside[phrase] = OtherWords.beside(grammarWords: Set(words), configuration.otherWords) { word in
                        sounds[word] ?? Self.alternates(of: word, in: decoder).map(\.phones)
                    }
                }
            }
            verifier = (try WakeWordVerifier(modelDirectory: configuration.modelDirectory, logFile: configuration.logFile,
                                             extraArguments: adaptation, otherWords: otherEntries,
                                             phrases: spellings.values.map(\.phones)), model)
        } else {
            verifier = nil
        }
        self.otherWordsBeside = otherWordsBeside
        self.threshold = Self.threshold(sensitivity: configuration.sensitivity, verified: configuration.verifier != nil)
        self.pronunciations = pronunciations
        self.loadSeconds = Date().timeIntervalSince(started)
    }

    static let maximumVariants = 16
    /// While benchmarks sweep the threshold (`WakeWordConfiguration.reportsCandidates`),
    /// candidates whose verifier log odds reach this are checked against the other words (below
    /// the loosest sensitivity's odds, so every threshold a setting can ask for is measured).
    /// While listening, only those reaching the threshold are: the check costs two searches of
    /// the candidate's window, and it can only lower the odds.
    static let otherWordsCheckedFrom = -1.0
    /// A candidate whose phrase explains its audio less than this much better than the other
    /// words do (`WakeWordEvidence.otherWordsGap`) loses `otherWordsPenalty` log odds for each
    /// unit it falls short. Chosen on the tune half of make bench-wake (every candidate of
    /// "jarvis", "athena", "amelia" and "hey chatterbox" checked, penalties 0.5 to 3 and lines 0
    /// to 3 weighed by the tune recordings missed at each phrase's odds with no false alarm on its
    /// tune negatives): 314 missed without the check, 237 with these (232 to 251 for the
    /// neighbours), "amelia" alone 104 → 51 of 136.
    static let otherWordsFullGap = 1.0
    static let otherWordsPenalty = 2.0

    /// What the spotter judges a candidate by: the verifier's log odds, less the other words'
    /// penalty when the candidate was checked against them.
    static func confidence(odds: Double, otherWordsGap gap: Double?) -> Double {
        guard let gap else { return odds }
        return odds - otherWordsPenalty * max(0, otherWordsFullGap - gap)
    }

    /// The sensitivity → threshold mapping: the confidence a candidate must reach falls linearly
    /// from the strictest threshold at sensitivity 0 to the loosest at 1. With the verifier the
    /// confidence is its log odds; without it, the search's score per frame (log10).
    public static func threshold(sensitivity: Double, verified: Bool = true) -> Double {
        let (strictest, loosest) = verified ? (strictestOdds, loosestOdds) : (strictestThreshold, loosestThreshold)
        return strictest + (loosest - strictest) * sensitivity
    }

    /// Log odds of the verifier at sensitivity 0 and 1. The default, 0.5, asks for odds of 3.5:
    /// on the tune half of the wake corpus (3 hours of other speech for each phrase) no false
    /// alarm for "jarvis", one for "amelia" and three for "athena", whose sounds are common in
    /// speech (0.4, odds 4, gives it one). `make bench-wake` measures it on other speakers.
    /// One threshold for every room, measured against one that follows it (odds allowed off for
    /// each dB a candidate stands less than a knee above its room, as `Confidence.noisePenalty`
    /// does for requests), on one make bench-wake run's candidates with the threshold chosen on
    /// the tune half: no allowance was best there with the room as the endpointer tracks it, and
    /// with the room as the quietest fifth of the five seconds before (knee 25 dB, 0.05 a dB) the
    /// tune half missed 328 instead of 341, but the test half then woke far more often (per 10 h:
    /// "athena" 56 instead of 23, "jarvis" 11 instead of 7.1, "amelia" 5.8 instead of 1.5) for
    /// 6 to 11 fewer misses at 10 dB. The speech that must not wake Hark is heard through the same
    /// noise, and it gains as much from the allowance as the phrase does.
    public static let strictestOdds = 6.0
    public static let loosestOdds = 1.0
    /// Scores per frame (log10 of the likelihood ratio per 10 ms) at sensitivity 0 and 1, for
    /// the search alone. Measured for "jarvis" on 384 real speakers and 3.1 hours of synthetic
    /// speech: 26.8 % missed at 2.2 false alarms an hour at -0.42; 12.5 % at 125 an hour at -1.4.
    public static let strictestThreshold = 0.0
    public static let loosestThreshold = -1.4
    /// Candidates whose search score per frame is below this are not worth a second look. On the
    /// wake corpus's tune half, -3 instead found a few more real renderings at the operating
    /// point but looked at twice as many candidates (CPU); -1.4 found fewer. With the mean gate
    /// the search scores some real ones lower: at -3, of the 366 test "athena" recordings 8 were
    /// never proposed instead of 27, and 127 missed clean at the default sensitivity instead of
    /// 155 (215 instead of 223 at 10 dB); "amelia" 113 of 155 instead of 116. Its false alarms
    /// are not measured yet: "athena" raised some 2,100 candidates an hour of speech, each
    /// looked at again, and a test-split run of make bench-wake took hours.
    public static let proposalThreshold = -2.0
    /// The keyword search's beam. At pocketsphinx's default (1e-48) a phrase said a little
    /// unlike its dictionary phones was pruned before its last phone and never proposed, however
    /// loose the threshold: on `make bench-wake`'s test recordings, clean / in noise, "jarvis" 13 / 7
    /// of 279, "hey chatterbox" 30 / 29 of 38; at 1e-100, 4 / 2 and 3 / 2, for the same CPU. With
    /// the verifier as fitted, at the default sensitivity that found more "hey chatterbox" (missed
    /// 78.9 % clean instead of 92.1 %) and no fewer of the others, at about as many false alarms;
    /// at one false alarm per 10 hours "jarvis" lost a few (36.2 % missed clean instead of 34.4 %).
    public static let searchBeam = 1e-100
    /// Whether `beam` can be a search beam: a likelihood ratio strictly between 0 and 1 (0 keeps
    /// every path, 1 none).
    public static func isSearchBeam(_ beam: Double) -> Bool { beam > 0 && beam < 1 }
    /// The front end's cepstral mean learns only from audio this much (dB) louder than the room.
    /// pocketsphinx's live mean learns from every frame, so after a while in a quiet room it is
    /// the room's hiss, and the first phones said are heard through a mean that is no speech.
    /// On `make bench-wake`'s test recordings (after five seconds of their room), missed clean /
    /// at 10 dB at the default sensitivity, ungated → gated: "jarvis" 25.1 / 60.9 % → 14.3 /
    /// 63.4 %, "athena" 48.1 / 52.7 → 41.5 / 60.4, "amelia" 82.6 / 75.5 → 74.8 / 90.3, "hey
    /// chatterbox" 78.9 / 100 → 36.8 / 89.5; false alarms per 10 hours 7.9 → 6.3, 53 → 44,
    /// 2.2 → 1.5, 0.7 → 4.2. What costs "amelia" and "athena" at 10 dB is not known yet: also
    /// learning from any room louder than -50 dBFS (the household noise) changed nothing there.
    public static let meanGate: Double? = 6
    /// The spotter hears through WebRTC's noise suppression (`NoiseSuppressor`, moderate) while
    /// the room (`RoomLevel`: the quietest fifth of the last five seconds) is louder than this
    /// (dBFS), and as the audio came while it is quieter. Heard through it always (`make
    /// bench-wake-denoised`), household noise at 10 dB is missed far less, but a quiet room's
    /// phrases far more ("amelia" 74.8 → 90.3 %, "hey chatterbox" 36.8 → 89.5 % at the default
    /// sensitivity: the verifier's leading silence is no longer what the phone loop calls
    /// silence). Switched by the room, make bench-wake's test speakers at the default, missed
    /// clean / at 10 dB and false alarms per 10 hours, as heard → switched: "jarvis" 14.3 / 63.4 %,
    /// 6.3 → 14.3 / 52.0 %, 4.0; "athena" 41.5 / 60.4 %, 44 → 41.5 / 47.5 %, 37; "amelia" 74.8 /
    /// 90.3 %, 1.5 → 74.8 / 80.6 %, 2.2; "hey chatterbox" 36.8 / 89.5 %, 4.2 → 36.8 / 86.8 %,
    /// 4.2 (the corpus's quiet rooms are under -60 dBFS, so they are heard exactly as before).
    /// The line was chosen on the tune half of an offline combination of the two runs: any from
    /// -59 to -52 dBFS did as well there (its noisy rooms are -46 dBFS and up). A microphone whose
    /// own hiss is above the line is always heard through the suppressor; `wake_denoise_above`
    /// moves the line. The suppressor costs about 0.003 of a core (0.0598 s per second of speech
    /// instead of 0.0567).
    public static let denoisingRoomLevel = -55.0
    /// How much quieter than the line the room must become to stop hearing through the suppressor (dB).
    static let denoisingHysteresis = 3.0
    /// The lines a configuration may set (dBFS).
    public static let denoisingRange = -90.0...0.0
    /// "-90 and 0": the range in words, for messages.
    public static var denoisingRangeText: String {
        String(format: "%g and %g", denoisingRange.lowerBound, denoisingRange.upperBound)
    }
    /// The gates a configuration may ask for (dB).
    public static let meanGateRange = 0.0...60.0
    /// "0 and 60": the range in words, for messages.
    public static var meanGateRangeText: String {
        String(format: "%g and %g", meanGateRange.lowerBound, meanGateRange.upperBound)
    }
    /// The search proposes candidates down to this likelihood ratio per phone of the phrase
    /// (log10), so that `proposalThreshold` alone decides. At -7 a slow real "jarvis" (per frame
    /// above -1.4, but over 50 frames) was never proposed: 5 of 40 recordings, 2 at -15.
    static let candidateLog10PerPhone = -15.0

    /// Feeds the next audio (16 kHz mono); returns the phrases it completed, oldest first.
    public func process(_ samples: [Int16]) throws(RecognitionError) -> [WakeWordDetection] {
        var detections: [WakeWordDetection] = []
        var offset = 0
        while offset < samples.count {
            let count = min(Self.stepSamples, samples.count - offset)
            let piece = amplifiedIfFaint(try listenedTo(samples[offset..<(offset + count)]))
            let heard = hiss?.adding(to: piece[...]) ?? piece
            let aboveRoom = levelAboveRoom(heard)
            quietPieces = aboveRoom <= Self.quietAboveRoom ? quietPieces + 1 : 0
            let learns = learnsMean(aboveRoom: aboveRoom)
            let before = learns ? nil : try decoder.cepstralMeanState
            let decoder = self.decoder
            let result: Result<Int, RecognitionError> = heard.withUnsafeBufferPointer { buffer in
                do throws(RecognitionError) {
                    return .success(try decoder.processPartial(buffer))
                } catch {
                    return .failure(error)
                }
            }
            let frames = try result.get()
            if let before { try decoder.restore(before) }
            keep(heard[...])
            offset += count
            samplesProcessed += count
            guard frames > framesSearched else { continue }  // not a whole frame yet
            framesSearched = frames
            let found = try candidates()
            if configuration.reportsCandidates {
                detections += found
            } else if let accepted = found.filter(\.isAccepted).max(by: { $0.confidence < $1.confidence }) {
                detections.append(accepted)
                try restart()
                continue
            }
            if frames > Self.restartFrames && quietPieces >= Self.quietPiecesBeforeRestart {
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
        recent.removeAll(keepingCapacity: true)
        recentStart = samplesProcessed
        try restart()
    }

    /// Starts afresh as a newly made spotter would, also forgetting how the audio so far sounded
    /// (the front end's running cepstral mean and its estimate of the background noise, which
    /// otherwise carry over; the verifier hears each window afresh anyway) and hissing from the
    /// start of the floor's sequence again. For feeding unrelated recordings one after another,
    /// as benchmarks do: each is then heard the same way whatever was heard before it. A device
    /// listening to one room has no use for it.
    public func startAfresh() throws(RecognitionError) {
        recent.removeAll(keepingCapacity: true)
        recentStart = samplesProcessed
        hiss = configuration.noiseFloor.map { NoiseFloor(level: $0) }
        voice = StreamVoiceLevel()
        room = nil
        quietPieces = 0
        suppressor = configuration.denoisesAbove == nil ? nil : try Self.noiseSuppressor()
        roomLevel = RoomLevel()
        isDenoising = false
        samplesSkipped = samplesProcessed
        try restart(mean: initialMean)
    }

    /// `mean`: start a new stream from this cepstral mean, with the background forgotten.
    private func restart(mean: Decoder.CepstralMeanState? = nil) throws(RecognitionError) {
        // Ending an utterance runs the front end's last frames (room, whatever the gate said)
        // through the mean and then sets the mean to what it summed since it last moved, however
        // few frames that was: with the gate, the mean moves only as it does mid-utterance.
        let kept = (configuration.meanGate != nil || holdsMean) && mean == nil ? try decoder.cepstralMeanState : nil
        try decoder.endUtterance()
        if let kept { try decoder.restore(kept) }
        if let mean {
            try decoder.restore(mean)
            try decoder.startStream()
        }
        try decoder.startUtterance()
        framesSearched = 0
        judged.removeAll(keepingCapacity: true)
    }

    /// The mean the front end subtracts from what it hears now, one value per cepstral coefficient.
    var cepstralMean: [Float] {
        get throws(RecognitionError) { try decoder.cepstralMeanState.mean }
    }

    /// `piece` brought up to a usual level when the stream's voice, this piece's included, is faint.
    private func amplifiedIfFaint(_ piece: [Int16]) -> [Int16] {
        guard configuration.amplifiesFaintVoices else { return piece }
        return FaintVoiceGain.amplified(piece, by: FaintVoiceGain.decibels(forVoiceAt: voice.observe(piece)))
    }

    /// A window heard apart from the stream, as a spotter hearing it afresh would: brought up by
    /// the gain its own voice asks for (its loudest 100 ms), and with the hiss added.
    private func heardApart(_ audio: [Int16]) -> [Int16] {
        let window = configuration.amplifiesFaintVoices
            ? FaintVoiceGain.amplified(audio, by: FaintVoiceGain.decibels(forVoiceAt: StreamVoiceLevel.of(audio)))
            : audio
        var floor = configuration.noiseFloor.map { NoiseFloor(level: $0) }
        return floor?.adding(to: window[...]) ?? window
    }

    /// `piece` as the spotter hears it: through the noise suppression while the room is louder
    /// than `configuration.denoisesAbove` (3 dB less to stop, so a room at the line does not
    /// flip between the two every few pieces), as it came otherwise.
    private func listenedTo(_ piece: ArraySlice<Int16>) throws(RecognitionError) -> [Int16] {
        guard let suppressor, let line = configuration.denoisesAbove else { return Array(piece) }
        let denoised: [Int16]
        do {
            denoised = try suppressor.process(piece)
        } catch {
            throw RecognitionError(.decoding, error.message)
        }
        roomLevel.observe(piece)
        if let level = roomLevel.level {
            isDenoising = level > (isDenoising ? line - Self.denoisingHysteresis : line)
        }
        return isDenoising ? denoised : Array(piece)
    }

    private static func noiseSuppressor() throws(RecognitionError) -> NoiseSuppressor {
        do {
            return try NoiseSuppressor()
        } catch {
            throw RecognitionError(.modelLoad, error.message)
        }
    }

    /// The room's level is followed as the mean gate was measured with: frame by frame only.
    private static let roomLevelSettings = {
        var settings = EnergyEndpointer.Settings()
        settings.learnsLouderRooms = false
        return settings
    }()

    /// How much louder `piece` is than the room (dB), whose level follows the quieter pieces and
    /// then hears this one too. While the mean is held the room does not learn (Hark's own voice
    /// is not the room's level), and the piece counts as loud.
    private func levelAboveRoom(_ piece: [Int16]) -> Double {
        if holdsMean { return .infinity }
        let level = EnergyEndpointer.level(piece)
        var room = self.room ?? EnergyEndpointer(settings: Self.roomLevelSettings, background: level)
        let above = level - room.background
        room.observe(piece)
        self.room = room
        return above
    }

    /// Whether the front end's cepstral mean may learn from a piece this much louder than the
    /// room: with a gate, only when it is louder by the gate. While the mean is held, never.
    private func learnsMean(aboveRoom: Double) -> Bool {
        if holdsMean { return false }
        guard let gate = configuration.meanGate else { return true }
        return aboveRoom > gate
    }

    private func keep(_ samples: ArraySlice<Int16>) {
        recent.append(contentsOf: samples)
        if recent.count > Self.keptSamples + Self.stepSamples * 10 {
            let drop = recent.count - Self.keptSamples
            recent.removeFirst(drop)
            recentStart += drop
        }
    }

    /// The audio from stream position `start` to `end`, as much of it as is still kept.
    private func audio(from start: Int, to end: Int) -> [Int16] {
        let from = max(start - recentStart, 0), to = min(end - recentStart, recent.count)
        return from < to ? Array(recent[from..<to]) : []
    }

    /// The candidates the search has settled on since the last call, judged.
    private func candidates() throws(RecognitionError) -> [WakeWordDetection] {
        var found: [WakeWordDetection] = []
        for segment in decoder.segments() where judged.insert("\(segment.word) \(segment.startFrame) \(segment.endFrame)").inserted {
            let frames = max(1, segment.endFrame - segment.startFrame + 1)
            let score = Double(segment.probability + Self.scoreOffset) * Self.scoreToLog10 / Double(frames)
            let spelling = spellings[segment.word.trimmingCharacters(in: .whitespaces)]
            var detection = WakeWordDetection(phrase: spelling?.phrase ?? configuration.keyPhrase,
                                              startSample: sample(atFrame: segment.startFrame),
                                              endSample: sample(atFrame: segment.endFrame + 1),
                                              score: score, evidence: nil, confidence: score, isAccepted: false)
            if let verifier, let spelling {
                guard score >= configuration.proposalThreshold else { continue }
                let window = try verifier.decoder.cepstra(of: audio(from: detection.startSample - Self.windowBefore,
                                                                    to: detection.endSample + Self.windowAfter))
                var evidence = try verifier.decoder.evidence(phones: spelling.phones, in: window, searchScore: score)
                let odds = verifier.model.logOdds(evidence)
                // The check can only lower the odds, so while listening only a candidate that
                // would wake Hark is checked; a benchmark sweeping the threshold needs more.
                let checkedFrom = configuration.reportsCandidates ? min(threshold, Self.otherWordsCheckedFrom) : threshold
                if odds >= checkedFrom, let words = otherWordsBeside[spelling.phrase], !words.isEmpty {
                    let frames = Int((evidence.framesPerPhone * Double(spelling.phones.count)).rounded())
                    evidence.otherWordsGap = try verifier.decoder.otherWordsGap(phones: spelling.phones, besides: words,
                                                                                in: window, phraseFrames: frames)
                }
                detection.evidence = evidence
                detection.confidence = Self.confidence(odds: odds, otherWordsGap: evidence.otherWordsGap)
            }
            detection.isAccepted = detection.confidence >= threshold
            found.append(detection)
        }
        return found
    }

    /// How sure the verifier is that `audio` says `detection`'s phrase (its log odds, the best
    /// of the phrase's spellings): for checking what Hark itself was saying at the moment a wake
    /// word was heard over its reply. `audio` should span the detection with the verifier's
    /// margins (`verifierMargins`). The search never scored `audio`, so the verifier is told the
    /// lowest score a proposal has by default (`proposalThreshold`, whatever the configuration
    /// proposes from: `EchoPath.ownVoiceOdds` was measured at it): judged on the phrase's
    /// alignment alone (the detection's own score would lend the person's clear phrase to
    /// whatever Hark said meanwhile). The check against other words is not made: it can only
    /// lower the odds, and here lower odds would take Hark's own voice for the person. nil
    /// without a verifier.
    public func confidence(of detection: WakeWordDetection, in audio: [Int16]) throws(RecognitionError) -> Double? {
        guard let verifier else { return nil }
        let heard = heardApart(audio)
        let window = try verifier.decoder.cepstra(of: heard)
        var best = -Double.infinity
        for spelling in spellings.values where spelling.phrase == detection.phrase {
            let evidence = try verifier.decoder.evidence(phones: spelling.phones, in: window, searchScore: Self.proposalThreshold)
            best = max(best, verifier.model.logOdds(evidence))
        }
        return best
    }

    /// Where a wake phrase lies in `audio` (samples, from its first phone's start to its last
    /// phone's end), as a forced alignment puts it: each spelling of each phrase is aligned
    /// between free phones, as the verifier aligns a candidate, and the best-scoring alignment
    /// wins. For measuring how soon something follows the phrase's end, from the phrase's own
    /// phones rather than the recording's last sound (which can be a breath or a click after
    /// it). Assumes `audio` holds a phrase: an alignment is forced. nil without a verifier, or
    /// when no spelling could be aligned.
    public func alignedPhrase(in audio: [Int16]) throws(RecognitionError) -> Range<Int>? {
        guard verifier != nil else { return nil }
        // The verifier's own decoder drops silence before it decodes (pocketsphinx's default),
        // which moves every frame after a pause; this one numbers frames as the audio runs.
        let aligner: WakeWordVerifier
        if let made = self.aligner {
            aligner = made
        } else {
            let adaptation = try Recognizer.adaptationArguments(configuration.acousticTransform)
            aligner = try WakeWordVerifier(modelDirectory: configuration.modelDirectory, logFile: configuration.logFile,
                                           extraArguments: ["-remove_silence", "no"] + adaptation)
            self.aligner = aligner
        }
        let heard = heardApart(audio)
        let window = try aligner.cepstra(of: heard)
        var best: (frames: ClosedRange<Int>, score: Double)?
        for spelling in spellings.values.sorted(by: { $0.phones.lexicographicallyPrecedes($1.phones) }) {
            if let aligned = try aligner.phraseFrames(phones: spelling.phones, in: window),
               aligned.score > (best?.score ?? -.infinity) {
                best = aligned
            }
        }
        guard let frames = best?.frames else { return nil }
        return frames.lowerBound * Self.frameSamples..<min((frames.upperBound + 1) * Self.frameSamples, audio.count)
    }

    /// Samples the verifier hears before a candidate's start and after its end.
    public static var verifierMargins: (before: Int, after: Int) { (windowBefore, windowAfter) }

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

extension WakeWordConfiguration {
    /// The words of the phrases that the dictionary lacks and no pronunciation was given for.
    public func wordsWithoutPronunciation() throws(RecognitionError) -> [String] {
        try dictionaryEntries().missing.filter { pronunciations[$0] == nil }
    }

    /// The dictionary's entries for the phrases' words (alternates included), and the words it
    /// lacks, in order.
    func dictionaryEntries() throws(RecognitionError) -> (found: [(word: String, phones: String)], missing: [String]) {
        let words = Set(phrases.flatMap { $0.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) })
        let found = try PronunciationDictionary(path: dictionary).entries(for: words)
        return (found, words.subtracting(found.map { Decoder.baseWord($0.word) }).sorted())
    }

    /// Gives each word the dictionary lacks a pronunciation: from the first of `lexicons` (paths
    /// of files in the dictionary's format, e.g. models/lexicon.dict) that has it, else from
    /// `guess` (espeak-ng's reading), so that any phrase can be a wake phrase.
    public mutating func pronounceMissingWords(lexicons: [String], guess: ((String) throws -> [String])?) throws {
        let missing = try wordsWithoutPronunciation()
        guard !missing.isEmpty else { return }
        var known: [String: String] = [:]
        for lexicon in lexicons {
            for entry in try Recognizer.readLexicon(URL(fileURLWithPath: lexicon)) where known[entry.word] == nil {
                known[entry.word] = entry.phones
            }
        }
        for word in missing {
            if let phones = known[word] {
                pronunciations[word] = phones
            } else if let guess {
                pronunciations[word] = try guess(word).joined(separator: " ")
            }
        }
    }
}
