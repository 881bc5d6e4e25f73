import Foundation
import HarkIntents
import HarkShortcuts
import HarkTestSupport
import Testing

/// Every reason a personal phrase is refused, and the warning, against the bundled apps.
@Suite struct PhraseCheckTests {
    static let check: PhraseCheck = {
        let catalog = (try? AppCatalog.load(from: Fixtures.root.appendingPathComponent("apps"))) ?? AppCatalog(apps: [])
        let mine = PersonalShortcut(id: 7, phrase: "soup time", steps: [ShortcutStep(app: "soup", intent: "OrderSoup")])
        return PhraseCheck(catalog: catalog, shortcuts: [mine])
    }()

    @Test func aFreshPhraseIsAccepted() {
        #expect(Self.check.refusals("Lunch, please!").isEmpty)
        #expect(Self.check.warnings("lunch please").isEmpty)
    }

    @Test func refusals() {
        #expect(Self.check.refusals("  ") == [.empty])
        #expect(Self.check.refusals("order (soup)") == [.notWords("(soup)")])
        #expect(Self.check.refusals("hey jarvis lights") == [.containsWakePhrase("jarvis")])
        #expect(Self.check.refusals("jarvis relax") == [.containsWakePhrase("jarvis")])
        // Split or joined differently, it still sounds like the wake word.
        #expect(Self.check.refusals("jar vis time") == [.containsWakePhrase("jarvis")])
        #expect(Self.check.refusals("jarvis's time") == [.containsWakePhrase("jarvis")])
        #expect(Self.check.refusals("never mind") == [.builtInCommand("never mind")])
        #expect(Self.check.refusals("any suggestions") == [.builtInCommand("any suggestions")])
        #expect(Self.check.refusals("stop the music") == [.commandeers("stop")])
        #expect(Self.check.refusals("please call nine one one") == [.commandeers("call nine one one")])
        #expect(Self.check.refusals("Soup Time") == [.takenByShortcut("soup time")])
        #expect(Self.check.refusals("turn on the garage light") == [.takenByApp(app: "Home", phrase: "turn <state> [the] <name>")])
        #expect(Self.check.refusals("order my usual at corner cafe")
                == [.takenByApp(app: "Corner Cafe", phrase: "order my usual (from | at) (corner cafe | the cafe)")])
        // <app> in the phrase is any of the app's names.
        #expect(Self.check.refusals("order my usual from the cafe")
                == [.takenByApp(app: "Corner Cafe", phrase: "order my usual (from | at) (corner cafe | the cafe)")])
    }

    @Test func aShortcutKeepsItsOwnPhraseWhenEdited() {
        #expect(Self.check.refusals("soup time", replacing: 7).isEmpty)
    }

    @Test func longPhrasesAreWarnedAbout() {
        #expect(Self.check.refusals("please start my usual evening routine").isEmpty)
        #expect(Self.check.warnings("please start my usual evening routine").count == 1)
    }

    @Test func stepsAreChecked() {
        let problems = Self.check.problems([
            ShortcutStep(app: "soup", intent: "OrderSoup", values: ["soup": "gazpacho", "colour": "red", "quantity": "40"]),
            ShortcutStep(app: "weather", intent: "GetForecast"),
            ShortcutStep(app: "home", intent: "Dance"),
            ShortcutStep(app: "messages", intent: "SendMessage", values: ["recipient": "someone_new", "content": "In ${result.minutes}"]),
        ]).map(\.description)
        #expect(problems == [
            "step 1: OrderSoup has no parameter \"colour\" (it has soup, size, quantity, orderType, storeLocation, deliveryLocation)",
            "step 1: quantity=40: That has to be between 1 and 10.",
            "step 1: soup=gazpacho is not a value of Soup (one of clam_chowder, tomato, chicken_noodle, minestrone)",
            "step 2: no app \"weather\" is installed (installed: coffee, home, meditation, messages, soup)",
            "step 3: Home has no intent Dance (it has GetTime, GetTemperature, GetGarageState, ChangeLightState, ChangeLightColor)",
        ])
        #expect(Self.check.problems([ShortcutStep(app: "messages", intent: "SendMessage", values: ["content": "${result.minutes}"])])
                    .map(\.description) == ["step 1: content=${result.minutes} uses an output, but no step comes before it"])
        #expect(Self.check.problems([]).count == 1)
    }

    @Test func stepsFromYAML() throws {
        let steps = try StepsFile.steps(yaml: """
            - intent: soup.OrderSoup
              set: {soup: minestrone, quantity: 2}
            - intent: messages.SendMessage
              set: {recipient: amy_jones, content: "Ready in ${result.minutes} minutes."}
            """)
        #expect(steps == [ShortcutStep(app: "soup", intent: "OrderSoup", values: ["soup": "minestrone", "quantity": "2"]),
                          ShortcutStep(app: "messages", intent: "SendMessage",
                                       values: ["recipient": "amy_jones", "content": "Ready in ${result.minutes} minutes."])])
        #expect(steps[1].inputs == ["minutes"])
        #expect(throws: StepsFile.SyntaxError.self) { try StepsFile.steps(yaml: "- intent: nodot") }
        #expect(throws: StepsFile.SyntaxError.self) { try StepsFile.steps(yaml: "- {intent: a.B, sett: {}}") }
    }
}
