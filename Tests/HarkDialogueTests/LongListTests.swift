import HarkDialogue
import HarkGrammar
import HarkIntents
import Testing

/// A question with more options than a listener can hold offers the first few and "or someone
/// else", and still takes any of them.
@Suite struct LongListTests {
    static let surnames = ["adams", "baker", "clark", "davis", "evans", "fisher", "green", "hughes", "irwin", "jones",
                           "king", "lee"]

    /// Twelve people called Amy, and twelve paints that are all "white".
    static func engine() throws -> DialogueEngine {
        let contacts = surnames.map { "      - {spoken: amy \($0), id: amy_\($0), synonyms: [amy]}" }.joined(separator: "\n")
        let chirp = try AppCatalog.manifest(yaml: """
            name: Chirp
            systemIntents: [SendMessage]
            types:
              Contact:
                values:
            \(contacts)
            """, identifier: "chirp")
        let paints = surnames.map { "      - {spoken: \($0) white, id: \($0), synonyms: [white]}" }.joined(separator: "\n")
        let depot = try AppCatalog.manifest(yaml: """
            name: Depot
            types:
              Paint:
                values:
            \(paints)
            intents:
              BuyPaint:
                category: generic
                parameters:
                  paint: {type: Paint, required: true, prompt: Which paint?}
                phrases: ['buy <paint> paint']
                responses:
                  success: Bought ${paint}.
            """, identifier: "depot")
        return DialogueEngine(catalog: AppCatalog(apps: [chirp, depot]))
    }

    @Test func twelvePeopleAreOfferedAsThreeAndSomeoneElse() async throws {
        var engine = try Self.engine()
        let asked = await engine.respond(to: .text("send a message to amy"))
        #expect(asked.speech == "Chirp: Which amy? Amy adams, amy baker, amy clark or someone else?")
        #expect(!asked.speech.contains("amy lee"), "the twelfth is not read out")
        // Said again shorter, and in help, still three and the rest.
        #expect(await engine.respond(to: .text("pardon me")).speech == "Amy adams, amy baker, amy clark or someone else?")
    }

    @Test func anyOfTheTwelveCanStillBeChosen() async throws {
        for (answer, chosen) in [("amy lee", "amy_lee"), ("amy fisher", "amy_fisher"), ("the second one", "amy_baker")] {
            var engine = try Self.engine()
            _ = await engine.respond(to: .text("send a message to amy"))
            #expect(await engine.respond(to: .text(answer)).speech == "What do you want to say?", "\(answer)")
            _ = await engine.respond(to: .text("See you soon."))
            let sent = await engine.respond(to: .text("yes"))
            #expect(sent.handled?.request.values["recipient"]?.identifier == chosen, "\(answer)")
        }
    }

    /// Positions count only what was read out: "the last one" is the last offered.
    @Test func ordinalsPickFromWhatWasOffered() async throws {
        var engine = try Self.engine()
        _ = await engine.respond(to: .text("send a message to amy"))
        let graph = WordGraph(engine.expectation.grammar)
        #expect(graph.interpret(["the", "third", "one"]) != nil)
        #expect(graph.interpret(["the", "fifth", "one"]) == nil, "the fifth was not read out")
        #expect(await engine.respond(to: .text("the last one")).speech == "What do you want to say?")
        _ = await engine.respond(to: .text("Hello."))
        #expect(await engine.respond(to: .text("yes")).handled?.request.values["recipient"]?.identifier == "amy_clark")
    }

    @Test func helpOffersTheSameFew() async throws {
        var engine = try Self.engine()
        _ = await engine.respond(to: .text("send a message to amy"))
        let help = await engine.respond(to: .text("help")).speech
        // The question read them out already: help lists them once, without asking it again.
        #expect(help == "You can say amy adams, amy baker, amy clark or the first one, or cancel.")
    }

    @Test func thingsAreOfferedAsSomethingElse() async throws {
        var engine = try Self.engine()
        let asked = await engine.respond(to: .text("buy white paint"))
        #expect(asked.speech == "Depot: Which white? Adams white, baker white, clark white or something else?")
        #expect(await engine.respond(to: .text("lee white")).speech == "Bought lee white.")
    }

    /// Five or fewer are read in full, as before.
    @Test func aShortListIsReadInFull() async throws {
        var engine = try DialogueEngine(catalog: AppCatalog(apps: [AppCatalog.manifest(yaml: """
            name: Chirp
            systemIntents: [SendMessage]
            types:
              Contact:
                values:
                  - {spoken: amy smith, id: amy_smith, synonyms: [amy]}
                  - {spoken: amy jones, id: amy_jones, synonyms: [amy]}
            """, identifier: "chirp")]))
        #expect(await engine.respond(to: .text("send a message to amy")).speech == "Chirp: Which amy? Amy smith or amy jones?")
    }
}
