import HarkGrammar
import Testing

/// A word the recogniser cannot pronounce costs only the ways of saying it.
@Suite struct GrammarPruningTests {
    @Test func onlyTheAlternativesValuesAndRulesThatSayTheWordAreLeftOut() throws {
        let grammar = Grammar(
            rules: [
                .init(tag: "Call", template: try PhraseTemplate("(call | ring) <contact>"), parameterValues: ["contact": "contacts"]),
                .init(tag: "Greet", template: try PhraseTemplate("(hello | ζευς) [there]")),
                .init(tag: "Gods", template: try PhraseTemplate("pray to ζευς")),
                .init(tag: "Only", template: try PhraseTemplate("praise <god>"), parameterValues: ["god": "gods"]),
            ],
            values: [
                "contacts": [.init(spoken: "bob lee", identifier: "bob"), .init(spoken: "ζευς", identifier: "zeus")],
                "gods": [.init(spoken: "ζευς", identifier: "zeus")],
            ])
        let pruned = grammar.leavingOut(["ζευς"])
        #expect(pruned.rules.map(\.tag) == ["Call", "Greet"])
        #expect(!pruned.vocabulary.contains("ζευς"))
        #expect(pruned.vocabulary.isSuperset(of: ["call", "ring", "bob", "lee", "hello", "there"]))
        #expect(pruned.values["contacts"]?.map(\.identifier) == ["bob"])
        #expect(pruned.problems().isEmpty)
        let graph = WordGraph(pruned)
        #expect(graph.interpret(["ring", "bob", "lee"])?.tag == "Call")
        #expect(graph.interpret(["hello", "there"])?.tag == "Greet")
        #expect(grammar.leavingOut([]) == grammar)
    }
}
