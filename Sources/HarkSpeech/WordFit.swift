import Foundation

/// How well one word of the grammar's path explains its own stretch of audio, against free
/// phones over the same frames.
///
/// The utterance's margin averages over every frame, so a command that is right but for one
/// word ("turn on the kitchen light" forced onto "turn on the garage light") still scores
/// well: four words fit and one does not. The forced word's own fit is far below the others'.
public struct WordFit: Sendable, Equatable, Codable {
    public var word: String
    /// Per-frame difference of the word's acoustic score and the phone loop's over the same
    /// frames, in `Confidence.marginScale` units like the utterance's margin.
    public var margin: Double
    /// 10 ms frames the word lasted.
    public var frames: Int

    public init(word: String, margin: Double, frames: Int) {
        self.word = word
        self.margin = margin
        self.frames = frames
    }

    /// The word's margin weighed by how much audio backs it, on the utterance margin's scale.
    /// A short word's average is noisy (the last phone of "the" blurs into the next word), so
    /// the margin is scaled by the square root of the word's length, as the noise of an average
    /// falls; `evidenceFrames` sets where the two scales meet: a word that long counts at its
    /// own margin. 144 frames was the best of 16…256 on the generated corpus (bench/), and left
    /// every real recording of home-en above the words that jarvis recordings were forced onto.
    public var evidence: Double { margin * (Double(frames) / Self.evidenceFrames).squareRoot() }
    public static let evidenceFrames = 144.0

    /// The fit with the least evidence: the word the grammar may have forced onto the audio.
    public static func weakest(of fits: [WordFit]) -> WordFit? { fits.min { $0.evidence < $1.evidence } }

    /// "\"porch\" -2.16": the word and its evidence, for logs and reports.
    public var summary: String { "\"\(word)\" " + String(format: "%.2f", evidence) }

    /// The fit of each word of `grammarPath` (fillers and silence left out), in order.
    static func fits(grammarPath: [Decoder.Segment], phoneLoop: [Decoder.Segment],
                     naturalLog: (Int32) -> Double) -> [WordFit] {
        fits(grammarPath: grammarPath, loop: PhoneLoopScores(phoneLoop, naturalLog: naturalLog), naturalLog: naturalLog)
    }

    /// The same, against the phone loop's scores already spread over its frames.
    static func fits(grammarPath: [Decoder.Segment], loop: PhoneLoopScores,
                     naturalLog: (Int32) -> Double) -> [WordFit] {
        grammarPath.filter { !Decoder.isFiller($0.word) && $0.frameCount > 0 }.map { word in
            WordFit(word: Decoder.baseWord(word.word),
                    margin: Confidence.marginScale * (naturalLog(word.acoustic) - loop.total(over: word)) / Double(word.frameCount),
                    frames: word.frameCount)
        }
    }

}

/// The phone loop's acoustic score frame by frame, for comparing with any stretch of the
/// grammar's path. The loop's segments rarely line up with the words, so each segment's score
/// is spread evenly over its frames.
struct PhoneLoopScores {
    private var perFrame: [Double]

    init(_ phoneLoop: [Decoder.Segment], naturalLog: (Int32) -> Double) {
        let frameCount = max((phoneLoop.map(\.endFrame).max() ?? -1) + 1, 0)
        perFrame = [Double](repeating: 0, count: frameCount)
        for segment in phoneLoop {
            let frames = Self.clamped(segment, to: frameCount)
            guard !frames.isEmpty else { continue }
            let score = naturalLog(segment.acoustic) / Double(segment.frameCount)
            for frame in frames { perFrame[frame] = score }
        }
    }

    /// The loop's score over the segment's frames; frames past the loop's last count as 0.
    func total(over segment: Decoder.Segment) -> Double {
        Self.clamped(segment, to: perFrame.count).reduce(0) { $0 + perFrame[$1] }
    }

    /// The segment's frames that lie within 0..<frameCount.
    private static func clamped(_ segment: Decoder.Segment, to frameCount: Int) -> Range<Int> {
        let start = max(segment.startFrame, 0), end = min(segment.endFrame + 1, frameCount)
        return start < end ? start..<end : 0..<0
    }
}
