import Dispatch

/// The confidence pass: a free loop of context-independent phones over the same audio as the
/// grammar pass, on a decoder and a thread of its own, so the two passes run at the same time
/// and a reply waits for the slower of them instead of both one after the other.
///
/// Both passes search the same cepstra (the room's `FrontEnd` computes them once), and each
/// decoder normalises them by the utterance's own mean, so the scores are the ones a single
/// decoder gave running the passes in turn. The second decoder costs its own
/// copy of the acoustic model (about 6 MB) and no dictionary: the loop is made of the model's
/// phones.
///
/// The loop is free: any phone may follow any other. A loop weighed by Debian's phone language
/// model, a yardstick closer to "any English speech", accepted fewer commands at the same false
/// acceptances (figures: docs/benchmarks.md, "The settings' figures").
final class PhoneLoopPass: @unchecked Sendable {
    // @unchecked: `decoder` is used only on `queue`, and `alongside` waits for that work to end
    // before it returns, so no two utterances ever share it.
    private let decoder: Decoder
    private let queue = DispatchQueue(label: "hark.phone-loop", qos: .userInitiated)
    private static let search = "hark-phone-loop"

    /// What the phone loop made of an utterance.
    struct Outcome {
        var hypothesis: Decoder.Hypothesis
        var segments: [Decoder.Segment]
        /// CPU seconds the loop's thread spent on it.
        var cpuSeconds = 0.0
    }

    /// How many of a phone's Gaussians the loop weighs in each frame (pocketsphinx's -topn; the
    /// grammar pass keeps the default 4). Three cost less and judged a little better on make
    /// bench-real; two did not hold on the test half's speakers (figures: docs/benchmarks.md,
    /// "The settings' figures").
    static let gaussiansPerFrame = 3

    /// `extraArguments`: the grammar pass's adaptation and filler flags, so both passes hear the same model.
    init(modelDirectory: String, logFile: String, extraArguments: [String] = []) throws(RecognitionError) {
        // Context-independent phones keep the pass cheap. Every frame is scored: every second
        // frame (-ds 2) cut a quarter of the CPU but blunted the confidence (figures:
        // docs/benchmarks.md, "The settings' figures"). The model's files are cut to those phones
        // where they can be (`ContextIndependentModel`): the same scores in less memory.
        let arguments = ["-allphone_ci", "yes", "-topn", String(Self.gaussiansPerFrame)] + extraArguments
        let make = { (model: [String]) throws(RecognitionError) -> Decoder in
            try Decoder.make(entries: [], modelDirectory: modelDirectory, logFile: logFile, extraArguments: arguments + model)
        }
        if let model = try ContextIndependentModel(modelDirectory: modelDirectory) {
            decoder = try model.withArguments(make)
        } else {
            decoder = try make([])
        }
        try decoder.installPhoneLoop(name: Self.search)
        try decoder.activate(Self.search)
    }

    /// Runs `work` on this thread while the phone loop decodes `cepstra` on its own; returns
    /// both once both are done. The loop's outcome is waited for even when `work` throws.
    func alongside<T>(_ cepstra: Cepstra, _ work: () throws(RecognitionError) -> T) throws(RecognitionError) -> (T, Outcome) {
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        queue.async {
            box.result = Result { () throws(RecognitionError) in
                let (hypothesis, seconds) = try ThreadClock.measure { () throws(RecognitionError) in try self.decoder.decodeWhole(cepstra) }
                return Outcome(hypothesis: hypothesis, segments: self.decoder.segments(), cpuSeconds: seconds)
            }
            done.signal()
        }
        let worked = Result { () throws(RecognitionError) in try work() }
        done.wait()
        guard let loop = box.result else {
            throw RecognitionError(.decoding, "the phone-loop pass ended without an outcome")
        }
        return (try worked.get(), try loop.get())
    }

    /// Carries the loop's outcome from its thread; the semaphore orders the write before the read.
    private final class OutcomeBox: @unchecked Sendable {
        var result: Result<Outcome, RecognitionError>?
    }
}
