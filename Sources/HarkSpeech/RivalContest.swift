import HarkGrammar

/// The words that decide an action judged against their rivals in the grammar (`RivalWord`):
/// the sentence heard and every sentence one rival word away are searched together over the
/// same audio, and the best path through a word heard is compared with the best path through
/// any rival. "Turn off" heard as "turn on" in noise fits free phones about as well as the
/// right phrase does; only the rival's own score shows how close the call was.
public struct RivalOutcome: Sendable, Equatable, Codable {
    /// The closest rival word and where it stood.
    public var word: String
    public var position: Int
    /// How much better the best path through the word heard scored than the best path through
    /// the rival, per frame of the word heard (the lattice's acoustic scores in natural-log
    /// units); negative when the rival scored better.
    public var gap: Double
    /// Rival words searched.
    public var rivals: Int
    /// Of them, those searched in this rival's place: 1 when the word heard and the rival are
    /// the only two meanings the grammar allows there ("on" and "off"). Nil in reports written
    /// before it was kept.
    public var wordsThere: Int?

    public init(word: String, position: Int, gap: Double, rivals: Int, wordsThere: Int? = nil) {
        self.word = word
        self.position = position
        self.gap = gap
        self.rivals = rivals
        self.wordsThere = wordsThere
    }

    /// `words` with the rival in place of the word it rivals.
    public func sentence(replacingIn words: [String]) -> [String] {
        RivalWord(position: position, word: word).sentence(replacingIn: words)
    }

    /// What "Did you say …?" names for `words` held back by `closest`: the rival's sentence when
    /// the rival scored better, so that a "yes" does what was most likely said.
    public static func question(about words: [String], closest: RivalOutcome?) -> [String] {
        guard let closest, closest.gap < 0 else { return words }
        return closest.sentence(replacingIn: words)
    }

    /// What to ask about after a "no" to `question` (asked about `words`, whose closest rival is
    /// `closest`): the phrase with the other meaning, when the grammar allows only one other word
    /// where the rival stands (`wordsThere`: "on" or "off", "open" or "closed"); nil otherwise.
    /// Where it allows several (a colour, a digit), the closest rival was seldom what had been
    /// said, so a second question would mostly be wrong too (figures: docs/how-hark-hears.md,
    /// "The ask band").
    public static func otherMeaning(of words: [String], askedAbout question: [String],
                                    closest: RivalOutcome?) -> [String]? {
        guard let closest, closest.wordsThere == 1 else { return nil }
        let rivalSentence = closest.sentence(replacingIn: words)
        return question == rivalSentence ? words : rivalSentence
    }
}

final class RivalContest {
    private let decoder: Decoder
    /// One search, replaced for every contest: it is never the active search when replaced.
    static let searchName = "hark-rivals"

    /// The largest gap reported either way.
    static let widestGap = 99.0

    init(decoder: Decoder) {
        self.decoder = decoder
    }

    /// Judges `words` (a sentence of the grammar, heard in `cepstra`) against `rivals`, then
    /// makes `search` active again. Nil when no rival could be searched.
    func judge(_ words: [String], rivals: [RivalWord], cepstra: Cepstra,
               returningTo search: String) throws(RecognitionError) -> RivalOutcome? {
        let heard = Set(words)
        // A rival said elsewhere in the sentence cannot be told apart in the lattice.
        let contenders = rivals.filter { !heard.contains($0.word) }
        guard !contenders.isEmpty else { return nil }
        // Each sentence (the one heard, and each one rival away) is a chain of states of its own:
        // where two words end in one state on one frame the search keeps only the better, and the
        // lattice would lose the rival. The lattice joins the chains again where words match.
        var arcs: [(from: Int, to: Int, word: String?, probability: Float)] = []
        var states = 2
        for sentence in [words] + contenders.map({ $0.sentence(replacingIn: words) }) {
            var from = 0
            for word in sentence {
                arcs.append((from, states, word, 1))
                from = states
                states += 1
            }
            arcs.append((from, 1, nil, 1))
        }
        try decoder.activate(search)
        try decoder.installGraph(name: Self.searchName, states: states, start: 0, final: 1, arcs: arcs)
        let scores: [String: Decoder.BestPathThrough]
        do {
            _ = try decoder.decodeWhole(cepstra)
            scores = try decoder.bestPathsThrough(heard.union(contenders.map(\.word)))
        } catch {
            // The decoding's error is the one to report; switching back is only tidying up.
            try? decoder.activate(search)
            throw error
        }
        try decoder.activate(search)
        // The sentence heard is as good as its weakest decisive word's best path.
        let decisive = Set(contenders.map(\.position))
        var weakestHeard: (score: Double, frames: Int)?
        for position in decisive.sorted() {
            guard let path = scores[words[position]] else { continue }
            if path.score < (weakestHeard?.score ?? .infinity) { weakestHeard = (path.score, path.frames) }
        }
        let heardScore = weakestHeard?.score ?? -.infinity
        let frames = max(weakestHeard?.frames ?? 1, 1)
        var outcome: RivalOutcome?
        for rival in contenders {
            let rivalScore = scores[rival.word]?.score ?? -.infinity
            // A word on no whole path lost by as much as can be told (kept finite for JSON).
            let gap: Double
            if rivalScore == -.infinity {
                gap = Self.widestGap
            } else if heardScore == -.infinity {
                gap = -Self.widestGap
            } else {
                gap = min(Self.widestGap, max(-Self.widestGap, (heardScore - rivalScore) / Double(frames)))
            }
            // Gaps are finite, so the first rival always sets the outcome.
            if gap < (outcome?.gap ?? .infinity) {
                outcome = RivalOutcome(word: rival.word, position: rival.position, gap: gap, rivals: contenders.count)
            }
        }
        if let position = outcome?.position {
            outcome?.wordsThere = contenders.filter { $0.position == position }.count
        }
        return outcome
    }
}
