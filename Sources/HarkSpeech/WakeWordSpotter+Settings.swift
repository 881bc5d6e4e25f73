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
    /// unit it falls short. Chosen on the tune half of make bench-wake (every candidate of
    /// "jarvis", "athena", "amelia" and "hey chatterbox" checked, penalties 0.5 to 3 and lines 0
    /// to 3 weighed by the tune recordings missed at each phrase's odds with no false alarm on its
    /// tune negatives): 314 missed without the check, 237 with these (232 to 251 for the
    /// neighbours), "amelia" alone 104 → 51 of 136.
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

    /// Log odds of the verifier at sensitivity 0 and 1. The default, 0.5, asks for odds of 3.5:
    /// on the tune half of the wake corpus (3 hours of other speech for each phrase) no false
    /// alarm for "jarvis", one for "amelia" and three for "athena", whose sounds are common in
    /// speech (0.4, odds 4, gives it one). `make bench-wake` measures it on other speakers.
    /// A noisy room lowers it (`noisyRoomAllowance`, from `noisyRoomFrom` up to `noisyRoomBelow` dB). An allowance
    /// growing with each dB under a knee of 25 dB (0.05 a dB, as `Confidence.noisePenalty` does
    /// for requests) was measured before and not kept: rooms of 15 to 25 dB are where other
    /// speech raises its surest false candidates, and the test half woke far more often.
    public static let strictestOdds = 6.0
    public static let loosestOdds = 1.0
    /// Scores per frame (log10 of the likelihood ratio per 10 ms) at sensitivity 0 and 1, for
    /// the search alone. Measured for "jarvis" on 384 real speakers and 3.1 hours of synthetic
    /// speech: 26.8 % missed at 2.2 false alarms an hour at -0.42; 12.5 % at 125 an hour at -1.4.
    public static let strictestThreshold = 0.0
    public static let loosestThreshold = -1.4
    /// Candidates whose search score per frame is below this are not worth a second look. On the
    /// wake corpus's tune half, -3 instead found a few more real renderings at the operating
    /// point but looked at twice as many candidates (CPU); -1.4 found fewer. With the mean gate
    /// the search scores some real ones lower: at -3, of the 366 test "athena" recordings 8 were
    /// never proposed instead of 27, and 127 missed clean at the default sensitivity instead of
    /// 155 (215 instead of 223 at 10 dB); "amelia" 113 of 155 instead of 116. Its false alarms
    /// are not measured yet: "athena" raised some 2,100 candidates an hour of speech, each
    /// looked at again, and a test-split run of make bench-wake took hours.
    public static let proposalThreshold = -2.0
    /// While listening, candidates the search scored below this are not looked at again: hardly any
    /// would reach the odds Hark listens from (`listeningFloorHoldsFrom`), and each look decodes the
    /// candidate's window twice or more. On make bench-wake's tune recordings of the four phrases
    /// (clean and at 10 dB), one in 614 whose best candidate reached odds 1 had scored below it,
    /// none that reached the default's sure odds; other speech raises about four in ten of its
    /// candidates between -1.4 (the line before) and this. The figures: docs/benchmarks.md.
    public static let listeningProposalThreshold = -1.2
    /// The lowest odds listened for at which `listeningProposalThreshold` holds.
    static let listeningFloorHoldsFrom = 1.0
    /// The keyword search's beam. At pocketsphinx's default (1e-48) a phrase said a little
    /// unlike its dictionary phones was pruned before its last phone and never proposed, however
    /// loose the threshold: on `make bench-wake`'s test recordings, clean / in noise, "jarvis" 13 / 7
    /// of 279, "hey chatterbox" 30 / 29 of 38; at 1e-100, 4 / 2 and 3 / 2, for the same CPU. With
    /// the verifier as fitted, at the default sensitivity that found more "hey chatterbox" (missed
    /// 78.9 % clean instead of 92.1 %) and no fewer of the others, at about as many false alarms;
    /// at one false alarm per 10 hours "jarvis" lost a few (36.2 % missed clean instead of 34.4 %).
    public static let searchBeam = 1e-100
    /// Whether `beam` can be a search beam: a likelihood ratio strictly between 0 and 1 (0 keeps
    /// every path, 1 none).
    public static func isSearchBeam(_ beam: Double) -> Bool { beam > 0 && beam < 1 }
    /// The front end's cepstral mean learns only from audio this much (dB) louder than the room.
    /// pocketsphinx's live mean learns from every frame, so after a while in a quiet room it is
    /// the room's hiss, and the first phones said are heard through a mean that is no speech.
    /// On `make bench-wake`'s test recordings (after five seconds of their room), missed clean /
    /// at 10 dB at the default sensitivity, ungated → gated: "jarvis" 25.1 / 60.9 % → 14.3 /
    /// 63.4 %, "athena" 48.1 / 52.7 → 41.5 / 60.4, "amelia" 82.6 / 75.5 → 74.8 / 90.3, "hey
    /// chatterbox" 78.9 / 100 → 36.8 / 89.5; false alarms per 10 hours 7.9 → 6.3, 53 → 44,
    /// 2.2 → 1.5, 0.7 → 4.2. What costs "amelia" and "athena" at 10 dB is not known yet: also
    /// learning from any room louder than -50 dBFS (the household noise) changed nothing there.
    public static let meanGate: Double? = 6
    /// The spotter hears through WebRTC's noise suppression (`NoiseSuppressor`, moderate) while
    /// the room (`RoomLevel`: the quietest fifth of the last five seconds) is louder than this
    /// (dBFS), and as the audio came while it is quieter. Heard through it always (`make
    /// bench-wake-denoised`), household noise at 10 dB is missed far less, but a quiet room's
    /// phrases far more ("amelia" 74.8 → 90.3 %, "hey chatterbox" 36.8 → 89.5 % at the default
    /// sensitivity: the verifier's leading silence is no longer what the phone loop calls
    /// silence). Switched by the room, make bench-wake's test speakers at the default, missed
    /// clean / at 10 dB and false alarms per 10 hours, as heard → switched: "jarvis" 14.3 / 63.4 %,
    /// 6.3 → 14.3 / 52.0 %, 4.0; "athena" 41.5 / 60.4 %, 44 → 41.5 / 47.5 %, 37; "amelia" 74.8 /
    /// 90.3 %, 1.5 → 74.8 / 80.6 %, 2.2; "hey chatterbox" 36.8 / 89.5 %, 4.2 → 36.8 / 86.8 %,
    /// 4.2 (the corpus's quiet rooms are under -60 dBFS, so they are heard exactly as before).
    /// The line was chosen on the tune half of an offline combination of the two runs: any from
    /// -59 to -52 dBFS did as well there (its noisy rooms are -46 dBFS and up). A microphone whose
    /// own hiss is above the line is always heard through the suppressor; `wake_denoise_above`
    /// moves the line. The suppressor costs about 0.003 of a core (0.0598 s per second of speech
    /// instead of 0.0567).
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
    /// (log10), so that `proposalThreshold` alone decides. At -7 a slow real "jarvis" (per frame
    /// above -1.4, but over 50 frames) was never proposed: 5 of 40 recordings, 2 at -15.
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
