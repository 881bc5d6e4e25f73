import Foundation

/// How sure the recogniser is of what it heard.
///
/// Every figure compares the grammar's path with a free loop of phones over the same audio, in
/// pocketsphinx's scaled log domain times `marginScale` to give readable numbers: near 0 when the
/// grammar explains the audio as well as free phones do, clearly negative when it had to force
/// the audio onto a phrase. The margin judged against the threshold is the lowest of five:
/// - the words' margin, per frame over the frames the grammar's path spends in words
///   (`ConfidenceFeatures.wordMargin`): speech forced onto a phrase fits it badly;
/// - the weakest word's evidence (`WordFit`), which catches a phrase right but for one word;
/// - the coverage margin (`coverageMargin`): how much of the speech the free phones hear the
///   grammar's words explain. A grammar's path may put speech it cannot match in its silence
///   and noise fillers, which fit speech about as well as free phones do, so a long sentence
///   with one phrase-like stretch in it scores well on its words alone.
/// - the speech besides the phrase (`speechBesidesMargin`): a share is not enough for long audio,
///   where a phrase can be a third of the speech and still leave seconds of other talk: more
///   than a request.
/// - the pace of the phrase (`slowSpeechMargin`): a path that stretches a short phrase over
///   seconds of audio ("five" over 2.7 s of someone saying "jarvis") fits it as well as the
///   free phones fit the same stretch, so nothing else says it is not what was said.
/// In loud noise that lowest figure is judged lower still (`noisePenalty`), by the audio's own
/// `SignalToNoise` estimate.
///
/// What else was measured for the margin and not taken is in docs/benchmarks.md.
public enum Confidence {
    public static let marginScale = 1000.0
    /// Chosen on the tune half of `make bench-real` as the highest margin letting at most 1 % of
    /// the speech to reject through, and judged on the test half (its history: docs/benchmarks.md).
    public static let defaultThreshold = -1.81
    /// Within this much below the threshold, a phrase is a guess worth asking about (see
    /// `RecognizerConfiguration.askBand`); its floor, -2.09, stayed where it was as the threshold moved.
    public static let defaultAskBand = 0.28
    /// In loud noise, speech that must be rejected is forced onto phrases with margins as good as
    /// commands heard right in a quiet room: the margin is judged lower by this much for each dB the
    /// utterance's `SignalToNoise` estimate falls below `noisePenaltyBelow` (audio too short to
    /// estimate counts as 0 dB). Chosen with the threshold (docs/benchmarks.md).
    public static let noisePenaltyBelow = 10.0
    public static let noisePenaltyPerDecibel = 0.06
    /// How sharply confidence falls around the threshold.
    public static let spread = 0.25
    /// The share of the speech heard that the grammar's words must explain for the coverage
    /// margin to be 0, and how fast the margin falls below it: at 36 % it reaches the default
    /// threshold. The best on the tune half, though its neighbours did nearly as well (figures:
    /// docs/benchmarks.md, "The settings' figures").
    public static let fullCoverage = 0.8
    public static let coverageSlope = 4.0

    /// How much speech besides the phrase's words a request may hold before it counts against the
    /// margin (10 ms frames: 3 s, three times the most any command heard right has), and how fast the
    /// margin falls beyond that (per second).
    public static let speechBesidesAllowed = 300
    public static let speechBesidesSlope = 5.0

    /// How much more leniently a short phrase is judged once it has beaten the other words searched
    /// beside the grammar (`RecognizerConfiguration.otherWords`): they already reject most of what
    /// the margin against free phones is there to reject.
    public static let otherWordsAllowance = 1.5

    /// `otherWordsAllowance` where the phrase beat the other words, else 0.
    public static func allowance(features: ConfidenceFeatures?) -> Double {
        features?.checkedAgainstOtherWords == true ? otherWordsAllowance : 0
    }

    /// How far above the threshold a short phrase's margin, before any allowance, says the other
    /// words need not be searched: free phones already fit it nearly as well as anything could. The
    /// search is dear, and skipping it here changed no verdict measured.
    public static let otherWordsClearance = 0.5

    /// How far below the lowest margin asked about a short phrase's margin, less the allowance it
    /// could gain, says the search could not lift it into the ask band whatever it found. A path
    /// through the grammar scores no better beside other words than alone (their senones only
    /// raise the best score each frame is measured from): on `make bench-real` the margin rose by
    /// the allowance at most (figures: docs/benchmarks.md, "The settings' figures"). 0.25 is to spare.
    public static let otherWordsHopeless = 0.25

    /// Whether the search with other words beside the grammar could change the verdict on a
    /// short phrase whose margin without it is `margin`: not when the phrase clears `threshold`
    /// by `otherWordsClearance` anyway, nor when even the allowance would leave it below
    /// `askMargin` (rejected without a question either way).
    public static func otherWordsCouldDecide(margin: Double, threshold: Double, askMargin: Double) -> Bool {
        margin < threshold + otherWordsClearance && margin >= askMargin - otherWordsAllowance - otherWordsHopeless
    }

    /// The speech besides the phrase on the margin's scale beyond `speechBesidesAllowed` frames:
    /// from 0 there, `speechBesidesSlope` lower for each second more. Nil within the allowance,
    /// where it says nothing (a margin above 0 stays above 0).
    public static func speechBesidesMargin(_ frames: Int) -> Double? {
        guard frames > speechBesidesAllowed else { return nil }
        return -speechBesidesSlope * Double(frames - speechBesidesAllowed) / 100
    }

    /// How slowly a phrase may be said, in 10 ms frames a phone on average over its words, before it
    /// counts against the margin (five times the usual pace), and how fast the margin falls beyond
    /// that (per frame).
    public static let slowestFramesPerPhone = 50.0
    public static let slowSpeechSlope = 0.2

    /// The pace of the phrase on the margin's scale beyond `slowestFramesPerPhone`: from 0 there,
    /// `slowSpeechSlope` lower for each frame a phone more. Nil within it, and when the phones
    /// were not counted.
    public static func slowSpeechMargin(_ framesPerPhone: Double?) -> Double? {
        guard let framesPerPhone, framesPerPhone > slowestFramesPerPhone else { return nil }
        return -slowSpeechSlope * (framesPerPhone - slowestFramesPerPhone)
    }

    /// 0.5 exactly at the rejection threshold, near 1 at a margin of 0.
    public static func from(margin: Double, threshold: Double = defaultThreshold) -> Double {
        guard margin.isFinite else { return 0 }
        return 1 / (1 + exp(-(margin - threshold) / spread))
    }

    /// The coverage figure on the margin's scale: 0 at `fullCoverage`, positive above it.
    public static func coverageMargin(_ coverage: Double) -> Double {
        coverageSlope * (coverage - fullCoverage)
    }

    /// The margin judged against the threshold: the lowest of the words' margin, the weakest
    /// word's evidence, the coverage margin, and the speech besides the phrase and its pace where
    /// they are past their allowances. Without the passes' features (no words on the path), the
    /// utterance's margin or the weakest word's evidence if lower.
    ///
    /// `allowance` (`otherWordsAllowance` where the phrase beat the other words) lifts the words'
    /// margin and the weakest word's evidence only: what the other words vouch for is how well the
    /// phrase's words fit their sounds, not how much of the speech they explain, what was said
    /// besides them or how slowly (lifting the lowest figure instead let a "jarvis" through as
    /// "help"; docs/benchmarks.md).
    public static func margin(features: ConfidenceFeatures?, utterance: Double, weakest: WordFit?,
                              allowance: Double = 0) -> Double {
        guard let features, features.wordFrames > 0 else { return min(utterance, weakest?.evidence ?? utterance) + allowance }
        return min(features.wordMargin + allowance, (weakest?.evidence ?? features.wordMargin) + allowance,
                   coverageMargin(features.coverage),
                   speechBesidesMargin(features.speechBesidesWords) ?? .infinity,
                   slowSpeechMargin(features.framesPerPhone) ?? .infinity)
    }

    /// The margin a contest with rival words gives (`RivalContest`): the threshold when the word
    /// heard beats its closest rival by `clearance` per frame, lower as the gap closes.
    public static func rivalMargin(gap: Double, clearance: Double) -> Double {
        defaultThreshold + rivalSlope * (gap - clearance)
    }

    /// See `rivalMargin`. The clearance was chosen on the tune half of `make bench-real`, where
    /// holding back more cost over three commands heard right for each wrong action stopped;
    /// the slope puts about half of those held back in the band that is asked about
    /// (docs/benchmarks.md).
    public static let defaultRivalClearance = 0.5
    public static let rivalSlope = 0.5

    /// The noise estimate's part of the margin: 0 at or above `noisePenaltyBelow` dB.
    public static func noisePenalty(signalToNoise: Double?) -> Double {
        max(0, noisePenaltyBelow - (signalToNoise ?? 0)) * noisePenaltyPerDecibel
    }

    /// "words -1.62, weakest word \"garage\" -2.10, 45 % of the speech in words, -0.30 for noise
    /// (SNR 5 dB)", for logs; "+2.50 as no other words fit better" where the allowance counted,
    /// "-0.80 for a phrase heard strictly" where the phrase's `Grammar.Rule.strictness` did.
    public static func describe(features: ConfidenceFeatures?, utterance: Double, weakest: WordFit?,
                         noisePenalty: Double = 0, signalToNoise: Double? = nil, strictness: Double = 0) -> String {
        let allowance = allowance(features: features)
        let noise = (noisePenalty > 0
            ? ", " + String(format: "%.2f", -noisePenalty) + " for noise (SNR "
                + (signalToNoise.map { String(format: "%.0f", $0) + " dB" } ?? "unknown") + ")"
            : "") + (allowance > 0 ? ", +" + String(format: "%.2f", allowance) + " as no other words fit better" : "")
            + (strictness > 0 ? ", " + String(format: "%.2f", -strictness) + " for a phrase heard strictly" : "")
        guard let features, features.wordFrames > 0 else {
            return "margin " + String(format: "%.2f", utterance) + (weakest.map { ", weakest word " + $0.summary } ?? "") + noise
        }
        // Each named only where it counts, past its allowance.
        let besides = speechBesidesMargin(features.speechBesidesWords) == nil
            ? "" : ", " + String(format: "%.1f", Double(features.speechBesidesWords) / 100) + " s of speech besides them"
        let pace = slowSpeechMargin(features.framesPerPhone) == nil
            ? "" : ", " + String(format: "%.0f", (features.framesPerPhone ?? 0) * 10) + " ms a phone"
        return "words " + String(format: "%.2f", features.wordMargin) + (weakest.map { ", weakest word " + $0.summary } ?? "")
            + ", " + String(format: "%.0f", features.coverage * 100) + " % of the speech in words" + besides + pace + noise
    }
}
