/// The words that decide what a sentence does, and their rivals: for each word of a sentence the
/// grammar can produce, the other words the grammar allows in its place that give the sentence
/// another meaning ("turn on the light" against "turn off the light", "red" against "green",
/// "two" against "three"). A recogniser judges the word heard against these, not only against
/// free phones, because one word is all that separates two actions.
public struct RivalWord: Sendable, Equatable, Hashable {
    /// Where in the sentence the rival stands in for the word heard.
    public var position: Int
    /// The word the grammar allows there instead.
    public var word: String

    public init(position: Int, word: String) {
        self.position = position
        self.word = word
    }

    /// `words` with this rival in place of the word it rivals.
    public func sentence(replacingIn words: [String]) -> [String] {
        guard words.indices.contains(position) else { return words }
        var sentence = words
        sentence[position] = word
        return sentence
    }
}

extension WordGraph {
    /// Every word that can replace one word of `words` so that the sentence is still the
    /// grammar's and means something else (another rule, or another value of a parameter).
    /// Empty when `words` is not a sentence of the grammar. At most `limit` rivals, the earliest
    /// positions first, so a list of thousands of songs cannot make the check dear.
    public func rivals(of words: [String], limit: Int = 64) -> [RivalWord] {
        guard !words.isEmpty, let meaning = interpret(words) else { return [] }
        // Every rival shares the words before it: their ways through the graph are found once,
        // and the states they reach are where a rival word may go.
        let frontiers = frontiers(after: words)
        let ahead = frontiers.map { Set($0.keys) }
        let behind = statesBeforeEachSuffix(words)
        var found: [RivalWord] = []
        var seen = Set<RivalWord>()
        for position in words.indices {
            var candidates = Set<String>()
            for state in ahead[position] {
                for arc in outgoing[state] ?? [] {
                    guard case .word(let word) = arc.label, word != words[position],
                          behind[position + 1].contains(arc.to) else { continue }
                    candidates.insert(word)
                }
            }
            for word in candidates.sorted() {
                let rival = RivalWord(position: position, word: word)
                // Two paths can give the same words; only another meaning is a rival.
                guard let other = interpret(rival.sentence(replacingIn: words), from: frontiers[position], at: position),
                      !other.means(the: meaning) else { continue }
                if seen.insert(rival).inserted { found.append(rival) }
                if found.count >= limit { return found }
            }
        }
        return found
    }

    /// `result[i]`: the states from which the words from index `i` on lead to the final state.
    private func statesBeforeEachSuffix(_ words: [String]) -> [Set<Int>] {
        var live = silentClosure([final], forward: false)
        var result = [live]
        for word in words.reversed() {
            var previous = Set<Int>()
            for state in live {
                for arc in incoming[state] ?? [] where arc.label == .word(word) { previous.insert(arc.from) }
            }
            live = silentClosure(previous, forward: false)
            result.append(live)
        }
        return result.reversed()
    }

    /// `states` and every state silent arcs lead to from them (`forward`) or from them back to.
    func silentClosure(_ states: Set<Int>, forward: Bool) -> Set<Int> {
        var reached = states
        var queue = Array(states)
        while let state = queue.popLast() {
            for arc in (forward ? outgoing[state] : incoming[state]) ?? [] {
                guard case .silent = arc.label else { continue }
                let next = forward ? arc.to : arc.from
                if reached.insert(next).inserted { queue.append(next) }
            }
        }
        return reached
    }
}

extension Interpretation {
    /// The same action: the same rule with the same value for every parameter, whatever words
    /// were said for them (a synonym means what its value means).
    public func means(the other: Interpretation) -> Bool {
        tag == other.tag && values.mapValues(\.identifier) == other.values.mapValues(\.identifier)
    }
}
