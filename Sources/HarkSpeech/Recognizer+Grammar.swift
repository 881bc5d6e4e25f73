import HarkGrammar

/// How a grammar becomes a search of the decoder: the smallest graph with its sentences, long
/// lists joined into one word each, and the searches made later, when an utterance needs them.
extension Recognizer {
    /// Compiles `grammar` into a search of the decoder (see `use(_:)`).
    func install(_ grammar: Grammar) throws(RecognitionError) -> InstalledGrammar {
        let graph = WordGraph(grammar)
        // No garbage loop of phones beside the grammar: at any weight that left good commands
        // alone it never won once the phone-loop pass measured confidence (every margin and
        // verdict the same on 833 recordings with and without it, decoding time within
        // run-to-run noise).
        // The decoder searches the smallest graph with the same sentences: for the bundled
        // apps' top level 94 states instead of 469 and 1,672 lextree HMMs instead of 2,905.
        // Over 2,812 recordings the verdicts held (commands right 1,057 → 1,061, false
        // acceptances 42 → 41) while decoding took 23 % less time and 15 MB less memory.
        var acceptor = WordAcceptor(graph)
        var joinedWords: Set<String> = []
        if acceptor.stateCount > configuration.joinsWordsAboveStates {
            let words = Set(acceptor.arcs.compactMap(\.word))
            acceptor = acceptor.joiningChains(separator: Self.joiner, minimumFan: configuration.joinsListsOfAtLeast)
            // Only what was joined is split again: a grammar word may hold the joiner itself.
            joinedWords = Set(acceptor.arcs.compactMap(\.word)).subtracting(words)
            try learnJoinedWords(joinedWords)
        }
        let arcs = acceptor.arcs.map { arc -> (from: Int, to: Int, word: String?, probability: Float) in
            (arc.from, arc.to, arc.word, 1)
        }
        // Without a list there is nothing to set beside the grammar, nor any of its words to look up.
        let otherWords = configuration.otherWords.isEmpty ? []
            : OtherWords.beside(grammarWords: Set(arcs.compactMap(\.word)), configuration.otherWords,
                                pronunciations: alternatePronunciations(of:))
        // Like the second search, made the first time an utterance needs it.
        let otherWordsCheck: InstalledGrammar.LazySearch? = otherWords.isEmpty ? nil
            : .pending(states: acceptor.stateCount + OtherWords.addedStates, start: acceptor.start, final: acceptor.final,
                       arcs: arcs + OtherWords.loopArcs(words: otherWords, start: acceptor.start, final: acceptor.final,
                                                        firstFreeState: acceptor.stateCount))
        // A fresh name each time: replacing the active search in place is unsafe here.
        grammarGeneration += 1
        let entry = InstalledGrammar(grammar: grammar, graph: graph, search: "hark-grammar-\(grammarGeneration)",
                                     tightSearch: "hark-grammar-tight-\(grammarGeneration)",
                                     // The second search costs as much memory as the first: it is
                                     // made the first time an utterance needs it.
                                     tight: .pending(states: acceptor.stateCount, start: acceptor.start,
                                                     final: acceptor.final, arcs: arcs),
                                     otherWordsSearch: "hark-grammar-other-words-\(grammarGeneration)",
                                     otherWordsCheck: otherWordsCheck, otherWords: Set(otherWords),
                                     joinedWords: joinedWords)
        try decoder.installGraph(name: entry.search, states: acceptor.stateCount, start: acceptor.start,
                                 final: acceptor.final, arcs: arcs)
        return entry
    }

    /// What joins the words of a chain into one ("living_room"); no grammar word has it.
    static let joiner: Character = "_"
    /// Pronunciations of a joined word: each of its parts' (alternates included) one after the
    /// other, at most this many combinations.
    static let joinedPronunciationLimit = 8

    /// Teaches the decoder the joined words it does not know yet.
    func learnJoinedWords(_ words: Set<String>) throws(RecognitionError) {
        var entries: [(word: String, phones: String)] = []
        for word in words.sorted() where decoder.pronunciation(of: word) == nil {
            var combinations = [""]
            for part in word.split(separator: Self.joiner).map(String.init) {
                let pronunciations = alternatePronunciations(of: part)
                guard !pronunciations.isEmpty else {
                    throw RecognitionError(.unknownWords([part]), "the dictionary does not know \"\(part)\"")
                }
                combinations = Array(combinations.lazy.flatMap { head in pronunciations.map { head.isEmpty ? $0 : head + " " + $0 } }
                    .prefix(Self.joinedPronunciationLimit))
            }
            for (index, phones) in combinations.enumerated() {
                entries.append((index == 0 ? word : "\(word)(\(index + 1))", phones))
            }
        }
        if !entries.isEmpty { try decoder.addWords(entries) }
    }
}
