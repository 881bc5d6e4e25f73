/// What the two passes say about an utterance beyond its margin, frame by frame: how much of it
/// the grammar's words explain and how well, how much the free phones hear as speech, and how
/// well the grammar's silences fit where it put them. Benchmarks keep them for every recording,
/// so a confidence can be built from more than one of them and judged on real voices.
public struct ConfidenceFeatures: Sendable, Equatable, Codable {
    /// 10 ms frames decoded.
    public var frames: Int
    /// Frames the grammar's path spends in words (not silence or noise).
    public var wordFrames: Int
    /// Frames the phone loop hears as speech sounds (not its silence phone).
    public var loopSpeechFrames: Int
    /// Per-frame margin over the words' frames only, in `Confidence.marginScale` units.
    public var wordMargin: Double
    /// Per-frame margin over the frames the grammar's path spends in silence or noise.
    public var silenceMargin: Double
    /// Words on the grammar's path.
    public var words: Int
    /// The audio's `SignalToNoise` estimate in dB (nil when too short to tell).
    public var signalToNoise: Double? = nil
    /// The same voice against the room as heard before the request when that was louder
    /// (`RoomBeforeRequest`), in dB: the room a noisy room's asking first is judged by (nil when
    /// no room before it was heard, as for a recording on its own).
    public var signalToNoiseWithRoomBefore: Double? = nil
    /// Phones in the pronunciations of the grammar's words on the path (nil when not counted).
    public var wordPhones: Int? = nil
    /// Whether the path came from the search with other words beside the grammar
    /// (`RecognizerConfiguration.otherWords`; nil when not recorded).
    public var checkedAgainstOtherWords: Bool? = nil
    /// The words that decide the action against their closest rival in the grammar
    /// (`RivalContest`; nil when the phrase has none, or it was not searched).
    public var rival: RivalOutcome? = nil
    /// Whether the utterance was one for the noise suppression (`RequestDenoising`): heard
    /// through it, and judged with a noisy room's reach (nil when not recorded).
    public var heardThroughSuppression: Bool? = nil
    /// Whether, such a request also heard as it came (`SecondHearing`), that hearing was kept
    /// (nil when not recorded).
    public var keptAsItCame: Bool? = nil
    /// The hearing not kept of such a request (`SecondHearing`; nil when heard once).
    public var otherHearing: OtherHearing? = nil
    /// Whether such a request's two hearings formed the same phrase, and were judged so
    /// (`NoisyConfirmation.agreedReach`; nil when heard once).
    public var hearingsAgreed: Bool? = nil
    /// The margin before a noisy room or a telephone band squeezed it into the ask band
    /// (`AskingFirst`; nil when not judged there).
    public var heardMargin: Double? = nil
    /// Whether the utterance sounded telephone-band (`TelephoneBand`; nil when not measured: it
    /// is only for a margin it could move, from the bottom of the ask band up to the telephone
    /// band's reach above the threshold).
    public var telephoneBand: Bool? = nil

    /// What the other of a request's two hearings heard (`SecondHearing`).
    public struct OtherHearing: Sendable, Equatable, Codable {
        /// Its words, rejected or not.
        public var words: [String]
        /// Its margin before any asking first squeezed it (`heardMargin`).
        public var heardMargin: Double
        /// Whether its words formed a phrase of the grammar.
        public var formsPhrase: Bool
        /// Its deciding words against their closest rival (`rival`), when contested.
        public var rival: RivalOutcome? = nil
    }

    public init(frames: Int, wordFrames: Int, loopSpeechFrames: Int, wordMargin: Double, silenceMargin: Double, words: Int) {
        self.frames = frames
        self.wordFrames = wordFrames
        self.loopSpeechFrames = loopSpeechFrames
        self.wordMargin = wordMargin
        self.silenceMargin = silenceMargin
        self.words = words
    }

    /// The share of the speech heard that the grammar's words explain: their frames over the
    /// frames the phone loop hears as speech, at most 1 (the words' stretches include their
    /// quiet edges). Near 1 for a command; small for a long sentence whose one phrase-like
    /// stretch the grammar took, leaving the rest to its silence and noise fillers.
    public var coverage: Double {
        let speech = max(loopSpeechFrames, wordFrames)
        return speech > 0 ? Double(wordFrames) / Double(speech) : 1
    }

    /// Frames the phone loop hears as speech beyond those the grammar's words take: what was
    /// said besides the phrase. Small for a request said alone, whatever its length; seconds for
    /// a phrase the grammar found inside a long stretch of other speech.
    public var speechBesidesWords: Int {
        max(0, loopSpeechFrames - wordFrames)
    }

    /// How long the words' phones last on average, in 10 ms frames: about 10 for a phrase said
    /// at a usual pace. Far more when the grammar's path stretched a short phrase over seconds
    /// of audio, noise or other speech ("five" over 2.7 s). Nil when the phones were not counted.
    public var framesPerPhone: Double? {
        guard let wordPhones, wordPhones > 0 else { return nil }
        return Double(wordFrames) / Double(wordPhones)
    }

    static func measure(grammarPath: [Decoder.Segment], phoneLoop: [Decoder.Segment], loop: PhoneLoopScores,
                        frames: Int, naturalLog: (Int32) -> Double,
                        phoneCount: (String) -> Int?) -> ConfidenceFeatures {
        let loopSpeech = phoneLoop.filter { !Decoder.isFiller($0.word) }.reduce(0) { $0 + max($1.frameCount, 0) }
        var word = (frames: 0, grammar: 0.0, loop: 0.0), silence = (frames: 0, grammar: 0.0, loop: 0.0)
        var words = 0
        var phones: Int? = 0
        for segment in grammarPath where segment.frameCount > 0 {
            let part = (segment.frameCount, naturalLog(segment.acoustic), loop.total(over: segment))
            if Decoder.isFiller(segment.word) {
                silence = (silence.frames + part.0, silence.grammar + part.1, silence.loop + part.2)
            } else {
                words += 1
                phones = phones.flatMap { counted in phoneCount(segment.word).map { counted + $0 } }
                word = (word.frames + part.0, word.grammar + part.1, word.loop + part.2)
            }
        }
        func perFrame(_ part: (frames: Int, grammar: Double, loop: Double)) -> Double {
            part.frames > 0 ? Confidence.marginScale * (part.grammar - part.loop) / Double(part.frames) : 0
        }
        var features = ConfidenceFeatures(frames: frames, wordFrames: word.frames, loopSpeechFrames: loopSpeech,
                                          wordMargin: perFrame(word), silenceMargin: perFrame(silence), words: words)
        features.wordPhones = words > 0 ? phones : nil
        return features
    }
}
