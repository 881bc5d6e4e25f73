public import Foundation
public import HarkGrammar

/// Phrases that say free text ("add <item> to my shopping list", "play <query> in the <area>"):
/// no grammar can hold any words, so they are matched on words typed or heard by dictation.
extension AppCatalog {
    /// A phrase that says free text: the grammar cannot hold it, so it is matched on words
    /// dictation heard, its other words exactly.
    public struct FreeTextPhrase: Sendable {
        public var app: AppManifest
        public var intent: IntentDefinition
        public var parameter: ParameterDefinition
        /// Every way of saying it, `<name>` standing for each parameter's words.
        public var sentences: [[String]]
    }

    /// Every app's phrases that say free text.
    public var freeTextPhrases: [FreeTextPhrase] {
        apps.flatMap { app in
            app.intents.flatMap { intent in
                intent.phrases.compactMap { phrase -> FreeTextPhrase? in
                    guard let parameter = Self.freeTextParameter(of: phrase, in: intent),
                          let sentences = PhraseExpansion.sentences(of: phrase) else { return nil }
                    return FreeTextPhrase(app: app, intent: intent, parameter: parameter, sentences: sentences)
                }
            }
        }
    }

    /// Whether any phrase says free text: asked for each request no grammar phrase fits, so it is
    /// answered from the graph made once (`freeTextPhrases` expands every phrase again).
    public var saysFreeText: Bool {
        freeText.graph(making: { freeTextGrammar() }) != nil
    }

    /// The request `words` make as a phrase that says free text: the phrase's other words said
    /// exactly, its other parameters said as the grammar says them ("in the kitchen", "for five
    /// minutes"), and one to `maxWords` words where the text goes, which are the text.
    ///
    /// Where several ways fit, the one leaving the fewest words to the text wins ("play jazz in
    /// the kitchen" is jazz in the kitchen, not "jazz in the kitchen" anywhere), then the phrase
    /// first in the apps' order. nil when none fits.
    ///
    /// `written`: the text as it was written, for the words at those positions of `words`, when
    /// `words` were spelled out from typed text (a typed "5" is "five" to the grammar, and stays
    /// "5" in a message); nil keeps the words.
    public func freeTextMatch(_ words: [String], reader: ValueReader = ValueReader(),
                              written: (Range<Int>) -> String? = { _ in nil }) -> IntentMatch? {
        guard !words.isEmpty, let graph = freeText.graph(making: { freeTextGrammar() }) else { return nil }
        let longest = min(words.count, ParameterDefinition.maxWordsRange.upperBound)
        for length in 1...longest {
            var best: (match: IntentMatch, rule: Int)?
            for start in 0...(words.count - length) {
                let text = words[start..<(start + length)]
                let request = Array(words[..<start]) + [Self.freeTextWord] + Array(words[(start + length)...])
                guard let interpretation = graph.interpret(request), best.map({ interpretation.ruleIndex < $0.rule }) ?? true,
                      let said = interpretation.values.first(where: { $0.value.spoken == [Self.freeTextWord] })?.key,
                      var match = match(interpretation, reader: reader),
                      let parameter = match.intent.parameter(named: said),
                      length <= parameter.maxWords ?? ParameterDefinition.defaultMaxWords else { continue }
                let joined = written(start..<(start + length)) ?? text.joined(separator: " ")
                match.values[said] = IntentMatch.Value(value: ParameterValue(identifier: joined, spoken: joined), heard: joined)
                best = (match, interpretation.ruleIndex)
            }
            if let best { return best.match }
        }
        return nil
    }

    /// The word standing for the free text in `freeTextGrammar`: no one types or says it.
    static let freeTextWord = "\u{1}text"

    /// Every phrase that says free text, as a grammar in which the text is one word,
    /// `freeTextWord`; tagged as the top level's phrases are, so `match` reads them the same way.
    func freeTextGrammar() -> Grammar {
        var grammar = Grammar()
        // The values key of every text parameter: its one value is the placeholder word.
        let textKey = Self.freeTextWord
        for app in apps {
            for intent in app.intents {
                var parameterValues = addValues(of: intent, app: app, to: &grammar)
                for parameter in intent.parameters where parameter.type == .text {
                    parameterValues[parameter.name] = textKey
                }
                for (index, phrase) in intent.phrases.enumerated() where Self.freeTextParameter(of: phrase, in: intent) != nil {
                    grammar.rules.append(rule(saying: index, of: intent, in: app, parameterValues: parameterValues, grammar: &grammar))
                }
            }
        }
        guard !grammar.rules.isEmpty else { return grammar }
        grammar.values[textKey] = [Grammar.SpokenValue(words: [Self.freeTextWord], identifier: "")]
        return grammar
    }

    /// Ways `words` nearly make a phrase that says free text and no other parameter, in the
    /// phrases' order: all its other words there, in order, but one (dictation's "and" for the
    /// phrase's "add"). Each is the request as the phrase says it, with the phrase's word and the
    /// word heard in its place; whether those sound alike is the caller's to judge (it takes the
    /// pronunciations).
    public func freeTextNearMatches(_ words: [String]) -> [(request: [String], said: String, heard: String)] {
        freeTextSentences(around: words.count).compactMap { _, before, after in
            let heard = Array(words.prefix(before.count)) + Array(words.suffix(after.count))
            let differing = zip(before + after, heard).filter { $0.0 != $0.1 }
            guard differing.count == 1, let (said, misheard) = differing.first, !said.hasPrefix("<") else { return nil }
            return (before + words[before.count..<(words.count - after.count)] + after, said, misheard)
        }
    }

    /// Every way of saying a free-text phrase that leaves one to `maxWords` of `count` words for
    /// the text: the phrase, and its words before and after the text.
    private func freeTextSentences(around count: Int) -> [(FreeTextPhrase, before: [String], after: [String])] {
        freeTextPhrases.flatMap { phrase in
            phrase.sentences.compactMap { sentence -> (FreeTextPhrase, before: [String], after: [String])? in
                guard let slot = sentence.firstIndex(of: "<\(phrase.parameter.name)>") else { return nil }
                let before = Array(sentence[..<slot]), after = Array(sentence[(slot + 1)...])
                let longest = phrase.parameter.maxWords ?? ParameterDefinition.defaultMaxWords
                return (1...longest).contains(count - before.count - after.count) ? (phrase, before, after) : nil
            }
        }
    }

    /// The free-text parameter `phrase` says, if it says one.
    static func freeTextParameter(of phrase: PhraseTemplate, in intent: IntentDefinition) -> ParameterDefinition? {
        phrase.parameterNames.lazy.compactMap { intent.parameter(named: $0) }.first { $0.type == .text }
    }

    /// The word graph of `freeTextGrammar`, made once for these apps (nil when no phrase says
    /// free text); a home imported from Home Assistant has about a hundred such phrases, each
    /// listening for its entities' names.
    final class FreeTextGraph: @unchecked Sendable {
        private let lock = NSLock()
        private var made: WordGraph??

        func graph(making make: () -> Grammar) -> WordGraph? {
            lock.lock()
            defer { lock.unlock() }
            if let made { return made }
            let grammar = make()
            let graph = grammar.rules.isEmpty ? nil : WordGraph(grammar)
            made = .some(graph)
            return graph
        }
    }
}
