public import HarkGrammar

/// The recogniser's verdict on one utterance.
public struct Recognition: Sendable, Equatable {
    /// The words heard, in the grammar's spelling; empty when rejected.
    public var words: [String]
    /// True when the audio was judged to be speech outside the grammar, or nothing at all.
    public var isRejected: Bool
    /// 0…1; how far the grammar's best path beats free phone recognition of the
    /// same audio. Higher is surer. See `Confidence`.
    public var confidence: Double
    /// Why the utterance was rejected, for people reading logs.
    public var rejection: String?
    /// How far the grammar's path beats free phones, the raw figure behind `confidence`: the
    /// lower of `utteranceMargin` and the weakest word's evidence (see `Confidence`, `WordFit`).
    public var margin: Double
    /// What the words mean under the grammar they were recognised with; nil when rejected.
    public var interpretation: Interpretation?
    /// 10 ms frames decoded.
    public var frames: Int
    /// CPU-side wall time spent decoding, in seconds.
    public var decodeSeconds: Double
    /// The CPU each stage of the recognition took (zero where it did not run).
    public var decodeCPU = DecodeCPU()
    /// 10 ms frames of silence after the last sound of speech (found by the confidence pass's
    /// phone loop); nil when rejected or not measured.
    public var framesAfterLastWord: Int? = nil
    /// Per-frame margin of the grammar's path over the phone loop, averaged over the utterance.
    public var utteranceMargin: Double = 0
    /// How well each word heard fits its own stretch of audio, in order; empty when nothing in
    /// the grammar was heard or confidence was not measured.
    public var wordFits: [WordFit] = []
    /// The passes' other measurements of the utterance (see `ConfidenceFeatures`); nil when
    /// nothing in the grammar was heard or confidence was not measured.
    public var features: ConfidenceFeatures? = nil

    /// When rejected only for a margin a little below the threshold (see
    /// `RecognizerConfiguration.askMargin`): the phrase heard, for the conversation to check.
    public var guess: [String] = []
    /// With a `guess` whose deciding word has one rival meaning in the grammar ("on" for "off"):
    /// the phrase with that other meaning, asked about after a "no" (`RivalOutcome.otherMeaning`).
    /// Nil otherwise.
    public var otherwise: [String]? = nil
    /// Accepted with a margin Hark would act on even in a noisy room (`NoisyConfirmation`'s
    /// reach above the threshold, or the telephone band's when that is longer and applies): what
    /// a request after a tentative wake word must be.
    public var isClear = false
    /// Rejected only because a noisy room or a telephone-band microphone asks first
    /// (`NoisyConfirmation`, `RecognizerConfiguration.telephoneBandReach`): heard well enough to
    /// act on otherwise, and its `guess` is asked about.
    public var isAskedForTheRoom = false
    /// Heard in a noisy room: the utterance's signal-to-noise estimate below
    /// `NoisyConfirmation.noisyRoomBelow`, or below the limit under which Hark asks first
    /// (`NoisyConfirmation.below`) when that is lower.
    /// Unknown (audio too short to estimate) is not noisy.
    public var isInNoisyRoom = false

    /// The word with the least evidence: the one the grammar may have forced onto the audio.
    public var weakestWord: WordFit? { WordFit.weakest(of: wordFits) }

    public var text: String { words.joined(separator: " ") }

    /// Nobody spoke: no audio reached the recogniser.
    public static let nothingHeard = Recognition(words: [], isRejected: true, confidence: 0, rejection: "nothing was heard",
                                                 margin: 0, interpretation: nil, frames: 0, decodeSeconds: 0)
}

extension Recognition {
    /// What another recogniser (a hub's) made of `frames` of audio: its words ("" rejected) and,
    /// when it said, how much quiet followed the last of them. The rest was not measured here.
    public init(heardElsewhere text: String, frames: Int, framesAfterLastWord: Int?) {
        let words = text.split(separator: " ").map(String.init)
        self.init(words: words, isRejected: words.isEmpty, confidence: words.isEmpty ? 0 : 1,
                  rejection: words.isEmpty ? "not understood" : nil, margin: 0, interpretation: nil,
                  frames: frames, decodeSeconds: 0, framesAfterLastWord: framesAfterLastWord)
    }
}
