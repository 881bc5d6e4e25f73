import HarkGrammar
import HarkIntents

/// "What can I say?": a few example requests from the installed apps.
enum HelpText {
    static let examplesSpoken = 3

    static func examples(_ catalog: AppCatalog, reader: ValueReader) -> String {
        // One example per app in turn, so every app gets a mention before any gets two.
        var perApp: [[String]] = catalog.apps.map { app in
            app.intents.compactMap { intent in intent.phrases.lazy.compactMap { example(of: $0, intent, app, catalog) }.first }
        }
        var chosen: [String] = []
        while chosen.count < examplesSpoken, perApp.contains(where: { !$0.isEmpty }) {
            for index in perApp.indices where !perApp[index].isEmpty && chosen.count < examplesSpoken {
                chosen.append(perApp[index].removeFirst())
            }
        }
        guard !chosen.isEmpty else { return "No apps are installed yet." }
        let quoted = chosen.map { "\"\($0)\"" }
        return "You can say things like \(DialogueEngine.list(quoted, or: true))."
    }

    /// The shortest way of saying a phrase, with a real value in place of each parameter.
    static func example(of phrase: PhraseTemplate, _ intent: IntentDefinition, _ app: AppManifest, _ catalog: AppCatalog) -> String? {
        guard let sentences = PhraseExpansion.sentences(of: phrase, limit: 500) else { return nil }
        let ranked = sentences.sorted { lhs, rhs in
            let lhsParameters = lhs.filter { $0.hasPrefix("<") }.count
            let rhsParameters = rhs.filter { $0.hasPrefix("<") }.count
            return (lhsParameters, lhs.count) < (rhsParameters, rhs.count)
        }
        for sentence in ranked {
            var words: [String] = []
            for word in sentence {
                guard word.hasPrefix("<") else {
                    words.append(word)
                    continue
                }
                let name = String(word.dropFirst().dropLast())
                guard let parameter = intent.parameter(named: name),
                      let value = catalog.enumeratedValues(of: parameter, in: app).first else { break }
                words.append(value.spoken)
            }
            if words.count == sentence.count { return words.joined(separator: " ") }
        }
        return nil
    }
}
