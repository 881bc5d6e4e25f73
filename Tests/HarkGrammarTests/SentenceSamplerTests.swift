import HarkGrammar
import Testing

@Suite struct SentenceSamplerTests {
    @Test func everySentenceMeansWhatItWasBuiltToMean() throws {
        var grammar = try WordGraphTests.lights()
        grammar.rules.append(.init(tag: "SetTimer", template: try PhraseTemplate("set a timer for <minutes> minutes"),
                                   parameterValues: ["minutes": "minutes"]))
        grammar.values["minutes"] = [.init(pattern: try PhraseTemplate("(one | two | three) [hundred]"))]
        let sampler = SentenceSampler(grammar)
        let graph = WordGraph(grammar)
        var generator = SeededGenerator(seed: 7)
        var patternWords = Set<[String]>()
        for ruleIndex in grammar.rules.indices {
            for (words, meant) in sampler.sentences(ofRule: ruleIndex, count: 6, using: &generator) {
                let parsed = try #require(graph.interpret(words), "\(words) is not in the grammar")
                #expect(parsed.tag == meant.tag)
                #expect(parsed.values == meant.values, "\(words)")
                if let minutes = meant.values["minutes"] { patternWords.insert(minutes.spoken) }
            }
        }
        // The pattern value is expanded, not left as a placeholder.
        #expect(patternWords.count > 1)
        #expect(patternWords.allSatisfy { [["one"], ["two"], ["three"]].contains([$0[0]]) })
    }

    @Test func drawsDifferentSentencesAndStopsWhenThereAreNoMore() throws {
        let sampler = SentenceSampler(try WordGraphTests.lights())
        var generator = SeededGenerator(seed: 1)
        // "what time is it" has one sentence; asking for five gives it once.
        #expect(sampler.sentences(ofRule: 2, count: 5, using: &generator).map(\.words) == [["what", "time", "is", "it"]])
        // "turn <state> [the] <name>": 2 states × 2 × 3 sayings = 12 sentences.
        let drawn = sampler.sentences(ofRule: 0, count: 12, using: &generator).map(\.words)
        #expect(Set(drawn).count == drawn.count)
        #expect(drawn.count >= 10)
    }

    @Test func theSameSeedDrawsTheSameSentences() throws {
        let sampler = SentenceSampler(try WordGraphTests.lights())
        var first = SeededGenerator(seed: 42), second = SeededGenerator(seed: 42), other = SeededGenerator(seed: 43)
        let a = (0..<20).map { _ in sampler.sentence(ofRule: 0, using: &first).words }
        let b = (0..<20).map { _ in sampler.sentence(ofRule: 0, using: &second).words }
        let c = (0..<20).map { _ in sampler.sentence(ofRule: 0, using: &other).words }
        #expect(a == b)
        #expect(a != c)
    }
}
