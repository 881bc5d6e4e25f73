/// A grammar written as JSGF, the form plain pocketsphinx takes a grammar in
/// (`ps_set_jsgf_string`): the baseline every recognition figure is measured against
/// decodes exactly the sentences the recogniser's own graph holds, compiled the way
/// pocketsphinx compiles them itself.
///
///     #JSGF V1.0;
///     grammar hark;
///     public <hark> = <rule0> | <rule1>;
///     <rule0> = turn ( on | off ) [ the ] <value0>;
///     <value0> = garage light | bedroom lamp;
///
/// Each rule is one rule of the grammar; each list of values one rule that every
/// parameter using it refers to. Words are written as they are, so a word JSGF cannot
/// hold as a token (one with white space, quotes or the grammar's punctuation) is
/// reported rather than written wrong.
public enum JSGFWriter {
    public struct UnwritableWord: Error, Equatable, Sendable, CustomStringConvertible {
        public let word: String
        public init(word: String) { self.word = word }
        public var description: String { "the word \"\(word)\" cannot be written as a JSGF token" }
    }

    /// Characters that end or change a JSGF token in sphinxbase's lexer.
    static let reserved = Set("=;|*+<>()[]{}/\"\\ \t\r\n")

    public static func text(of grammar: Grammar, name: String = "hark") throws(UnwritableWord) -> String {
        var valueRules: [String: String] = [:]
        for key in grammar.values.keys.sorted() { valueRules[key] = "value\(valueRules.count)" }
        var lines = ["#JSGF V1.0;", "grammar \(name);"]
        let top = grammar.rules.indices.map { "<rule\($0)>" }
        lines.append("public <\(name)> = " + (top.isEmpty ? "<NULL>" : top.joined(separator: " | ")) + ";")
        for (index, rule) in grammar.rules.enumerated() {
            let body = try expression(rule.template.elements) { (parameter: String) -> String in
                let key = rule.parameterValues[parameter] ?? parameter
                return valueRules[key].map { "<\($0)>" } ?? "<NULL>"
            }
            lines.append("<rule\(index)> = \(body.isEmpty ? "<NULL>" : body);")
        }
        for key in grammar.values.keys.sorted() {
            guard let ruleName = valueRules[key] else { continue }
            var alternatives: [String] = []
            for value in grammar.values[key] ?? [] {
                var parts: [String] = []
                if let pattern = value.pattern {
                    // Patterns hold no parameters (see `Grammar.SpokenValue`).
                    let written = try expression(pattern.elements) { _ in "<NULL>" }
                    if !written.isEmpty { parts.append("( \(written) )") }
                }
                for word in value.words { parts.append(try token(word)) }
                alternatives.append(parts.isEmpty ? "<NULL>" : parts.joined(separator: " "))
            }
            lines.append("<\(ruleName)> = " + (alternatives.isEmpty ? "<NULL>" : alternatives.joined(separator: " | ")) + ";")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A sequence of elements; `parameter` names the rule a parameter refers to.
    private static func expression(_ elements: [PhraseTemplate.Element],
                                   parameter: (String) -> String) throws(UnwritableWord) -> String {
        var parts: [String] = []
        for element in elements {
            switch element {
            case .word(let word):
                parts.append(try token(word))
            case .parameter(let name):
                parts.append(parameter(name))
            case .choice(let alternatives):
                let written = try alternatives.map { (alternative) throws(UnwritableWord) -> String in
                    try expression(alternative, parameter: parameter)
                }
                let present = written.filter { !$0.isEmpty }
                guard !present.isEmpty else { continue }
                let inner = present.joined(separator: " | ")
                // An empty alternative makes the whole choice optional: `[x]` is choice([[x], []]).
                parts.append(present.count < written.count ? "[ \(inner) ]" : "( \(inner) )")
            }
        }
        return parts.joined(separator: " ")
    }

    private static func token(_ word: String) throws(UnwritableWord) -> String {
        guard !word.isEmpty, !word.contains(where: { reserved.contains($0) }) else { throw UnwritableWord(word: word) }
        return word
    }
}
