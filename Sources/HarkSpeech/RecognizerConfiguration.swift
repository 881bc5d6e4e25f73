public import Foundation

/// Where the recogniser finds its model and how it judges what it heard.
public struct RecognizerConfiguration: Sendable {
    /// Debian's pocketsphinx-en-us.
    public static let debianModel = "/usr/share/pocketsphinx/model/en-us/en-us"
    public static let debianDictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
    /// The general English language model of pocketsphinx-en-us, for dictation.
    public static let debianLanguageModel = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"

    public var modelDirectory = RecognizerConfiguration.debianModel
    public var dictionary = RecognizerConfiguration.debianDictionary
    /// Used only when a question asks for free text; loaded the first time one does.
    public var languageModel = RecognizerConfiguration.debianLanguageModel
    /// Extra pronunciation files in the dictionary's format ("word PH O N E S"),
    /// e.g. the project's models/lexicon.dict; later files win.
    public var lexicons: [URL] = []
    /// An adaptation of the acoustic model to the voices and rooms Hark hears (an MLLR transform
    /// of its means, e.g. the project's models/en-us.mllr), or nil for the model as it is. Both
    /// passes listen through it: the confidence compares them, so they must hear the same model.
    public var acousticTransform: URL?
    /// Noise compensation of the cepstra (`NoiseCompensation`, e.g. the project's
    /// models/en-us.noise-network), used on a request heard as it came in a room whose signal-to-noise
    /// estimate is below `compensatesBelow`; nil never. A quiet room's requests are heard as before.
    public var noiseCompensation: URL?
    /// How much of each frame's correction is applied (0 to 1).
    public var compensationStrength = RecognizerConfiguration.standardCompensationStrength
    /// The signal-to-noise estimate (dB, `SignalToNoise`) below which the compensation is used.
    public var compensatesBelow = RecognizerConfiguration.standardCompensatesBelow
    /// Both chosen on the tune half of `make bench-real` (docs/benchmarks.md): the full correction
    /// heard the quiet rooms' requests worse and made the confidence less sure of noisy ones; it
    /// took telephone-band digits wrong that were heard right without it, so they are left as they
    /// came (`Recognizer.compensated`), and then up to 20 dB helped, and further up no more.
    public static let standardCompensationStrength = 0.5
    public static let standardCompensatesBelow = 20.0
    /// "models/en-us.noise-network at strength 0.5 below 20 dB SNR, full-band audio only", as benchmarks print it.
    public var noiseCompensationDescription: String {
        noiseCompensation.map {
            "\($0.path) at strength " + String(format: "%g below %g dB SNR", compensationStrength, compensatesBelow)
                + ", full-band audio only"
        } ?? "none"
    }
    /// pocketsphinx's own log. /dev/null unless someone is debugging it.
    public var logFile = "/dev/null"
    /// An utterance whose margin (see `Confidence`) is below this is rejected.
    public var rejectionMargin: Double = Confidence.defaultThreshold
    /// How far below `rejectionMargin` a phrase of the grammar is still kept as a guess the
    /// conversation can check ("Did you say …?") instead of giving up. A width rather than a
    /// margin, so the band follows the threshold when someone moves it. 0 never asks (figures:
    /// docs/benchmarks.md, "The ask band, 0.28" and "The settings' figures").
    public var askBand: Double = Confidence.defaultAskBand
    /// The lowest margin asked about: `rejectionMargin - askBand`.
    public var askMargin: Double { rejectionMargin - askBand }
    /// Whether to run the phone-loop pass that measures confidence. Without it nothing is
    /// rejected for want of confidence: any speech is forced onto the nearest phrase.
    public var measuresConfidence = true
    /// How far (per frame, `Confidence.marginScale` units) the words that decide an action must
    /// beat their rivals in the grammar (`RivalContest`), or nil to measure the contest without
    /// judging by it. See `Confidence.rivalMargin`.
    public var rivalClearance: Double? = Confidence.defaultRivalClearance
    /// How a request heard in a noisy room is asked about before Hark acts on it
    /// (`NoisyConfirmation`), or nil to judge it as in a quiet room.
    public var noisyConfirmation: NoisyConfirmation? = .standard
    /// How far above the threshold a request heard through a telephone-band microphone
    /// (`TelephoneBand`: audio that was sampled at 8 kHz on its way, as from a Bluetooth headset
    /// in hands-free mode or a phone line) is asked about before Hark acts on it, in any room; nil
    /// to judge it as full-band audio. Such audio has lost what tells "zero" from "two" and "nine"
    /// from "five", and the recogniser is as sure of those words heard wrong as of words heard
    /// right.
    public var telephoneBandReach: Double? = RecognizerConfiguration.standardTelephoneBandReach
    /// Chosen on the tune half of `make bench-real` (its telephone-band voices are the Free Spoken
    /// Digit Dataset's) as the least reach at which the tune speakers' telephone-band requests took
    /// no wrong action (2 at 0.55); docs/benchmarks.md has the trade.
    public static let standardTelephoneBandReach = 0.6
    /// The reaches `--confirm-telephone-band` and `confirm_telephone_band` take.
    public static let telephoneBandReaches = 0.0...5.0
    /// How readily the grammar's searches and the phone loop hear a stretch between words as
    /// noise or a breath (the model's [NOISE] and [SPEECH] fillers) rather than as words:
    /// pocketsphinx's -fillprob, a probability at each word's end; nil for pocketsphinx's own
    /// (1e-8, fillers all but barred). A clatter or a meow between the words of a request was
    /// forced into them, or into the words the phone loop heard beside them.
    public var fillerProbability: Double? = RecognizerConfiguration.standardFillerProbability
    /// Chosen on the tune half of `make bench-real` among 0.1, 0.5 and 0.9 (docs/benchmarks.md).
    public static let standardFillerProbability = 0.5
    /// The probabilities `--filler-probability` takes.
    public static let fillerProbabilities = 1e-10...1.0
    /// A grammar whose searched graph has more states than this has the names of its long
    /// lists joined into one word each (`WordAcceptor.joiningChains`): the FSG search pays for
    /// every state on every frame. Below it the cost is small (the bundled apps' 94 states:
    /// under 5 % of decoding), and joined words are judged as one by the confidence, so a forced
    /// half of "garage light" would count for less; above it a large app's lists of names are
    /// most of the states (a thousand song names: a third of decoding time).
    public var joinsWordsAboveStates = 500
    /// Only the names of lists this long are joined (`WordAcceptor.joiningChains`'s `minimumFan`).
    public var joinsListsOfAtLeast = 100
    /// Whether lone clicks and bursts in the quiet around speech are turned down before decoding
    /// (`TransientSuppressor`).
    public var suppressesTransients = true
    /// The level (dBFS) of the faint hiss added to each utterance before it is decoded (see
    /// `NoiseFloor`), or nil to decode the audio as it comes: a near-silent room throws the front
    /// end's normalisation off (figures: docs/benchmarks.md, "The settings' figures").
    public var noiseFloor: Double? = NoiseFloor.standardLevel
    /// How far below the utterance's voice (`SignalToNoise.voiceLevel`) the noise floor is kept
    /// at the least (`NoiseFloor.level(_:beneathVoiceAt:headroom:)`), or nil for `noiseFloor`
    /// whatever the voice's level.
    public var noiseFloorHeadroom: Double? = NoiseFloor.headroomBelowVoice
    /// The room level (dBFS: the quietest fifth of the utterance's 100 ms pieces, `RoomLevel`)
    /// above which an utterance is heard through WebRTC's noise suppression (`NoiseSuppressor`,
    /// a fresh one each utterance), or nil never to (the default; see
    /// `Recognizer.denoisingRoomLevel` for what it did and why it is not on).
    public var denoisesAbove: Double?
    /// The signal-to-noise estimate (dB, `SignalToNoise`) below which an utterance is heard
    /// through WebRTC's noise suppression, or nil never to. Such a request is asked about further
    /// above the threshold (`NoisyConfirmation.denoisedReach`).
    public var denoisesBelow: Double? = RequestDenoising.standardBelow
    /// Whether a request heard through the suppression is also heard as it came, the surer
    /// hearing kept (`SecondHearing`): about twice the CPU for such a request.
    public var hearsSuppressedRequestsAsTheyCameToo = true
    /// The noise suppression these settings ask for, if any.
    var requestDenoising: RequestDenoising? {
        denoisesBelow == nil && denoisesAbove == nil ? nil : RequestDenoising(belowSignalToNoise: denoisesBelow, aboveRoomLevel: denoisesAbove)
    }
    /// Common words (`OtherWords`, e.g. the project's models/other-words.txt) searched beside the
    /// grammar when a phrase of at most `otherWordsUpTo` words was heard in a quiet room (the
    /// utterance's `SignalToNoise` estimate at least `otherWordsQuietAbove` dB) with a margin at
    /// which the search could change the verdict (`Confidence.otherWordsCouldDecide`): a second
    /// grammar search, with the loop, decides. If other words explain the audio best, the utterance is
    /// rejected as such; if a phrase still wins, it is judged `Confidence.otherWordsAllowance`
    /// more leniently. Empty: never (an assistant reads the installed list, models/other-words.txt,
    /// unless told not to: `AssistantConfiguration.readsInstalledOtherWords`). See docs/how-hark-hears.md for
    /// what it measured.
    ///
    /// The other words of `models/other-words.txt` (`bench/make-other-words.sh`) are the 500 most
    /// probable words of Debian's general language model. One word and from 15 dB were chosen
    /// with `Confidence.otherWordsAllowance` on the tune half of `make bench-real`, as the most
    /// commands accepted at 1 % false acceptances (figures: docs/benchmarks.md, "The settings'
    /// figures").
    public var otherWords: [String] = []
    public var otherWordsUpTo = 1
    public var otherWordsQuietAbove = 15.0
    /// The threshold the verdict is given at, when that is not `rejectionMargin`: a benchmark
    /// decodes with no threshold, to judge every threshold from one decoding, and sets here the
    /// one its figures are given at. The search beside other words is judged worth its cost
    /// (`Confidence.otherWordsCouldDecide`), and a noisy room's requests asked about
    /// (`NoisyConfirmation`), against it. Nil: `rejectionMargin`.
    public var judgedAt: Double? = nil
    /// "one-word phrases heard at 15 dB SNR or more": where the other words are searched.
    public var otherWordsScope: String {
        (otherWordsUpTo == 1 ? "one-word phrases" : "phrases of at most \(otherWordsUpTo) words")
            + " heard at " + String(format: "%g", otherWordsQuietAbove) + " dB SNR or more"
    }

    public init() {}
}
