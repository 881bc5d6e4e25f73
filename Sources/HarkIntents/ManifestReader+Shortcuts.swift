import Foundation
import HarkGrammar
import Yams

/// The app's shortcuts, suggested shortcuts and vocabulary.
extension ManifestReader {
    mutating func appShortcuts(_ node: Node?, intents: [IntentDefinition], names: [String]) -> [AppShortcut] {
        guard let node else { return [] }
        guard let list = node.sequence else {
            problem(at: node, "shortcuts: is a list of {phrase:, intent:}")
            return []
        }
        if list.count > Self.maximumShortcuts {
            problem(at: node, "\(list.count) App Shortcuts; an app may offer at most \(Self.maximumShortcuts)")
        }
        var shortcuts: [AppShortcut] = []
        for item in list {
            guard let entry = mapping(item, what: "a shortcut") else { continue }
            checkKeys(entry, allowed: ["phrase", "intent", "set"])
            guard let intentName = requiredString(entry, "intent", at: item),
                  let phraseNode = entry["phrase"] else {
                if entry["phrase"] == nil { problem(at: item, "missing \"phrase:\"") }
                continue
            }
            guard let intent = intents.first(where: { $0.name == intentName }) else {
                problem(at: entry["intent"] ?? item, "shortcut names intent \(intentName), which the app does not declare")
                continue
            }
            guard let template = phrase(phraseNode, parameters: intent.parameters, owner: intentName) else { continue }
            if template.parameterNames.count > 1 {
                problem(at: phraseNode, "an App Shortcut phrase takes at most one parameter; this one has " +
                        template.parameterNames.map { "<\($0)>" }.joined(separator: ", "))
            }
            let expansions = PhraseExpansion.sentences(of: template, limit: 500)
            let nameWords = names.map(Grammar.words(of:))
            if let expansions, !expansions.allSatisfy({ sentence in nameWords.contains { sentence.containsRun($0) } }) {
                problem(at: phraseNode, "an App Shortcut phrase must say the app's name (\(names.joined(separator: " or "))) every way it can be said")
            }
            if let shortest = expansions?.map({ Self.invocationLength($0, names: nameWords) }).min(),
               shortest > Self.longInvocationWords {
                warn(at: phraseNode, "the shortcut phrase \"\(template)\" is long (\(shortest) words besides the app name); " +
                     "people remember two or three")
            }
            shortcuts.append(AppShortcut(phrase: template, intent: intentName, presets: presets(entry["set"], of: intent)))
        }
        return shortcuts
    }

    /// `set: {parameter: value}` of a shortcut, each parameter checked against the intent.
    mutating func presets(_ node: Node?, of intent: IntentDefinition) -> [String: String] {
        var presets: [String: String] = [:]
        guard let node, let set = mapping(node, what: "set") else { return presets }
        for (key, value) in set {
            guard let parameterName = key.string, let preset = value.string else { continue }
            if intent.parameter(named: parameterName) == nil {
                problem(at: key, "set: names \(parameterName), which is not a parameter of \(intent.name)")
            }
            presets[parameterName] = preset
        }
        return presets
    }

    /// `suggestions:` — shortcuts offered before the person has run them, and
    /// relevant ones with `when: {from: "07:00", to: "09:30", days: weekdays}`.
    mutating func suggestedShortcuts(_ node: Node?, intents: [IntentDefinition]) -> [SuggestedShortcut] {
        guard let node else { return [] }
        guard let list = node.sequence else {
            problem(at: node, "suggestions: is a list of {intent:, set:, when:}")
            return []
        }
        var suggestions: [SuggestedShortcut] = []
        for item in list {
            guard let entry = mapping(item, what: "a suggestion") else { continue }
            checkKeys(entry, allowed: ["intent", "set", "when"])
            guard let intentName = requiredString(entry, "intent", at: item) else { continue }
            guard let intent = intents.first(where: { $0.name == intentName }) else {
                problem(at: entry["intent"] ?? item, "suggestion names intent \(intentName), which the app does not declare")
                continue
            }
            var suggestion = SuggestedShortcut(intent: intentName, presets: presets(entry["set"], of: intent))
            if let whenNode = entry["when"], let when = mapping(whenNode, what: "when") {
                checkKeys(when, allowed: ["from", "to", "days"])
                let from = when["from"]?.string.flatMap(TimeOfDay.init)
                let to = when["to"]?.string.flatMap(TimeOfDay.init)
                if from == nil || to == nil {
                    problem(at: whenNode, "when: needs from: and to: as \"HH:MM\" (quoted), e.g. from: \"07:00\"")
                }
                var days = Weekdays.everyDay
                if let daysNode = when["days"] {
                    switch Weekdays.parse(daysNode.string ?? (daysNode.sequence ?? []).compactMap(\.string).joined(separator: ",")) {
                    case .success(let parsed): days = parsed
                    case .failure(let error): problem(at: daysNode, error.description)
                    }
                }
                if let from, let to { suggestion.window = RelevanceWindow(from: from, to: to, days: days) }
            }
            suggestions.append(suggestion)
        }
        return suggestions
    }

    static let maximumShortcuts = 10
    static let connectives: Set<String> = ["in", "with", "on", "using", "from", "at", "for"]

    /// Words of a shortcut sentence besides the app's name and the word joining it ("in", "from").
    static func invocationLength(_ sentence: [String], names: [[String]]) -> Int {
        for name in names.sorted(by: { $0.count > $1.count }) where sentence.containsRun(name) {
            guard let start = (0...(sentence.count - name.count)).first(where: { Array(sentence[$0..<($0 + name.count)]) == name })
            else { continue }
            let joined = start > 0 && connectives.contains(sentence[start - 1])
            return sentence.count - name.count - (joined ? 1 : 0)
        }
        return sentence.count
    }
    static let longInvocationWords = AppShortcut.longPhraseWords

    mutating func vocabularyTerms(_ node: Node?) -> [VocabularyTerm] {
        guard let node else { return [] }
        var terms: [VocabularyTerm] = []
        for item in node.sequence ?? [] {
            if let word = item.string {
                terms.append(VocabularyTerm(word: word.lowercased()))
            } else if let entry = item.mapping {
                checkKeys(entry, allowed: ["word", "pronunciation"])
                guard let word = requiredString(entry, "word", at: item) else { continue }
                let phones = entry["pronunciation"]?.string
                if let phones, phones.split(separator: " ").contains(where: { !$0.allSatisfy { $0.isUppercase } }) {
                    problem(at: entry["pronunciation"] ?? item, "pronunciation: is the model's phones in capitals, e.g. \"HH AA R K\"")
                }
                terms.append(VocabularyTerm(word: word.lowercased(), pronunciation: phones))
            } else {
                problem(at: item, "a vocabulary entry is a word, or {word:, pronunciation:}")
            }
        }
        if node.sequence == nil { problem(at: node, "vocabulary: is a list of words") }
        return terms
    }
}
