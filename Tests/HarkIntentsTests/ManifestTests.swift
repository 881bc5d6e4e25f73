import Foundation
import HarkGrammar
import HarkIntents
import HarkTestSupport
import Testing

@Suite struct ManifestTests {
    static let minimal = """
    name: Lights
    types:
      Light:
        values:
          - kitchen light
          - spoken: hall lamp
            id: hall
            synonyms: [corridor lamp]
    intents:
      TurnOnLight:
        category: generic
        parameters:
          light:
            type: Light
            required: true
            prompt: Which light?
        phrases:
          - turn on [the] <light>
        responses:
          success: The ${light} is on.
    """

    @Test func readsAManifest() throws {
        let app = try AppCatalog.manifest(yaml: Self.minimal, identifier: "lights")
        #expect(app.name == "Lights")
        #expect(app.identifier == "lights")
        let light = try #require(app.types["Light"])
        #expect(light.values.map(\.identifier) == ["kitchen light", "hall"])
        #expect(light.value(identifier: "hall")?.synonyms == ["corridor lamp"])
        let intent = try #require(app.intent(named: "TurnOnLight"))
        #expect(intent.category == .generic)
        #expect(intent.parameters == [ParameterDefinition(name: "light", type: .enumeration("Light"), isRequired: true, prompt: "Which light?")])
        #expect(intent.phrases.map(\.source) == ["turn on [the] <light>"])
        #expect(intent.responses.success?.placeholders == ["light"])
    }

    @Test func loadsTheBundledHomeApp() throws {
        let catalog = try AppCatalog.load(from: Fixtures.root.appendingPathComponent("apps"))
        let home = try #require(catalog.apps.first { $0.identifier == "home" })
        #expect(home.intents.map(\.name) == ["GetTime", "GetTemperature", "GetGarageState", "ChangeLightState", "ChangeLightColor"])
        #expect(home.types["Light"]?.values.count == 3)
    }

    @Test func buildsTheTopLevelGrammarAndMatchesSynonyms() throws {
        let catalog = AppCatalog(apps: [try AppCatalog.manifest(yaml: Self.minimal, identifier: "lights")])
        let graph = WordGraph(catalog.topLevelGrammar())
        let interpretation = try #require(graph.interpret(["turn", "on", "the", "corridor", "lamp"]))
        let match = try #require(catalog.match(interpretation))
        #expect(match.intent.name == "TurnOnLight")
        #expect(match.values["light"] == IntentMatch.Value(value: ParameterValue(identifier: "hall", spoken: "hall lamp"),
                                                           heard: "corridor lamp"))
    }

    /// What the catalog's top-level grammar makes of typed words: the intent and values, or nil
    /// when the words are not one of its phrases.
    static func hearing(_ catalog: AppCatalog) -> (String) -> IntentMatch? {
        let graph = WordGraph(catalog.topLevelGrammar())
        return { text in graph.interpret(Grammar.words(of: text)).flatMap { catalog.match($0) } }
    }

    /// Home Assistant's timers and brightness as people say them: halves and quarters of a
    /// duration, and a percentage in steps of five, all inside one phrase each.
    @Test func halfDurationsAndSteppedIntegersAreHeardInsideAPhrase() throws {
        let app = try AppCatalog.manifest(yaml: """
            name: Timers
            intents:
              StartTimer:
                parameters:
                  length: {type: duration, required: true, prompt: How long?}
                phrases: [set a timer for <length>]
                responses: {success: ok}
              SetBrightness:
                parameters:
                  level: {type: integer, range: [5, 100], step: 5, required: true, prompt: How bright?}
                phrases: [set the brightness to <level> percent]
                responses: {success: ok}

            """, identifier: "timers")
        let heardBy = Self.hearing(AppCatalog(apps: [app]))
        func heard(_ text: String) -> String? { heardBy(text)?.values.values.first?.value.identifier }
        #expect(heard("set a timer for five and a half minutes") == "330")
        #expect(heard("set a timer for two hours and a half") == "9000")
        #expect(heard("set a timer for an hour and a half") == "5400")
        #expect(heard("set a timer for a quarter of an hour") == "900")
        #expect(heard("set a timer for three quarters of an hour") == "2700")
        #expect(heard("set a timer for ten minutes") == "600")
        #expect(heard("set the brightness to thirty five percent") == "35")
        #expect(heard("set the brightness to one hundred percent") == "100")
        // Not a step: not in the grammar at all.
        #expect(heard("set the brightness to thirty six percent") == nil)
        #expect(heard("set the brightness to one percent") == nil)
    }

    /// Home Assistant's "lock the front door" but not "lock the garage door": a phrase limits a
    /// parameter to some of its values, and another fixes a value it does not say.
    @Test func aPhraseLimitsAParameterToSomeValuesAndSetsAnother() throws {
        let app = try AppCatalog.manifest(yaml: """
            name: Doors
            types:
              Door:
                values:
                  - {spoken: front door, id: front_door}
                  - {spoken: back door, id: back_door}
                  - {spoken: garage door, id: garage_door}
              Action:
                values: [lock, unlock, open, close]
            intents:
              ChangeDoor:
                parameters:
                  door: {type: Door, required: true, prompt: Which door?}
                  action: {type: Action, required: true, prompt: What should I do?}
                phrases:
                  - {phrase: "lock [the] <door>", only: {door: [front_door, back_door]}, set: {action: lock}}
                  - {phrase: "open [the] <door>", only: {door: garage_door}, set: {action: open}}
                  - please <action> [the] <door>
                responses: {success: ok}

            """, identifier: "doors")
        #expect(app.intents[0].phraseOptions[0] == PhraseOptions(only: ["door": ["front_door", "back_door"]], presets: ["action": "lock"]))
        let heardBy = Self.hearing(AppCatalog(apps: [app]))
        func heard(_ text: String) -> [String: String]? { heardBy(text)?.values.mapValues(\.value.identifier) }
        #expect(heard("lock the front door") == ["door": "front_door", "action": "lock"])
        #expect(heard("lock the garage door") == nil)
        #expect(heard("open the garage door") == ["door": "garage_door", "action": "open"])
        #expect(heard("open the back door") == nil)
        // The plain phrase still takes every door.
        #expect(heard("please lock the garage door") == ["door": "garage_door", "action": "lock"])
    }

    @Test func refusesPhraseOptionsThatNameWhatThePhraseCannotUse() {
        let yaml = """
            name: Doors
            types:
              Door:
                values: [front door, back door]
            intents:
              LockDoor:
                parameters:
                  door: {type: Door, required: true, prompt: Which door?}
                  count: {type: integer}
                phrases:
                  - {phrase: "lock [the] <door>", only: {door: [side door], count: [1]}, set: {door: front door}}
                  - {phrase: "bolt it", only: {colour: [red]}}
                responses: {success: ok}

            """
        #expect {
            _ = try AppCatalog.manifest(yaml: yaml, identifier: "doors")
        } throws: { error in
            let reasons = (error as? ManifestError)?.problems.map(\.reason) ?? []
            return reasons.contains { $0.hasPrefix("only: door names \"side door\", which is not a value of Door") }
                && reasons.contains("only: names <count>, which the phrase \"lock [the] <door>\" does not say")
                && reasons.contains("set: gives <door> a value, but the phrase \"lock [the] <door>\" says it")
                && reasons.contains("only: names colour, which is not a parameter of LockDoor")
        }
    }

    @Test func refusesAStepThatIsNotAWholeNumberOrOnTheWrongType() {
        for (parameter, reason) in [
            ("{type: integer, range: [0, 100], step: 2.5}", "step: of an integer parameter is a whole number above 0"),
            ("{type: integer, range: [0, 100], step: 0}", "step: of an integer parameter is a whole number above 0"),
            ("{type: boolean, step: 2}", "step: applies to integer and decimal parameters"),
        ] {
            let yaml = """
                name: Steps
                intents:
                  SetLevel:
                    parameters:
                      level: \(parameter)
                    phrases: [set the level to <level>]
                    responses: {success: ok}

                """
            #expect {
                _ = try AppCatalog.manifest(yaml: yaml, identifier: "steps")
            } throws: { error in
                (error as? ManifestError)?.problems.contains { $0.reason == reason && $0.line == 5 } == true
            }
        }
    }

    /// Every problem is reported at once, each with its line.
    @Test func refusesABadManifestWithLinesAndReasons() throws {
        let yaml = """
        name: Broken
        colour: blue
        types:
          Size:
            values: [small, large]
        intents:
          order_soup:
            category: shopping
            parameters:
              size:
                type: Sise
                required: true
            phrases:
              - order a <size> <flavour>
              - order (soup
            responses:
              success: Ordering ${quantity}.
        """
        #expect {
            _ = try AppCatalog.manifest(yaml: yaml, identifier: "broken", file: "broken/app.yaml")
        } throws: { error in
            guard let error = error as? ManifestError else { return false }
            let lines = error.problems.map(\.description)
            let expected = [
                "broken/app.yaml:2: unknown key \"colour\"",
                "broken/app.yaml:7: intent name \"order_soup\" should be VerbNoun",
                "broken/app.yaml:8: unknown category \"shopping\"",
                "broken/app.yaml:11: parameter size has unknown type \"Sise\"",
                "broken/app.yaml:11: required parameter size needs a prompt",
                "broken/app.yaml:14: phrase \"order a <size> <flavour>\" names <flavour>, which is not a parameter of order_soup",
                "broken/app.yaml:15: in phrase \"order (soup\"",
                "broken/app.yaml:17: response \"Ordering ${quantity}.\" names ${quantity}, which is not a parameter",
            ]
            for line in expected where !lines.contains(where: { $0.hasPrefix(line) || $0.contains(line) }) {
                Issue.record("missing problem: \(line)\nall problems:\n\(lines.joined(separator: "\n"))")
            }
            return error.problems.count == expected.count
        }
    }

    @Test func refusesYAMLThatDoesNotParse() {
        #expect {
            _ = try AppCatalog.manifest(yaml: "name: [unclosed\nintents: {}", identifier: "x", file: "x/app.yaml")
        } throws: { error in
            guard let error = error as? ManifestError, let problem = error.problems.first else { return false }
            return problem.reason.hasPrefix("not valid YAML") && problem.file == "x/app.yaml"
        }
    }

    @Test func refusesAnEmptyAppsFolder() throws {
        let directory = try temporaryDirectory()
        #expect {
            _ = try AppCatalog.load(from: directory)
        } throws: { error in
            (error as? ManifestError)?.problems.first?.reason.contains("no apps here") == true
        }
    }

    @Test func reportsProblemsOfEveryAppTogether() throws {
        let directory = try temporaryDirectory()
        for name in ["one", "two"] {
            let folder = directory.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "name: \(name)\n".write(to: folder.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        }
        #expect {
            _ = try AppCatalog.load(from: directory)
        } throws: { error in
            guard let error = error as? ManifestError else { return false }
            return error.problems.count == 2 && error.problems.allSatisfy { $0.reason.contains("no intents") }
        }
    }
}

@Suite struct ResponseTemplateTests {
    @Test func rendersAndSkipsMissingValues() throws {
        let template = try ResponseTemplate("Turning ${state} the ${name}.")
        #expect(template.placeholders == ["state", "name"])
        #expect(template.render(["state": "on", "name": "garage light"]) == "Turning on the garage light.")
        #expect(template.render(["name": "garage light"]) == "Turning the garage light.")
    }

    @Test func refusesAnUnclosedPlaceholder() {
        #expect(throws: ResponseTemplate.SyntaxError.self) { _ = try ResponseTemplate("Hello ${name") }
        #expect(throws: ResponseTemplate.SyntaxError.self) { _ = try ResponseTemplate("Hello ${ }") }
    }
}
