import Foundation
public import HarkGrammar
import HarkIntents

/// One action of a shortcut: an app's intent with values set in advance.
public struct ShortcutStep: Sendable, Equatable, Codable {
    public var app: String
    public var intent: String
    /// Parameter → value, as a person writes it: an enumerated value's id or
    /// spoken form, a number, text. A value may use the outputs of the step
    /// before, `${result.minutes}`, so one action feeds the next.
    public var values: [String: String]

    public init(app: String, intent: String, values: [String: String] = [:]) {
        self.app = app
        self.intent = intent
        self.values = values
    }

    /// "soup.OrderSoup".
    public var key: String { "\(app).\(intent)" }

    /// Reads "APP.INTENT".
    public static func target(_ text: String) -> (app: String, intent: String)? {
        let parts = text.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        return (parts[0], parts[1])
    }

    /// Outputs of earlier steps this step's values use: the NAMEs of `${result.NAME}`.
    public var inputs: [String] {
        values.values.flatMap { source in
            ((try? ResponseTemplate(source))?.placeholders ?? []).filter { $0.hasPrefix("result.") }
                .map { String($0.dropFirst("result.".count)) }
        }.sorted()
    }
}

/// A phrase a person chose that runs one action or several (the guidance's
/// "Add to Siri" and multistep shortcuts). The phrase is recognised exactly,
/// word for word, with no language understanding.
public struct PersonalShortcut: Sendable, Equatable, Identifiable {
    public var id: Int64
    /// Lower-case words separated by single spaces.
    public var phrase: String
    public var steps: [ShortcutStep]

    public init(id: Int64, phrase: String, steps: [ShortcutStep]) {
        self.id = id
        self.phrase = Self.normalised(phrase)
        self.steps = steps
    }

    public var words: [String] { Grammar.words(of: phrase) }
    public var isMultistep: Bool { steps.count > 1 }

    /// How a phrase is kept: the words a person would say, lower-case, punctuation dropped.
    public static func normalised(_ phrase: String) -> String {
        Grammar.words(ofTyped: phrase).joined(separator: " ")
    }

    /// The tag of a personal shortcut's rule in the top-level grammar.
    public static let tagPrefix = "personal."
    public var tag: String { Self.tagPrefix + "\(id)" }

    public static func id(fromTag tag: String) -> Int64? {
        guard tag.hasPrefix(tagPrefix) else { return nil }
        return Int64(tag.dropFirst(tagPrefix.count))
    }

    /// The rule that hears the phrase, or nil when it cannot be a template (it is checked before it is stored).
    public var rule: Grammar.Rule? {
        guard let template = try? PhraseTemplate(words.joined(separator: " ")) else { return nil }
        return Grammar.Rule(tag: tag, template: template)
    }
}
