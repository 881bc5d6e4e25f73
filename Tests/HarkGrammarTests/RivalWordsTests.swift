import HarkGrammar
import Testing

@Suite struct RivalWordsTests {
    /// "on" and "off" decide the action; "the" and a synonym of the same light do not.
    @Test func theWordThatDecidesTheActionHasItsRivals() throws {
        let graph = WordGraph(try WordGraphTests.lights())
        let rivals = graph.rivals(of: ["turn", "on", "the", "bedroom", "light"])
        #expect(rivals.contains(RivalWord(position: 1, word: "off")))
        // "bedroom lamp" is the same light: not a rival.
        #expect(!rivals.contains(RivalWord(position: 4, word: "lamp")))
        // No word but "off" changes the meaning of this sentence one word at a time.
        #expect(rivals == [RivalWord(position: 1, word: "off")])
    }

    @Test func rivalsFollowTheWordOrderOfEachPhrase() throws {
        let graph = WordGraph(try WordGraphTests.lights())
        #expect(graph.rivals(of: ["turn", "living", "room", "lamp", "off"]) == [RivalWord(position: 4, word: "on")])
    }

    @Test func aSentenceOutsideTheGrammarOrWithoutAChoiceHasNone() throws {
        let graph = WordGraph(try WordGraphTests.lights())
        #expect(graph.rivals(of: ["turn", "on", "the", "kitchen", "light"]).isEmpty)
        #expect(graph.rivals(of: ["what", "time", "is", "it"]).isEmpty)
        #expect(graph.rivals(of: []).isEmpty)
    }

    /// Every other digit is a rival of a digit said alone; the limit keeps a long list cheap.
    @Test func aValueFromAListHasEveryOtherValueAsRivalUpToTheLimit() throws {
        let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        let grammar = Grammar(
            rules: [.init(tag: "Digit", template: try PhraseTemplate("<digit>"), parameterValues: ["digit": "digit"])],
            values: ["digit": digits.map { Grammar.SpokenValue(spoken: $0, identifier: $0) }])
        let graph = WordGraph(grammar)
        #expect(Set(graph.rivals(of: ["two"]).map(\.word)) == Set(digits).subtracting(["two"]))
        #expect(graph.rivals(of: ["two"], limit: 3).count == 3)
    }
}
