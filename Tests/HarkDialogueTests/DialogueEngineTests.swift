import Foundation
import HarkDialogue
import HarkGrammar
import HarkIntents
import HarkShortcuts
import Testing

/// The rules of the engine the golden conversations do not reach, each with a
/// small app and a handler that answers the way the rule needs.
@Suite struct DialogueEngineTests {
    static let yaml = """
    name: Depot
    types:
      Item:
        values:
          - spoken: red paint
            id: red
          - spoken: blue paint
            id: blue
    intents:
      BuyPaint:
        category: order
        parameters:
          item: {type: Item, required: true, prompt: Which paint would you like today?, shortPrompt: Which paint?}
        phrases: ['buy [some] paint', 'buy <item>']
        responses:
          success: Bought ${item}.
      CheckStock:
        category: information
        parameters:
          note: {type: text, required: true, prompt: What should I look for?}
        phrases: [check the stock]
        responses:
          success: Looking for ${note} at ${clock.time}.
    """

    /// Answers by a table: which resolution, which response code.
    struct ScriptedHandler: IntentHandler {
        var resolution: Resolution?
        var code: ResponseCode = .success
        var failure: String?
        var throwing: HandlerError?

        func resolve(_ parameter: String, in request: IntentRequest) async throws -> Resolution {
            if let throwing { throw throwing }
            if let resolution, request.values[parameter]?.identifier == "red" { return resolution }
            return request.values[parameter].map(Resolution.success) ?? .needsValue
        }

        func handle(_ request: IntentRequest) async throws -> HandlerResponse {
            HandlerResponse(code: code, failure: failure)
        }
    }

    static func engine(_ handler: ScriptedHandler = ScriptedHandler(), memory: UsageMemory = UsageMemory()) throws -> DialogueEngine {
        let catalog = AppCatalog(apps: [try AppCatalog.manifest(yaml: yaml, identifier: "depot")])
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        return DialogueEngine(catalog: catalog, handlers: HandlerDirectory(["depot": handler]), authenticator: FixedPIN("1234"),
                              memory: memory, clock: { now })
    }

    static func converse(_ engine: inout DialogueEngine, _ turns: [String]) async -> [String] {
        var replies: [String] = []
        for turn in turns { replies.append(await engine.respond(to: turn.isEmpty ? .silence : .text(turn)).speech) }
        return replies
    }

    @Test func confirmsAValueTheAppIsUnsureOf() async throws {
        var engine = try Self.engine(ScriptedHandler(resolution: .confirmationRequired(ParameterValue(identifier: "blue", spoken: "blue paint"))))
        let replies = await Self.converse(&engine, ["buy red paint", "yes", "yes", "one two three four"])
        #expect(replies == ["Depot: Did you mean blue paint?", "Ready to order?", "What's your PIN?", "Bought blue paint."])
    }

    @Test func speaksTheResponseCodesASpeakerCanHonour() async throws {
        for (code, failure, expected) in [
            (ResponseCode.inProgress, nil as String?, "OK. Your order is on its way in."),
            (.failure, nil, "Sorry, the order couldn't be placed."),
            (.continueInApp, nil, "That has to be finished in Depot itself; I can't do it from here."),
            (.failureRequiringAppLaunch, nil, "Sorry, Depot needs to be opened first."),
        ] {
            var engine = try Self.engine(ScriptedHandler(code: code, failure: failure))
            let replies = await Self.converse(&engine, ["buy blue paint", "yes", "one two three four"])
            #expect(replies.last == expected, "\(code)")
        }
    }

    @Test func aHandlerErrorIsSpokenAndTheConversationEnds() async throws {
        var engine = try Self.engine(ScriptedHandler(throwing: HandlerError(spoken: "Sorry, the depot is offline.", detail: "socket closed")))
        let reply = await engine.respond(to: .text("buy red paint"))
        #expect(reply.speech == "Depot: Sorry, the depot is offline.")
        #expect(reply.problem == "socket closed")
        #expect(!engine.isInConversation)
    }

    @Test func promptsGetShorterAndTheAppIsNamedLessWhenFamiliar() async throws {
        var memory = UsageMemory()
        var engine = try Self.engine(memory: memory)
        #expect(await engine.respond(to: .text("buy some paint")).speech == "Depot: Which paint would you like today?")
        memory.recordUse("depot.BuyPaint", values: [:])
        memory.recordUse("depot.BuyPaint", values: [:])
        engine = try Self.engine(memory: memory)
        #expect(await engine.respond(to: .text("buy some paint")).speech == "Which paint?")
    }

    @Test func freeTextIsTakenVerbatimAndHarksPlaceholdersAreFilled() async throws {
        var engine = try Self.engine()
        #expect(await engine.respond(to: .text("check the stock")).speech == "Depot: What should I look for?")
        #expect(engine.expectation.wantsFreeText)
        let reply = await engine.respond(to: .text("Brushes, size 4"))
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US")
        formatter.dateFormat = "h:mm a"
        #expect(reply.speech == "Looking for Brushes, size 4 at \(formatter.string(from: Date(timeIntervalSince1970: 1_795_000_000))).")
        #expect(reply.handled?.request.values["note"]?.identifier == "Brushes, size 4")
    }

    @Test func eachQuestionHasItsOwnGrammar() async throws {
        var engine = try Self.engine()
        _ = await engine.respond(to: .text("buy some paint"))
        let tags = Set(engine.expectation.grammar.rules.map(\.tag))
        #expect(tags.contains(TurnGrammar.Tag.value) && tags.contains(TurnGrammar.Tag.cancel) && tags.contains(TurnGrammar.Tag.help))
        #expect(!tags.contains("depot.BuyPaint"), "the top level is not listened for inside a question")
        #expect(await engine.respond(to: .text("check the stock")).speech == "Red paint or blue paint?")
    }

    /// Hark's own commands must be heard more surely than an app's phrases at the top level,
    /// where any speech may be forced onto one; inside a question they are judged as answers are:
    /// at the top level every rule tagged as Hark's own carries the strictness and no other rule
    /// does, inside a question none does.
    @Test func harksOwnCommandsAreHeardStrictlyAtTheTopLevel() async throws {
        var engine = try Self.engine()
        let top = engine.expectation.grammar.rules
        let own = top.filter { TurnGrammar.isOwnCommand($0.tag) }
        #expect(Set(own.map(\.tag)).isSuperset(of: [TurnGrammar.Tag.cancel, TurnGrammar.Tag.help, TurnGrammar.Tag.repeatThat,
                                                     TurnGrammar.Tag.louder, TurnGrammar.Tag.volume, TurnGrammar.Tag.suggest]))
        #expect(own.allSatisfy { $0.strictness == TurnGrammar.ownCommandStrictness })
        #expect(top.contains { $0.tag == "depot.BuyPaint" })
        #expect(top.filter { !TurnGrammar.isOwnCommand($0.tag) }.allSatisfy { $0.strictness == 0 })
        _ = await engine.respond(to: .text("buy some paint"))
        let question = engine.expectation.grammar.rules
        #expect(question.contains { $0.tag == TurnGrammar.Tag.cancel } && question.contains { $0.tag == TurnGrammar.Tag.value })
        #expect(question.allSatisfy { $0.strictness == 0 })
        #expect(TurnGrammar.ownCommandStrictness > 0)
        #expect(!TurnGrammar.isOwnCommand(TurnGrammar.Tag.yes) && TurnGrammar.isOwnCommand(TurnGrammar.Tag.louder))
    }

    // MARK: "Did you say …?"

    @Test func asksAboutAnUnsureHearingAndGoesAheadOnYes() async throws {
        var engine = try Self.engine()
        let asked = await engine.respond(to: .unsure(["buy", "blue", "paint"]))
        #expect(asked.speech == "Did you say buy blue paint?")
        #expect(asked.expectsAnswer && engine.isInConversation)
        let tags = Set(engine.expectation.grammar.rules.map(\.tag))
        #expect(tags.contains(TurnGrammar.Tag.yes) && tags.contains(TurnGrammar.Tag.no) && tags.contains("depot.BuyPaint"))
        let replies = await Self.converse(&engine, ["yes", "yes", "one two three four"])
        #expect(replies == ["Depot: Ready to order?", "What's your PIN?", "Bought blue paint."])
    }

    @Test func onNoItListensForTheRequestAgain() async throws {
        var engine = try Self.engine()
        _ = await engine.respond(to: .unsure(["buy", "red", "paint"]))
        let reply = await engine.respond(to: .text("no"))
        #expect(reply.speech == "Sorry. What would you like?")
        #expect(reply.expectsAnswer && !engine.isInConversation)
        #expect(!engine.expectation.grammar.rules.contains { $0.tag == TurnGrammar.Tag.no })
        #expect(await engine.respond(to: .text("buy blue paint")).speech == "Depot: Ready to order?")
    }

    /// "Turn on the lamp?" "No.": where the word in doubt has one other meaning, that is asked
    /// about next, once; a second "no" listens for the request again.
    @Test func onNoTheOtherOfTwoMeaningsIsAskedAbout() async throws {
        var engine = try Self.engine()
        let first = await engine.respond(to: .unsure(["buy", "red", "paint"], otherwise: ["buy", "blue", "paint"]))
        #expect(first.speech == "Did you say buy red paint?")
        let other = await engine.respond(to: .text("no"))
        #expect(other.speech == "Then did you say buy blue paint?" && other.expectsAnswer)
        #expect(engine.expectation.grammar.rules.contains { $0.tag == TurnGrammar.Tag.yes })
        let replies = await Self.converse(&engine, ["yes", "yes", "one two three four"])
        #expect(replies == ["Depot: Ready to order?", "What's your PIN?", "Bought blue paint."])

        var twice = try Self.engine()
        _ = await twice.respond(to: .unsure(["buy", "red", "paint"], otherwise: ["buy", "blue", "paint"]))
        _ = await twice.respond(to: .text("no"))
        let again = await twice.respond(to: .text("no"))
        #expect(again.speech == "Sorry. What would you like?" && !twice.isInConversation)
    }

    @Test func insideAQuestionNoAsksTheQuestionAgain() async throws {
        var engine = try Self.engine()
        #expect(await engine.respond(to: .text("buy some paint")).speech == "Depot: Which paint would you like today?")
        #expect(await engine.respond(to: .unsure(["blue", "paint"])).speech == "Did you say blue paint?")
        let again = await engine.respond(to: .text("no")).speech
        #expect(again == "Sorry. Red paint or blue paint?")
        #expect(engine.expectation.grammar.rules.contains { $0.tag == TurnGrammar.Tag.value })
        #expect(await engine.respond(to: .text("red paint")).speech == "Ready to order?")
    }

    @Test func saidAgainInsteadOfYesOrSilenceAfterwards() async throws {
        var engine = try Self.engine()
        _ = await engine.respond(to: .unsure(["buy", "red", "paint"]))
        #expect(await engine.respond(to: .text("buy blue paint")).speech == "Depot: Ready to order?")
        var quiet = try Self.engine()
        _ = await quiet.respond(to: .unsure(["buy", "red", "paint"]))
        let nothing = await quiet.respond(to: .silence)
        #expect(nothing.speech.isEmpty && !nothing.expectsAnswer && !quiet.isInConversation)
        _ = await quiet.respond(to: .unsure(["buy", "red", "paint"]))
        #expect(await quiet.respond(to: .text("help")).speech == "You can say yes or no, or cancel. Did you say buy red paint?")
        #expect(await quiet.respond(to: .text("cancel")).speech == "OK.")
        #expect(!quiet.isInConversation)
    }

    @Test func aRequestLostInNoiseIsAskedForAgainOnce() async throws {
        var engine = try Self.engine()
        let again = await engine.respond(to: .notHeardOverNoise)
        #expect(again.speech == DialogueEngine.notHeardOverNoise)
        #expect(again.expectsAnswer && !engine.isInConversation)
        // Said again and heard: a request like any other.
        #expect(await engine.respond(to: .text("buy blue paint")).speech == "Depot: Ready to order?")

        var lost = try Self.engine()
        _ = await lost.respond(to: .notHeardOverNoise)
        let gaveUp = await lost.respond(to: .notHeardOverNoise)
        #expect(gaveUp.speech == DialogueEngine.stillNotHeardOverNoise && !gaveUp.expectsAnswer)
        // The offer lasts one turn: a later request lost in noise is asked for again.
        #expect(await lost.respond(to: .notHeardOverNoise).speech == DialogueEngine.notHeardOverNoise)
        #expect(await lost.respond(to: .notUnderstood).speech == DialogueEngine.didNotUnderstand)
        _ = await lost.respond(to: .notHeardOverNoise)
        let nothing = await lost.respond(to: .silence)
        #expect(nothing.speech.isEmpty && !nothing.expectsAnswer)
        // A new request (the wake word again) drops the offer too.
        _ = await lost.respond(to: .notHeardOverNoise)
        lost.reset()
        #expect(await lost.respond(to: .notHeardOverNoise).speech == DialogueEngine.notHeardOverNoise)
        #expect(DialogueEngine.saysNotUnderstood(DialogueEngine.notHeardOverNoise))
        #expect(!DialogueEngine.saysNotUnderstood("Depot: Ready to order?"))
    }

    /// A client that names its conversation may never say the prompt went unanswered: a request
    /// lost in noise minutes later is a new one, asked for again, not the retry given up on.
    @Test func theOfferToSayItAgainLapses() async throws {
        var engine = try Self.engine()
        let start = engine.clock()
        _ = await engine.respond(to: .notHeardOverNoise)
        engine.clock = { start.addingTimeInterval(DialogueEngine.retryOverNoiseWindow + 1) }
        #expect(await engine.respond(to: .notHeardOverNoise).speech == DialogueEngine.notHeardOverNoise)
        // Within the window, the second loss is the retry lost.
        engine.clock = { start.addingTimeInterval(DialogueEngine.retryOverNoiseWindow + 20) }
        #expect(await engine.respond(to: .notHeardOverNoise).speech == DialogueEngine.stillNotHeardOverNoise)
    }

    @Test func insideAQuestionALossInNoiseAsksTheQuestionAgain() async throws {
        var noisy = try Self.engine(), quiet = try Self.engine()
        _ = await noisy.respond(to: .text("buy some paint"))
        _ = await quiet.respond(to: .text("buy some paint"))
        let again = await noisy.respond(to: .notHeardOverNoise)
        #expect(again == (await quiet.respond(to: .notUnderstood)))
        #expect(again.expectsAnswer && noisy.isInConversation)
        // The same after "Did you say …?".
        var checking = try Self.engine(), checkingQuiet = try Self.engine()
        _ = await checking.respond(to: .unsure(["buy", "red", "paint"]))
        _ = await checkingQuiet.respond(to: .unsure(["buy", "red", "paint"]))
        #expect(await checking.respond(to: .notHeardOverNoise) == (await checkingQuiet.respond(to: .notUnderstood)))
    }
}

/// Personal and multistep shortcuts in the engine alone, with Swift handlers.
@Suite struct ShortcutEngineTests {
    struct Kitchen: IntentHandler {
        func handle(_ request: IntentRequest) async throws -> HandlerResponse {
            if request.values["dish"]?.identifier == "souffle" { return HandlerResponse(code: .failure, failure: "collapsed") }
            return HandlerResponse(code: .success, values: ["minutes": "20"])
        }
    }

    static func engine() throws -> DialogueEngine {
        let kitchen = try AppCatalog.manifest(yaml: """
            name: Kitchen
            types:
              Dish: {values: [soup, souffle]}
            intents:
              CookDish:
                category: generic
                parameters:
                  dish: {type: Dish, required: true, prompt: Which dish?}
                phrases: [cook <dish>]
                responses:
                  success: Cooking ${dish}, ready in ${result.minutes} minutes.
                  failures: {collapsed: "Sorry, the ${dish} collapsed."}
              MakeNote:
                category: create
                parameters:
                  text: {type: text, required: true, prompt: What should it say?}
                phrases: [make a note]
                responses:
                  success: Noted, ${text}
            """, identifier: "kitchen")
        var engine = DialogueEngine(catalog: AppCatalog(apps: [kitchen]), handlers: HandlerDirectory(["kitchen": Kitchen()]))
        engine.setPersonalShortcuts([
            PersonalShortcut(id: 1, phrase: "dinner", steps: [
                ShortcutStep(app: "kitchen", intent: "CookDish", values: ["dish": "soup"]),
                ShortcutStep(app: "kitchen", intent: "MakeNote", values: ["text": "Soup at ${result.minutes} past."]),
            ]),
            PersonalShortcut(id: 2, phrase: "show off", steps: [
                ShortcutStep(app: "kitchen", intent: "CookDish", values: ["dish": "souffle"]),
                ShortcutStep(app: "kitchen", intent: "MakeNote", values: ["text": "It worked."]),
                ShortcutStep(app: "kitchen", intent: "CookDish", values: ["dish": "soup"]),
            ]),
        ])
        return engine
    }

    @Test func oneStepsOutputIsTheNextOnesInput() async throws {
        var engine = try Self.engine()
        let reply = await engine.respond(to: .words(["dinner"]))
        #expect(reply.speech == "Kitchen: Cooking soup, ready in 20 minutes. Noted, Soup at 20 past.")
        #expect(reply.handledIntents.map(\.request.intent) == ["CookDish", "MakeNote"])
        #expect(reply.handledIntents.last?.request.values["text"]?.identifier == "Soup at 20 past.")
    }

    @Test func aFailedStepStopsTheChainAndSaysWhich() async throws {
        var engine = try Self.engine()
        let reply = await engine.respond(to: .text("show off"))
        #expect(reply.speech == "Kitchen: Sorry, the souffle collapsed. So your shortcut \"show off\" stopped at step 1 of 3.")
        #expect(reply.handledIntents.map(\.request.intent) == ["CookDish"])
        #expect(!engine.isInConversation)
    }

    @Test func thePhraseIsHeardExactlyAndNewPhrasesReplaceOld() async throws {
        var engine = try Self.engine()
        #expect(await engine.respond(to: .text("dinner now")).speech == DialogueEngine.didNotUnderstand)
        engine.setPersonalShortcuts([])
        #expect(await engine.respond(to: .text("dinner")).speech == DialogueEngine.didNotUnderstand)
        #expect(!engine.expectation.grammar.rules.contains { $0.tag.hasPrefix(PersonalShortcut.tagPrefix) })
    }

    @Test func withoutASuggestionSourceThereAreNone() async throws {
        var engine = try Self.engine()
        #expect(await engine.respond(to: .text("any suggestions?")).speech == "I don't have any suggestions yet.")
    }
}
