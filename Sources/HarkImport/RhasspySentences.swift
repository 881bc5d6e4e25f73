import Foundation

/// Rhasspy's sentences.ini, parsed: a section per intent (`[GetTime]`), each with its rules
/// (`light_name = (lamp | light) {name}`) and its sentences, in Rhasspy's template language:
/// words, `(a | b)` alternatives, `[optional]` parts, `{tag}` or `{tag:value}` after a part to
/// make it a slot, `word:substitute` and `(group):substitute`, `<rule>` and `<Intent.rule>`
/// references, `$slot` lists from the slots folder and `(1..10)` number ranges.
public struct RhasspySentences: Sendable, Equatable {
    /// One part of a template.
    public indirect enum Expression: Sendable, Equatable {
        /// A spoken word and what it stands for in the intent's text (nil: itself, "": nothing).
        case word(String, substitute: String?)
        case sequence([Expression])
        case alternatives([Expression])
        case optional(Expression)
        /// A part whose words are the value of the slot `name` (`value` fixes it instead).
        case tagged(Expression, name: String, value: String?)
        /// `<rule>` or `<Intent.rule>`.
        case rule(String)
        /// `$name`: the lines of the slots folder's file `name`.
        case slotList(String)
        case numberRange(Int, Int, step: Int)
        /// A group's words stand for `substitute` in the intent's text.
        case substituted(Expression, substitute: String)
    }

    public struct Line: Sendable, Equatable {
        public var expression: Expression
        public var line: Int
        /// Slots the sentence fixes without saying them (Home Assistant's `slots:`).
        public var presets: [String: String] = [:]
        /// The file the line is in, when sentences come from several (nil: the one imported).
        public var file: String? = nil
        /// What the entity a sentence names must be (Home Assistant's `requires_context:`), and
        /// must not be (`excludes_context:`): "domain" or "device_class" → the values allowed.
        public var requires: [String: [String]] = [:]
        public var excludes: [String: [String]] = [:]
        /// Slots the sentence takes from where it was heard (`requires_context: area: {slot: true}`).
        public var fromRoom: [String] = []
    }

    public struct Section: Sendable, Equatable {
        public var intent: String
        public var line: Int
        public var rules: [String: Line] = [:]
        public var sentences: [Line] = []
        public var file: String? = nil
    }

    /// A line that could not be read, or a part the reader left out, with its line number.
    public struct Note: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var text: String
        public var description: String { "\(line): \(text)" }
    }

    /// A space inside a substitute (`(living room):Living%20Room`), where the language ends a
    /// substitute at a space: Home Assistant's values and names hold spaces.
    static let spaceInSubstitute = "%20"

    /// `value` written as a substitute.
    static func substitute(_ value: String) -> String {
        value.replacingOccurrences(of: " ", with: spaceInSubstitute)
    }

    /// The value a substitute stands for.
    static func value(ofSubstitute substitute: String) -> String {
        substitute.replacingOccurrences(of: spaceInSubstitute, with: " ")
    }

    public var sections: [Section] = []
    public var notes: [Note] = []

    /// Sentences read some other way (Home Assistant's YAML): the same language in other clothes.
    public init(sections: [Section], notes: [Note]) {
        self.sections = sections
        self.notes = notes
    }

    public init(text: String) {
        var current: Section?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") && line.hasSuffix("]") && !line.dropFirst().contains("[") {
                if let current { sections.append(current) }
                current = Section(intent: String(line.dropFirst().dropLast()).trimmingCharacters(in: .whitespaces), line: number)
                continue
            }
            guard current != nil else {
                notes.append(Note(line: number, text: "a sentence before any [Intent] section, left out"))
                continue
            }
            var body = Substring(line)
            var ruleName: String?
            if let equals = line.firstIndex(of: "="), Self.isRuleName(line[..<equals].trimmingCharacters(in: .whitespaces)) {
                ruleName = line[..<equals].trimmingCharacters(in: .whitespaces)
                body = line[line.index(after: equals)...]
            }
            var parser = TemplateReader(Array(body))
            do {
                let expression = try parser.read()
                for warning in parser.warnings { notes.append(Note(line: number, text: warning)) }
                if let ruleName {
                    current?.rules[ruleName] = Line(expression: expression, line: number)
                } else {
                    current?.sentences.append(Line(expression: expression, line: number))
                }
            } catch {
                notes.append(Note(line: number, text: "\(error.reason), left out: \(line)"))
            }
        }
        if let current { sections.append(current) }
    }

    /// Reads one template (a sentence, a rule's body or a slot file's line) on its own. With
    /// `listsInBraces` (Home Assistant), `{list}` and `{list:slot}` are slots from lists rather
    /// than tags on what precedes them.
    public static func expression(_ text: String, listsInBraces: Bool = false) throws(TemplateReader.Failure) -> Expression {
        var parser = TemplateReader(Array(text), listsInBraces: listsInBraces)
        return try parser.read()
    }

    static func isRuleName(_ name: String) -> Bool {
        !name.isEmpty && name.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" }
    }
}

/// The reader of one template line of Rhasspy's language.
public struct TemplateReader {
    public struct Failure: Error, Equatable { public var reason: String }

    private let characters: [Character]
    private let listsInBraces: Bool
    private var position = 0
    /// Parts read but not carried (converters such as `!int`).
    private(set) var warnings: [String] = []

    init(_ characters: [Character], listsInBraces: Bool = false) {
        self.characters = characters
        self.listsInBraces = listsInBraces
    }

    mutating func read() throws(Failure) -> RhasspySentences.Expression {
        let expression = try alternatives(until: nil)
        skipSpaces()
        guard position == characters.count else { throw Failure(reason: "unexpected \"\(characters[position])\"") }
        return expression
    }

    private var peek: Character? { position < characters.count ? characters[position] : nil }

    private mutating func skipSpaces() {
        while let character = peek, character.isWhitespace { position += 1 }
    }

    private mutating func alternatives(until closing: Character?) throws(Failure) -> RhasspySentences.Expression {
        var options: [RhasspySentences.Expression] = []
        var parts: [RhasspySentences.Expression] = []
        // Home Assistant's permutation, "(the volume;(up|down))": its items said in any order.
        var permuted: [RhasspySentences.Expression] = []
        func option() throws(Failure) -> RhasspySentences.Expression {
            guard !permuted.isEmpty else { return Self.sequence(parts) }
            return try Self.inAnyOrder(permuted + [Self.sequence(parts)])
        }
        while true {
            skipSpaces()
            guard let character = peek else {
                if let closing { throw Failure(reason: "missing \"\(closing)\"") }
                break
            }
            if character == closing { break }
            if character == "|" {
                position += 1
                options.append(try option())
                parts = []
                permuted = []
                continue
            }
            if character == ";" && listsInBraces && closing == ")" {
                position += 1
                permuted.append(Self.sequence(parts))
                parts = []
                continue
            }
            if character == ")" || character == "]" { throw Failure(reason: "unmatched \"\(character)\"") }
            // "day[ ]light": a space that may be there or not, between two words: both ways.
            if character == "[", position > 0, !characters[position - 1].isWhitespace, let last = parts.last,
               let close = characters[position...].firstIndex(of: "]"), close > position + 1,
               characters[(position + 1)..<close].allSatisfy(\.isWhitespace),
               close + 1 < characters.count, !characters[close + 1].isWhitespace {
                position = close + 1
                let next = try part()
                if let glued = Self.glue(last, next) {
                    parts[parts.count - 1] = .alternatives([glued, Self.sequence([last, next])])
                } else {
                    parts.append(next)
                }
                continue
            }
            // A part written against the one before, with no space ("fan[s]", "batter(y|ies)"),
            // is part of the same word.
            var touching = position > 0 && !characters[position - 1].isWhitespace && !"(|[".contains(characters[position - 1])
            // A space just inside a bracket still parts the words: "[of ](the|my)" is "of the".
            if touching, ")]".contains(characters[position - 1]), position > 1, characters[position - 2].isWhitespace { touching = false }
            if touching, "([".contains(characters[position]), position + 1 < characters.count, characters[position + 1].isWhitespace {
                touching = false
            }
            // A list, rule or range against a word ("{minutes}( |-)minute") stays apart from it.
            let next = try part()
            if touching, let last = parts.last, let glued = Self.glue(last, next) {
                parts[parts.count - 1] = glued
            } else {
                parts.append(next)
            }
        }
        options.append(try option())
        return options.count == 1 ? options[0] : .alternatives(options)
    }

    /// Most items a permutation may hold: their orders grow as the factorial.
    static let mostPermutedItems = 4

    /// `items` said in every order, each a separate word or more (never glued to its neighbour).
    static func inAnyOrder(_ items: [RhasspySentences.Expression]) throws(Failure) -> RhasspySentences.Expression {
        guard items.count <= mostPermutedItems else {
            throw Failure(reason: "a permutation of \(items.count) items (at most \(mostPermutedItems))")
        }
        func orders(_ rest: [RhasspySentences.Expression]) -> [[RhasspySentences.Expression]] {
            guard rest.count > 1 else { return [rest] }
            return rest.indices.flatMap { index in
                var others = rest
                let first = others.remove(at: index)
                return orders(others).map { [first] + $0 }
            }
        }
        return .alternatives(orders(items).map { sequence($0) })
    }

    /// Most ways one word with optional or alternative parts inside it may be said.
    static let mostWaysInAWord = 64

    /// `left` and `right` said as one word where they meet: every way of saying them, the last
    /// word of one joined to the first of the other. Nil when either holds more than words.
    static func glue(_ left: RhasspySentences.Expression, _ right: RhasspySentences.Expression) -> RhasspySentences.Expression? {
        guard let before = ways(left), let after = ways(right) else { return nil }
        var joined: [[String]] = []
        for head in before {
            for tail in after {
                // Punctuation between words ("5-minute") is no part of either word.
                let way: [String] = if let end = head.last, let start = tail.first, Self.isSaid(end), Self.isSaid(start) {
                    Array(head.dropLast()) + [end + start] + Array(tail.dropFirst())
                } else {
                    head + tail
                }
                if !joined.contains(way) { joined.append(way) }
            }
        }
        guard joined.count <= mostWaysInAWord else { return nil }
        let said = joined.filter { !$0.isEmpty }.map { sequence($0.map { .word($0, substitute: nil) }) }
        guard !said.isEmpty else { return .sequence([]) }
        let either: RhasspySentences.Expression = said.count == 1 ? said[0] : .alternatives(said)
        return said.count < joined.count ? .optional(either) : either
    }

    private static func isSaid(_ word: String) -> Bool {
        word.contains { $0.isLetter || $0.isNumber }
    }

    /// Every way a part made of words alone can be said, a list of words each; nil when it holds
    /// anything else (a substitution, tag, rule, list or range).
    private static func ways(_ expression: RhasspySentences.Expression) -> [[String]]? {
        switch expression {
        case .word(let word, nil):
            return [[word]]
        case .sequence(let parts):
            var result: [[String]] = [[]]
            for part in parts {
                guard let next = ways(part) else { return nil }
                result = result.flatMap { head in next.map { head + $0 } }
                guard result.count <= mostWaysInAWord else { return nil }
            }
            return result
        case .alternatives(let options):
            var result: [[String]] = []
            for option in options {
                guard let next = ways(option) else { return nil }
                result += next
            }
            return result
        case .optional(let inner):
            return ways(inner).map { [[]] + $0 }
        default:
            return nil
        }
    }

    private static func sequence(_ parts: [RhasspySentences.Expression]) -> RhasspySentences.Expression {
        parts.count == 1 ? parts[0] : .sequence(parts)
    }

    /// One word, group, optional, reference or list, with what follows it (`:sub`, `{tag}`, `!converter`).
    private mutating func part() throws(Failure) -> RhasspySentences.Expression {
        var expression: RhasspySentences.Expression
        switch peek {
        case "(":
            position += 1
            let start = position
            if let range = numberRange() {
                expression = range
            } else {
                position = start
                expression = try alternatives(until: ")")
                position += 1
            }
            if peek == ":" {
                position += 1
                expression = .substituted(expression, substitute: token())
            }
        case "[":
            position += 1
            expression = .optional(try alternatives(until: "]"))
            position += 1
        case "<":
            position += 1
            let name = token(stoppingAt: ">")
            guard peek == ">" else { throw Failure(reason: "missing \">\" after <\(name)") }
            position += 1
            expression = .rule(name)
        case "$":
            position += 1
            let name = token()
            guard !name.isEmpty else { throw Failure(reason: "a $ without a slot name") }
            expression = .slotList(name)
        case "{" where listsInBraces:
            position += 1
            let inside = token(stoppingAt: "}")
            guard peek == "}" else { throw Failure(reason: "missing \"}\" after {\(inside)") }
            position += 1
            let parts = inside.split(separator: ":", maxSplits: 1).map(String.init)
            guard let list = parts.first, !list.isEmpty else { throw Failure(reason: "a {} without a list name") }
            return .tagged(.slotList(list), name: parts.count == 2 ? parts[1] : list, value: nil)
        default:
            let text = token()
            guard !text.isEmpty else { throw Failure(reason: "unexpected \"\(peek.map(String.init) ?? "end")\"") }
            if let colon = text.firstIndex(of: ":") {
                expression = .word(String(text[..<colon]), substitute: String(text[text.index(after: colon)...]))
            } else {
                expression = .word(text, substitute: nil)
            }
        }
        skipConverters()
        // A tag may stand apart from what it tags: "(on | off) {state}". (Home Assistant's braces
        // are lists of their own, read above.)
        if listsInBraces { return expression }
        skipSpaces()
        while peek == "{" {
            position += 1
            let inside = token(stoppingAt: "}")
            guard peek == "}" else { throw Failure(reason: "missing \"}\" after {\(inside)") }
            position += 1
            var name = Substring(inside), value: String?
            if let bang = name.firstIndex(of: "!") {
                warnings.append("converter \"\(name[bang...])\" on {\(name[..<bang])} is not carried over: values are kept as words")
                name = name[..<bang]
            }
            if let colon = name.firstIndex(of: ":") {
                value = String(name[name.index(after: colon)...])
                name = name[..<colon]
            }
            expression = .tagged(expression, name: String(name), value: value)
            skipConverters()
            skipSpaces()
        }
        return expression
    }

    /// `!int` and the like after a part: noted and skipped.
    private mutating func skipConverters() {
        while peek == "!" {
            position += 1
            let converter = token()
            warnings.append("converter \"!\(converter)\" is not carried over: values are kept as words")
        }
    }

    /// `1..10` or `1..100,5` followed by `)`, the opening parenthesis already read.
    private mutating func numberRange() -> RhasspySentences.Expression? {
        var text = ""
        while let character = peek, character != ")" {
            text.append(character)
            position += 1
        }
        guard peek == ")" else { return nil }
        let pieces = text.replacingOccurrences(of: " ", with: "").split(separator: ",")
        let bounds = pieces.first?.components(separatedBy: "..") ?? []
        guard bounds.count == 2, let low = Int(bounds[0]), let high = Int(bounds[1]), low <= high else { return nil }
        let step = pieces.count > 1 ? Int(pieces[1]) : 1
        guard let step, step > 0, pieces.count <= 2 else { return nil }
        position += 1
        return .numberRange(low, high, step: step)
    }

    /// Characters up to a space or a character of the language's own.
    private mutating func token(stoppingAt stop: Character? = nil) -> String {
        var text = ""
        while let character = peek, !character.isWhitespace,
              !"()[]|{}<>!$".contains(character) && !(character == ";" && listsInBraces) || character == stop {
            if character == stop { break }
            text.append(character)
            position += 1
        }
        if let stop {
            // A name inside <…> or {…} may hold characters the language uses elsewhere.
            while let character = peek, character != stop, !character.isWhitespace {
                text.append(character)
                position += 1
            }
        }
        return text
    }
}
