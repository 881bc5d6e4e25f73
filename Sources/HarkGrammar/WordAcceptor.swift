/// The smallest deterministic graph that accepts the same sentences as a `WordGraph`:
/// what the recogniser searches.
///
/// A `WordGraph` keeps a path per rule and per value, joined by silent arcs, so the
/// meaning can be read back. The decoder needs only the words, and it pays for every
/// state on every frame (pocketsphinx's FSG search visits each state × left-context phone
/// at each frame's end) and for every copy of a word that can start at the same place
/// ("turn" once per rule that begins with it). Every arc weighs the same, so a graph with
/// the same sentences scores every path as the original did.
///
/// Built by the subset construction over silent arcs, then merged from the end: two
/// states with the same future become one. The graph is acyclic (templates have no
/// repetition), so both steps are linear in practice; a grammar whose subsets would grow
/// past `stateLimit` keeps the original graph instead.
public struct WordAcceptor: Sendable, Equatable {
    public struct Arc: Hashable, Sendable {
        public var from: Int
        public var to: Int
        /// nil for the silent arcs that join accepting states to the single final state.
        public var word: String?
    }

    public let start: Int
    public let final: Int
    public let stateCount: Int
    public let arcs: [Arc]

    /// The graph `graph` compiles to, at most `stateLimit` subset states in the making.
    public init(_ graph: WordGraph, stateLimit: Int? = nil) {
        let limit = stateLimit ?? max(4 * graph.stateCount, 10_000)
        guard let deterministic = Deterministic(graph, limit: limit) else {
            self.init(unreduced: graph)
            return
        }
        self.init(minimizing: deterministic)
    }

    /// The graph as it is, silent arcs and all.
    private init(unreduced graph: WordGraph) {
        start = graph.start
        final = graph.final
        stateCount = graph.stateCount
        arcs = graph.arcs.map { arc in
            switch arc.label {
            case .word(let word): Arc(from: arc.from, to: arc.to, word: word)
            case .silent: Arc(from: arc.from, to: arc.to, word: nil)
            }
        }
    }

    /// Merges states with the same future, leaves first; accepting states that go on are
    /// joined to the one accepting state that does not by a silent arc.
    private init(minimizing graph: Deterministic) {
        struct Signature: Hashable {
            var accepting: Bool
            var moves: [Move]
        }
        struct Move: Hashable {
            var word: String
            var target: Int
        }
        var classOf = [Int](repeating: -1, count: graph.moves.count)
        var classes: [Signature: Int] = [:]
        var signatures: [Signature] = []
        // Depth-first, so a state is classed after everything it leads to.
        var stack: [(state: Int, expanded: Bool)] = [(0, false)]
        while let (state, expanded) = stack.popLast() {
            guard classOf[state] < 0 else { continue }
            if !expanded {
                stack.append((state, true))
                for move in graph.moves[state] where classOf[move.target] < 0 { stack.append((move.target, false)) }
                continue
            }
            let signature = Signature(accepting: graph.accepting[state],
                                      moves: graph.moves[state].map { Move(word: $0.word, target: classOf[$0.target]) })
            if let known = classes[signature] {
                classOf[state] = known
            } else {
                classes[signature] = signatures.count
                classOf[state] = signatures.count
                signatures.append(signature)
            }
        }

        // An accepting state that nothing follows is where every longest sentence ends; a
        // grammar that accepts nothing still needs a final state to name.
        let sink = signatures.firstIndex { $0.accepting && $0.moves.isEmpty }
        let final = sink ?? signatures.count
        var arcs: [Arc] = []
        for (index, signature) in signatures.enumerated() {
            arcs += signature.moves.map { Arc(from: index, to: $0.target, word: $0.word) }
            if signature.accepting && index != final { arcs.append(Arc(from: index, to: final, word: nil)) }
        }
        start = classOf[0]
        self.final = final
        stateCount = sink == nil ? signatures.count + 1 : signatures.count
        self.arcs = arcs
    }
}

extension WordAcceptor {
    /// The same sentences with the names of long lists said as one word each: where a state
    /// with at least `minimumFan` words leaving it leads to a state left by one word only
    /// ("caroline" after "sweet" in a list of song names), the two words become one arc
    /// ("sweet_caroline") and the state goes; and so on, up to `maxWords` words.
    ///
    /// pocketsphinx's FSG search walks every state × left-context phone at the end of every
    /// frame, whether the state is reached or not: an app with a thousand two-word names spends
    /// a third of its decoding time there. A joined word has the pronunciation of its parts
    /// one after the other (see `Recognizer`), with no pause allowed between them, so joins
    /// stop at `maxWords` words. The confidence judges a joined word as one, so a name half
    /// right counts for more than its wrong half would alone: only long lists, where the
    /// states are, are joined, and the phrases around them keep their words.
    ///
    /// Words that contain `separator` are never joined, so every joined word splits back
    /// into the words it was made of.
    public func joiningChains(separator: Character = "_", maxWords: Int = 3, minimumFan: Int = 100) -> WordAcceptor {
        var incoming = [[Int]](repeating: [], count: stateCount)
        var outgoing = [[Int]](repeating: [], count: stateCount)
        for (index, arc) in arcs.enumerated() {
            incoming[arc.to].append(index)
            outgoing[arc.from].append(index)
        }
        func joinable(_ arc: Arc) -> Bool { arc.word.map { !$0.contains(separator) } ?? false }
        // A link in a chain: entered by words, left by one word, neither the start nor the end.
        // Each word that enters becomes a joined word of its own, so no arc is added.
        let isLink = (0..<stateCount).map { state in
            state != start && state != final && outgoing[state].count == 1 && !incoming[state].isEmpty
                && joinable(arcs[outgoing[state][0]]) && incoming[state].allSatisfy { joinable(arcs[$0]) }
        }

        var kept = [Bool](repeating: false, count: stateCount)
        var queue: [Int] = []
        for state in 0..<stateCount where !isLink[state] {
            kept[state] = true
            queue.append(state)
        }
        var joined: [(from: Int, to: Int, word: String?)] = []
        while let state = queue.popLast() {
            for first in outgoing[state] {
                var words = [arcs[first].word].compactMap { $0 }
                var target = arcs[first].to
                if joinable(arcs[first]), outgoing[state].count >= minimumFan {
                    while isLink[target], words.count < maxWords {
                        let next = arcs[outgoing[target][0]]
                        words.append(next.word!)
                        target = next.to
                    }
                }
                // A chain cut short at `maxWords` goes on from a state that stays.
                if !kept[target] {
                    kept[target] = true
                    queue.append(target)
                }
                joined.append((state, target, arcs[first].word == nil ? nil : words.joined(separator: String(separator))))
            }
        }

        var number = [Int](repeating: -1, count: stateCount)
        var count = 0
        for state in 0..<stateCount where kept[state] {
            number[state] = count
            count += 1
        }
        return WordAcceptor(start: number[start], final: number[final], stateCount: count,
                            arcs: joined.map { Arc(from: number[$0.from], to: number[$0.to], word: $0.word) }
                                .sorted { ($0.from, $0.to, $0.word ?? "") < ($1.from, $1.to, $1.word ?? "") })
    }

    private init(start: Int, final: Int, stateCount: Int, arcs: [Arc]) {
        self.start = start
        self.final = final
        self.stateCount = stateCount
        self.arcs = arcs
    }
}

/// The subset construction of a `WordGraph`: state 0 is the start, moves are sorted by word.
private struct Deterministic {
    var moves: [[(word: String, target: Int)]] = []
    var accepting: [Bool] = []

    init?(_ graph: WordGraph, limit: Int) {
        var wordArcs = [[(word: String, to: Int)]](repeating: [], count: graph.stateCount)
        var silentArcs = [[Int]](repeating: [], count: graph.stateCount)
        for arc in graph.arcs {
            switch arc.label {
            case .word(let word): wordArcs[arc.from].append((word, arc.to))
            case .silent: silentArcs[arc.from].append(arc.to)
            }
        }
        func closure(_ states: some Sequence<Int>) -> [Int] {
            var reached = Set(states)
            var queue = Array(reached)
            while let state = queue.popLast() {
                for next in silentArcs[state] where reached.insert(next).inserted { queue.append(next) }
            }
            return reached.sorted()
        }

        var index: [[Int]: Int] = [:]
        var subsets: [[Int]] = []
        func state(for subset: [Int]) -> Int {
            if let known = index[subset] { return known }
            index[subset] = subsets.count
            subsets.append(subset)
            return subsets.count - 1
        }
        _ = state(for: closure([graph.start]))
        var next = 0
        while next < subsets.count {
            guard subsets.count <= limit else { return nil }
            let subset = subsets[next]
            var targets: [String: Set<Int>] = [:]
            for member in subset {
                for arc in wordArcs[member] { targets[arc.word, default: []].insert(arc.to) }
            }
            moves.append(targets.sorted { $0.key < $1.key }.map { word, reached in (word, state(for: closure(reached))) })
            accepting.append(subset.contains(graph.final))
            next += 1
        }
    }
}
