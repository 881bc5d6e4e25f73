/// What a sequence of words means under a grammar: which rule matched and
/// which value each parameter took.
public struct Interpretation: Sendable, Equatable {
    public struct Value: Sendable, Equatable {
        /// The value's identifier, as the app declared it.
        public var identifier: String
        /// The words that were said for it (a synonym, perhaps).
        public var spoken: [String]
    }

    public var tag: String
    public var ruleIndex: Int
    public var values: [String: Value]
}

extension WordGraph {
    /// The meaning of `words`, or nil when the grammar cannot produce them.
    /// Where several rules produce the same words the earliest rule wins,
    /// so a grammar's order is its tie-break.
    public func interpret(_ words: [String]) -> Interpretation? {
        interpret(words, from: interpretationStart, at: 0)
    }

    /// The meaning of `words`, whose first `index` words led to `live` (`frontiers(after:)`).
    func interpret(_ words: [String], from live: [Int: Path], at index: Int) -> Interpretation? {
        var live = live
        for position in index..<words.count {
            guard let next = step(live, over: words[position], at: position) else { return nil }
            live = next
        }
        guard let path = live[final] else { return nil }
        return interpretation(of: path, words: words)
    }

    /// The ways through the graph after each prefix of `words` (`result[i]`: after the first `i`
    /// words), as far as the words are the grammar's.
    func frontiers(after words: [String]) -> [[Int: Path]] {
        var result = [interpretationStart]
        for (index, word) in words.enumerated() {
            guard let last = result.last, let next = step(last, over: word, at: index) else { break }
            result.append(next)
        }
        return result
    }

    /// `live` after one more word, the one at `index`; nil when no way takes it. Where several
    /// ways reach a state, the one from the lowest state wins, so the earliest rule's path does.
    private func step(_ live: [Int: Path], over word: String, at index: Int) -> [Int: Path]? {
        var next: [Int: Path] = [:]
        for state in live.keys.sorted() {
            guard let path = live[state] else { continue }
            for arc in outgoing[state] ?? [] where arc.label == .word(word) && next[arc.to] == nil {
                next[arc.to] = path
            }
        }
        return next.isEmpty ? nil : silentPaths(from: next, wordIndex: index + 1)
    }

    /// `frontier` and every state its silent arcs lead to, each with the first path that reached it
    /// (states taken in order, so the earliest rule's path wins) and the marks it passed.
    func silentPaths(from frontier: [Int: Path], wordIndex: Int) -> [Int: Path] {
        var reached = frontier
        var queue = frontier.keys.sorted()
        var next = 0
        while next < queue.count {
            let state = queue[next]
            next += 1
            guard let path = reached[state] else { continue }
            for arc in outgoing[state] ?? [] {
                guard case .silent(let mark) = arc.label, reached[arc.to] == nil else { continue }
                var extended = path
                if let mark {
                    extended.marks.append(mark)
                    extended.wordIndices.append(wordIndex)
                }
                reached[arc.to] = extended
                queue.append(arc.to)
            }
        }
        return reached
    }

    private func interpretation(of path: Path, words: [String]) -> Interpretation? {
        var ruleIndex: Int?
        var values: [String: Interpretation.Value] = [:]
        var open: (name: String, start: Int)?
        for (mark, wordIndex) in zip(path.marks, path.wordIndices) {
            switch mark {
            case .rule(let index):
                ruleIndex = index
            case .parameter(let name):
                open = (name, wordIndex)
            case .value(let identifier):
                guard let parameter = open else { continue }
                values[parameter.name] = Interpretation.Value(
                    identifier: identifier, spoken: Array(words[parameter.start..<wordIndex]))
                open = nil
            }
        }
        guard let ruleIndex else { return nil }
        return Interpretation(tag: grammar.rules[ruleIndex].tag, ruleIndex: ruleIndex, values: values)
    }
}

extension WordGraph {
    /// Whether some sentence of the grammar goes on after `words`: false once the words are a
    /// whole sentence that nothing can extend, so a listener can stop waiting for more.
    /// Also false when the words are not the start of any sentence.
    public func canContinue(after words: [String]) -> Bool {
        var live = silentClosure([start], forward: true)
        for word in words {
            var next = Set<Int>()
            for state in live {
                for arc in outgoing[state] ?? [] where arc.label == .word(word) { next.insert(arc.to) }
            }
            if next.isEmpty { return false }
            live = silentClosure(next, forward: true)
        }
        return live.contains { state in
            (outgoing[state] ?? []).contains { if case .word = $0.label { true } else { false } }
        }
    }
}
