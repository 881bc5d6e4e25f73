public import HarkIntents
import HarkGrammar

/// A sentence to be spoken for a development corpus, labelled in the rhasspy-test
/// sidecar layout that `hark bench` reads: the intent it must be understood as and
/// the value of each parameter it names (identifiers, as `hark bench` reports them).
public struct LabelledSentence: Sendable, Codable, Equatable {
    public struct Intent: Sendable, Codable, Equatable { public var name: String }
    public var text: String
    public var intent: Intent
    public var slots: [String: String]
    public var app: String
}

/// Labelled sentences drawn from the installed apps' top-level grammar: a few of each
/// phrase and App Shortcut, with values drawn from each parameter's list.
public enum CorpusSentences {
    public struct Draw: Sendable {
        public var sentences: [LabelledSentence] = []
        /// Sentences left out, each with the reason: one that is ambiguous ("Amy" for two
        /// contacts) or names a value the app would refuse has no single right answer.
        public var leftOut: [String] = []
    }

    public static func draw(from catalog: AppCatalog, perPhrase: Int, seed: UInt64) -> Draw {
        let grammar = catalog.topLevelGrammar()
        let sampler = SentenceSampler(grammar)
        let graph = WordGraph(grammar)
        var generator = SeededGenerator(seed: seed)
        var draw = Draw()
        for ruleIndex in grammar.rules.indices {
            for (words, meant) in sampler.sentences(ofRule: ruleIndex, count: perPhrase, using: &generator) {
                let text = words.joined(separator: " ")
                // What the recogniser's parse of these words means is what a person saying them gets.
                guard let parsed = graph.interpret(words), let match = catalog.match(parsed),
                      let meantMatch = catalog.match(meant), meantMatch.intent.name == match.intent.name,
                      meantMatch.app.identifier == match.app.identifier else {
                    draw.leftOut.append("\(text): the grammar reads it as another intent")
                    continue
                }
                if !match.ambiguous.isEmpty {
                    draw.leftOut.append("\(text): \(match.ambiguous.keys.sorted().joined(separator: ", ")) fits several values")
                    continue
                }
                let unread = parsed.values.keys.filter { match.values[$0] == nil }
                if !unread.isEmpty {
                    draw.leftOut.append("\(text): the app would refuse \(unread.sorted().joined(separator: ", "))")
                    continue
                }
                draw.sentences.append(LabelledSentence(
                    text: text, intent: .init(name: match.intent.name),
                    slots: match.values.mapValues(\.identifier), app: match.app.identifier))
            }
        }
        return draw
    }
}
