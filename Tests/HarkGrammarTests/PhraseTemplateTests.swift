import HarkGrammar
import Testing

@Suite struct PhraseTemplateTests {
    @Test func parsesWordsOptionalsChoicesAndParameters() throws {
        let template = try PhraseTemplate("Turn (on | off) [the] <light_name>")
        #expect(template.elements == [
            .word("turn"),
            .choice([[.word("on")], [.word("off")]]),
            .choice([[.word("the")], []]),
            .parameter("light_name"),
        ])
        #expect(template.parameterNames == ["light_name"])
        #expect(template.words == ["turn", "on", "off", "the"])
    }

    @Test func topLevelAlternativesBecomeOneChoice() throws {
        let template = try PhraseTemplate("what time is it | tell me the time")
        #expect(template.elements.count == 1)
        guard case .choice(let alternatives) = template.elements[0] else {
            Issue.record("expected a choice")
            return
        }
        #expect(alternatives.count == 2)
    }

    @Test(arguments: [
        ("turn (on | off", "missing \")\""),
        ("turn on)", "\")\" without its opening bracket"),
        ("turn <> on", "a parameter name is letters"),
        ("turn <light on", "missing \">\""),
        ("", "the phrase is empty"),
        ("turn (on | ) the light", "empty"),
        ("turn on | ", "an alternative is empty"),
        ("turn on the light!", "unexpected \"!\""),
    ])
    func refusesMalformedTemplates(source: String, reason: String) {
        #expect {
            _ = try PhraseTemplate(source)
        } throws: { error in
            guard let error = error as? TemplateError else { return false }
            return error.reason.contains(reason) && error.template == source
        }
    }
}
