/// A phrase template as apps write them: words, `[optional words]`,
/// `(either | or)` alternatives and `<parameter>` references, nested freely.
///
///     turn (on | off) [the] <light>
///
/// Words are lower-cased when parsed, because the recogniser's dictionary is.
public struct PhraseTemplate: Hashable, Sendable, CustomStringConvertible {
    public indirect enum Element: Hashable, Sendable {
        case word(String)
        case parameter(String)
        /// Exactly one of the alternatives; `[x]` is `.choice([[x], []])`.
        case choice([[Element]])
    }

    public var elements: [Element]
    public let source: String

    public init(_ source: String) throws(TemplateError) {
        var parser = TemplateParser(source)
        self.elements = try parser.parseTop()
        self.source = source
    }

    public var description: String { source }

    /// Names of the parameters the template refers to, in order of appearance.
    public var parameterNames: [String] {
        var names: [String] = []
        func visit(_ elements: [Element]) {
            for element in elements {
                switch element {
                case .word: break
                case .parameter(let name): if !names.contains(name) { names.append(name) }
                case .choice(let alternatives): alternatives.forEach(visit)
                }
            }
        }
        visit(elements)
        return names
    }

    /// Every word a template can produce outside its parameters.
    public var words: Set<String> {
        var words = Set<String>()
        func visit(_ elements: [Element]) {
            for element in elements {
                switch element {
                case .word(let word): words.insert(word)
                case .parameter: break
                case .choice(let alternatives): alternatives.forEach(visit)
                }
            }
        }
        visit(elements)
        return words
    }
}

public struct TemplateError: Error, Equatable, Sendable, CustomStringConvertible {
    public let template: String
    /// Character offset of the problem in `template`.
    public let offset: Int
    public let reason: String

    public var description: String {
        "in phrase \"\(template)\" at character \(offset + 1): \(reason)"
    }
}

/// Recursive-descent parser over the template's characters.
private struct TemplateParser {
    private let source: String
    private let characters: [Character]
    private var position = 0

    init(_ source: String) {
        self.source = source
        self.characters = Array(source)
    }

    mutating func parseTop() throws(TemplateError) -> [PhraseTemplate.Element] {
        let alternatives = try parseAlternatives(closing: nil)
        guard position == characters.count else { throw fail("unexpected \"\(characters[position])\"") }
        let elements: [PhraseTemplate.Element] = alternatives.count == 1 ? alternatives[0] : [.choice(alternatives)]
        guard !elements.isEmpty else { throw fail("the phrase is empty") }
        if alternatives.contains(where: \.isEmpty) { throw fail("an alternative is empty") }
        return elements
    }

    private mutating func parseAlternatives(closing: Character?) throws(TemplateError) -> [[PhraseTemplate.Element]] {
        var alternatives: [[PhraseTemplate.Element]] = []
        var current: [PhraseTemplate.Element] = []
        while position < characters.count {
            let character = characters[position]
            switch character {
            case " ", "\t":
                position += 1
            case "|":
                position += 1
                alternatives.append(current)
                current = []
            case ")", "]":
                guard character == closing else { throw fail("\"\(character)\" without its opening bracket") }
                alternatives.append(current)
                return alternatives
            case "(":
                current.append(try parseGroup(closing: ")", optional: false))
            case "[":
                current.append(try parseGroup(closing: "]", optional: true))
            case "<":
                current.append(.parameter(try parseParameterName()))
            default:
                current.append(.word(try parseWord()))
            }
        }
        if let closing { throw fail("missing \"\(closing)\"") }
        alternatives.append(current)
        return alternatives
    }

    /// `( a | b )` is a choice; `[ a | b ]` is the same choice plus saying nothing.
    private mutating func parseGroup(closing: Character, optional: Bool) throws(TemplateError) -> PhraseTemplate.Element {
        let start = position
        position += 1
        let inner = try parseAlternatives(closing: closing)
        position += 1
        if inner.contains(where: \.isEmpty) {
            let hint = optional ? "" : "; use [ … ] for optional words"
            throw TemplateError(template: source, offset: start,
                                reason: "an alternative in \(optional ? "[ … ]" : "( … )") is empty\(hint)")
        }
        return .choice(optional ? inner + [[]] : inner)
    }

    private mutating func parseParameterName() throws(TemplateError) -> String {
        let start = position
        position += 1
        var name = ""
        while position < characters.count, characters[position] != ">" {
            name.append(characters[position])
            position += 1
        }
        guard position < characters.count else {
            throw TemplateError(template: source, offset: start, reason: "missing \">\" after parameter name")
        }
        position += 1
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
            throw TemplateError(template: source, offset: start, reason: "a parameter name is letters, digits and \"_\", like <light_name>")
        }
        return name
    }

    private mutating func parseWord() throws(TemplateError) -> String {
        var word = ""
        while position < characters.count, Self.isWordCharacter(characters[position]) {
            word.append(characters[position])
            position += 1
        }
        guard !word.isEmpty else { throw fail("unexpected \"\(characters[position])\"") }
        return word.lowercased()
    }

    static func isWordCharacter(_ character: Character) -> Bool {
        character.isLetter || character.isNumber || character == "'" || character == "-" || character == "_" || character == "."
    }

    private func fail(_ reason: String) -> TemplateError {
        TemplateError(template: source, offset: min(position, max(characters.count - 1, 0)), reason: reason)
    }
}
