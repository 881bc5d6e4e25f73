import Foundation

/// What one turn of a conversation accepts: a set of rules (each a phrase
/// template with a tag saying what it means) and the spoken values each
/// parameter may take. The recogniser compiles it; the same value parses the
/// words it hears back into a meaning.
public struct Grammar: Sendable, Equatable {
    public struct Rule: Sendable, Equatable {
        /// What a match means to whoever built the grammar, e.g. "home.ChangeLightState".
        public var tag: String
        public var template: PhraseTemplate
        /// Parameter name in the template → key into `Grammar.values`.
        public var parameterValues: [String: String]
        /// How much surer than for any other phrase the recogniser must be to take this one: its
        /// confidence margin is judged this much lower. 0 for an app's phrases; more for phrases
        /// that easily catch speech meant as nothing at all (see `TurnGrammar.ownCommandStrictness`).
        public var strictness: Double

        public init(tag: String, template: PhraseTemplate, parameterValues: [String: String] = [:], strictness: Double = 0) {
            self.tag = tag
            self.template = template
            self.parameterValues = parameterValues
            self.strictness = strictness
        }
    }

    /// One way of saying one value: "bedroom lamp" → identifier "bedroom_light".
    ///
    /// A value may instead be a `pattern` (a template of words, choices and
    /// optional words, with no parameters) that stands for many values at once,
    /// such as every time of day; its identifier is then empty and whoever built
    /// the grammar reads the value from the words heard.
    public struct SpokenValue: Sendable, Equatable, Hashable {
        public var words: [String]
        public var identifier: String
        public var pattern: PhraseTemplate?

        public init(words: [String], identifier: String) {
            self.words = words
            self.identifier = identifier
            self.pattern = nil
        }

        /// Values read from the words: many sayings, one grammar branch.
        public init(pattern: PhraseTemplate) {
            self.words = []
            self.identifier = ""
            self.pattern = pattern
        }

        /// Splits `spoken` on spaces and lower-cases it, as templates do.
        public init(spoken: String, identifier: String) {
            self.init(words: Grammar.words(of: spoken), identifier: identifier)
        }
    }

    public var rules: [Rule]
    public var values: [String: [SpokenValue]]

    public init(rules: [Rule] = [], values: [String: [SpokenValue]] = [:]) {
        self.rules = rules
        self.values = values
    }

    /// Every word the grammar can produce: the recogniser's dictionary must know them all.
    public var vocabulary: Set<String> {
        var words = Set<String>()
        for rule in rules { words.formUnion(rule.template.words) }
        for spokenValues in values.values {
            for value in spokenValues {
                words.formUnion(value.words)
                if let pattern = value.pattern { words.formUnion(pattern.words) }
            }
        }
        return words
    }

    /// Lower-cased words of a spoken string, split on white space.
    public static func words(of text: String) -> [String] {
        text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
    }

    /// Lower-cased words of typed text, without the punctuation people type
    /// ("Good morning!" is "good morning"); "a.m." and "p.m." keep their dots.
    public static func words(ofTyped text: String) -> [String] {
        words(of: text).compactMap { word in
            var trimmed = word.trimmingCharacters(in: CharacterSet(charactersIn: ",!?;:\"“”"))
            if trimmed.hasSuffix("."), !["a.m.", "p.m."].contains(trimmed) { trimmed.removeLast() }
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// Problems that make the grammar unusable, each a sentence naming the rule.
    public func problems() -> [String] {
        var problems: [String] = []
        for rule in rules {
            for name in rule.template.parameterNames {
                guard let key = rule.parameterValues[name] else {
                    problems.append("\(rule.tag): phrase \"\(rule.template)\" names <\(name)>, which has no values")
                    continue
                }
                if values[key, default: []].isEmpty {
                    problems.append("\(rule.tag): <\(name)> has an empty list of values")
                }
            }
        }
        return problems
    }
}
