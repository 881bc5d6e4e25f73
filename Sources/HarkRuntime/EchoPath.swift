public import HarkAudio
public import HarkSpeech

/// Hark's own voice taken out of what the microphone hears while it speaks, so the wake word
/// still works over a reply: the reply's samples, delayed as the loudspeaker, its buffers and
/// the room delay them, go to the echo canceller beside each captured piece.
///
/// The delay is measured, not assumed: each reply starts with the last reply's measurement
/// (the first with what the loudspeaker says it holds), and at its end the delay is measured
/// again from the reply's own audio (`EchoDelay`) and kept when the match is clear.
public final class EchoPath {
    private let canceller: EchoCanceller
    /// Samples between handing a sample to the loudspeaker and hearing it; nil before the first
    /// reply was measured.
    public private(set) var delay: Int?
    private var reference: [Int16] = []
    private var replyDelay = 0
    /// Samples captured since the reply began.
    private var position = 0
    /// Where the reply began on the loop's timeline (samples heard).
    private var replyStart = 0
    /// What was captured during the reply, for measuring the delay at its end.
    private var captured: [Int16] = []

    /// Whether a reply's own audio has measured the delay: the canceller has heard Hark's voice
    /// come back through this room at least once.
    public var knowsTheRoom: Bool { delay != nil }

    /// A measurement is kept only above this match: below it the reply was too quiet in the
    /// microphone, or drowned by other sound, to tell.
    static let trustedMatch = 0.5
    /// At most this much of a reply is kept for the measurement.
    static let measuredSeconds = 8.0

    public init() throws(AudioError) {
        canceller = try EchoCanceller()
    }

    /// A reply begins: `played` is what the loudspeaker will play, 16 kHz mono; `queued` the
    /// seconds the loudspeaker says it holds before a sample is heard (used until a reply's
    /// own audio has measured the delay); `start` where on the timeline of what the microphone
    /// heard the reply begins.
    public func begin(_ played: [Int16], queued: Double, at start: Int = 0) {
        reference = played
        replyStart = start
        replyDelay = delay ?? Int(queued * Double(PipelineAudio.sampleRate))
        position = 0
        captured = []
        captured.reserveCapacity(min(played.count, Int(Self.measuredSeconds) * PipelineAudio.sampleRate))
    }

    /// `heard` with the reply's echo taken out.
    public func clean(_ heard: [Int16]) -> [Int16] {
        let played = played(whileHearing: (replyStart + position)..<(replyStart + position + heard.count))
        if captured.count < Int(Self.measuredSeconds) * PipelineAudio.sampleRate { captured += heard }
        position += heard.count
        return canceller.cancel(captured: heard, played: played)
    }

    /// What the loudspeaker was playing while the microphone heard `captured` (positions on the
    /// timeline of what was heard): the reference the canceller used there.
    public func played(whileHearing captured: Range<Int>) -> [Int16] {
        captured.map { position in
            let index = position - replyStart - replyDelay
            return index >= 0 && index < reference.count ? reference[index] : 0
        }
    }

    /// Whether Hark itself was saying the wake word where `detection` heard it ("Jarvis is my
    /// name"): the canceller takes most of its voice out, but not all, and least while it is
    /// still learning the room at the start of the first reply. What the loudspeaker played over
    /// the detection's window is judged by the same verifier, on the phrase's alignment alone;
    /// at even odds or better, the wake word was Hark's.
    public func isOwnVoice(_ detection: WakeWordDetection, spotter: WakeWordSpotter) throws -> Bool {
        let margins = WakeWordSpotter.verifierMargins
        let window = (detection.startSample - margins.before)..<(detection.endSample + margins.after)
        guard let own = try spotter.confidence(of: detection, in: played(whileHearing: window)) else { return false }
        return own >= Self.ownVoiceOdds
    }

    /// The log odds at which what Hark was playing counts as saying the wake word. On
    /// `hark bench-echo` (20 real people saying "jarvis" over a reply, at 0, -6 and -12 dB), what
    /// Hark was saying under each of the 48 detections scored -4.3 to -3.1; Hark's own "Jarvis"
    /// that woke it through the canceller at the start of a first reply (BargeInTests) +0.8.
    static let ownVoiceOdds = 0.0

    /// The reply is over (or was stopped): measures the delay on what it played and was heard.
    public func end() {
        let played = Array(reference.prefix(captured.count))
        if let measured = EchoDelay.estimate(captured: captured, played: played), measured.correlation >= Self.trustedMatch {
            delay = measured.samples
        }
        reference = []
        captured = []
    }
}
