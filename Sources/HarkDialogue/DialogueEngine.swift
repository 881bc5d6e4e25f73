public import Foundation
import HarkGrammar
public import HarkIntents
public import HarkShortcuts

/// The conversation: from what a person says to what Hark says and which
/// handler calls it makes. Deterministic given its handlers and clock, and
/// testable by text alone; the same engine runs behind the microphone.
///
/// Each request goes through the phases of the guidance: resolve every value
/// (asking for missing ones, disambiguating, chaining parent and child
/// questions), confirm where needed (always for orders, then with a PIN), and
/// handle, speaking the app's templates or its category's default dialogue.
public struct DialogueEngine: Sendable {
    public static let didNotUnderstand = "Sorry, I didn't catch that."
    static let givingUp = "Sorry, I still didn't get that. Let's leave it there."
    static let cancelled = "OK."
    static let nothingToRepeat = "I haven't said anything yet."
    static let noPIN = "That needs your spoken PIN, and none is set yet. Set one on this machine with: hark pin set."
    static let wrongPIN = "That PIN isn't right. Try once more."
    static let wrongPINAgain = "Sorry, that PIN isn't right, so I won't go ahead."
    static let pinUnavailable = "Sorry, I can't check your PIN right now, so I won't go ahead."
    /// After too many wrong PINs in a row; says how long to wait, in words a listener can use.
    static func lockedOut(seconds: Int) -> String {
        let wait = seconds < 90 ? "\(max(seconds, 1)) seconds"
            : seconds < 5_400 ? "\((seconds + 59) / 60) minutes" : "\((seconds + 3_599) / 3_600) hours"
        return "Too many wrong PINs, so I won't go ahead. Try again in \(wait)."
    }
    static let noSuggestions = "I don't have any suggestions yet."

    public private(set) var catalog: AppCatalog
    public var handlers: HandlerDirectory
    public var authenticator: any PINAuthenticator
    public var memory: UsageMemory
    /// The time the engine thinks it is: replies and dates are read against it.
    public var clock: @Sendable () -> Date
    /// Suggestions and donations; without one, "any suggestions?" has none and nothing is donated.
    public var shortcutsService: (any ShortcutsService)?
    /// The person's own phrases, heard exactly, before any app's.
    public private(set) var personalShortcuts: [PersonalShortcut] = []

    var state: State = .idle
    /// The room that heard the turn (a satellite's, `hark listen --room`); nil where none is named.
    /// A phrase that takes a parameter from the room (`room: area`) gets it from here.
    public var room: String?
    var lastSpoken: String?
    /// When a request was not heard over a noisy room and Hark asked for it again
    /// (`notHeardOverNoise`): for one turn, and while the person is still answering that prompt
    /// (`retryOverNoiseWindow`), the next utterance is that request said again.
    var retryOverNoiseOffered: Date?
    var topLevel: Grammar
    /// The grammar of the current turn, and its word graph for reading answers.
    public internal(set) var expectation: TurnExpectation
    /// Changes whenever `expectation` does, so a recogniser recompiles only then.
    public internal(set) var expectationVersion = 0
    var graph: WordGraph
    /// The top level's word graph, kept: a big home's takes longer to build than a turn takes to hear.
    var topLevelGraph: WordGraph
    /// Whether `expectation` is the top level's, so going back to it changes nothing.
    var expectingTopLevel = true
    /// Each app that shares a phrase with another (`AppCatalog.sharedPhrases`), heard alone: which
    /// apps a request could mean.
    var sharedAppGraphs: [(app: String, graph: WordGraph)] = []

    public init(catalog: AppCatalog, handlers: HandlerDirectory = HandlerDirectory(),
                authenticator: any PINAuthenticator = FixedPIN(nil), memory: UsageMemory = UsageMemory(),
                clock: @escaping @Sendable () -> Date = { Date() }) {
        self.catalog = catalog
        self.handlers = handlers
        self.authenticator = authenticator
        self.memory = memory
        self.clock = clock
        let top = Self.topLevelGrammar(catalog, personal: [])
        self.topLevel = top
        self.expectation = TurnExpectation(grammar: top, wantsFreeText: false)
        self.topLevelGraph = WordGraph(top)
        self.graph = topLevelGraph
        rebuildSharedAppGraphs()
    }

    mutating func rebuildSharedAppGraphs() {
        let sharing = catalog.appsSharingPhrases
        sharedAppGraphs = catalog.apps.filter { sharing.contains($0.identifier) }
            .map { ($0.identifier, WordGraph(catalog.topLevelGrammar(only: [$0]))) }
    }

    /// Whether a conversation is under way (a question is waiting for its answer).
    public var isInConversation: Bool {
        if case .idle = state { false } else { true }
    }

    /// Whether the open question asks for the PIN: what answers it is a secret, never to be
    /// shown, logged or said back.
    public var isAskingForPIN: Bool {
        var current = state
        if case .checking(_, let before, _) = current { current = before }
        guard case .asking(let question, _, _) = current else { return false }
        return question.kind == .pin
    }

    // MARK: Dynamic options

    /// Asks each app's handler for the values of its dynamic types and rebuilds
    /// the top-level grammar. Returns what went wrong, app by app; the manifest's
    /// own values stay in place for an app whose handler failed.
    public mutating func refreshDynamicOptions() async -> [String] {
        var problems: [String] = []
        for app in catalog.apps {
            let dynamicTypes = app.types.values.filter(\.isDynamic).map(\.name)
            for typeName in dynamicTypes.sorted() {
                guard let (intent, parameter) = app.intents.lazy.compactMap({ intent in
                    intent.parameters.first { $0.enumerationName == typeName }.map { (intent, $0) }
                }).first else { continue }
                do {
                    let request = IntentRequest(app: app.identifier, intent: intent.name, values: [:])
                    if let values = try await handlers[app.identifier].options(for: parameter.name, of: request) {
                        catalog.setValues(values, app: app.identifier, type: typeName)
                    }
                } catch {
                    problems.append("\(app.identifier): options for \(typeName): \(error)")
                }
            }
        }
        rebuildTopLevel()
        rebuildSharedAppGraphs()
        return problems
    }

    /// Replaces the person's shortcuts; the next new request hears their phrases.
    /// A conversation under way keeps its question.
    public mutating func setPersonalShortcuts(_ shortcuts: [PersonalShortcut]) {
        personalShortcuts = shortcuts
        rebuildTopLevel()
    }

    mutating func rebuildTopLevel() {
        topLevel = Self.topLevelGrammar(catalog, personal: personalShortcuts)
        topLevelGraph = WordGraph(topLevel)
        expectingTopLevel = false
        if case .idle = state { expectTopLevel() }
    }

    /// Personal phrases first (a person's own phrase wins a tie), then every app's, then Hark's commands.
    static func topLevelGrammar(_ catalog: AppCatalog, personal: [PersonalShortcut]) -> Grammar {
        var top = catalog.topLevelGrammar()
        top.rules = personal.compactMap(\.rule) + top.rules + TurnGrammar.commands() + TurnGrammar.suggestionCommands()
        TurnGrammar.addVolumeCommands(to: &top)
        return TurnGrammar.hearingOwnCommandsStrictly(top)
    }

    // MARK: Turns

    public mutating func respond(to input: DialogueInput) async -> DialogueReply {
        let retried = retryOverNoiseOffered.map { clock().timeIntervalSince($0) <= Self.retryOverNoiseWindow } ?? false
        retryOverNoiseOffered = nil
        let reply = input == .notHeardOverNoise && !isInConversation ? notHeardOverNoise(again: retried) : await reply(to: input)
        if !reply.speech.isEmpty { lastSpoken = reply.speech }
        if reply.endsConversation {
            state = .idle
            expectTopLevel()
        }
        return reply
    }

    mutating func reply(to input: DialogueInput) async -> DialogueReply {
        let words: [String]
        var typed: String?
        if case .checking(_, let before, _) = state, input == .silence || input == .notUnderstood || input == .notHeardOverNoise {
            return resume(before, notAccepted: input == .silence)
        }
        switch input {
        case .silence, .notUnderstood, .notHeardOverNoise:
            return notAccepted(silence: input == .silence)
        case .unsure(let heard, let otherwise):
            return check(heard, otherwise: otherwise)
        case .words(let heard):
            words = heard
        case .text(let text):
            words = Grammar.words(ofTyped: text)
            typed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        guard !words.isEmpty else { return notAccepted(silence: true) }
        let interpretation = graph.interpret(words)

        switch interpretation?.tag {
        case TurnGrammar.Tag.cancel?:
            return end(Self.cancelled)
        case TurnGrammar.Tag.repeatThat?:
            return DialogueReply(speech: lastSpoken ?? Self.nothingToRepeat, expectsAnswer: isInConversation)
        case TurnGrammar.Tag.help?:
            return help()
        default:
            break
        }

        if case .choosingApp(let candidates, _) = state {
            return await chooseApp(from: candidates, interpretation: interpretation)
        }

        if case .checking(let guess, let before, let otherwise) = state {
            state = before
            expectWhatTheStateAwaits()
            switch interpretation?.tag {
            case TurnGrammar.Tag.yes?: return await reply(to: .words(guess))
            // "No" to one of two meanings ("turn on …" when "turn off …" was said): the other.
            case TurnGrammar.Tag.no? where otherwise != nil: return check(otherwise ?? [], afterNo: true)
            case TurnGrammar.Tag.no?: return apologise()
            // Neither: the request (or answer) said again, heard well this time.
            default: return await reply(to: input)
            }
        }

        guard case .asking(let question, var pending, _) = state else {
            if let tag = interpretation?.tag {
                if let id = PersonalShortcut.id(fromTag: tag), let shortcut = personalShortcuts.first(where: { $0.id == id }) {
                    return await run(shortcut)
                }
                if tag == TurnGrammar.Tag.suggest { return await suggest() }
                if let change = VolumeChange(tag: tag, level: interpretation?.values["level"]?.identifier) {
                    return end("", volume: change)
                }
            }
            guard let interpretation, let match = catalog.match(interpretation, reader: reader) else {
                // "Add oat milk to my shopping list": free text inside a phrase, which no grammar holds.
                if let match = catalog.freeTextMatch(words) { return await start(match) }
                return end(Self.didNotUnderstand)
            }
            let meant = appsMeant(by: words, first: match)
            return meant.count > 1 ? askWhichApp(meant) : await start(match)
        }
        if expectation.wantsFreeText, case .value(let name) = question.kind {
            let text = typed ?? words.joined(separator: " ")
            pending.values[name] = ParameterValue(identifier: text, spoken: text)
            pending.unresolved.insert(name)
            return await advance(pending)
        }
        guard let interpretation else { return notAccepted(silence: false) }
        return await answer(question, pending: pending, interpretation: interpretation)
    }


    var reader: ValueReader { ValueReader(now: clock()) }

    // MARK: A new request

    mutating func start(_ heardMatch: IntentMatch) async -> DialogueReply {
        let match = catalog.fillingFromRoom(heardMatch, room: room, reader: reader)
        var pending = Pending(app: match.app, intent: match.intent)
        pending.needed = Set(match.fromRoom.filter { match.values[$0] == nil })
        pending.values = match.values.mapValues(\.value)
        pending.unresolved = Set(pending.values.keys)
        pending.ambiguous = match.ambiguous.mapValues(\.candidates)
        pending.heard = match.values.mapValues(\.heard)
        for (name, ambiguity) in match.ambiguous { pending.heard[name] = ambiguity.heard }
        pending.attributed = memory.isFamiliar(pending.key)
        if let (name, reason) = match.unsupported.min(by: { $0.key < $1.key }) {
            pending.preface = reason
            pending.values[name] = nil
        }
        return await advance(pending)
    }

    /// Walks the request through resolve, confirm and handle until it needs the person again.
    mutating func advance(_ start: Pending) async -> DialogueReply {
        var pending = start
        let handler = handlers[pending.app.identifier]
        do {
            for parameter in pending.intent.parameters {
                let name = parameter.name
                guard isRelevant(parameter, in: pending) else {
                    pending.values[name] = nil
                    continue
                }
                if pending.resolved.contains(name) && !pending.unresolved.contains(name) { continue }
                if let options = pending.ambiguous[name] {
                    pending.ambiguous[name] = nil
                    return askChoice(name, options, lead: "Which \(pending.heard[name] ?? parameter.name)?", pending: pending)
                }
                if pending.values[name] == nil {
                    if let question = defaultQuestion(for: parameter, in: &pending) { return question }
                    if pending.values[name] == nil {
                        if parameter.isRequired || pending.needed.contains(name) { return askValue(parameter, pending: pending) }
                        pending.resolved.insert(name)
                        continue
                    }
                }
                switch try await handler.resolve(name, in: pending.request) {
                case .success(let value):
                    pending.values[name] = value
                    pending.resolved.insert(name)
                    pending.unresolved.remove(name)
                case .needsValue:
                    pending.values[name] = nil
                    return askValue(parameter, pending: pending)
                case .disambiguation(let options):
                    let heard = pending.values[name]?.spoken ?? name
                    pending.values[name] = nil
                    return askChoice(name, options, lead: "Which \(heard)?", pending: pending)
                case .confirmationRequired(let value):
                    pending.values[name] = nil
                    return ask(.confirmValue(name, value), "Did you mean \(value.spoken)?", short: "\(value.spoken)?",
                               pending: pending)
                case .unsupported(let reason, let failure):
                    let spoken = failure.flatMap { pending.intent.responses.failures[$0] }
                        .map { render($0, pending, results: [:]) } ?? reason ?? "Sorry, that isn't available."
                    pending.values[name] = nil
                    pending.preface = spoken
                    return askValue(parameter, pending: pending)
                case .notRequired:
                    pending.values[name] = nil
                    pending.resolved.insert(name)
                }
            }

            let dialogue = CategoryDialogue.of(pending.intent.category)
            if pending.intent.needsConfirmation && !pending.confirmed {
                let response = try await handler.confirm(pending.request)
                if response.code != .ready && response.code != .success {
                    return end(spoken(for: response, pending), pending: pending)
                }
                pending.results.merge(response.values) { _, new in new }
                let custom = pending.intent.responses.confirmation.map { render($0, pending, results: pending.results) }
                    ?? pending.intent.summary.map { render($0.template(for: pending.request.values.mapValues(\.identifier)), pending,
                                                           results: pending.results) + "." }
                let asked = dialogue.confirmation(verb: pending.intent.verb)
                let question = [custom, asked].compactMap { $0 }.joined(separator: " ")
                return ask(.confirmation, question, short: asked, pending: pending)
            }
            if pending.intent.needsAuthentication && !pending.authenticated {
                guard await authenticator.isSet() else { return end(Self.noPIN, pending: pending) }
                return ask(.pin, "What's your PIN?", short: "Your PIN?", pending: pending)
            }

            let response = try await handler.handle(pending.request)
            pending.results.merge(response.values) { _, new in new }
            let handled = HandledIntent(request: pending.request, response: response)
            if handled.succeeded {
                memory.recordUse(pending.key, values: handled.request.values)
                await shortcutsService?.donate(handled, at: clock())
            }
            if !response.deleteDonations.isEmpty {
                // An app may only forget what was donated about itself.
                let app = pending.app.identifier
                await shortcutsService?.deleteDonations(response.deleteDonations.map { filter in
                    var own = filter
                    own.app = app
                    return own
                })
            }
            if handled.succeeded, var chain = pending.chain, chain.step + 1 < chain.shortcut.steps.count {
                // Say what this step did, then go on with the next, its outputs in hand.
                var done = pending
                var said = spoken(for: response, done)
                if let preface = done.preface { said = "\(preface) \(said)" }
                chain.said.append(attribute(said, &done))
                chain.handled.append(handled)
                chain.step += 1
                return await runStep(chain, results: pending.results)
            }
            var reply = end(spoken(for: response, pending), pending: pending, completed: handled.succeeded)
            reply.handledIntents.append(handled)
            return reply
        } catch let error as HandlerError {
            var reply = end(error.spoken, pending: pending)
            reply.problem = error.detail
            return reply
        } catch {
            var reply = end("Sorry, \(pending.app.name) ran into a problem.", pending: pending)
            reply.problem = "\(error)"
            return reply
        }
    }

    func isRelevant(_ parameter: ParameterDefinition, in pending: Pending) -> Bool {
        guard let condition = parameter.condition else { return true }
        guard let parent = pending.values[condition.parent] else { return false }
        return condition.values.contains(parent.identifier)
    }

    /// Fills in a default: silently, or by offering it ("Do you want coarse-ground coffee?").
    /// The value chosen last time is offered before the manifest's default.
    mutating func defaultQuestion(for parameter: ParameterDefinition, in pending: inout Pending) -> DialogueReply? {
        let name = parameter.name
        guard !pending.declinedDefaults.contains(name) else { return nil }
        let remembered = parameter.defaultQuestion == nil ? nil : memory.lastValue(pending.key, parameter: name)
        guard let value = remembered ?? parameter.defaultValue.flatMap({ readDefault($0, parameter, pending.app) }) else { return nil }
        guard let template = parameter.defaultQuestion else {
            pending.values[name] = value
            pending.unresolved.insert(name)
            return nil
        }
        var offered = pending
        offered.values[name] = value
        let question = render(template, offered, results: [:])
        return ask(.defaultValue(name, value), question, short: "\(value.spoken)?", pending: pending)
    }

    func readDefault(_ source: String, _ parameter: ParameterDefinition, _ app: AppManifest) -> ParameterValue? {
        if case .value(let value) = catalog.read(preset: source, for: parameter, in: app, reader: reader) { return value }
        return nil
    }

    /// Drops any conversation under way: the next turn is a new request.
    public mutating func reset() {
        retryOverNoiseOffered = nil
        guard isInConversation else { return }
        state = .idle
        expectTopLevel()
    }

    /// Nothing usable was heard: ask once more, shorter; the second time, give up.
    mutating func notAccepted(silence: Bool) -> DialogueReply {
        if case .choosingApp(let candidates, let attempts) = state {
            guard attempts == 0 else { return end(Self.givingUp) }
            state = .choosingApp(candidates, attempts: 1)
            return DialogueReply(speech: Self.list(candidates.map(\.app.name), or: true) + "?", expectsAnswer: true)
        }
        guard case .asking(let question, let pending, _) = state else {
            return silence ? DialogueReply(speech: "", expectsAnswer: false) : end(Self.didNotUnderstand)
        }
        return reask(question, pending: pending, preface: nil)
    }

    mutating func reask(_ question: Question, pending: Pending, preface: String?, speech: String? = nil) -> DialogueReply {
        guard case .asking(_, _, let attempts) = state, attempts == 0 else {
            return end(Self.givingUp, pending: pending)
        }
        state = .asking(question, pending, attempts: attempts + 1)
        let spoken = speech ?? [preface, question.short].compactMap { $0 }.joined(separator: " ")
        return DialogueReply(speech: spoken, expectsAnswer: true)
    }

    /// Ends the conversation with `speech`. For a step of a shortcut, what earlier steps said
    /// comes first, and unless the last step `completed`, where the shortcut stopped comes after.
    mutating func end(_ speech: String, pending: Pending? = nil, completed: Bool = false,
                              volume: VolumeChange? = nil) -> DialogueReply {
        guard var pending else {
            state = .idle
            return DialogueReply(speech: speech, expectsAnswer: false, volume: volume)
        }
        return end(speech, pending: &pending, completed: completed)
    }

    mutating func end(_ speech: String, pending: inout Pending, completed: Bool = false) -> DialogueReply {
        var spoken = speech
        if let preface = pending.preface { spoken = "\(preface) \(spoken)" }
        spoken = attribute(spoken, &pending)
        if let chain = pending.chain {
            if completed {
                state = .idle
                return DialogueReply(speech: (chain.said + [spoken]).joined(separator: " "), expectsAnswer: false,
                                     handledIntents: chain.handled)
            }
            return stopChain(chain, spoken)
        }
        state = .idle
        return DialogueReply(speech: spoken, expectsAnswer: false)
    }

    /// Names the app the first time it speaks in a conversation, until the person knows it well.
    func attribute(_ speech: String, _ pending: inout Pending) -> String {
        guard !pending.attributed else { return speech }
        pending.attributed = true
        return "\(pending.app.name): \(speech)"
    }

}
