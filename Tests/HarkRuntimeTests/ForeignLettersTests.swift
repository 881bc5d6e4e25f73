import Foundation
import HarkAudio
import HarkExampleApps
import HarkRuntime
import HarkShortcuts
import HarkSpeech
import HarkStore
import HarkTestSupport
import Testing

/// Words in full-width Latin, Cyrillic or another script, from an app, a shortcut or a
/// handler: each is pronounced from its Latin spelling, or refused before it is used and
/// left out alone when running, never stopping the device.
@Suite(.serialized) struct ForeignLettersTests {
    static let models = Fixtures.root.appendingPathComponent("models")

    /// A timer app whose phrase is typed in full-width letters, beside the bundled home app.
    static func appsWith(_ folder: String, phrase: String) throws -> URL {
        let apps = try temporaryApps(folder: folder, manifest: """
            name: Timers
            intents:
              StartTimer:
                phrases: [\(phrase)]
                responses: {success: Started.}

            """)
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("apps/home"),
                                         to: apps.appendingPathComponent("home"))
        return apps
    }

    /// The messages app whose handler names one contact in Cyrillic and one in Greek letters.
    static func appsWithForeignContacts() throws -> URL {
        let apps = try temporaryDirectory()
        for app in ["messages", "home"] {
            try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("apps/\(app)"),
                                             to: apps.appendingPathComponent(app))
        }
        let handler = apps.appendingPathComponent("messages/handler.py")
        let text = try String(contentsOf: handler, encoding: .utf8)
        let contacts = """
            {"id": "bob_lee", "spoken": "Bob Lee", "synonyms": ["Bob"]},
                {"id": "alexei", "spoken": "Алексей"},
                {"id": "zeus", "spoken": "Ζευς"},
            """
        #expect(text.contains("{\"id\": \"bob_lee\", \"spoken\": \"Bob Lee\", \"synonyms\": [\"Bob\"]},"))
        try text.replacingOccurrences(of: "{\"id\": \"bob_lee\", \"spoken\": \"Bob Lee\", \"synonyms\": [\"Bob\"]},", with: contacts)
            .write(to: handler, atomically: true, encoding: .utf8)
        return apps
    }

    @Test func fullWidthAndCyrillicAreReadInLatinLettersAndOtherScriptsAreRefused() throws {
        let pronouncer = try #require(try Pronouncer.inModels(Self.models))
        #expect(try pronouncer.phones(of: "ｔｉｍｅｒ") == pronouncer.phones(of: "timer"))
        #expect(try pronouncer.phones(of: "алексей") == pronouncer.phones(of: "aleksey"))
        // espeak-ng names "ž" with phonemes the map lacks: the letter without its accent is read.
        #expect(try pronouncer.phones(of: "ǆ") == pronouncer.phones(of: "dz"))
        #expect(try pronouncer.phones(of: "café") == ["K", "AE", "F", "EY"])
        #expect(throws: RecognitionError.self) { try pronouncer.phones(of: "ζευς") }
    }

    @Test func anAppWithAFullWidthPhraseIsCheckedAndHeard() throws {
        let apps = try Self.appsWith("timers", phrase: "start the ｔｉｍｅｒ")
        let check = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(check.status == 0, "\(check.output)\(check.errors)")
        let folder = try temporaryDirectory()
        let speech = folder.appendingPathComponent("start.wav")
        let said = try CommandLineTests.hark(["say", "Start the timer.", "--out", speech.path])
        #expect(said.status == 0, "\(said.errors)")
        let run = try CommandLineTests.hark(["run", "--apps", apps.path, "--rejection-margin", "-4",
                                             "--reply-out", folder.path, speech.path, "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("StartTimer"), "\(run.output)")
        #expect(run.output.contains("GetTime"), "\(run.output)")
        #expect(!run.errors.contains("has no mapping"), "\(run.errors)")
    }

    @Test func aPhraseInLettersHarkCannotPronounceIsRefusedAtItsLineAndLeftOutWhenRunning() throws {
        let apps = try Self.appsWith("gods", phrase: "call ζευς")
        let check = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(check.status == 65)
        #expect(check.output.contains("gods/app.yaml:4: Hark cannot pronounce \"ζευς\""), "\(check.output)")
        let run = try CommandLineTests.hark(["run", "--apps", apps.path, "--reply-out", try temporaryDirectory().path,
                                             "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("GetTime"), "\(run.output)")
        #expect(run.errors.contains("warning: phrases with \"ζευς\" are left out"), "\(run.errors)")
    }

    @Test func aHandlersContactInForeignLettersDoesNotStopTheDevice() throws {
        let apps = try Self.appsWithForeignContacts()
        let run = try CommandLineTests.hark(["run", "--apps", apps.path, "--reply-out", try temporaryDirectory().path,
                                             "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("GetTime"), "\(run.output)")
        // Cyrillic is transliterated and heard; Greek is left out alone, with a warning.
        #expect(!run.errors.contains("алексей"), "\(run.errors)")
        #expect(run.errors.contains("warning: phrases with \"ζευς\" are left out"), "\(run.errors)")
    }

    @Test func shortcutsAreCheckedAsARunningHarkWouldPronounceThem() throws {
        let database = try temporaryDirectory().appendingPathComponent("shortcuts.sqlite")
        let add = ["shortcuts", "add", "--apps", "apps", "--intent", "home.GetTime", "--database", database.path]
        let fullWidth = try CommandLineTests.hark(add + ["ｃｌｏｃｋ please"])
        #expect(fullWidth.status == 0, "\(fullWidth.errors)")
        let cyrillic = try CommandLineTests.hark(add + ["время please"])
        #expect(cyrillic.status == 0, "\(cyrillic.errors)")
        let greek = try CommandLineTests.hark(add + ["ώρα please"])
        #expect(greek.status == 65)
        #expect(greek.errors.contains("Hark cannot pronounce \"ώρα\""), "\(greek.errors)")

        // One that got in before the check (an older Hark) is left out alone.
        _ = try ShortcutStore(url: database).addShortcut(phrase: "ώρα now", steps: [ShortcutStep(app: "home", intent: "GetTime")])
        let run = try CommandLineTests.hark(["run", "--apps", "apps", "--reply-out", try temporaryDirectory().path,
                                             "audio-fixtures/home-en/what_time_is_it.wav"],
                                            environment: ["HARK_DATABASE": database.path])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("GetTime"), "\(run.output)")
        #expect(run.errors.contains("warning: phrases with \"ώρα\" are left out"), "\(run.errors)")
    }
}

/// A running device hears a new shortcut within a second; one whose word cannot be pronounced
/// costs only itself, not every turn after it.
@Suite struct ForeignShortcutWhileRunningTests {
    @Test func aShortcutHarkCannotPronounceAddedWhileRunningLeavesTheRestHeard() async throws {
        let data = try temporaryDirectory()
        let database = data.appendingPathComponent("shortcuts.sqlite")
        var recognizer = RecognizerConfiguration()
        recognizer.rejectionMargin = -4 // espeak-ng's voice; see EndToEndTests.lenientAssistant
        let assistant = try await Assistant.start(AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: ForeignLettersTests.models,
            recognizer: recognizer, inProcessHandlers: ExampleApps.handlers, dataDirectory: data, database: database))
        let other = try ShortcutStore(url: database)
        _ = try other.addShortcut(phrase: "ώρα now", steps: [ShortcutStep(app: "home", intent: "GetTime")])
        _ = try other.addShortcut(phrase: "ｃｌｏｃｋ please", steps: [ShortcutStep(app: "home", intent: "GetTime")])
        let clock = ContinuousClock()
        let started = clock.now
        while await assistant.conversation.personalShortcuts.count < 2, clock.now - started < .seconds(15) {
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(await assistant.conversation.personalShortcuts.count == 2, "not reloaded after \(clock.now - started)")

        let recorded = try await assistant.answer(recordingAt: Fixtures.root.appendingPathComponent("audio-fixtures/home-en/what_time_is_it.wav"))
        #expect(recorded.report.intent?.hasSuffix("GetTime") == true, "\(recorded.report.text)")
        let padding = [Int16](repeating: 0, count: 4_000)
        let spoken = try await assistant.speech.speak("Clock please.")
        let heard = try await assistant.answer(samples: padding + (try spoken.pipelineSamples()) + padding, name: "clock").0
        #expect(heard.text == "ｃｌｏｃｋ please", "\(heard.text)")
    }
}
