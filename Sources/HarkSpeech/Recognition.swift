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
    /// Per-frame score margin of the grammar over the phone loop, the raw
    /// figure behind `confidence` (see `Confidence`).
    public var margin: Double
    /// What the words mean under the grammar they were recognised with; nil when rejected.
    public var interpretation: Interpretation?
    /// 10 ms frames decoded.
    public var frames: Int
    /// CPU-side wall time spent decoding, in seconds.
    public var decodeSeconds: Double
    /// 10 ms frames of silence after the last sound of speech (found by the confidence pass's
    /// phone loop); nil when rejected or not measured.
    public var framesAfterLastWord: Int? = nil

    public var text: String { words.joined(separator: " ") }

    /// Nobody spoke: no audio reached the recogniser.
    public static let nothingHeard = Recognition(words: [], isRejected: true, confidence: 0, rejection: "nothing was heard",
                                                 margin: 0, interpretation: nil, frames: 0, decodeSeconds: 0)
}
