public import Foundation
public import HarkGrammar
public import HarkIntents
public import HarkShortcuts

/// What the person did in one turn.
public enum DialogueInput: Sendable, Equatable {
    /// Words the recogniser heard (already constrained to the turn's grammar).
    case words([String])
    /// Typed text: read with the turn's grammar, and taken verbatim where free text is asked for.
    case text(String)
    /// Nothing was said before the listening timed out.
    case silence
    /// Something was said, and the recogniser rejected it.
    case notUnderstood
    /// The recogniser heard these words but was not sure enough to act on them: Hark asks
    /// whether that is what was said, and goes ahead on "yes".
    case unsure([String])
}

/// What Hark says back, and whether it listens for an answer.
public struct DialogueReply: Sendable, Equatable {
    public var speech: String
    /// A question was asked: listen again, without the wake word.
    public var expectsAnswer: Bool
    /// Every intent carried out in this turn, in order: one, or several steps of a shortcut.
    public var handledIntents: [HandledIntent] = []
    /// What went wrong underneath, for logs (a handler that crashed, say); never spoken as is.
    public var problem: String?
    /// The person asked for the loudspeaker louder, quieter or at a level: the device playing
    /// the reply changes it and says the new level (the speech is then empty here).
    public var volume: VolumeChange?

    public init(speech: String, expectsAnswer: Bool, handledIntents: [HandledIntent] = [], problem: String? = nil,
                volume: VolumeChange? = nil) {
        self.speech = speech
        self.expectsAnswer = expectsAnswer
        self.handledIntents = handledIntents
        self.problem = problem
        self.volume = volume
    }

    /// The intent carried out last in this turn, if one was.
    public var handled: HandledIntent? {
        get { handledIntents.last }
        set { handledIntents = newValue.map { [$0] } ?? [] }
    }

    public var endsConversation: Bool { !expectsAnswer }
}

/// An intent carried out: for logs and donations.
public struct HandledIntent: Sendable, Equatable {
    public var request: IntentRequest
    public var response: HandlerResponse

    public init(request: IntentRequest, response: HandlerResponse) {
        self.request = request
        self.response = response
    }

    /// Whether the app did (or is doing) what was asked: only then is it donated.
    public var succeeded: Bool { [.success, .inProgress, .ready].contains(response.code) }
}

/// What the engine needs from the person's shortcut data besides the phrases:
/// suggestions for "any suggestions?", and somewhere to donate what was done.
/// The runtime keeps it in a database; the engine never sees how.
public protocol ShortcutsService: Sendable {
    /// The shortcuts most likely wanted at `date`, best first.
    func suggestions(at date: Date) async -> [Suggestion]
    /// Records an intent that was carried out.
    func donate(_ handled: HandledIntent, at date: Date) async
    /// Forgets donations an app says are about data that no longer exists.
    func deleteDonations(_ filters: [DonationFilter]) async
}

/// What the next turn accepts: a grammar, and whether free text is wanted instead.
public struct TurnExpectation: Sendable {
    public var grammar: Grammar
    /// The question asks for free text: recognise by dictation, and take what is heard.
    public var wantsFreeText: Bool
}

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

    private var state: State = .idle
    private var lastSpoken: String?
    private var topLevel: Grammar
    /// The grammar of the current turn, and its word graph for reading answers.
    public private(set) var expectation: TurnExpectation
    /// Changes whenever `expectation` does, so a recogniser recompiles only then.
    public private(set) var expectationVersion = 0
    private var graph: WordGraph
    /// Each app that shares a phrase with another (`AppCatalog.sharedPhrases`), heard alone: which
    /// apps a request could mean.
    private var sharedAppGraphs: [(app: String, graph: WordGraph)] = []

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
        self.graph = WordGraph(top)
        rebuildSharedAppGraphs()
    }

    private mutating func rebuildSharedAppGraphs() {
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
        if case .checking(_, let before) = current { current = before }
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

    private mutating func rebuildTopLevel() {
        topLevel = Self.topLevelGrammar(catalog, personal: personalShortcuts)
        if case .idle = state { expect(topLevel, freeText: false) }
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
        let reply = await reply(to: input)
        if !reply.speech.isEmpty { lastSpoken = reply.speech }
        if reply.endsConversation {
            state = .idle
            expect(topLevel, freeText: false)
        }
        return reply
    }

    private mutating func reply(to input: DialogueInput) async -> DialogueReply {
        let words: [String]
        var typed: String?
        if case .checking(_, let before) = state, input == .silence || input == .notUnderstood {
            return resume(before, notAccepted: input == .silence)
        }
        switch input {
        case .silence, .notUnderstood:
            return notAccepted(silence: input == .silence)
        case .unsure(let heard):
            return check(heard)
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

        if case .checking(let guess, let before) = state {
            state = before
            expectWhatTheStateAwaits()
            switch interpretation?.tag {
            case TurnGrammar.Tag.yes?: return await reply(to: .words(guess))
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


    private var reader: ValueReader { ValueReader(now: clock()) }

    // MARK: Which app?

    /// The request as each app that shares its words would take it; `first` (the top-level
    /// grammar's reading) first. One entry unless apps share the phrase and its values.
    private func appsMeant(by words: [String], first: IntentMatch) -> [IntentMatch] {
        guard sharedAppGraphs.contains(where: { $0.app == first.app.identifier }) else { return [first] }
        let others = sharedAppGraphs.filter { $0.app != first.app.identifier }
            .compactMap { $0.graph.interpret(words).flatMap { catalog.match($0, reader: reader) } }
        return [first] + others
    }

    /// "Which app, Home or Garage?": the same words mean something in each.
    private mutating func askWhichApp(_ candidates: [IntentMatch]) -> DialogueReply {
        state = .choosingApp(candidates, attempts: 0)
        expectWhatTheStateAwaits()
        return DialogueReply(speech: "Which app, " + Self.list(candidates.map(\.app.name), or: true, startsSentence: false) + "?",
                             expectsAnswer: true)
    }

    /// The apps' names (any of them), and "the first one".
    private func appChoiceGrammar(_ candidates: [IntentMatch]) -> Grammar {
        let names = candidates.flatMap { match in
            match.app.names.map { Grammar.SpokenValue(words: Grammar.words(of: $0), identifier: match.app.identifier) }
        }
        var grammar = TurnGrammar.answer(values: names)
        grammar.rules += TurnGrammar.ordinalRules(count: candidates.count) + TurnGrammar.commands()
        return grammar
    }

    /// The answer to "Which app …?": the request goes on in the app named.
    private mutating func chooseApp(from candidates: [IntentMatch], interpretation: Interpretation?) async -> DialogueReply {
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

    /// "Did you say …?" about words heard with too little confidence. The turn hears yes or
    /// no, or what it heard before (the person may simply say it again).
    private mutating func check(_ heard: [String]) -> DialogueReply {
        // "Did you say one two three four?" would say the PIN aloud.
        guard !heard.isEmpty, !isAskingForPIN else { return notAccepted(silence: false) }
        // A second unsure hearing while checking the first asks about the new words.
        if case .checking(_, let before) = state { state = before }
        var grammar = expectation.grammar
        grammar.rules = TurnGrammar.yesNo() + grammar.rules.filter { ![TurnGrammar.Tag.yes, TurnGrammar.Tag.no].contains($0.tag) }
        let wasFreeText = expectation.wantsFreeText
        state = .checking(heard, before: state)
        expect(grammar, freeText: wasFreeText)
        return DialogueReply(speech: Self.checkQuestion(heard), expectsAnswer: true)
    }

    /// "No" to "Did you say …?": a new request is listened for, or the question asked again.
    private mutating func apologise() -> DialogueReply {
        guard case .asking(let question, let pending, _) = state else {
            return DialogueReply(speech: Self.apology, expectsAnswer: true)
        }
        return reask(question, pending: pending, preface: "Sorry.")
    }

    /// Back to what was going on before "Did you say …?", after silence or something rejected.
    private mutating func resume(_ before: State, notAccepted silence: Bool) -> DialogueReply {
        state = before
        expectWhatTheStateAwaits()
        return notAccepted(silence: silence)
    }

    /// Listens with the grammar of the state the conversation is in.
    private mutating func expectWhatTheStateAwaits() {
        switch state {
        case .idle, .checking: expect(topLevel, freeText: false)
        case .choosingApp(let candidates, _): expect(appChoiceGrammar(candidates), freeText: false)
        case .asking(let question, let pending, _):
            expect(grammar(for: question.kind, pending: pending), freeText: isFreeText(question.kind, pending))
        }
    }

    // MARK: A new request

    private mutating func start(_ match: IntentMatch) async -> DialogueReply {
        var pending = Pending(app: match.app, intent: match.intent)
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
    private mutating func advance(_ start: Pending) async -> DialogueReply {
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
                        if parameter.isRequired { return askValue(parameter, pending: pending) }
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

    private func isRelevant(_ parameter: ParameterDefinition, in pending: Pending) -> Bool {
        guard let condition = parameter.condition else { return true }
        guard let parent = pending.values[condition.parent] else { return false }
        return condition.values.contains(parent.identifier)
    }

    /// Fills in a default: silently, or by offering it ("Do you want coarse-ground coffee?").
    /// The value chosen last time is offered before the manifest's default.
    private mutating func defaultQuestion(for parameter: ParameterDefinition, in pending: inout Pending) -> DialogueReply? {
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

    private func readDefault(_ source: String, _ parameter: ParameterDefinition, _ app: AppManifest) -> ParameterValue? {
        if case .value(let value) = catalog.read(preset: source, for: parameter, in: app, reader: reader) { return value }
        return nil
    }

    // MARK: Personal shortcuts

    /// Runs a person's shortcut: its first step now, each next one when the one before succeeds.
    private mutating func run(_ shortcut: PersonalShortcut) async -> DialogueReply {
        guard !shortcut.steps.isEmpty else { return end("Your shortcut \"\(shortcut.phrase)\" has nothing to do yet.") }
        return await runStep(Chain(shortcut: shortcut), results: [:])
    }

    /// Starts the chain's current step with its values; `${result.NAME}` in a value is an output of the step before.
    private mutating func runStep(_ chain: Chain, results: [String: String]) async -> DialogueReply {
        let step = chain.shortcut.steps[chain.step]
        guard let app = catalog.app(step.app), let intent = app.intent(named: step.intent) else {
            return stopChain(chain, "Your shortcut \"\(chain.shortcut.phrase)\" uses \(step.app) to \(step.intent), " +
                             "which isn't installed any more.")
        }
        var pending = Pending(app: app, intent: intent)
        // Named once in a row: a step of the same app as the one before goes unnamed.
        pending.attributed = memory.isFamiliar(pending.key) || (chain.step > 0 && chain.shortcut.steps[chain.step - 1].app == step.app)
        pending.chain = chain
        var fill: [String: String] = [:]
        for (name, value) in results { fill["result.\(name)"] = value }
        for (name, source) in step.values.sorted(by: { $0.key < $1.key }) {
            guard let parameter = intent.parameter(named: name) else { continue }
            var text = source
            if let template = try? ResponseTemplate(source), !template.placeholders.isEmpty {
                if let missing = template.placeholders.first(where: { $0.hasPrefix("result.") && fill[$0] == nil }) {
                    let output = missing.dropFirst("result.".count)
                    return stopChain(chain, "Step \(chain.step + 1) needs the \(output) from step \(chain.step), " +
                                     "and \(chain.step > 0 ? catalog.app(chain.shortcut.steps[chain.step - 1].app)?.name ?? "that app" : "nothing") didn't give one.")
                }
                text = template.render(fill)
            }
            switch catalog.read(preset: text, for: parameter, in: app, reader: reader) {
            case .value(let value):
                pending.values[name] = value
                pending.unresolved.insert(name)
            case .unsupported(let reason):
                var failing = pending
                return end(reason, pending: &failing)
            case .notAValue:
                continue   // asked for, as if it had not been set
            }
        }
        return await advance(pending)
    }

    /// Ends a shortcut that cannot go on, keeping what the earlier steps said.
    private mutating func stopChain(_ chain: Chain, _ reason: String) -> DialogueReply {
        let stop = chain.shortcut.isMultistep
            ? " So your shortcut \"\(chain.shortcut.phrase)\" stopped at step \(chain.step + 1) of \(chain.shortcut.steps.count)." : ""
        state = .idle
        return DialogueReply(speech: (chain.said + [reason + stop]).joined(separator: " "), expectsAnswer: false,
                             handledIntents: chain.handled)
    }

    // MARK: Suggestions

    /// "Any suggestions?": the shortcut most likely wanted now, offered to run.
    private mutating func suggest() async -> DialogueReply {
        guard let service = shortcutsService, let top = await service.suggestions(at: clock()).first,
              let app = catalog.app(top.app), let intent = app.intent(named: top.intent) else {
            return end(Self.noSuggestions)
        }
        var pending = Pending(app: app, intent: intent)
        pending.values = top.values
        pending.unresolved = Set(top.values.keys)
        // Hark is speaking for itself here; the app is named when it answers.
        pending.attributed = true
        let title = top.title.prefix(1).lowercased() + top.title.dropFirst()
        return ask(.suggestion, "Here's a suggestion: \(title). Shall I do that?", short: "Shall I \(title)?", pending: pending)
    }

    // MARK: Answers

    private mutating func answer(_ question: Question, pending start: Pending, interpretation: Interpretation) async -> DialogueReply {
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

    private mutating func askValue(_ parameter: ParameterDefinition, pending: Pending) -> DialogueReply {
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
    private mutating func askChoice(_ name: String, _ options: [EnumeratedValue], lead: String, pending: Pending) -> DialogueReply {
        var spoken = Self.offered(options).map(\.spoken)
        if spoken.count < options.count {
            let people = pending.intent.parameter(named: name)?.enumerationName.map(SystemIntents.personTypes.contains) ?? false
            spoken.append(people ? "someone else" : "something else")
        }
        let list = Self.list(spoken, or: true) + "?"
        return ask(.choice(name, options), "\(lead) \(list)", short: list, pending: pending)
    }

    private mutating func ask(_ kind: QuestionKind, _ speech: String, short: String, pending start: Pending) -> DialogueReply {
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

    private func isFreeText(_ kind: QuestionKind, _ pending: Pending) -> Bool {
        guard case .value(let name) = kind else { return false }
        return pending.intent.parameter(named: name)?.type == .text
    }

    private func grammar(for kind: QuestionKind, pending: Pending) -> Grammar {
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
    private func valueGrammar(_ name: String, pending: Pending) -> Grammar {
        guard let parameter = pending.intent.parameter(named: name) else { return TurnGrammar.answer(values: []) }
        let options = catalog.enumeratedValues(of: parameter, in: pending.app)
        var grammar = TurnGrammar.answer(values: ValueReader.spokenValues(of: parameter.type, enumerated: options))
        if !options.isEmpty, options.count <= Self.longestSpokenList {
            grammar.rules += TurnGrammar.ordinalRules(count: options.count)
        }
        return grammar
    }

    private mutating func expect(_ grammar: Grammar, freeText: Bool) {
        expectation = TurnExpectation(grammar: grammar, wantsFreeText: freeText)
        expectationVersion += 1
        graph = WordGraph(grammar)
    }

    /// Runs a personal shortcut as if its phrase had been said (an automation, a test),
    /// dropping any conversation under way first.
    public mutating func runShortcut(_ shortcut: PersonalShortcut) async -> DialogueReply {
        reset()
        let reply = await run(shortcut)
        if !reply.speech.isEmpty { lastSpoken = reply.speech }
        if reply.endsConversation {
            state = .idle
            expect(topLevel, freeText: false)
        }
        return reply
    }

    /// Drops any conversation under way: the next turn is a new request.
    public mutating func reset() {
        guard isInConversation else { return }
        state = .idle
        expect(topLevel, freeText: false)
    }

    /// Nothing usable was heard: ask once more, shorter; the second time, give up.
    private mutating func notAccepted(silence: Bool) -> DialogueReply {
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

    private mutating func reask(_ question: Question, pending: Pending, preface: String?, speech: String? = nil) -> DialogueReply {
        guard case .asking(_, _, let attempts) = state, attempts == 0 else {
            return end(Self.givingUp, pending: pending)
        }
        state = .asking(question, pending, attempts: attempts + 1)
        let spoken = speech ?? [preface, question.short].compactMap { $0 }.joined(separator: " ")
        return DialogueReply(speech: spoken, expectsAnswer: true)
    }

    /// Ends the conversation with `speech`. For a step of a shortcut, what earlier steps said
    /// comes first, and unless the last step `completed`, where the shortcut stopped comes after.
    private mutating func end(_ speech: String, pending: Pending? = nil, completed: Bool = false,
                              volume: VolumeChange? = nil) -> DialogueReply {
        guard var pending else {
            state = .idle
            return DialogueReply(speech: speech, expectsAnswer: false, volume: volume)
        }
        return end(speech, pending: &pending, completed: completed)
    }

    private mutating func end(_ speech: String, pending: inout Pending, completed: Bool = false) -> DialogueReply {
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
    private func attribute(_ speech: String, _ pending: inout Pending) -> String {
        guard !pending.attributed else { return speech }
        pending.attributed = true
        return "\(pending.app.name): \(speech)"
    }

    // MARK: Help

    private func help() -> DialogueReply {
        if case .checking(let heard, _) = state {
            return DialogueReply(speech: "You can say yes or no, or cancel. " + Self.checkQuestion(heard), expectsAnswer: true)
        }
        guard case .asking(let question, let pending, _) = state else {
            return DialogueReply(speech: HelpText.examples(catalog, reader: reader), expectsAnswer: false)
        }
        let options: [String]
        switch question.kind {
        case .value(let name):
            if let parameter = pending.intent.parameter(named: name) {
                options = Self.offered(catalog.enumeratedValues(of: parameter, in: pending.app)).map(\.spoken)
            } else {
                options = []
            }
        case .choice(_, let values): options = Self.offered(values).map(\.spoken) + ["the first one"]
        case .defaultValue, .confirmValue, .confirmation, .suggestion: options = ["yes", "no"]
        case .pin: options = ["your PIN, digit by digit"]
        }
        guard !options.isEmpty else { return DialogueReply(speech: question.speech, expectsAnswer: true) }
        let choices = "You can say \(Self.list(options, or: true, startsSentence: false)), or cancel."
        // A question that reads its options out itself ("Any milk? Whole milk, oat milk or cream?")
        // is not asked again after them: the list would be heard twice.
        let spoken = question.speech.lowercased()
        let readsOptions = options.contains { $0.count > 2 && spoken.contains($0.lowercased()) }
        return DialogueReply(speech: readsOptions ? choices : choices + " " + question.speech, expectsAnswer: true)
    }

    // MARK: Speaking

    private func spoken(for response: HandlerResponse, _ pending: Pending) -> String {
        let dialogue = CategoryDialogue.of(pending.intent.category)
        let responses = pending.intent.responses
        switch response.code {
        case .success, .ready:
            return responses.success.map { render($0, pending, results: pending.results) } ?? dialogue.success
        case .inProgress:
            return responses.inProgress.map { render($0, pending, results: pending.results) } ?? dialogue.inProgress
        case .failure:
            return response.failure.flatMap { responses.failures[$0] }.map { render($0, pending, results: pending.results) }
                ?? dialogue.failure
        case .continueInApp:
            return "That has to be finished in \(pending.app.name) itself; I can't do it from here."
        case .failureRequiringAppLaunch:
            return "Sorry, \(pending.app.name) needs to be opened first."
        }
    }

    private func render(_ template: ResponseTemplate, _ pending: Pending, results: [String: String]) -> String {
        var fill = pending.values.mapValues(\.spoken)
        for (name, value) in results { fill["result.\(name)"] = value }
        fill["app"] = pending.app.name
        let now = clock()
        let time = DateFormatter()
        time.locale = Locale(identifier: "en_US")
        time.dateFormat = "h:mm a"
        fill["clock.time"] = time.string(from: now)
        time.dateFormat = "EEEE, MMMM d"
        fill["clock.date"] = time.string(from: now)
        return template.render(fill)
    }

    /// "A", "A or B", "A, B or C".
    /// "Small, medium or large"; inside a sentence (`startsSentence: false`) as the items are written.
    static func list(_ items: [String], or: Bool, startsSentence: Bool = true) -> String {
        let joiner = or ? "or" : "and"
        let joined = items.count > 1 ? items.dropLast().joined(separator: ", ") + " \(joiner) \(items[items.count - 1])" : items.first ?? ""
        return startsSentence ? capitalised(joined) : joined
    }

    static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}

// MARK: State

extension DialogueEngine {
    enum QuestionKind: Sendable, Equatable {
        case value(String)
        case choice(String, [EnumeratedValue])
        case defaultValue(String, ParameterValue)
        case confirmValue(String, ParameterValue)
        case confirmation
        case pin
        /// "Shall I do that?" after a suggestion.
        case suggestion
    }

    struct Question: Sendable {
        var kind: QuestionKind
        var speech: String
        /// Said when the first answer was not understood: shorter.
        var short: String
    }

    /// A personal shortcut on its way through its steps.
    struct Chain: Sendable {
        var shortcut: PersonalShortcut
        /// The step running now, from 0.
        var step = 0
        /// What earlier steps said in this turn, still to be spoken.
        var said: [String] = []
        /// What earlier steps carried out in this turn, still to be reported.
        var handled: [HandledIntent] = []
    }

    indirect enum State: Sendable {
        case idle
        case asking(Question, Pending, attempts: Int)
        /// "Did you say …?" was asked about `heard`; `before` is where the conversation was.
        case checking([String], before: State)
        /// "Which app …?": the request's words mean something in each of these apps.
        case choosingApp([IntentMatch], attempts: Int)
    }

    /// A request on its way through resolve, confirm and handle.
    struct Pending: Sendable {
        var app: AppManifest
        var intent: IntentDefinition
        var values: [String: ParameterValue] = [:]
        /// What was said for each value, to name it in questions ("Which Amy?").
        var heard: [String: String] = [:]
        var ambiguous: [String: [EnumeratedValue]] = [:]
        var resolved: Set<String> = []
        /// Values given or changed since the handler last resolved them.
        var unresolved: Set<String> = []
        var declinedDefaults: Set<String> = []
        var confirmed = false
        var authenticated = false
        /// Values the handler returned for `${result.…}` placeholders.
        var results: [String: String] = [:]
        /// Said before the next question (a specific error about the last answer).
        var preface: String?
        /// Whether the app has been named in this conversation (or needs no naming).
        var attributed = false
        /// The shortcut this request is a step of, if any.
        var chain: Chain?

        init(app: AppManifest, intent: IntentDefinition) {
            self.app = app
            self.intent = intent
        }

        var key: String { "\(app.identifier).\(intent.name)" }

        var request: IntentRequest {
            IntentRequest(app: app.identifier, intent: intent.name, values: values)
        }
    }
}
