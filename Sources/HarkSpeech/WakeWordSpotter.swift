import Foundation
import HarkAudio

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
    /// While false, tentative candidates (`WakeWordConfiguration.tentativeOdds`) are not reported:
    /// for listening over Hark's own voice, where only a sure wake word may stop the reply.
    public var reportsTentative = true
    /// Samples fed (and skipped) so far.
    public private(set) var samplesProcessed = 0
    /// Whether the room is loud enough that the spotter now hears through the noise suppression
    /// (see `WakeWordSpotter.denoisingRoomLevel`).
    public private(set) var isDenoising = false
    /// Whether the search is stopped for now, the room having been quiet a while (`SearchQuietGate`).
    public var isSearchPaused: Bool { quietGate.isClosed }
    /// Seconds it took to load the model and install the search.
    public let loadSeconds: Double

    private let decoder: Decoder
    /// The front end's cepstral mean normaliser before the spotter heard anything (the model's
    /// own starting mean, no history), for `startAfresh()`.
    private let initialMean: Decoder.CepstralMeanState
    /// The verifier, the model that weighs it and the other words it checks against, perhaps
    /// shared with other spotters; nil when the configuration has no verifier.
    public let secondLook: WakeWordSecondLook?
    private static let searchName = "hark-wake"
    /// Each pronunciation the search listens for: the phrase it spells and its phones.
    let spellings: [String: (phrase: String, phones: [String])]
    /// The forced alignment `alignedPhrase` uses, made the first time it is asked for.
    var aligner: WakeWordVerifier?
    /// Samples the search's frame numbers do not count: those skipped with `reset(skipping:)`,
    /// and after `startAfresh()` every sample before it (a new stream numbers frames from 0).
    private var samplesSkipped = 0
    /// Frames searched in the current utterance.
    private(set) var framesSearched = 0
    /// A tentative candidate waiting to see whether a sure one follows (`tentativeHoldSamples`).
    private var pendingTentative: WakeWordDetection?
    /// Candidates of this utterance already judged, by pronunciation, first and last frame.
    private var judged: Set<String> = []
    /// The latest audio fed, for the verifier, and as it came (`recentAsCame`, for its room's
    /// level); `recentStart` is the stream position of the first sample of each.
    private var recent: [Int16] = []
    private var recentAsCame: [Int16] = []
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
    /// Stops the search while the room is quiet (`SearchQuietGate`).
    private var quietGate = SearchQuietGate()
    /// Hears everything fed when the configuration may denoise, so that it knows the room by the
    /// time the room is loud; nil when it never denoises.
    private var suppressor: NoiseSuppressor?
    /// The room's level as the switch to the suppressed audio judges it.
    private var roomLevel = RoomLevel()

    /// `sharing`: another spotter's second look (`secondLook`), used instead of making one when
    /// it was made for the same phrases, model and verifier; several streams heard at once then
    /// hold one verifier between them.
    public init(configuration: WakeWordConfiguration = WakeWordConfiguration(),
                sharing shared: WakeWordSecondLook? = nil) throws(RecognitionError) {
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
        if let odds = configuration.tentativeOdds, !odds.isFinite {
            throw RecognitionError(.grammar, "the wake word's tentative odds \(odds) are not a number")
        }
        guard configuration.noisyRoomAllowance.isFinite, configuration.noisyRoomAllowance >= 0 else {
            throw RecognitionError(.grammar, "the wake word's noisy-room allowance \(configuration.noisyRoomAllowance) is not a number of log odds from 0 up")
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
        if let model = configuration.verifier {
            let key = WakeWordSecondLook.key(configuration: configuration, adaptation: adaptation,
                                             spellings: spellings.values.map(\.phones), model: model)
            if let shared, shared.key == key {
                secondLook = shared
            } else {
                secondLook = try Self.secondLook(configuration: configuration, phrases: phrases, spellings: spellings,
                                                 decoder: decoder, adaptation: adaptation, model: model, key: key)
            }
        } else {
            secondLook = nil
        }
        self.threshold = Self.threshold(sensitivity: configuration.sensitivity, verified: configuration.verifier != nil)
        self.pronunciations = pronunciations
        self.loadSeconds = Date().timeIntervalSince(started)
    }

    /// Feeds the next audio (16 kHz mono); returns the phrases it completed, oldest first.
    public func process(_ samples: [Int16]) throws(RecognitionError) -> [WakeWordDetection] {
        var detections: [WakeWordDetection] = []
        var offset = 0
        while offset < samples.count {
            let count = min(Self.stepSamples, samples.count - offset)
            let piece = amplifiedIfFaint(try listenedTo(samples[offset..<(offset + count)]))
            let heard = hiss?.adding(to: piece[...]) ?? piece
            let aboveRoom = levelAboveRoom(heard)
            let quiet = aboveRoom <= Self.quietAboveRoom
            quietPieces = quiet ? quietPieces + 1 : 0
            keep(heard[...], asCame: samples[offset..<(offset + count)])
            offset += count
            samplesProcessed += count
            // Closed only after a whole frame, so the frames past the pause keep their places.
            let wholeFrames = (samplesProcessed - samplesSkipped) % Self.frameSamples == 0
            guard let admitted = quietGate.admit(heard, quiet: quiet,
                                                 mayClose: configuration.pausesInQuietRooms && pendingTentative == nil && wholeFrames)
            else { continue }
            samplesSkipped += admitted.skipped
            // The kept quiet was quiet: it teaches the mean what any quiet piece would.
            if !admitted.backlog.isEmpty { _ = try search(admitted.backlog, learns: learnsMean(aboveRoom: 0)) }
            let frames = try search(heard, learns: learnsMean(aboveRoom: aboveRoom))
            guard frames > framesSearched else { continue }  // not a whole frame yet
            framesSearched = frames
            let found = try candidates()
            if configuration.reportsCandidates {
                detections += found
            } else if let accepted = Self.surest(found.filter(\.isAccepted)) {
                detections.append(accepted)
                try restart()
                continue
            } else if let tentative = heldTentative(found) {
                detections.append(tentative)
                try restart()
                continue
            }
            if frames > Self.restartFrames && quietPieces >= Self.quietPiecesBeforeRestart {
                try restart()
            }
        }
        return detections
    }

    /// Feeds `audio` to the keyword search, the cepstral mean learning from it only if `learns`;
    /// returns the frames searched in this utterance.
    private func search(_ audio: [Int16], learns: Bool) throws(RecognitionError) -> Int {
        let before = learns ? nil : try decoder.cepstralMeanState
        let decoder = self.decoder
        let result: Result<Int, RecognitionError> = audio.withUnsafeBufferPointer { buffer in
            do throws(RecognitionError) {
                return .success(try decoder.processPartial(buffer))
            } catch {
                return .failure(error)
            }
        }
        let frames = try result.get()
        if let before { try decoder.restore(before) }
        return frames
    }

    /// Starts the search afresh, e.g. once the command after a wake word has been heard.
    /// `skipping` counts audio that was not fed (while the command was recorded or the reply
    /// played), so that later detections keep their place on the same timeline.
    public func reset(skipping skipped: Int = 0) throws(RecognitionError) {
        precondition(skipped >= 0, "cannot skip \(skipped) samples")
        samplesProcessed += skipped
        samplesSkipped += skipped
        recent.removeAll(keepingCapacity: true)
        recentAsCame.removeAll(keepingCapacity: true)
        recentStart = samplesProcessed
        quietGate.open()
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
        recentAsCame.removeAll(keepingCapacity: true)
        recentStart = samplesProcessed
        hiss = configuration.noiseFloor.map { NoiseFloor(level: $0) }
        voice = StreamVoiceLevel()
        room = nil
        quietPieces = 0
        quietGate.open()
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
        pendingTentative = nil
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

    private func keep(_ samples: ArraySlice<Int16>, asCame: ArraySlice<Int16>) {
        recent.append(contentsOf: samples)
        recentAsCame.append(contentsOf: asCame)
        if recent.count > Self.keptSamples + Self.stepSamples * 10 {
            let drop = recent.count - Self.keptSamples
            recent.removeFirst(drop)
            recentAsCame.removeFirst(drop)
            recentStart += drop
        }
    }

    /// The audio from stream position `start` to `end`, as much of it as is still kept, as
    /// heard or (`asCame`) as it came.
    private func audio(from start: Int, to end: Int, asCame: Bool = false) -> [Int16] {
        let kept = asCame ? recentAsCame : recent
        let from = max(start - recentStart, 0), to = min(end - recentStart, kept.count)
        return from < to ? Array(kept[from..<to]) : []
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
            if let secondLook, let spelling {
                guard score >= proposalFloor else { continue }
                let windowAudio = audio(from: detection.startSample - Self.windowBefore, to: detection.endSample + Self.windowAfter)
                let roomAudio = audio(from: detection.endSample - RoomLevel.pieces * RoomLevel.pieceSamples,
                                      to: detection.endSample, asCame: true)
                let reportsCandidates = configuration.reportsCandidates
                (detection.evidence, detection.confidence, detection.signalToNoise) = try secondLook.look { (verifier) throws(RecognitionError) in
                    let window = try verifier.cepstra(of: windowAudio)
                    var evidence = try verifier.evidence(phones: spelling.phones, in: window, searchScore: score)
                    let odds = secondLook.model.logOdds(evidence)
                    let frames = Int((evidence.framesPerPhone * Double(spelling.phones.count)).rounded())
                    // The phrase's level over as long as the alignment found it, at least 0.3 s.
                    let signalToNoise = Self.signalToNoise(endingAudio: roomAudio[...], phraseSamples: max(frames, 30) * Self.frameSamples)
                    let threshold = self.threshold(signalToNoise: signalToNoise)
                    // The check can only lower the odds, so while listening only a candidate that
                    // would wake Hark is checked; a benchmark sweeping the threshold needs more. A
                    // tentative one is not: the request after it must bear it out anyway, and checking
                    // every candidate from odds 1 cost a quarter more CPU and 20 MB while listening.
                    let checkedFrom = reportsCandidates ? min(threshold, Self.otherWordsCheckedFrom) : threshold
                    if odds >= checkedFrom, let words = secondLook.otherWordsBeside[spelling.phrase], !words.isEmpty {
                        evidence.otherWordsGap = try verifier.otherWordsGap(phones: spelling.phones, besides: words,
                                                                            in: window, phraseFrames: frames)
                    }
                    return (evidence, Self.confidence(odds: odds, otherWordsGap: evidence.otherWordsGap), signalToNoise)
                }
            }
            detection.isAccepted = detection.confidence >= threshold(signalToNoise: detection.signalToNoise)
            detection.isTentative = !detection.isAccepted && secondLook != nil && !configuration.reportsCandidates && reportsTentative
                && detection.confidence >= listensFrom
            found.append(detection)
        }
        return found
    }

    /// A tentative candidate is held this long (samples) past its end before it is reported: the
    /// search often settles on a weak partial phrase first and on the whole one, which may be
    /// sure, a few frames later.
    static let tentativeHoldSamples = 9_600

    /// The tentative candidate to report now, if one has been held long enough with no sure one
    /// after it; keeps the surest of `found` and those still held.
    private func heldTentative(_ found: [WakeWordDetection]) -> WakeWordDetection? {
        guard reportsTentative else {
            pendingTentative = nil
            return nil
        }
        if let tentative = Self.surest(found.filter(\.isTentative)),
           tentative.confidence > (pendingTentative?.confidence ?? -.infinity) {
            pendingTentative = tentative
        }
        guard let pending = pendingTentative, samplesProcessed - pending.endSample >= Self.tentativeHoldSamples else { return nil }
        return pending
    }

    /// The candidate judged surest, if any.
    private static func surest(_ candidates: [WakeWordDetection]) -> WakeWordDetection? {
        candidates.max { $0.confidence < $1.confidence }
    }

    /// The sample at which frame `frame` starts: the keyword search numbers frames from the
    /// decoder's start, 10 ms each, and every sample fed makes frames.
    private func sample(atFrame frame: Int) -> Int {
        min(samplesProcessed, frame * Self.frameSamples + samplesSkipped)
    }
}

@available(*, unavailable, message: "WakeWordSpotter owns a pocketsphinx decoder; use it from one thread")
extension WakeWordSpotter: Sendable {}
