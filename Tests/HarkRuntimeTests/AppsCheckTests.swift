import Foundation
import HarkTestSupport
import Testing

/// One bad app.yaml among good ones: `hark apps check` names it, a running Hark leaves it out.
@Suite struct AppsCheckTests {
    /// The bundled home app beside an app with a key no manifest has.
    static func appsWithOneBad() throws -> URL {
        let apps = try temporaryApps(folder: "bad", manifest: """
            name: Bad
            colour: blue
            intents:
              GetThing:
                phrases: [get the thing]
                responses: {success: ok}

            """)
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("apps/home"),
                                         to: apps.appendingPathComponent("home"))
        return apps
    }

    @Test func theBundledAppsHaveNoProblems() throws {
        let outcome = try CommandLineTests.hark(["apps", "check", "--apps", "apps"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("5 apps in ") && outcome.output.contains("no problems: coffee (Corner Cafe), home (Home)"))
    }

    /// A phrase two apps share is a warning (Hark asks which app is meant), not a problem.
    @Test func aSharedPhraseIsAWarningAndTheCheckPasses() throws {
        let apps = try temporaryApps(folder: "lamps", manifest: """
            name: Lamps
            intents:
              LightsOn:
                phrases: [lights on]
                responses: {success: ok}

            """)
        let other = apps.appendingPathComponent("strips")
        try FileManager.default.createDirectory(at: other, withIntermediateDirectories: true)
        try Data("name: Strips\nintents:\n  LightsOn:\n    phrases: [all lights on, lights on]\n    responses: {success: ok}\n".utf8)
            .write(to: other.appendingPathComponent("app.yaml"))
        let outcome = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("warning: ") && outcome.output.contains("Hark will ask which app is meant"), "\(outcome.output)")
        #expect(outcome.output.contains("2 apps in "))
    }

    @Test func checkNamesTheBadFileAndLineAndFails() throws {
        let apps = try Self.appsWithOneBad()
        let outcome = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(outcome.status == 65)
        #expect(outcome.output.contains("bad/app.yaml:2:"), "\(outcome.output)")
        #expect(outcome.output.contains("colour"))
        #expect(outcome.errors.contains("1 problem in"))
    }

    @Test func hearingGoesOnWithTheGoodAppsAndSaysWhichWasLeftOut() throws {
        let apps = try Self.appsWithOneBad()
        let outcome = try CommandLineTests.hark(["run", "--apps", apps.path, "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("GetTime"))
        #expect(outcome.errors.contains("warning: app left out: "))
        #expect(outcome.errors.contains("bad/app.yaml:2:"))
    }

    /// The owner's apps load beside the bundled ones, and one of the same name replaces the
    /// bundled copy: an upgrade that replaces the bundled folder leaves them be.
    @Test func theOwnersAppsLoadBesideTheBundledOnesAndCanReplaceOne() throws {
        let owner = try temporaryApps(folder: "lamp", manifest: """
            name: Lamp
            intents:
              LampOn:
                phrases: [switch the reading lamp on]
                responses: {success: The reading lamp is on.}

            """)
        let outcome = try CommandLineTests.hark(["apps", "check"], environment: ["HARK_OWNER_APPS": "/nonexistent/hark-apps:" + owner.path])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("6 apps in ") && outcome.output.contains(" and \(owner.path)"), "\(outcome.output)")
        #expect(outcome.output.contains("lamp (Lamp)") && outcome.output.contains("home (Home)"))
        // Named with --apps, a folder is checked alone.
        let alone = try CommandLineTests.hark(["apps", "check", "--apps", "apps"], environment: ["HARK_OWNER_APPS": owner.path])
        #expect(alone.output.contains("5 apps in ") && !alone.output.contains("lamp"), "\(alone.output)")

        // The owner's "home" replaces the bundled one: its phrase is heard, the bundled phrases are not.
        try FileManager.default.createDirectory(at: owner.appendingPathComponent("home"), withIntermediateDirectories: false)
        try """
            name: Home
            intents:
              GetTime:
                phrases: [what time is it]
                responses: {success: It is time for tea.}

            """.write(to: owner.appendingPathComponent("home/app.yaml"), atomically: true, encoding: .utf8)
        let replaced = try CommandLineTests.hark(["run", "audio-fixtures/home-en/what_time_is_it.wav",
                                                  "audio-fixtures/home-en/turn_living_room_lamp_off.wav"],
                                                 environment: ["HARK_OWNER_APPS": owner.path])
        #expect(replaced.status == 0, "\(replaced.errors)")
        #expect(replaced.output.contains("It is time for tea."), "\(replaced.output)")
        #expect(!replaced.output.contains("ChangeLightState"), "\(replaced.output)")
    }

    /// Rhasspy's grammar for the home-en recordings, imported: the app Hark writes understands
    /// every recording exactly as the sidecar (and the hand-written apps/home) does.
    @Test func anAppImportedFromRhasspyUnderstandsTheRecordingsItsGrammarWasMadeFor() throws {
        let folder = try temporaryDirectory().appendingPathComponent("rhasspy_home")
        let imported = try CommandLineTests.hark(["import", "rhasspy", "audio-fixtures/home-en/rhasspy/sentences.ini",
                                                  "--out", folder.path, "--name", "Rhasspy Home"])
        #expect(imported.status == 0, "\(imported.output)\(imported.errors)")
        #expect(imported.output.contains("5 intents, 9 phrases; 0 notes"), "\(imported.output)")
        let recordings = EndToEndTests.realVoices
        #expect(recordings.count == 10)
        let run = try CommandLineTests.hark(["run", "--apps", folder.path, "--json",
                                             "--reply-out", folder.appendingPathComponent("replies").path]
                                            + recordings.map { "audio-fixtures/\($0)" })
        #expect(run.status == 0, "\(run.errors)")
        let lines = run.output.split(separator: "\n")
        #expect(lines.count == recordings.count)
        for line in lines {
            let report = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let name = try #require(report["recording"] as? String)
            let sidecar = try Sidecar.read(Fixtures.audio("home-en/" + name).deletingPathExtension().appendingPathExtension("json"))
            #expect(report["intent"] as? String == sidecar.intent?.name, "\(name): \(line)")
            #expect(report["slots"] as? [String: String] == sidecar.slots, "\(name): \(line)")
        }
        // Importing again over it is refused unless asked.
        let again = try CommandLineTests.hark(["import", "rhasspy", "audio-fixtures/home-en/rhasspy/sentences.ini", "--out", folder.path])
        #expect(again.status == 64 && again.errors.contains("pass --force"), "\(again.errors)")
    }

    /// Run by name from PATH, in a folder with no apps, as an installed hark is: the bundled apps
    /// are found beside the executable (its first argument is only "hark").
    @Test func runFromPathFindsTheAppsBesideTheExecutable() throws {
        let binary = try CommandLineTests.executable()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["hark", "apps", "check"]
        process.currentDirectoryURL = try temporaryDirectory()
        var environment = try isolatedHarkEnvironment()
        environment["PATH"] = binary.deletingLastPathComponent().path + ":/usr/bin:/bin"
        environment["HARK_APPS"] = nil
        process.environment = environment
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = String(decoding: try readToEnd(output.fileHandleForReading), as: UTF8.self)
        let complained = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(printed)\(complained)")
        #expect(printed.contains("5 apps in \(Fixtures.root.appendingPathComponent("apps").standardizedFileURL.path)"), "\(printed)")
    }

    /// Home Assistant's sentences imported and talked to: a phrase limited to its list, a slot
    /// the phrase fixes, and the notes of what was left out.
    @Test func anAppImportedFromHomeAssistantAnswersItsSentences() throws {
        let folder = try temporaryDirectory()
        let sentences = folder.appendingPathComponent("home.yaml")
        try """
            language: en
            intents:
              HassTurnOn:
                data:
                  - sentences: ["open [the] {cover:name}"]
                    slots: {domain: cover}
              HassShoppingListAddItem:
                data:
                  - sentences: ["add {item} to my list", "{item}"]
            lists:
              cover:
                values: ["garage door"]
              item:
                wildcard: true

            """.write(to: sentences, atomically: true, encoding: .utf8)
        let app = folder.appendingPathComponent("ha_home")
        let imported = try CommandLineTests.hark(["import", "home-assistant", sentences.path, "--out", app.path])
        #expect(imported.status == 0, "\(imported.output)\(imported.errors)")
        #expect(imported.output.contains("home.yaml:13: list item is a wildcard"), "\(imported.output)")
        #expect(imported.output.contains("home.yaml:9: {item} is a wildcard (any words): a Hark phrase needs another word beside them"),
                "\(imported.output)")
        #expect(imported.output.contains("2 intents, 2 phrases"), "\(imported.output)")
        let chat = try CommandLineTests.hark(["chat", "--apps", app.path],
                                             input: "open the garage door\nopen the front door\nadd oat milk to my list\n")
        #expect(chat.status == 0, "\(chat.errors)")
        #expect(chat.output.contains("OK: garage door."), "\(chat.output)")
        #expect(chat.output.contains("OK: oat milk."), "\(chat.output)")
        #expect(chat.output.contains("Sorry, I didn't catch that."), "\(chat.output)")
    }

    /// A language folder as the intents repository ships it: _common.yaml's lists, expansion
    /// rules and skip words serve every file, an intent in two files has the sentences of both,
    /// and each note names its own file and line.
    @Test func homeAssistantsLanguageFolderImportsWhole() throws {
        let folder = try temporaryDirectory()
        let language = folder.appendingPathComponent("en")
        try FileManager.default.createDirectory(at: language, withIntermediateDirectories: true)
        try """
            language: en
            lists:
              color:
                values: [red, green]
            expansion_rules:
              turn: "(turn|switch)"
            skip_words:
              - please
            """.write(to: language.appendingPathComponent("_common.yaml"), atomically: true, encoding: .utf8)
        try """
            language: en
            intents:
              HassTurnOn:
                data:
                  - sentences:
                      - "<turn> on the light[s]"
            """.write(to: language.appendingPathComponent("light_HassTurnOn.yaml"), atomically: true, encoding: .utf8)
        try """
            language: en
            intents:
              HassLightSet:
                data:
                  - sentences:
                      - "make the light {color}"
                    requires_context:
                      domain: light
              HassTurnOn:
                data:
                  - sentences:
                      - "lights on"
            """.write(to: language.appendingPathComponent("light_HassLightSet.yaml"), atomically: true, encoding: .utf8)
        try "not sentences".write(to: language.appendingPathComponent("README.md"), atomically: true, encoding: .utf8)
        let app = folder.appendingPathComponent("ha_home")
        let imported = try CommandLineTests.hark(["import", "home-assistant", language.path, "--out", app.path])
        #expect(imported.status == 0, "\(imported.output)\(imported.errors)")
        #expect(imported.output.contains("light_HassLightSet.yaml:6: the context (domain light) is not checked"), "\(imported.output)")
        #expect(imported.output.contains("_common.yaml:7: skip_words:"), "\(imported.output)")
        #expect(imported.output.contains("2 intents, 3 phrases"), "\(imported.output)")
        let chat = try CommandLineTests.hark(["chat", "--apps", app.path],
                                             input: "switch on the lights please\nlights on\nmake the light green\nmake the light blue\n")
        #expect(chat.status == 0, "\(chat.errors)")
        #expect(chat.output.components(separatedBy: "OK.").count - 1 == 2, "\(chat.output)")
        #expect(chat.output.contains("OK: green."), "\(chat.output)")
        #expect(chat.output.contains("Sorry, I didn't catch that."), "\(chat.output)")
        // Rhasspy's and Rhino's formats take one file.
        let two = try CommandLineTests.hark(["import", "rhasspy", "a.ini", "b.ini", "--out", app.path])
        #expect(two.status == 64 && two.errors.contains("rhasspy imports one file"), "\(two.errors)")
    }

    /// The sentences stay in the app folder: when the home's devices change, --refresh imports
    /// them again with the new home, the sentence files not given again.
    @Test func aHomeAssistantAppIsRefreshedWithANewHome() throws {
        let folder = try temporaryDirectory()
        let sentences = folder.appendingPathComponent("sentences.yaml")
        try """
            language: en
            intents:
              HassTurnOff:
                data:
                  - sentences: ["turn off [the] {name}"]
            """.write(to: sentences, atomically: true, encoding: .utf8)
        let home = folder.appendingPathComponent("home.yaml")
        try "entities: [{name: Reading Lamp, id: light.reading_lamp}]".write(to: home, atomically: true, encoding: .utf8)
        let app = folder.appendingPathComponent("home_assistant")
        let imported = try CommandLineTests.hark(["import", "home-assistant", sentences.path, "--entities", home.path, "--out", app.path])
        #expect(imported.status == 0, "\(imported.output)\(imported.errors)")
        try FileManager.default.removeItem(at: sentences)

        try "entities: [{name: Reading Lamp, id: light.reading_lamp}, {name: Desk Lamp, id: light.desk}]"
            .write(to: home, atomically: true, encoding: .utf8)
        let refreshed = try CommandLineTests.hark(["import", "home-assistant", "--refresh", "--entities", home.path, "--out", app.path])
        #expect(refreshed.status == 0, "\(refreshed.output)\(refreshed.errors)")
        let chat = try CommandLineTests.hark(["chat", "--apps", app.path], input: "turn off the desk lamp\nturn off the reading lamp\n")
        #expect(chat.output.contains("OK: desk lamp."), "\(chat.output)")
        #expect(chat.output.contains("OK: reading lamp."), "\(chat.output)")

        let elsewhere = try CommandLineTests.hark(["import", "home-assistant", "--refresh", "--entities", home.path,
                                                   "--out", folder.appendingPathComponent("other").path])
        #expect(elsewhere.status == 64 && elsewhere.errors.contains("holds no sentences kept"), "\(elsewhere.errors)")
    }
}
