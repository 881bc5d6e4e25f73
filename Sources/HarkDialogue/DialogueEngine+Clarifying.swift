import Foundation
import HarkGrammar
import HarkIntents
import HarkShortcuts

/// Making sure of what was meant: which app, when two could take the request, and "Did you
/// say …?" about a phrase heard only just well enough.
extension DialogueEngine {
    // MARK: Which app?

    /// The request as each app that shares its words would take it; `first` (the top-level
    /// grammar's reading) first. One entry unless apps share the phrase and its values.
    func appsMeant(by words: [String], first: IntentMatch) -> [IntentMatch] {
        guard sharedAppGraphs.contains(where: { $0.app == first.app.identifier }) else { return [first] }
        let others = sharedAppGraphs.filter { $0.app != first.app.identifier }
            .compactMap { $0.graph.interpret(words).flatMap { catalog.match($0, reader: reader) } }
        return [first] + others
    }

    /// "Which app, Home or Garage?": the same words mean something in each.
    mutating func askWhichApp(_ candidates: [IntentMatch]) -> DialogueReply {
        state = .choosingApp(candidates, attempts: 0)
        expectWhatTheStateAwaits()
        return DialogueReply(speech: "Which app, " + Self.list(candidates.map(\.app.name), or: true, startsSentence: false) + "?",
                             expectsAnswer: true)
    }

    /// The apps' names (any of them), and "the first one".
    func appChoiceGrammar(_ candidates: [IntentMatch]) -> Grammar {
        let names = candidates.flatMap { match in
            match.app.names.map { Grammar.SpokenValue(words: Grammar.words(of: $0), identifier: match.app.identifier) }
        }
        var grammar = TurnGrammar.answer(values: names)
        grammar.rules += TurnGrammar.ordinalRules(count: candidates.count) + TurnGrammar.commands()
        return grammar
    }

    /// The answer to "Which app …?": the request goes on in the app named.
    mutating func chooseApp(from candidates: [IntentMatch], interpretation: Interpretation?) async -> DialogueReply {
        var chosen: IntentMatch?
        if let tag = interpretation?.tag, tag.hasPrefix(TurnGrammar.Tag.ordinalPrefix),
           let index = Int(tag.dropFirst(TurnGrammar.Tag.ordinalPrefix.count)), candidates.indices.contains(index) {
            chosen = candidates[index]
        } else if interpretation?.tag == TurnGrammar.Tag.value, let named = interpretation?.values[TurnGrammar.valueParameter] {
            chosen = candidates.first { $0.app.identifier == named.identifier }
        }
        guard let chosen else { return notAccepted(silence: false) }
        state = .idle
        return await start(chosen)
    }

    // MARK: Checking what was heard

    static let apology = "Sorry. What would you like?"

    static func checkQuestion(_ heard: [String]) -> String { "Did you say \(heard.joined(separator: " "))?" }

    /// The question after a "no", about the other of two meanings.
    static func otherMeaningQuestion(_ heard: [String]) -> String { "Then did you say \(heard.joined(separator: " "))?" }

    /// "Did you say …?" about words heard with too little confidence. The turn hears yes or
    /// no, or what it heard before (the person may simply say it again). `otherwise` is asked
    /// about after a "no"; `afterNo`: this is that question.
    mutating func check(_ heard: [String], otherwise: [String]? = nil, afterNo: Bool = false) -> DialogueReply {
        // "Did you say one two three four?" would say the PIN aloud.
        guard !heard.isEmpty, !isAskingForPIN else { return notAccepted(silence: false) }
        // A second unsure hearing while checking the first asks about the new words.
        if case .checking(_, let before, _) = state { state = before }
        var grammar = expectation.grammar
        grammar.rules = TurnGrammar.yesNo() + grammar.rules.filter { ![TurnGrammar.Tag.yes, TurnGrammar.Tag.no].contains($0.tag) }
        let wasFreeText = expectation.wantsFreeText
        state = .checking(heard, before: state, otherwise: otherwise.flatMap { $0.isEmpty || $0 == heard ? nil : $0 })
        expect(grammar, freeText: wasFreeText)
        return DialogueReply(speech: afterNo ? Self.otherMeaningQuestion(heard) : Self.checkQuestion(heard), expectsAnswer: true)
    }

    /// "No" to "Did you say …?": a new request is listened for, or the question asked again.
    mutating func apologise() -> DialogueReply {
        guard case .asking(let question, let pending, _) = state else {
            return DialogueReply(speech: Self.apology, expectsAnswer: true)
        }
        return reask(question, pending: pending, preface: "Sorry.")
    }

    /// Back to what was going on before "Did you say …?", after silence or something rejected.
    mutating func resume(_ before: State, notAccepted silence: Bool) -> DialogueReply {
        state = before
        expectWhatTheStateAwaits()
        return notAccepted(silence: silence)
    }

    /// Listens with the grammar of the state the conversation is in.
    mutating func expectWhatTheStateAwaits() {
        switch state {
        case .idle, .checking: expectTopLevel()
        case .choosingApp(let candidates, _): expect(appChoiceGrammar(candidates), freeText: false)
        case .asking(let question, let pending, _):
            expect(grammar(for: question.kind, pending: pending), freeText: isFreeText(question.kind, pending))
        }
    }
}
