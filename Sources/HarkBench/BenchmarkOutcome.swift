import Foundation
import HarkAudio
public import HarkSpeech
import HarkIntents
import HarkRuntime

/// What a recording should be understood as, in the rhasspy-test sidecar
/// layout (`NAME.json` beside `NAME.wav`). A null or missing intent marks
/// speech that must be rejected.
public struct ExpectedUnderstanding: Sendable, Decodable {
    public struct Intent: Sendable, Decodable { public var name: String }
    public var text: String?
    public var intent: Intent?
    public var slots: [String: String]?
    /// Who spoke it, in generated corpora (extra key; rhasspy-test sidecars have none).
    public var voice: String?
    /// The noise mixed under it and at what signal-to-noise ratio in dB, in generated corpora.
    public var noise: String?
    public var snr: Double?
    /// Seconds into the recording at which the wake word was heard, in corpora that give each
    /// request the room before it (make bench-noise): the request is then cut from what follows
    /// as the live loop cuts one (`StreamedRequest`), and plain pocketsphinx hears all of it.
    public var wakeAt: Double?
    /// The wake phrase said before the request, from `wakeStartsAt` to `wakeAt` s (recorded
    /// turns, make bench-noise's turns/): with `Benchmark.wakeSettings` the spotter must find it
    /// (`SpottedWake`), and the request is cut from where it ended the phrase.
    public var wakePhrase: String?
    public var wakeStartsAt: Double?
}

/// What plain pocketsphinx (`BaselineRecognizer`) made of the same recording.
public struct BaselineOutcome: Sendable, Codable {
    /// Its words formed a phrase the dialogue understood (it has no confidence threshold).
    public var understood: Bool
    public var commandRight: Bool
    public var account: String
}

/// What became of one recording, decoded with no margin threshold so that every
/// threshold can be judged afterwards from the same decoding.
public struct BenchmarkOutcome: Sendable, Codable {
    public var recording: String
    /// The folder it came from (one per noise condition in a corpus).
    public var folder: String
    /// The sidecar's "voice", when it names one.
    public var voice: String?
    /// The sidecar's "noise" and "snr", when it names them.
    public var noise: String? = nil
    public var snr: Double? = nil
    public var mustReject: Bool
    /// The grammar-over-phone-loop margin; accepted at threshold t when `understood` and margin ≥ t.
    public var margin: Double
    /// The margin's parts (see `Confidence`): over the whole utterance, and the word that
    /// fitted worst.
    public var utteranceMargin: Double = 0
    public var weakestWord: WordFit? = nil
    /// Every word heard with its fit, in order: what a rule judging words one by one needs
    /// (nil in reports written before it was kept).
    public var wordFits: [WordFit]? = nil
    /// The passes' other measurements (see `ConfidenceFeatures`).
    public var features: ConfidenceFeatures? = nil
    /// Whether the words formed a phrase the dialogue understood (before any margin threshold).
    public var understood: Bool
    /// Understood with the expected intent and every expected slot.
    public var intentRight: Bool
    public var commandRight: Bool
    /// A command whose words were heard right, whatever their margin: what a perfect judge of
    /// this hearing would accept.
    public var heardRightAtAnyMargin: Bool { !mustReject && understood && commandRight }
    /// "slot: expected → heard" for each wrong slot.
    public var slotConfusions: [String]
    /// What was heard against what was expected, for the list of failures.
    public var account: String
    /// Plain pocketsphinx on the same recording, when the benchmark ran it.
    public var baseline: BaselineOutcome? = nil
    /// The phrase of Hark's own it was heard as (`TurnReport.builtIn`), if one.
    public var builtIn: String? = nil
    /// In a recorded turn, what the spotter made of the wake phrase before the request
    /// (`SpottedWake.Verdict`). After a tentative one, a request not accepted clearly (at the
    /// report's threshold plus `NoisyConfirmation`'s reach, in `LiveSettings.tentativeRequestWords`
    /// words or more) is dropped in silence: its margin is set below every threshold.
    public var wake: String? = nil
    /// The spotter's confidence in that wake word (log odds), when it heard one.
    public var wakeConfidence: Double? = nil
    /// The CPU the benchmark spent on it (the spotter where it ran, the recogniser and the
    /// conversation; not plain pocketsphinx) and the recording's length, in seconds: each
    /// condition's real-time factor (nil in reports written before they were kept).
    public var cpuSeconds: Double? = nil
    public var audioSeconds: Double? = nil

    public func accepted(at threshold: Double) -> Bool { understood && margin >= threshold }

    /// "margin -2.10: words -1.62, weakest word \"garage\" -2.10, 45 % of the speech in words":
    /// every figure the margin is the lowest of, as `hark run` gives them, so a list of failures
    /// says which one fell short.
    var marginAccount: String {
        let signalToNoise = features?.signalToNoise
        return String(format: "margin %.2f: ", margin)
            + Confidence.describe(features: features, utterance: utteranceMargin, weakest: weakestWord,
                                  noisePenalty: features == nil ? 0 : Confidence.noisePenalty(signalToNoise: signalToNoise),
                                  signalToNoise: signalToNoise)
    }
}

