import HarkGrammar
import Testing

@Suite struct JSGFWriterTests {
    func template(_ text: String) throws -> PhraseTemplate { try PhraseTemplate(text) }

    @Test func writesRulesChoicesOptionalsAndValueLists() throws {
        let grammar = Grammar(
            rules: [
                .init(tag: "time", template: try template("what time is it")),
                .init(tag: "light", template: try template("turn (on | off) [the] <name>"), parameterValues: ["name": "light"]),
            ],
            values: ["light": [.init(spoken: "garage light", identifier: "garage"),
                               .init(spoken: "lamp", identifier: "lamp")]])
        let text = try JSGFWriter.text(of: grammar)
        #expect(text == """
            #JSGF V1.0;
            grammar hark;
            public <hark> = <rule0> | <rule1>;
            <rule0> = what time is it;
            <rule1> = turn ( on | off ) [ the ] <value0>;
            <value0> = garage light | lamp;

            """)
    }

    @Test func aPatternValueIsWrittenAsItsExpression() throws {
        let grammar = Grammar(
            rules: [.init(tag: "alarm", template: try template("wake me at <time>"), parameterValues: ["time": "time"])],
            values: ["time": [.init(pattern: try template("(seven | eight) [thirty]"))]])
        let text = try JSGFWriter.text(of: grammar)
        #expect(text.contains("<value0> = ( ( seven | eight ) [ thirty ] );"))
    }

    @Test func aWordJSGFCannotHoldIsReportedByName() throws {
        let grammar = Grammar(rules: [.init(tag: "x", template: try template("say <thing>"), parameterValues: ["thing": "t"])],
                              values: ["t": [.init(words: ["a|b"], identifier: "ab")]])
        #expect(throws: JSGFWriter.UnwritableWord(word: "a|b")) { try JSGFWriter.text(of: grammar) }
    }
}
