import Foundation
import HarkGrammar
import HarkIntents
import HarkNumbers
import HarkTestSupport
import Testing

/// The rules a manifest must follow, each refused (or warned about) with its line and reason.
@Suite struct ManifestValidationTests {
    static func problems(_ yaml: String) -> [String] {
        do {
            _ = try AppCatalog.manifest(yaml: yaml, identifier: "app", file: "app.yaml")
            return []
        } catch {
            return error.problems.map(\.description)
        }
    }

    static func expectProblem(_ yaml: String, _ fragment: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let found = problems(yaml)
        #expect(found.contains { $0.contains(fragment) }, "expected a problem containing \"\(fragment)\"; got \(found)",
                sourceLocation: sourceLocation)
    }

    static let header = """
    name: Soup Shack
    types:
      Soup:
        values: [tomato, minestrone]
    """

    @Test func refusesATemplateNamingAnUnknownParameter() {
        Self.expectProblem(Self.header + """

        intents:
          OrderSoup:
            parameters:
              soup: {type: Soup, required: true, prompt: Which soup?}
            phrases: [order <soup>]
            responses:
              confirmation: That is ${total}.
        """, "app.yaml:11: response \"That is ${total}.\" names ${total}, which is not a parameter")
    }

    @Test func acceptsHandlerResultsInTemplates() throws {
        let app = try AppCatalog.manifest(yaml: Self.header + """

        intents:
          OrderSoup:
            category: order
            parameters:
              soup: {type: Soup, required: true, prompt: Which soup?}
            phrases: [order <soup>]
            responses:
              confirmation: That is ${result.total}.
              failures:
                outOfStock: Sorry, we're out of ${soup}.
        """, identifier: "soup")
        let intent = try #require(app.intent(named: "OrderSoup"))
        #expect(intent.needsConfirmation && intent.needsAuthentication)
        #expect(intent.responses.failures["outOfStock"]?.placeholders == ["soup"])
        #expect(intent.verb == "order")
    }

    @Test func refusesAVerbOutsideTheCategory() {
        Self.expectProblem("""
        name: Notes
        intents:
          CreateNote:
            category: create
            verb: order
            phrases: [new note]
        """, "verb \"order\" is not one of the create category's verbs: create, add")
    }

    @Test func refusesToSkipConfirmationOfAnOrder() {
        Self.expectProblem(Self.header + """

        intents:
          OrderSoup:
            category: order
            confirm: false
            phrases: [order soup]
        """, "always confirmed and authenticated")
    }

    /// An intent that says only phrases of Hark's own commands in the app's words needs no other
    /// phrases; a phrase that is none of those commands is refused.
    @Test func anIntentMaySayHarksOwnCommands() throws {
        let app = try AppCatalog.manifest(yaml: """
            name: Home
            intents:
              StopAsking:
                ownCommandPhrases: [Never mind, forget it]
            """, identifier: "home")
        #expect(app.intent(named: "StopAsking")?.ownCommandPhrases == ["never mind", "forget it"])
        #expect(app.intent(named: "StopAsking")?.phrases.isEmpty == true)
        Self.expectProblem("""
        name: Home
        intents:
          StopAsking:
            ownCommandPhrases: [turn it off]
        """, "ownCommandPhrases: \"turn it off\" is none of Hark's own commands")
    }

    @Test func refusesFreeTextWithNothingBesideIt() {
        Self.expectProblem("""
        name: Notes
        intents:
          CreateNote:
            parameters:
              text: {type: text, required: true, prompt: What should it say?}
            phrases: ["[note] <text>"]
        """, "<text> is free text")
    }

    @Test func freeTextInsideAPhraseNeedsWordsAroundItAndIsSaidOnce() throws {
        Self.expectProblem("""
        name: Notes
        types:
          Color: {values: [red]}
        intents:
          CreateNote:
            parameters:
              text: {type: text, required: true, prompt: What should it say?}
              title: {type: text}
            phrases: [make a note called <title> saying <text>]
        """, "says free text twice (<title>, <text>)")
        // Free text with nothing beside it, however the phrase is said, would be anything said.
        Self.expectProblem("""
        name: Notes
        types:
          Color: {values: [red]}
        intents:
          CreateNote:
            parameters:
              text: {type: text, required: true, prompt: What should it say?}
              color: {type: Color}
            phrases: ["[<color>] <text>"]
        """, "needs another word beside it")
        // A parameter's words beside the text count: "<color> <text>" is a phrase.
        #expect(throws: Never.self) {
            try AppCatalog.manifest(yaml: """
                name: Notes
                types:
                  Color: {values: [red]}
                intents:
                  CreateNote:
                    category: create
                    parameters:
                      text: {type: text, required: true, prompt: What should it say?}
                      color: {type: Color}
                    phrases: [<color> <text>]
                    responses: {success: Noted.}
                """, identifier: "notes")
        }
        Self.expectProblem("""
        name: Notes
        intents:
          CreateNote:
            parameters:
              text: {type: text, required: true, prompt: What should it say?, maxWords: 12}
            phrases: [make a note saying <text>]
        """, "maxWords: is a whole number from 1 to 8")
        Self.expectProblem("""
        name: Notes
        intents:
          CreateNote:
            parameters:
              count: {type: integer, maxWords: 2}
            phrases: [make <count> notes]
        """, "maxWords: applies to text parameters")
        #expect(throws: Never.self) {
            try AppCatalog.manifest(yaml: """
                name: Notes
                intents:
                  CreateNote:
                    category: create
                    parameters:
                      text: {type: text, required: true, prompt: What should it say?, maxWords: 6}
                    phrases: [make a note saying <text>]
                    responses: {success: Noted.}
                """, identifier: "notes")
        }
    }

    @Test func refusesAChildAskedBeforeItsParent() {
        Self.expectProblem(Self.header + """

        intents:
          OrderSoup:
            parameters:
              address: {type: text, askWhen: {orderType: delivery}, prompt: Where to?}
            phrases: [order soup]
        """, "askWhen: names orderType, which is not a parameter declared before this one")
    }

    @Test func refusesADefaultThatIsNotAValue() {
        Self.expectProblem(Self.header + """

        intents:
          OrderSoup:
            parameters:
              soup: {type: Soup, default: gazpacho}
            phrases: [order soup]
        """, "default \"gazpacho\" is not a value of Soup")
    }

    @Test func refusesAnUnknownSystemIntentAndNamesTheKnownOnes() {
        Self.expectProblem("""
        name: Chirp
        systemIntents: [SendFax]
        """, "unknown system intent \"SendFax\"; Hark offers lists: AddToList; media: PlayMedia")
    }

    @Test func adoptsASystemIntentWithHarksPrompts() throws {
        let app = try AppCatalog.manifest(yaml: """
        name: Chirp
        systemIntents: [SendMessage]
        types:
          Contact:
            dynamic: true
        """, identifier: "chirp")
        let intent = try #require(app.intent(named: "SendMessage"))
        #expect(intent.systemDomain == "messaging")
        #expect(intent.parameter(named: "recipient")?.prompt == "Who do you want to send it to?")
        #expect(intent.parameter(named: "content")?.type == .text)
        #expect(app.types["Contact"]?.isDynamic == true)
        // The app's name may be said at the end of its phrases.
        let graph = WordGraph(AppCatalog(apps: [app]).topLevelGrammar())
        #expect(graph.interpret(["send", "a", "message", "with", "chirp"])?.tag == "chirp.SendMessage")
    }

    @Test func refusesASystemIntentWithoutItsType() {
        Self.expectProblem("""
        name: Chirp
        systemIntents: [SendMessage]
        """, "SendMessage needs a type Contact under types:")
    }

    // MARK: App Shortcuts

    static func shortcuts(_ list: String) -> String {
        """
        name: Serene
        types:
          Kind:
            values: [morning, sleep]
        intents:
          StartMeditation:
            category: start
            parameters:
              kind: {type: Kind}
              minutes: {type: integer, range: [1, 60]}
            phrases: [start meditation]
        shortcuts:
        \(list)
        """
    }

    /// `<app>` is any of the app's names, so a shortcut says the app however it is called.
    @Test func appInAPhraseIsAnyOfTheAppsNames() throws {
        let app = try AppCatalog.manifest(yaml: """
            name: Corner Cafe
            alternativeNames: [the cafe]
            intents:
              OrderCoffee:
                phrases: [order a coffee from <app>]
                responses: {success: ok}
            shortcuts:
              - {phrase: order my usual at <app>, intent: OrderCoffee}

            """, identifier: "cafe")
        let sentences = PhraseExpansion.sentences(of: app.shortcuts[0].phrase)?.map { $0.joined(separator: " ") }
        #expect(Set(sentences ?? []) == ["order my usual at corner cafe", "order my usual at the cafe"])
        let ordered = PhraseExpansion.sentences(of: app.intents[0].phrases[0])?.map { $0.joined(separator: " ") }
        #expect(Set(ordered ?? []) == ["order a coffee from corner cafe", "order a coffee from the cafe"])
    }

    @Test func refusesAShortcutThatDoesNotNameTheApp() {
        Self.expectProblem(Self.shortcuts("  - {phrase: 'start [<kind>] meditation', intent: StartMeditation}"),
                           "must say the app's name")
        Self.expectProblem(Self.shortcuts("  - {phrase: 'start meditation [in serene]', intent: StartMeditation}"),
                           "must say the app's name")
    }

    @Test func refusesAShortcutWithTwoParameters() {
        Self.expectProblem(Self.shortcuts("  - {phrase: start <kind> meditation for <minutes> in serene, intent: StartMeditation}"),
                           "at most one parameter; this one has <kind>, <minutes>")
    }

    @Test func refusesMoreThanTenShortcuts() {
        let list = (1...11).map { "  - {phrase: meditation \(NumberWords.spoken($0) ?? "") in serene, intent: StartMeditation}" }
        Self.expectProblem(Self.shortcuts(list.joined(separator: "\n")), "11 App Shortcuts; an app may offer at most 10")
    }

    @Test func warnsAboutALongInvocationPhrase() throws {
        let app = try AppCatalog.manifest(yaml: Self.shortcuts(
            "  - {phrase: please start my lovely calm meditation in serene, intent: StartMeditation}\n" +
            "  - {phrase: 'start [<kind>] meditation in serene', intent: StartMeditation}"), identifier: "serene")
        #expect(app.shortcuts.count == 2)
        #expect(app.warnings.count == 1)
        #expect(app.warnings.first?.reason.contains("is long (6 words besides the app name)") == true)
    }

    // MARK: Between apps

    static func install(_ apps: [String: String]) throws -> URL {
        let directory = try temporaryDirectory()
        for (name, yaml) in apps {
            let folder = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try yaml.write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        }
        return directory
    }

    static func loadProblems(_ apps: [String: String], wakePhrase: String = AppCatalog.defaultWakePhrase) throws -> [String] {
        let directory = try install(apps)
        do {
            _ = try AppCatalog.load(from: directory, wakePhrase: wakePhrase)
            return []
        } catch {
            return error.problems.map(\.reason)
        }
    }

    static func app(_ name: String, phrase: String, alternative: String = "[]") -> String {
        """
        name: \(name)
        alternativeNames: \(alternative)
        intents:
          DoThing:
            phrases: ["\(phrase)"]
        """
    }

    /// The same words in two apps load, with a warning: Hark asks which app is meant.
    @Test func warnsOfTheSamePhraseInTwoApps() throws {
        let directory = try Self.install(["a": Self.app("Alpha", phrase: "lights on"), "b": Self.app("Beta", phrase: "[all] lights on")])
        let catalog = try AppCatalog.load(from: directory)
        #expect(catalog.apps.count == 2)
        #expect(catalog.warnings.map(\.reason).contains(
            "phrase \"[all] lights on\" can be said the same way as a's \"lights on\" (\"lights on\"): Hark will ask which app is meant"))
    }

    /// Home Assistant's "is the {name} locked" and "is the {name} open" in two apps: the same
    /// words around a parameter are one phrase only when the two apps' values can meet.
    @Test func theSamePhraseInTwoAppsIsTheirOwnWhenTheirValuesCannotMeet() throws {
        func app(_ name: String, _ values: [String]) -> String {
            """
            name: \(name)
            types:
              Thing:
                values: [\(values.joined(separator: ", "))]
            intents:
              CheckThing:
                parameters:
                  name: {type: Thing, required: true, prompt: Which one?}
                phrases: ["is the <name> shut"]
                responses: {success: ok}
            """
        }
        #expect(try Self.loadProblems(["locks": app("Locks", ["front door", "back door"]),
                                       "windows": app("Windows", ["garage window", "attic window"])]).isEmpty)
        let directory = try Self.install(["locks": app("Locks", ["front door", "back door"]),
                                          "windows": app("Windows", ["garage window", "attic window"])])
        let catalog = try AppCatalog.load(from: directory)
        let graph = WordGraph(catalog.topLevelGrammar())
        func heard(_ text: String) -> String? {
            graph.interpret(Grammar.words(of: text)).flatMap { catalog.match($0) }.map { "\($0.app.identifier) \($0.values["name"]?.value.identifier ?? "")" }
        }
        #expect(heard("is the front door shut") == "locks front door")
        #expect(heard("is the attic window shut") == "windows attic window")
        #expect(catalog.sharedPhrases().isEmpty)
        // A value both apps have: the phrase could mean either; it loads, with a warning, and
        // the conversation asks which app is meant (WhichAppTests).
        let overlap = try AppCatalog.load(from: try Self.install(["locks": app("Locks", ["front door", "back door"]),
                                                                  "windows": app("Windows", ["garage window", "front door"])]))
        #expect(overlap.sharedPhrases().map(\.reason) == [
            "phrase \"is the <name> shut\" can be said the same way as locks's \"is the <name> shut\" (\"is the <name> shut\"): Hark will ask which app is meant",
        ])
    }

    @Test func refusesAnotherAppsName() throws {
        let problems = try Self.loadProblems(["a": Self.app("Alpha", phrase: "one"),
                                              "b": Self.app("Beta", phrase: "two", alternative: "[alpha]")])
        #expect(problems.count == 1)
        #expect(problems.first?.contains("the name \"alpha\" is already a's") == true)
    }

    @Test func refusesTheWakePhraseInsideAPhrase() throws {
        let problems = try Self.loadProblems(["a": Self.app("Alpha", phrase: "hey jarvis lights on")])
        #expect(problems == ["phrase \"hey jarvis lights on\" contains the wake phrase \"jarvis\""])
        // The phrase the device listens for, not a longer one: "jarvis go home" would wake it.
        #expect(try Self.loadProblems(["a": Self.app("Alpha", phrase: "jarvis go home")]).count == 1)
        #expect(try Self.loadProblems(["a": Self.app("Alpha", phrase: "computer lights on")], wakePhrase: "computer").count == 1)
    }

    @Test func refusesAPhraseThatTakesOverABuiltInCommand() throws {
        let problems = try Self.loadProblems(["a": Self.app("Alpha", phrase: "(cancel | stop) [the music]")])
        #expect(problems.count == 1)
        #expect(problems.first?.contains("which is Hark's own command") == true)
    }

    @Test func theBundledAppsLoadWithoutProblems() throws {
        let catalog = try AppCatalog.load(from: Fixtures.root.appendingPathComponent("apps"))
        #expect(catalog.apps.map(\.identifier) == ["coffee", "home", "meditation", "messages", "soup"])
        #expect(catalog.warnings.isEmpty, "\(catalog.warnings)")
        #expect(catalog.app("messages")?.handler == .program(command: ["python3", "handler.py"], timeoutSeconds: 5))
    }
}
