import HarkGrammar
import Testing

@Suite struct WordAcceptorTests {
    /// Every sentence a graph accepts, by walking it from start to final (the graphs are acyclic).
    static func sentences(start: Int, final: Int, arcs: [(from: Int, to: Int, word: String?)]) -> Set<[String]> {
        let outgoing = Dictionary(grouping: arcs, by: \.from)
        var found = Set<[String]>()
        var stack: [(state: Int, words: [String])] = [(start, [])]
        while let (state, words) = stack.popLast() {
            if state == final { found.insert(words) }
            for arc in outgoing[state] ?? [] {
                stack.append((arc.to, arc.word.map { words + [$0] } ?? words))
            }
        }
        return found
    }

    static func sentences(of graph: WordGraph) -> Set<[String]> {
        sentences(start: graph.start, final: graph.final, arcs: graph.arcs.map { arc in
            if case .word(let word) = arc.label { (arc.from, arc.to, word) } else { (arc.from, arc.to, nil) }
        })
    }

    static func sentences(of acceptor: WordAcceptor) -> Set<[String]> {
        sentences(start: acceptor.start, final: acceptor.final, arcs: acceptor.arcs.map { ($0.from, $0.to, $0.word) })
    }

    /// Lights in two word orders, a phrase that is the start of a longer one, and a timer.
    static func grammar() throws -> Grammar {
        var grammar = try WordGraphTests.lights()
        grammar.rules += [
            .init(tag: "Help", template: try PhraseTemplate("help")),
            .init(tag: "HelpLights", template: try PhraseTemplate("help with (the lights | lamps)")),
            .init(tag: "Timer", template: try PhraseTemplate("set a timer for <minutes> minutes"),
                  parameterValues: ["minutes": "count"]),
        ]
        grammar.values["count"] = ["one", "two", "ten", "twenty", "twenty two"].map { .init(spoken: $0, identifier: $0) }
        return grammar
    }

    @Test func acceptsTheSameSentencesAsTheGraph() throws {
        let graph = WordGraph(try Self.grammar())
        let acceptor = WordAcceptor(graph)
        let expected = Self.sentences(of: graph)
        #expect(expected.contains(["turn", "on", "the", "living", "room", "lamp"]))
        #expect(expected.contains(["set", "a", "timer", "for", "twenty", "two", "minutes"]))
        #expect(Self.sentences(of: acceptor) == expected)
    }

    @Test func wordsAreDeterministicAndSilentArcsOnlyReachTheFinalState() throws {
        let acceptor = WordAcceptor(WordGraph(try Self.grammar()))
        var seen = Set<String>()
        for arc in acceptor.arcs {
            if let word = arc.word {
                #expect(seen.insert("\(arc.from) \(word)").inserted, "two arcs for \"\(word)\" leave state \(arc.from)")
            } else {
                #expect(arc.to == acceptor.final)
            }
        }
        // Both rules begin with "turn": the decoder starts one copy of the word, not two.
        #expect(acceptor.arcs.filter { $0.from == acceptor.start && $0.word == "turn" }.count == 1)
        // "help" is a whole phrase and the start of another: its state joins the final one silently.
        let afterHelp = try #require(acceptor.arcs.first { $0.from == acceptor.start && $0.word == "help" }).to
        #expect(acceptor.arcs.contains { $0.from == afterHelp && $0.word == nil && $0.to == acceptor.final })
        #expect(!acceptor.arcs.contains { $0.from == acceptor.final })
    }

    @Test func sharedEndingsAreMerged() throws {
        let graph = WordGraph(try Self.grammar())
        let acceptor = WordAcceptor(graph)
        // Whatever came before, "lamp" at the end of a sentence leads to the one final state.
        let lampTargets = Set(acceptor.arcs.filter { $0.word == "lamp" }.map(\.to))
        #expect(lampTargets.contains(acceptor.final))
        #expect(acceptor.stateCount < graph.stateCount / 2, "\(acceptor.stateCount) states from \(graph.stateCount)")
        #expect(acceptor.stateCount == Set(acceptor.arcs.flatMap { [$0.from, $0.to] }).count)
    }

    @Test func aGrammarPastTheLimitKeepsItsOwnGraph() throws {
        let graph = WordGraph(try Self.grammar())
        let acceptor = WordAcceptor(graph, stateLimit: 3)
        #expect(acceptor.stateCount == graph.stateCount)
        #expect(acceptor.arcs.count == graph.arcs.count)
        #expect(acceptor.arcs.contains { $0.word == nil && $0.to != acceptor.final })
        #expect(Self.sentences(of: acceptor) == Self.sentences(of: graph))
    }

    @Test func aGrammarWithoutRulesAcceptsNothing() {
        let acceptor = WordAcceptor(WordGraph(Grammar(rules: [], values: [:])))
        #expect(acceptor.arcs.isEmpty)
        #expect(acceptor.start != acceptor.final)
        #expect(acceptor.stateCount == 2)
    }
}

extension WordAcceptorTests {
    @Test func aLongValueListBecomesOneFanOfWords() throws {
        let names = (0..<500).map { Grammar.SpokenValue(spoken: "item number \($0)", identifier: "i\($0)") }
        let graph = WordGraph(Grammar(
            rules: [.init(tag: "Pick", template: try PhraseTemplate("(pick | choose | select) [the] <item> [please]"),
                          parameterValues: ["item": "items"])],
            values: ["items": names]))
        let acceptor = WordAcceptor(graph)
        // pick|choose|select → [the] → item → number → 500 numbers → [please]: each step one state.
        #expect(acceptor.stateCount <= 7, "\(acceptor.stateCount) states")
        #expect(graph.stateCount > 1_500)
        let sentences = Self.sentences(of: acceptor)
        #expect(sentences.count == 3 * 2 * 500 * 2)
        #expect(sentences.contains(["choose", "item", "number", "417", "please"]))
    }
}

/// Words that always come together, joined into one for the decoder.
extension WordAcceptorTests {
    /// The sentences of an acceptor with joined words split back into their parts.
    static func splitSentences(of acceptor: WordAcceptor) -> Set<[String]> {
        Set(sentences(of: acceptor).map { sentence in sentence.flatMap { $0.split(separator: "_").map(String.init) } })
    }

    /// Song names of two words after two different openings ("play [the song]"), so every
    /// name's second state is entered from two places.
    static func songs(count: Int) throws -> Grammar {
        Grammar(
            rules: [.init(tag: "Play", template: try PhraseTemplate("(play | put on) [the song] <song> [by <artist>]"),
                          parameterValues: ["song": "songs", "artist": "artists"])],
            values: [
                "songs": (0..<count).map { .init(spoken: "song\(Self.letters($0)) number\(Self.letters($0 * 7 + 3))", identifier: "s\($0)") },
                "artists": ["abba", "the kinks", "blur"].map { .init(spoken: $0, identifier: $0) },
            ])
    }

    /// "a", "b", … "ba": names made of letters, as grammar words are.
    static func letters(_ number: Int) -> String {
        var number = number, text = ""
        repeat {
            text = String(UnicodeScalar(UInt8(97 + number % 26))) + text
            number /= 26
        } while number > 0
        return text
    }

    @Test func joiningKeepsEverySentenceAndDropsTheStatesInsideNames() throws {
        let acceptor = WordAcceptor(WordGraph(try Self.songs(count: 200)))
        let joined = acceptor.joiningChains()
        #expect(Self.splitSentences(of: joined) == Self.sentences(of: acceptor))
        #expect(acceptor.stateCount > 200)
        #expect(joined.stateCount < 15, "\(joined.stateCount) states left of \(acceptor.stateCount)")
        #expect(joined.arcs.count <= acceptor.arcs.count)
        #expect(joined.arcs.contains { $0.word == "songa_numberd" })
        // The phrase around the names keeps its words: "put" leads only to "on", but from a
        // state with two words leaving it.
        #expect(joined.arcs.contains { $0.from == joined.start && $0.word == "put" })
        #expect(!joined.arcs.contains { $0.word == "put_on" })
        #expect(joined.arcs.contains { $0.word == "the" })
        // Joined from any state once `minimumFan` allows it.
        let everywhere = acceptor.joiningChains(minimumFan: 1)
        #expect(everywhere.arcs.contains { $0.from == everywhere.start && $0.word == "put_on" })
        #expect(joined.stateCount == Set(joined.arcs.flatMap { [$0.from, $0.to] }).count)
    }

    @Test func aStateLeftByMoreThanOneWordStays() throws {
        let acceptor = WordAcceptor(WordGraph(try Self.grammar()))
        let unjoined = acceptor.joiningChains()
        #expect(Set(unjoined.arcs) == Set(acceptor.arcs) && unjoined.stateCount == acceptor.stateCount,
                "no list is long enough to join")
        let joined = acceptor.joiningChains(minimumFan: 1)
        #expect(Self.splitSentences(of: joined) == Self.sentences(of: acceptor))
        // After "turn" come "on", "off" and the lights: nothing is joined to "turn".
        #expect(joined.arcs.contains { $0.from == joined.start && $0.word == "turn" })
        #expect(!joined.arcs.contains { $0.word?.hasPrefix("turn_") ?? false })
        // "help" is a phrase of its own and the start of "help with …": it stays a word.
        #expect(joined.arcs.contains { $0.from == joined.start && $0.word == "help" })
        #expect(joined.arcs.contains { $0.word?.hasPrefix("living_room") ?? false })
    }

    @Test func joinedWordsAreAtMostMaxWordsLong() throws {
        let grammar = Grammar(rules: [.init(tag: "Long", template: try PhraseTemplate("what is the weather like today"))], values: [:])
        let acceptor = WordAcceptor(WordGraph(grammar))
        let pairs = acceptor.joiningChains(maxWords: 2, minimumFan: 1)
        #expect(Self.sentences(of: pairs) == [["what_is", "the_weather", "like_today"]])
        #expect(Self.splitSentences(of: pairs) == Self.sentences(of: acceptor))
        #expect(Self.sentences(of: acceptor.joiningChains(maxWords: 3, minimumFan: 1)) == [["what_is_the", "weather_like_today"]])
        #expect(Set(acceptor.joiningChains(maxWords: 1, minimumFan: 1).arcs) == Set(acceptor.arcs))
    }

    @Test func wordsWithTheSeparatorAreNeverJoined() throws {
        let grammar = Grammar(rules: [.init(tag: "Odd", template: try PhraseTemplate("say <word> now"),
                                            parameterValues: ["word": "words"])],
                              values: ["words": [.init(spoken: "x_ray", identifier: "x")]])
        let acceptor = WordAcceptor(WordGraph(grammar))
        let joined = acceptor.joiningChains(minimumFan: 1)
        #expect(joined.arcs.compactMap(\.word).sorted() == ["now", "say", "x_ray"])
    }
}
