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
/// A lone short word ("two") is judged by its per-frame words' margin, unscaled, although its
/// weakest-word evidence is scaled down for shortness. Scaling the words' margin the same way
/// (below 50 frames) accepted 448 test commands of `make bench-real` instead of 397 (each at its
/// threshold from the tune half), but misrecognised nearly as many more digits as it accepted
/// (over the whole corpus, at equal false acceptances, 650 right and 111 wrong against 574 and
/// 54): it moves digits from rejected to wrong, so it is not done. Nor is a feature of how
/// often the free phones heard the word's own phones in its frames (medians: commands heard
/// right 0.38 to 0.46, speech to reject 0.21): it separates on average, not at the tail.
/// Two more were measured on `make bench-real` and not taken (each at its tune-half threshold,
/// against 397 test commands, 42 wrong, 5 of 396 false acceptances):
/// - the gap to the best rival phrase, from a second grammar search without the phrase heard:
///   407 test commands for 7 false acceptances at best. pocketsphinx scales each frame's scores
///   by the best senone the search has active, so two searches' path scores are not on one
///   scale (the same grammar with its states renumbered scored "zero" -0.265 and -0.271), and
///   for a third of the lone digits the rival search ended off the grammar's final state.
/// - `-compallsen yes` on both passes, which puts them on one scale (the best of all senones):
///   418 test commands but 59 wrong and 9 false acceptances, at a real-time factor of 0.17.
///
/// Nor is each word's margin judged against what its phones usually score. Fitted on 1,843
/// words heard right in `make adapt`'s recordings (speakers the benchmark never measures on,
/// clean and in noise; a per-frame margin per phone, by least squares, beside one per
/// condition), vowels score lower than free phones (AH -0.7, EY -1.0) and nasals higher (M
/// 1.2, NG 1.5), but the phones explain little (the words' spread falls from 0.78 to 0.75 beyond
/// what the condition explains) and differ by about 0.2 between digits, where the real
/// commands heard right differ by 2 ("one" -0.7, "two" -2.8 at the median). With the words'
/// margin less twice its phones' expectation, the best on the tune half of `make bench-real`,
/// commands less twice those wrong rose from 684 to 713 there, but on the test half it took
/// 1,118 of 1,926 commands, 118 wrong and 7 of 396 false acceptances, against 1,060, 100 and 5.
///
/// The false acceptances left at the shipped threshold are mostly lone digits (the short
/// everyday phrases of the not-wake-word recordings heard as "zero", "four", "one"). A stricter
/// margin for one-word phrases, with the threshold chosen on the tune half again, keeps them out
/// but throws away more digits said: 0.1 stricter, 404 test commands for 4 of 396 false
/// acceptances; 0.3, 373 for 1 (against 423 for 5 with none).
///
/// The utterance's own per-frame margin is kept for logs but no longer judged: the grammar's
/// fillers pull it toward 0 for speech outside the grammar (read sentences of about 8 s scored
/// -1.1 at the median, above the commands heard right in 5 dB noise), and in noise the room's frames
/// pull it down for commands heard right. On the real-voice corpus (`make bench-real`, speakers
/// the settings were not chosen on), at 1 % false acceptances, the lowest of these three kept
/// 200 of 368 commands heard right against 131 for the utterance margin and weakest word
/// (clean, 20, 5 and 0 dB).
public enum Confidence {
    public static let marginScale = 1000.0
    /// Chosen on the tune half of the real-voice corpus (`make bench-real`: three of the six
    /// digit speakers, LJ Speech, half of the other recordings by file name, clean and in four
    /// household noises at 20, 10, 5 and 0 dB and after a click) as the highest margin letting at
    /// most 1 % of the speech that must be rejected through (8 of 810), heard through the shipped
    /// acoustic adaptation and the noise floor, and judged on the other half. See the figures in
    /// docs/how-hark-hears.md and docs/benchmarks.md. The margin judged is the passes' less the noise penalty (`noisePenalty`), chosen
    /// with it. It was -1.51 before the penalty and before the phone loop weighed three Gaussians
    /// a frame instead of four (`PhoneLoopPass.gaussiansPerFrame`). The speech besides the phrase
    /// and its pace, added since, took out one tune and two test false acceptances, so the same
    /// rule then gave -1.82, but -1.78 was kept (7 of 396 test recordings let through instead of
    /// 4). Once speech heard as Hark's own commands counted as accepted (it is acted on), with
    /// those commands judged `TurnGrammar.ownCommandStrictness` lower at the top level and the
    /// other words' allowance lifting the words' figures alone (`margin`), the rule gives -1.81:
    /// on the tune half 834 commands of 1,566, 75 wrong, 8 of 810 let through; on the test half
    /// 1,063 of 1,926, 104 wrong, 4 of 396 (at -1.78 before these: 1,060, 100 and 7, with Hark's
    /// own commands counted).
    public static let defaultThreshold = -1.81
    /// Within this much below the threshold, a phrase is a guess worth asking about
    /// (see `RecognizerConfiguration.askBand`). Its floor, -2.09, stays where the band's was when
    /// the threshold was -1.45: the threshold moved with the acoustic model, the noise floor, the
    /// phone loop, the noise penalty and the counting of Hark's own commands (0.31 wide at
    /// -1.78), and on `make bench-real` this band asks about 248 commands of 3,492 (160 named
    /// right) and answers 39 of the 1,206 recordings to reject (3.2 %) with a question.
    public static let defaultAskBand = 0.28
    /// In loud noise, speech that must be rejected is forced onto phrases with margins as good as
    /// commands heard right in a quiet room: the margin is judged lower by this much for each dB
    /// the utterance's `SignalToNoise` estimate falls below `noisePenaltyBelow` (for audio too
    /// short to estimate, as if at 0 dB). Chosen with the threshold on the tune half of `make
    /// bench-real` (ten points from 5 to 50 dB, ten slopes from 0.01 to 0.12 per dB). Judged on
    /// the test half, each at its tune-half threshold: 423 commands accepted, 45 wrong, 5 of 396
    /// false acceptances, against 407, 47 and 5 with one threshold for every room. Below 10 dB
    /// at 0.06 and below 40 dB at 0.02 did equally well on the tune half (the second on the test
    /// half: 426, 42, 5); the first was kept because the second takes a quiet room's threshold to
    /// -2.17, below where "Did you say …?" began, and let 4 of the 201 quiet-room recordings to
    /// reject through instead of 2.
    public static let noisePenaltyBelow = 10.0
    public static let noisePenaltyPerDecibel = 0.06
    /// How sharply confidence falls around the threshold.
    public static let spread = 0.25
    /// The share of the speech heard that the grammar's words must explain for the coverage
    /// margin to be 0, and how fast the margin falls below it: at 36 % it reaches the default
    /// threshold. Any slope from 3 to 8 and any share from 0.7 to 0.9 did within 3 % as well on
    /// the tune half; 4 and 0.8 were the best.
    public static let fullCoverage = 0.8
    public static let coverageSlope = 4.0

    /// How much speech besides the phrase's words a request may hold before it counts against
    /// the margin (10 ms frames: 3 s), and how fast the margin falls beyond that (per second).
    /// Every one of the 924 commands `make bench-real` hears right has less than 1 s besides its
    /// words (the most, 0.99 s; the 95th percentile, 0.32 s), so three times the most leaves room
    /// for "please" and a hesitation. 31 s of a kitchen with nine "jarvis" said in it
    /// (audio-fixtures/wake/real_wakes_noisy.wav) had 4.6 s of speech besides "turn on the living
    /// room lamp", which the grammar found in it with a coverage margin just above the threshold;
    /// a Wyoming client may send a minute. On make bench-real (from one run's features): the
    /// same 624 commands at -1.78 for 13 false acceptances of 1,206 instead of 14 (a read
    /// sentence with 3.9 s besides its phrase), and 50 of them in the ask band instead of 55; 2 s
    /// or 2.5 s, or a slope of 2, changed nothing else.
    public static let speechBesidesAllowed = 300
    public static let speechBesidesSlope = 5.0

    /// How much more leniently a short phrase is judged once it has beaten the other words
    /// searched beside the grammar (`RecognizerConfiguration.otherWords`): they already reject
    /// most of what the margin against free phones is there to reject. The quiet line and the
    /// phrase length were chosen with 2.5, the most tune commands accepted (see
    /// `RecognizerConfiguration.otherWords`); but every unit of allowance also lets through
    /// phrases heard wrong. On the tune half of `make bench-real` at the shipped threshold,
    /// commands accepted less twice those accepted wrong (a wrong action weighs as two missed),
    /// allowance 0 to 3 in steps of 0.5: 116, 160, 171, **191**, 185, 175, 172 (166 without the
    /// other words), with 5 of its 810 to reject let through (7 without).
    public static let otherWordsAllowance = 1.5

    /// `otherWordsAllowance` where the phrase beat the other words, else 0.
    public static func allowance(features: ConfidenceFeatures?) -> Double {
        features?.checkedAgainstOtherWords == true ? otherWordsAllowance : 0
    }

    /// How far above the threshold a short phrase's margin, before any allowance, says the other
    /// words need not be searched: free phones already fit it nearly as well as anything could,
    /// and other words are no more than free phones. The search is dear: run on every short
    /// request, it added 44 % to the CPU of make bench-real's quiet room, and put the whole
    /// benchmark at 0.0503 of a core a second of audio, over the 0.05 budget. On the tune half of
    /// make bench-real, with and without the search in one run each, skipping it from a clearance
    /// of 1.03 changed no verdict, from 0.78 down to 0.33 two (one "four" said in two conditions,
    /// which the search had thrown away as "phone": now accepted), and from 0.28 (a margin of -1.5)
    /// two more let through that must be rejected. 0.5 leaves room: on the test half it changed no
    /// verdict while skipping 394 of the 879 searches (at 0.45 and below, one more false
    /// acceptance there).
    public static let otherWordsClearance = 0.5

    /// How far below the lowest margin asked about a short phrase's margin, less the allowance it
    /// could gain, says the search could not lift it into the ask band whatever it found. A path
    /// through the grammar scores no better beside other words than alone (their senones only
    /// raise the best score each frame is measured from); on the 1,786 utterances `make
    /// bench-real` searched, the margin rose by the allowance at most. 0.25 is to spare.
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

    /// How slowly a phrase may be said, in 10 ms frames a phone on average over its words, before
    /// it counts against the margin, and how fast the margin falls beyond that (per frame). The
    /// 924 commands `make bench-real` hears right take 9.8 frames a phone at the median, 27.5 at
    /// the 99th percentile and 39.5 at the most (a lone digit said slowly); 50 is five times the
    /// usual pace. On make bench-real (from one run's features): the same 624 commands at -1.78
    /// for 11 false acceptances of 1,206 instead of 13 (one "jarvis" heard as "five" over 2.7 s
    /// after a click and without it, at 84 and 91 frames a phone); 45 did the same, and on three
    /// other runs 50 took out 1 or 2 false acceptances and no command.
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
    /// besides them or how slowly. Lifting the lowest figure instead let through a "jarvis" heard
    /// as "help" with 37 % of its speech in the word (a coverage margin of -1.72 taken to -0.22).
    /// On `make bench-real`, each at the loosest threshold letting at most 8 of the tune half's 810
    /// recordings to reject through, from one run's features (the margin recomputed exactly for
    /// all 4,509 with words): lifting the words alone accepts 834 tune commands (75 wrong) at
    /// -1.81 against 831 (75) at -1.79, and on the test half 1,063 commands, 104 wrong and 4 of
    /// 396 false acceptances against 1,060, 102 and 7. Allowances of 0.5 to 2.5 did no better
    /// either way by the tune half's commands less twice those wrong (684 at 1.5).
    public static func margin(features: ConfidenceFeatures?, utterance: Double, weakest: WordFit?,
                              allowance: Double = 0) -> Double {
        guard let features, features.wordFrames > 0 else { return min(utterance, weakest?.evidence ?? utterance) + allowance }
        return min(features.wordMargin + allowance, (weakest?.evidence ?? features.wordMargin) + allowance,
                   coverageMargin(features.coverage),
                   speechBesidesMargin(features.speechBesidesWords) ?? .infinity,
                   slowSpeechMargin(features.framesPerPhone) ?? .infinity)
    }

    /// The noise estimate's part of the margin: 0 at or above `noisePenaltyBelow` dB.
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
