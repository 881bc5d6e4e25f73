import HarkGrammar
import Testing

@Suite struct WordGraphTests {
    static func lights() throws -> Grammar {
        Grammar(
            rules: [
                .init(tag: "ChangeLightState", template: try PhraseTemplate("turn <state> [the] <name>"),
                      parameterValues: ["state": "state", "name": "light"]),
                .init(tag: "ChangeLightState", template: try PhraseTemplate("turn [the] <name> <state>"),
                      parameterValues: ["state": "state", "name": "light"]),
                .init(tag: "GetTime", template: try PhraseTemplate("what time is it")),
            ],
            values: [
                "state": [.init(spoken: "on", identifier: "on"), .init(spoken: "off", identifier: "off")],
                "light": [
                    .init(spoken: "bedroom light", identifier: "bedroom_light"),
                    .init(spoken: "bedroom lamp", identifier: "bedroom_light"),
                    .init(spoken: "living room lamp", identifier: "living_room_lamp"),
                ],
            ])
    }

    @Test func interpretsSlotsInEitherOrder() throws {
        let graph = WordGraph(try Self.lights())
        let first = try #require(graph.interpret("turn on the living room lamp".split(separator: " ").map(String.init)))
        #expect(first.tag == "ChangeLightState")
        #expect(first.values["state"]?.identifier == "on")
        #expect(first.values["name"]?.identifier == "living_room_lamp")
        #expect(first.values["name"]?.spoken == ["living", "room", "lamp"])

        let second = try #require(graph.interpret(["turn", "bedroom", "lamp", "off"]))
        #expect(second.ruleIndex == 1)
        #expect(second.values["state"]?.identifier == "off")
        #expect(second.values["name"]?.identifier == "bedroom_light")
        #expect(second.values["name"]?.spoken == ["bedroom", "lamp"])
    }

    @Test func rejectsWordsOutsideTheGrammar() throws {
        let graph = WordGraph(try Self.lights())
        #expect(graph.interpret(["turn", "on"]) == nil)
        #expect(graph.interpret(["turn", "on", "the", "kitchen", "light"]) == nil)
        #expect(graph.interpret([]) == nil)
        #expect(graph.interpret(["what", "time", "is", "it", "now"]) == nil)
    }

    @Test func ruleWithoutParametersHasNoValues() throws {
        let graph = WordGraph(try Self.lights())
        let result = try #require(graph.interpret(["what", "time", "is", "it"]))
        #expect(result.tag == "GetTime")
        #expect(result.values.isEmpty)
    }

    @Test func vocabularyAndProblems() throws {
        var grammar = try Self.lights()
        #expect(grammar.vocabulary.isSuperset(of: ["turn", "the", "living", "lamp", "what"]))
        #expect(grammar.problems().isEmpty)
        grammar.rules.append(.init(tag: "Broken", template: try PhraseTemplate("dim <level>")))
        #expect(grammar.problems() == ["Broken: phrase \"dim <level>\" names <level>, which has no values"])
    }

    /// Many alternatives stay cheap: the graph grows with the templates, not the sentences.
    @Test func largeValueListsStayLinear() throws {
        let names = (0..<500).map { Grammar.SpokenValue(spoken: "item number \($0)", identifier: "i\($0)") }
        let grammar = Grammar(
            rules: [.init(tag: "Pick", template: try PhraseTemplate("(pick | choose | select) [the] <item> [please]"),
                          parameterValues: ["item": "items"])],
            values: ["items": names])
        let graph = WordGraph(grammar)
        #expect(graph.stateCount < 500 * 4 + 20)
        let result = try #require(graph.interpret(["choose", "item", "number", "417", "please"]))
        #expect(result.values["item"]?.identifier == "i417")
    }

    @Test func tellsWhetherAPhraseCanGoOn() throws {
        let graph = WordGraph(try Self.lights())
        // Unfinished: a listener should wait for more.
        #expect(graph.canContinue(after: []))
        #expect(graph.canContinue(after: ["turn", "on"]))
        #expect(graph.canContinue(after: ["turn", "on", "the", "bedroom"]))
        // Finished, and nothing longer starts this way.
        #expect(!graph.canContinue(after: ["what", "time", "is", "it"]))
        #expect(!graph.canContinue(after: ["turn", "on", "the", "bedroom", "light"]))
        // "turn the bedroom light" is finished only once the state follows.
        #expect(graph.canContinue(after: ["turn", "the", "bedroom", "light"]))
        #expect(!graph.canContinue(after: ["turn", "the", "bedroom", "light", "off"]))
        // Not the start of any phrase.
        #expect(!graph.canContinue(after: ["open", "the", "door"]))
    }
}
