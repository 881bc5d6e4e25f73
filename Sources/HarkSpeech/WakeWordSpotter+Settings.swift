import Foundation
import HarkAudio

/// The spotter's thresholds and measured settings: what a candidate must reach, and how the
/// search and the front end are set. The figures behind them are in docs/benchmarks.md.
extension WakeWordSpotter {
    static let maximumVariants = 16
    /// While benchmarks sweep the threshold (`WakeWordConfiguration.reportsCandidates`),
    /// candidates whose verifier log odds reach this are checked against the other words (below
    /// the loosest sensitivity's odds, so every threshold a setting can ask for is measured).
    /// While listening, only those reaching the threshold are: the check costs two searches of
    /// the candidate's window, and it can only lower the odds.
    static let otherWordsCheckedFrom = -1.0
    /// A candidate whose phrase explains its audio less than this much better than the other
    /// words do (`WakeWordEvidence.otherWordsGap`) loses `otherWordsPenalty` log odds for each
    /// unit it falls short: words such as "in the nature" explain a near miss of "athena" better
    /// than the phrase does. Chosen on the tune half of make bench-wake as the fewest recordings
    /// missed at no false alarm (figures: docs/benchmarks.md, "The settings' figures").
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

    /// Log odds of the verifier at sensitivity 0 and 1. The default, 0.5, asks for odds of 3.5,
    /// which let few false alarms through on the tune half of the wake corpus. A noisy room lowers
    /// it (`noisyRoomAllowance`, from `noisyRoomFrom` up to `noisyRoomBelow` dB), and only there:
    /// rooms of 15 to 25 dB are where other speech raises its surest false candidates (figures:
    /// docs/benchmarks.md, "The settings' figures").
    public static let strictestOdds = 6.0
    public static let loosestOdds = 1.0
    /// Scores per frame (log10 of the likelihood ratio per 10 ms) at sensitivity 0 and 1, for
    /// the search alone, without the verifier (figures: docs/benchmarks.md, "The settings' figures").
    public static let strictestThreshold = 0.0
    public static let loosestThreshold = -1.4
    /// Candidates whose search score per frame is below this are not worth a second look: lower
    /// finds a few more real renderings for many more candidates looked at (CPU), and what it
    /// would cost in false alarms is not measured; higher finds fewer (figures:
    /// docs/benchmarks.md, "The settings' figures").
    public static let proposalThreshold = -2.0
    /// While listening, candidates the search scored below this are not looked at again: hardly any
    /// would reach the odds Hark listens from (`listeningFloorHoldsFrom`), and each look decodes the
    /// candidate's window twice or more (figures: docs/benchmarks.md, "Raised to -1.2").
    public static let listeningProposalThreshold = -1.2
    /// The lowest odds listened for at which `listeningProposalThreshold` holds.
    static let listeningFloorHoldsFrom = 1.0
    /// The keyword search's beam. At pocketsphinx's default (1e-48) a phrase said a little
    /// unlike its dictionary phones was pruned before its last phone and never proposed, however
    /// loose the threshold; 1e-100 proposes most of them for the same CPU (figures:
    /// docs/benchmarks.md, "The settings' figures").
    public static let searchBeam = 1e-100
    /// Whether `beam` can be a search beam: a likelihood ratio strictly between 0 and 1 (0 keeps
    /// every path, 1 none).
    public static func isSearchBeam(_ beam: Double) -> Bool { beam > 0 && beam < 1 }
    /// The front end's cepstral mean learns only from audio this much (dB) louder than the room.
    /// pocketsphinx's live mean learns from every frame, so after a while in a quiet room it is
    /// the room's hiss, and the first phones said are heard through a mean that is no speech.
    /// Gated, a quiet room's phrases are missed far less; some at 10 dB more, for reasons not yet
    /// known (figures: docs/benchmarks.md, "The settings' figures").
    public static let meanGate: Double? = 6
    /// The spotter hears through WebRTC's noise suppression (`NoiseSuppressor`, moderate) while
    /// the room (`RoomLevel`: the quietest fifth of the last five seconds) is louder than this
    /// (dBFS), and as the audio came while it is quieter: through it more phrases are found in
    /// household noise but far fewer in a quiet room, whose leading silence it changes. A
    /// microphone whose own hiss is above the line is always heard through the suppressor;
    /// `wake_denoise_above` moves the line (figures: docs/benchmarks.md, "The settings' figures").
    public static let denoisingRoomLevel = -55.0
    /// A suppressor for the spotter, its failure to start said as the spotter's own.
    static func noiseSuppressor() throws(RecognitionError) -> NoiseSuppressor {
        do {
            return try NoiseSuppressor()
        } catch {
            throw RecognitionError(.modelLoad, error.message)
        }
    }

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
    /// (log10), so that `proposalThreshold` alone decides: a slow real phrase fits well per frame
    /// but poorly per phone (figures: docs/benchmarks.md, "The settings' figures").
    static let candidateLog10PerPhone = -15.0

    /// pocketsphinx scores are log base 1.0001, shifted right by 10 bits.
    static let scoreToLog10 = 1024 * log10(1.0001)
    /// This pocketsphinx subtracts a constant (its KWS_MAX, 1500) from the phrase-over-loop
    /// score before reporting it as the segment's probability; adding it back gives the ratio.
    static let scoreOffset: Int32 = 1500

    /// The word and its alternates ("word(2)", …) with their phones, as the dictionary has them.
    static func alternates(of word: String, in decoder: Decoder) -> [(entry: String, phones: String)] {
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
