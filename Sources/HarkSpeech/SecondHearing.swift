/// A request heard through the noise suppression (`RequestDenoising`) is heard a second time as it
/// came, and the hearing the recogniser is surer of is kept.
///
/// Why: the suppression helps some noisy requests and harms others. Through it, more of a noisy
/// room's requests are heard right at some margin, but the margins of those heard right fall, so
/// fewer are acted on; as they came, more are acted on, but fewer are heard right at all. Which
/// one a request needs is not known before both are heard, and their margins tell. Figures in
/// docs/how-hark-hears.md ("A second hearing for a noisy request").
enum SecondHearing {
    /// One hearing's verdict, and whether its words formed a phrase of the grammar before any
    /// margin was weighed (not "nothing matched", not other words).
    struct Hearing {
        var recognition: Recognition
        var formsPhrase: Bool
        /// The words heard, rejected or not.
        var words: [String] = []
    }

    /// Whether two hearings of one request formed the same phrase, word for word: then they are
    /// judged as agreeing (`NoisyConfirmation.agreedReach`): such requests are more often heard
    /// right (figures: docs/benchmarks.md, "Two hearings of the same phrase").
    /// `one` and `other`: each hearing's words, nil when they formed no phrase.
    static func agree(_ one: [String]?, _ other: [String]?) -> Bool {
        one != nil && one == other
    }

    /// The hearing to keep of `suppressed` (through the suppression) and `asItCame`: one whose
    /// words form a phrase over one whose words do not, else the higher margin, as it came on a
    /// tie. Its CPU is both hearings'.
    static func better(of suppressed: Hearing, _ asItCame: Hearing) -> Recognition {
        let keepSuppressed = suppressed.formsPhrase != asItCame.formsPhrase
            ? suppressed.formsPhrase
            : suppressed.recognition.margin > asItCame.recognition.margin
        var kept = keepSuppressed ? suppressed.recognition : asItCame.recognition
        let other = keepSuppressed ? asItCame : suppressed
        let otherFeatures = other.recognition.features
        kept.features?.otherHearing = .init(words: other.words, heardMargin: otherFeatures?.heardMargin ?? other.recognition.margin,
                                            formsPhrase: other.formsPhrase, rival: otherFeatures?.rival)
        kept.decodeCPU = suppressed.recognition.decodeCPU + asItCame.recognition.decodeCPU
        return kept
    }
}
