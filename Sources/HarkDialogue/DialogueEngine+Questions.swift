import Foundation
import HarkGrammar
import HarkIntents
import HarkShortcuts

/// The answers a question takes, and the questions themselves: values, choices, defaults,
/// confirmations, and the grammar each listens with.
extension DialogueEngine {
    // MARK: Answers

    mutating func answer(_ question: Question, pending start: Pending, interpretation: Interpretation) async -> DialogueReply {
        var pending = start
        let tag = interpretation.tag
        switch question.kind {
        case .value(let name), .choice(let name, _):
            guard let parameter = pending.intent.parameter(named: name) else { return end(Self.cancelled) }
            var picked: EnumeratedValue?
            // A spoken list (a choice, or the options read out when re-asking) can be answered by position.
            let listed: [EnumeratedValue]
            if case .choice(_, let options) = question.kind {
                listed = Self.offered(options)
            } else {
                let options = catalog.enumeratedValues(of: parameter, in: pending.app)
                listed = options.count <= Self.longestSpokenList ? options : []
            }
            if tag.hasPrefix(TurnGrammar.Tag.ordinalPrefix), let index = Int(tag.dropFirst(TurnGrammar.Tag.ordinalPrefix.count)),
               listed.indices.contains(index) {
                pending.values[name] = ParameterValue(identifier: listed[index].identifier, spoken: listed[index].spoken)
                pending.unresolved.insert(name)
                return await advance(pending)
            }
            if case .choice(_, let options) = question.kind {
                if let heard = interpretation.values[TurnGrammar.valueParameter] {
                    let candidates = ValueReader.matching(heard.spoken, in: options)
                    if candidates.count > 1 { return notAccepted(silence: false) }
                    picked = candidates.first ?? options.first { $0.identifier == heard.identifier }
                }
                guard let picked else { return notAccepted(silence: false) }
                pending.values[name] = ParameterValue(identifier: picked.identifier, spoken: picked.spoken)
                pending.unresolved.insert(name)
                return await advance(pending)
            }
            guard tag == TurnGrammar.Tag.value, let heard = interpretation.values[TurnGrammar.valueParameter] else {
                return notAccepted(silence: false)
            }
            let enumerated = catalog.enumeratedValues(of: parameter, in: pending.app)
            let candidates = ValueReader.matching(heard.spoken, in: enumerated)
            if candidates.count > 1 {
                pending.ambiguous[name] = candidates
                pending.heard[name] = heard.spoken.joined(separator: " ")
                return await advance(pending)
            }
            switch reader.read(heard.spoken, identifier: heard.identifier, type: parameter.type, enumerated: enumerated) {
            case .value(let value):
                pending.values[name] = value
                pending.unresolved.insert(name)
                return await advance(pending)
            case .unsupported(let reason):
                return reask(question, pending: pending, preface: reason)
            case .notAValue:
                return notAccepted(silence: false)
            }

        case .defaultValue(let name, let value):
            if tag == TurnGrammar.Tag.yes {
                pending.values[name] = value
                pending.unresolved.insert(name)
                return await advance(pending)
            }
            guard let parameter = pending.intent.parameter(named: name) else { return end(Self.cancelled) }
            pending.declinedDefaults.insert(name)
            if tag == TurnGrammar.Tag.no {
                let options = catalog.enumeratedValues(of: parameter, in: pending.app)
                if !options.isEmpty, options.count <= Self.longestSpokenList {
                    return askChoice(name, options, lead: parameter.shortPrompt ?? parameter.prompt ?? "Which one?",
                                     pending: pending)
                }
                return askValue(parameter, pending: pending)
            }
            // A value said straight away instead of yes or no.
            return await answer(Question(kind: .value(name), speech: question.speech, short: question.short),
                                pending: pending, interpretation: interpretation)

        case .confirmValue(let name, let value):
            if tag == TurnGrammar.Tag.yes {
                pending.values[name] = value
                pending.resolved.insert(name)
                pending.unresolved.remove(name)
                return await advance(pending)
            }
            guard tag == TurnGrammar.Tag.no, let parameter = pending.intent.parameter(named: name) else {
                return notAccepted(silence: false)
            }
            return askValue(parameter, pending: pending)

        case .suggestion:
            if tag == TurnGrammar.Tag.yes {
                pending.attributed = memory.isFamiliar(pending.key)
                return await advance(pending)
            }
            guard tag == TurnGrammar.Tag.no else { return notAccepted(silence: false) }
            return end(Self.cancelled)

        case .confirmation:
            if tag == TurnGrammar.Tag.yes {
                pending.confirmed = true
                return await advance(pending)
            }
            guard tag == TurnGrammar.Tag.no else { return notAccepted(silence: false) }
            return end(CategoryDialogue.of(pending.intent.category).declined(verb: pending.intent.verb), pending: pending)

        case .pin:
            guard tag == TurnGrammar.Tag.pin else { return notAccepted(silence: false) }
            switch await authenticator.check(TurnGrammar.pinDigits(interpretation)) {
            case .accepted:
                pending.authenticated = true
                return await advance(pending)
            case .lockedOut(let seconds):
                return end(Self.lockedOut(seconds: seconds), pending: pending)
            case .unavailable:
                return end(Self.pinUnavailable, pending: pending)
            case .wrong:
                guard case .asking(_, _, let attempts) = state, attempts == 0 else { return end(Self.wrongPINAgain, pending: pending) }
                return reask(question, pending: pending, preface: nil, speech: Self.wrongPIN)
            }
        }
    }

    // MARK: Questions

    mutating func askValue(_ parameter: ParameterDefinition, pending: Pending) -> DialogueReply {
        let familiar = memory.isFamiliar(pending.key)
        let full = parameter.prompt ?? "What \(parameter.name)?"
        let prompt = familiar ? (parameter.shortPrompt ?? full) : full
        let options = catalog.enumeratedValues(of: parameter, in: pending.app)
        let short = !options.isEmpty && options.count <= Self.longestSpokenList
            ? Self.list(options.map(\.spoken), or: true) + "?" : (parameter.shortPrompt ?? full)
        return ask(.value(parameter.name), prompt, short: short, pending: pending)
    }

    static let longestSpokenList = 5
    /// How many of a longer list are read out before "or someone else": more is more than a
    /// listener holds in mind.
    static let offeredFromLongList = 3

    /// The options a list question reads out: all of a short list, the first few of a long one.
    static func offered(_ options: [EnumeratedValue]) -> [EnumeratedValue] {
        options.count <= longestSpokenList ? options : Array(options.prefix(offeredFromLongList))
    }

    /// "Which Amy? Amy Smith or Amy Jones?": a question answered from a spoken list; re-asked with the list alone.
    /// A long list offers its first few and "or someone else" ("or something else" unless the values are
    /// people); every option can still be answered by name.
    mutating func askChoice(_ name: String, _ options: [EnumeratedValue], lead: String, pending: Pending) -> DialogueReply {
        var spoken = Self.offered(options).map(\.spoken)
        if spoken.count < options.count {
            let people = pending.intent.parameter(named: name)?.enumerationName.map(SystemIntents.personTypes.contains) ?? false
            spoken.append(people ? "someone else" : "something else")
        }
        let list = Self.list(spoken, or: true) + "?"
        return ask(.choice(name, options), "\(lead) \(list)", short: list, pending: pending)
    }

    mutating func ask(_ kind: QuestionKind, _ speech: String, short: String, pending start: Pending) -> DialogueReply {
        var pending = start
        var spoken = speech
        if let preface = pending.preface {
            spoken = "\(preface) \(speech)"
            pending.preface = nil
        }
        spoken = attribute(spoken, &pending)
        let earlier = pending.chain.map { ($0.said, $0.handled) } ?? ([], [])
        pending.chain?.said = []
        pending.chain?.handled = []
        let question = Question(kind: kind, speech: speech, short: short)
        state = .asking(question, pending, attempts: 0)
        expectWhatTheStateAwaits()
        return DialogueReply(speech: (earlier.0 + [spoken]).joined(separator: " "), expectsAnswer: true, handledIntents: earlier.1)
    }

    func isFreeText(_ kind: QuestionKind, _ pending: Pending) -> Bool {
        guard case .value(let name) = kind else { return false }
        return pending.intent.parameter(named: name)?.type == .text
    }

    func grammar(for kind: QuestionKind, pending: Pending) -> Grammar {
        var grammar: Grammar
        switch kind {
        case .value(let name):
            grammar = valueGrammar(name, pending: pending)
        case .choice(_, let options):
            grammar = TurnGrammar.answer(values: ValueReader.spokenValues(of: .enumeration("choice"), enumerated: options))
            grammar.rules += TurnGrammar.ordinalRules(count: Self.offered(options).count)
        case .defaultValue(let name, _):
            grammar = valueGrammar(name, pending: pending)
            grammar.rules += TurnGrammar.yesNo()
        case .confirmValue, .confirmation, .suggestion:
            grammar = Grammar(rules: TurnGrammar.yesNo())
        case .pin:
            grammar = TurnGrammar.pin()
        }
        grammar.rules += TurnGrammar.commands()
        return grammar
    }

    /// The values of a parameter, and "the second one" when its options are few enough to be read out.
    func valueGrammar(_ name: String, pending: Pending) -> Grammar {
        guard let parameter = pending.intent.parameter(named: name) else { return TurnGrammar.answer(values: []) }
        let options = catalog.enumeratedValues(of: parameter, in: pending.app)
        var grammar = TurnGrammar.answer(values: ValueReader.spokenValues(of: parameter.type, enumerated: options))
        if !options.isEmpty, options.count <= Self.longestSpokenList {
            grammar.rules += TurnGrammar.ordinalRules(count: options.count)
        }
        return grammar
    }

    mutating func expect(_ grammar: Grammar, freeText: Bool) {
        expectation = TurnExpectation(grammar: grammar, wantsFreeText: freeText)
        expectationVersion += 1
        graph = WordGraph(grammar)
        expectingTopLevel = false
    }

    /// Back to the top level, with its kept graph; nothing changes when it is already expected, so
    /// a recogniser has nothing to look up either.
    mutating func expectTopLevel() {
        guard !expectingTopLevel else { return }
        expectation = TurnExpectation(grammar: topLevel, wantsFreeText: false)
        expectationVersion += 1
        graph = topLevelGraph
        expectingTopLevel = true
    }
}
