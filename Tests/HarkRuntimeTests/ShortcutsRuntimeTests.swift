import Foundation
import HarkDialogue
import HarkExampleApps
import HarkIntents
import HarkRuntime
import HarkShortcuts
import HarkStore
import HarkTestSupport
import Testing

/// Shortcuts, donations, automations and suggestions with the bundled apps and a real database file.
@Suite struct ShortcutsRuntimeTests {
    struct Setup {
        var configuration: AssistantConfiguration
        var store: ShortcutStore
        var data: URL
    }

    static func setup(pin: String? = "5150") throws -> Setup {
        let data = try temporaryDirectory()
        let database = data.appendingPathComponent("shortcuts.sqlite")
        let configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: nil,
            inProcessHandlers: ExampleApps.handlers, authenticator: FixedPIN(pin), dataDirectory: data, database: database)
        return Setup(configuration: configuration, store: try ShortcutStore(url: database), data: data)
    }

    @Test func everyHandledIntentIsDonated() async throws {
        let setup = try Self.setup()
        var (engine, _) = try await Assistant.dialogueEngine(setup.configuration)
        _ = await engine.respond(to: .text("turn on the garage light"))
        _ = await engine.respond(to: .text("what time is it"))
        // Not carried out: not donated.
        _ = await engine.respond(to: .text("order a large coffee"))
        _ = await engine.respond(to: .text("cancel"))
        let donations = try setup.store.donations()
        #expect(donations.map { "\($0.app).\($0.intent)" } == ["home.ChangeLightState", "home.GetTime"])
        #expect(donations.first?.values["state"]?.identifier == "on")
    }

    /// An app becomes familiar with use and is no longer named in replies; that survives a
    /// restart, because the history of use is kept with the donations.
    @Test func anAppFamiliarBeforeARestartIsStillFamiliarAfterIt() async throws {
        let setup = try Self.setup()
        var (engine, _) = try await Assistant.dialogueEngine(setup.configuration)
        var replies: [String] = []
        for _ in 0..<3 { replies.append(await engine.respond(to: .text("what time is it")).speech) }
        #expect(replies[0].hasPrefix("Home: "), "\(replies)")
        #expect(!replies[2].hasPrefix("Home: "), "\(replies)")
        // Another process on the same database: still familiar, and the other apps still are not.
        var (restarted, _) = try await Assistant.dialogueEngine(setup.configuration)
        let again = await restarted.respond(to: .text("what time is it")).speech
        #expect(!again.hasPrefix("Home: ") && again.contains("It's"), "\(again)")
        let soup = await restarted.respond(to: .text("order soup")).speech
        #expect(soup.hasPrefix("Soup Shack: ") || soup.contains("Soup Shack"), "\(soup)")
        // With its donations forgotten, so is the familiarity.
        try setup.store.deleteDonations(DonationFilter(app: "home"))
        var forgetting = try await Assistant.dialogueEngine(setup.configuration).0
        #expect(await forgetting.respond(to: .text("what time is it")).speech.hasPrefix("Home: "))
    }

    /// Chirp's handler program says a contact is gone in its options reply; Hark forgets the donations about it.
    @Test func aHandlerProgramDeletesDonationsThroughTheProtocol() async throws {
        let setup = try Self.setup()
        let content = ParameterValue(identifier: "hi", spoken: "hi")
        for contact in ["amy_jones", "bob_lee"] {
            try setup.store.donate(Donation(app: "messages", intent: "SendMessage",
                                            values: ["recipient": .init(identifier: contact, spoken: contact), "content": content],
                                            date: Date()))
        }
        try setup.store.donate(Donation(app: "soup", intent: "OrderSoup", values: ["recipient": .init(identifier: "amy_jones", spoken: "")],
                                        date: Date()))
        let folder = setup.data.appendingPathComponent("apps/messages")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try "amy_jones\n".write(to: folder.appendingPathComponent("deleted-contacts"), atomically: true, encoding: .utf8)
        let (engine, problems) = try await Assistant.dialogueEngine(setup.configuration)
        #expect(problems.isEmpty)
        #expect(try setup.store.donations(app: "messages").map { $0.values["recipient"]?.identifier } == ["bob_lee"])
        // Another app's donations are not Chirp's to delete.
        #expect(try setup.store.donations(app: "soup").count == 1)
        #expect(engine.catalog.app("messages")?.types["Contact"]?.values.map(\.identifier) == ["amy_smith", "bob_lee"])
    }

    /// A Swift handler deletes donations in its response; the app is always its own.
    @Test func aSwiftHandlerDeletesDonationsInItsResponse() async throws {
        struct Forgetful: IntentHandler {
            func handle(_ request: IntentRequest) async throws -> HandlerResponse {
                HandlerResponse(code: .success, deleteDonations: [DonationFilter(app: "soup", values: ["state": "off"])])
            }
        }
        var setup = try Self.setup()
        setup.configuration.inProcessHandlers["home"] = Forgetful()
        let off = ParameterValue(identifier: "off", spoken: "off")
        try setup.store.donate(Donation(app: "home", intent: "ChangeLightState", values: ["state": off], date: Date()))
        try setup.store.donate(Donation(app: "soup", intent: "OrderSoup", values: ["state": off], date: Date()))
        var (engine, _) = try await Assistant.dialogueEngine(setup.configuration)
        _ = await engine.respond(to: .text("turn on the garage light"))
        let left = try setup.store.donations().map { "\($0.app) \($0.values["state"]?.identifier ?? "")" }
        #expect(left == ["soup off", "home on"])
    }

    /// `hark shortcuts add` in another process while Hark runs: the next request hears the phrase.
    /// The watcher looks every `ShortcutsReloader.pollInterval` (0.5 s); the deadline here is
    /// generous because parallel tests can hold the machine for seconds, and a timing budget
    /// belongs in a benchmark, not a unit test.
    @Test func aRunningConversationHearsANewShortcut() async throws {
        let setup = try Self.setup()
        let (engine, _) = try await Assistant.dialogueEngine(setup.configuration)
        let conversation = ConversationService(engine)
        let watcher = ShortcutsReloader.watch(setup.store) { shortcuts in await conversation.setPersonalShortcuts(shortcuts) }
        defer { watcher.cancel() }
        let before = await conversation.respond(to: .text("garage on")).0
        #expect(before.speech == DialogueEngine.didNotUnderstand)

        let other = try ShortcutStore(url: setup.store.url)
        try other.addShortcut(phrase: "garage on", steps: [ShortcutStep(app: "home", intent: "ChangeLightState",
                                                                        values: ["name": "garage light", "state": "on"])])
        let clock = ContinuousClock()
        let started = clock.now
        while await conversation.personalShortcuts.isEmpty, clock.now - started < .seconds(15) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await !conversation.personalShortcuts.isEmpty, "not reloaded after \(clock.now - started)")
        let after = await conversation.respond(to: .text("garage on")).0
        #expect(after.speech == "Home: Turning on the garage light.")
    }

    /// A shortcut stored before the wake phrase changed, which now says it, is left out and
    /// named at start-up; the others still work.
    @Test func aShortcutThatNowSaysTheWakePhraseIsLeftOutAndNamed() async throws {
        var setup = try Self.setup()
        let step = ShortcutStep(app: "home", intent: "ChangeLightState",
                                values: ["state": "on", "name": "garage light"])
        _ = try setup.store.addShortcut(phrase: "computer lights", steps: [step])
        _ = try setup.store.addShortcut(phrase: "garage on", steps: [step])
        setup.configuration.wakePhrase = "computer"
        var (engine, problems) = try await Assistant.dialogueEngine(setup.configuration)
        #expect(problems.contains { $0.contains("\"computer lights\" says the wake phrase \"computer\"") }, "\(problems)")
        let saysWake = await engine.respond(to: .text("computer lights"))
        #expect(saysWake.speech == DialogueEngine.didNotUnderstand)
        let other = await engine.respond(to: .text("garage on"))
        #expect(other.speech == "Home: Turning on the garage light.")
    }

    /// An automation due now runs its shortcut and gives the spoken result; it runs once per firing.
    @Test func anAutomationRunsItsShortcutAndSpeaks() async throws {
        let setup = try Self.setup()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let shortcut = try setup.store.addShortcut(phrase: "porch light", steps: [
            ShortcutStep(app: "home", intent: "ChangeLightState", values: ["name": "garage light", "state": "on"]),
        ])
        // Made on Thursday 2026-03-05; fires at 18:30 on workdays.
        let made = try #require(ISO8601DateFormatter().date(from: "2026-03-05T09:00:00Z"))
        try setup.store.addAutomation(shortcutID: shortcut.id, time: TimeOfDay("18:30")!, days: .workdays, at: made)
        let (engine, _) = try await Assistant.dialogueEngine(setup.configuration)
        let conversation = ConversationService(engine)
        let runner = AutomationRunner(store: setup.store, schedule: AutomationSchedule(calendar: calendar))

        let early = try #require(ISO8601DateFormatter().date(from: "2026-03-05T18:29:00Z"))
        #expect(try await runner.runDue(at: early, in: conversation).isEmpty)
        let due = try #require(ISO8601DateFormatter().date(from: "2026-03-05T18:30:20Z"))
        let ran = try await runner.runDue(at: due, in: conversation)
        #expect(ran.map(\.1.speech) == ["Home: Turning on the garage light."])
        #expect(ran.first?.1.handled?.request.intent == "ChangeLightState")
        // A second runner (another process) at the same firing finds it done.
        #expect(try await runner.runDue(at: due.addingTimeInterval(30), in: conversation).isEmpty)
        #expect(try setup.store.donations().count == 1)
    }
}
