import Foundation
import HarkGrammar
import HarkImport
import HarkIntents
import Testing

/// Rhasspy's template language, construct by construct, into Hark phrases and parameters.
@Suite struct RhasspyImporterTests {
    static func importApp(_ text: String, slots: [String: [String]] = [:]) -> RhasspyImporter.Result {
        var importer = RhasspyImporter(file: "sentences.ini", text: text, slots: slots)
        return importer.makeApp(name: "Test Home")
    }

    static func values(_ result: RhasspyImporter.Result, _ intent: String, _ parameter: String) -> [String] {
        let found = result.app.intents.first { $0.name == intent }?.parameters.first { $0.name == parameter }
        return found?.values.map { $0.spoken == $0.id ? $0.spoken : "\($0.spoken)=\($0.id)" } ?? []
    }

    @Test func sectionsSentencesOptionalsAndAlternatives() {
        let result = Self.importApp("""
            # a comment
            [GetTime]
            what time is it
            tell me the [current] time

            [GetTemperature]
            how (hot | cold) is it
            """)
        #expect(result.report.isEmpty, "\(result.report)")
        #expect(result.app.intents.map(\.name) == ["GetTime", "GetTemperature"])
        #expect(result.app.intents[0].phrases == ["what time is it", "tell me the [current] time"])
        #expect(result.app.intents[1].phrases == ["how (hot | cold) is it"])
    }

    @Test func tagsRulesAcrossSectionsAndSlotLists() {
        let result = Self.importApp("""
            [ChangeLightState]
            light_name = ((living room lamp | garage light) {name}) | <ChangeLightColor.light_name>
            light_state = (on | off) {state}
            turn <light_state> [the] <light_name>

            [ChangeLightColor]
            light_name = (bedroom light) {name}
            color = ($color) {color}
            make [the] <light_name> <color>
            """, slots: ["color": ["red", "green", "(sky blue | navy):blue"]])
        #expect(result.report.isEmpty, "\(result.report)")
        let state = result.app.intents[0]
        #expect(state.phrases == ["turn <state> [the] <name>"])
        #expect(Self.values(result, "ChangeLightState", "name") == ["living room lamp", "garage light", "bedroom light"])
        #expect(Self.values(result, "ChangeLightState", "state") == ["on", "off"])
        #expect(Self.values(result, "ChangeLightColor", "name") == ["bedroom light"])
        // A slot file's line with a substitution: the words said, and the value they stand for.
        #expect(Self.values(result, "ChangeLightColor", "color") == ["red", "green", "sky blue=blue", "navy=blue"])
        // Two intents' "name" with different values get types of their own.
        #expect(Set(result.app.types.map(\.name)) == ["State", "Name", "ChangeLightColorName", "Color"])
    }

    @Test func substitutionsFixedValuesAndNumberRanges() {
        let result = Self.importApp("""
            [SetBrightness]
            set (the lamp):lamp_1 {light} to (1..3) {level} percent
            set the fan to (high:3 | low:1) {speed}
            dim [the] (kitchen light){light:kitchen}
            """)
        #expect(result.report.isEmpty, "\(result.report)")
        #expect(result.app.intents[0].phrases == ["set <light> to <level> percent", "set the fan to <speed>",
                                                  "dim [the] <light>"])
        #expect(Self.values(result, "SetBrightness", "light") == ["the lamp=lamp_1", "kitchen light=kitchen"])
        #expect(Self.values(result, "SetBrightness", "level") == ["one=1", "two=2", "three=3"])
        #expect(Self.values(result, "SetBrightness", "speed") == ["high=3", "low=1"])
        // An untagged range is said in words.
        let untagged = Self.importApp("[CountSheep]\ncount (1..3) sheep\n")
        #expect(untagged.app.intents[0].phrases == ["count (one | two | three) sheep"])
    }

    @Test func whatCannotBeCarriedOverIsReportedByLine() {
        let result = Self.importApp("""
            stray sentence
            [lights_on]
            turn on (the light
            turn on <nowhere>
            turn on $missing
            turn on (the lamp){name!upper}
            """)
        #expect(result.report.contains("sentences.ini:1: a sentence before any [Intent] section, left out"), "\(result.report)")
        #expect(result.report.contains { $0.hasPrefix("sentences.ini:3: missing \")\"") }, "\(result.report)")
        #expect(result.report.contains("sentences.ini:4: <nowhere> names no rule; the sentence is left out"))
        #expect(result.report.contains("sentences.ini:5: $missing has no file in the slots folder; the sentence is left out"))
        #expect(result.report.contains { $0.hasPrefix("sentences.ini:6: converter \"!upper\"") })
        // The intent is renamed to Hark's VerbNoun, and says so.
        #expect(result.report.contains("sentences.ini:2: intent lights_on is named LightsOn (Hark's intents are VerbNoun in UpperCamelCase)"))
        #expect(result.app.intents.map(\.name) == ["LightsOn"])
        #expect(result.app.intents[0].phrases == ["turn on <name>"])
    }

    /// The written app.yaml is a manifest Hark reads without a problem.
    @Test func theWrittenAppLoads() throws {
        let result = Self.importApp("""
            [ChangeLightState]
            turn (on | off){state} [the] ((garage | porch) light){name}
            [GetTime]
            what "time" is it
            """)
        #expect(result.report == ["sentences.ini:4: \"\"time\"\" is said as \"time\""], "\(result.report)")
        let yaml = AppYAML.text(of: result.app, header: ["test"])
        let app = try AppCatalog.manifest(yaml: yaml, identifier: "test_home")
        #expect(app.name == "Test Home")
        #expect(app.intents.map(\.name) == ["ChangeLightState", "GetTime"])
        #expect(app.intents[0].parameters.map(\.name) == ["state", "name"])
        #expect(app.intents[1].phrases.map(\.description) == ["what time is it"])
    }

    /// A negative range is said as Rhasspy says it ("minus five"), with its value, never cut to
    /// the numbers from zero.
    @Test func negativeRangesAreCarriedExactly() throws {
        let result = Self.importApp("""
            [SetTemperature]
            set the temperature to (-3..2){degrees}
            lower it by (-2..-1,1) steps
            """)
        #expect(result.report.isEmpty, "\(result.report)")
        #expect(Self.values(result, "SetTemperature", "degrees")
                == ["minus three=-3", "minus two=-2", "minus one=-1", "zero=0", "one=1", "two=2"])
        #expect(result.app.intents[0].phrases[1] == "lower it by (minus two | minus one) steps")
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "test_home")
        #expect(app.intents[0].phrases.count == 2)
        // Numbers Hark cannot say are left out with a note, not in silence.
        let huge = Self.importApp("[Count]\ncount to (999999999999..1000000000001){n}\n")
        #expect(Self.values(huge, "DoCount", "n") == ["nine hundred ninety nine billion nine hundred ninety nine million nine hundred ninety nine thousand nine hundred ninety nine=999999999999"])
        #expect(huge.report.contains("sentences.ini:2: 2 numbers of 999999999999..1000000000001 from 1000000000000 cannot be said as words; left out"),
                "\(huge.report)")
    }

    /// Two lists tagged with one name in one intent that give the same words different values
    /// cannot be one parameter: the later list becomes a parameter of its own (color_2), told to
    /// Wyoming clients as the tag (slot: color), so each sentence keeps its meaning. Lists that
    /// agree are merged, each phrase keeping to its own values.
    @Test func listsOfOneNameAreCarriedExactly() throws {
        let result = Self.importApp("""
            [SetColor]
            paint the wall ($wall){color}
            paint the door ($door){color}
            light the lamp ($lamp){color}
            """, slots: ["wall": ["red:ff0000", "white"], "door": ["red:crimson", "black"], "lamp": ["white", "blue"]])
        #expect(result.report.isEmpty, "\(result.report)")
        #expect(result.app.intents[0].phrases == ["paint the wall <color>", "paint the door <color_2>", "light the lamp <color>"])
        #expect(Self.values(result, "SetColor", "color") == ["red=ff0000", "white", "blue"])
        #expect(Self.values(result, "SetColor", "color_2") == ["red=crimson", "black"])
        #expect(result.app.intents[0].only[2]?["color"] == ["white", "blue"])
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "paint")
        #expect(app.intents[0].parameter(named: "color_2")?.slotName == "color")
        #expect(app.intents[0].parameter(named: "color")?.slotName == nil)
        // One list that says the same words with two values keeps the first and says so.
        let twice = Self.importApp("[SetColor]\npaint it ($c){color}\n", slots: ["c": ["red:1", "red:2", "blue"]])
        #expect(twice.report == ["sentences.ini:2: \"red\" stands for both \"1\" and \"2\"; only the first is kept"], "\(twice.report)")
        #expect(Self.values(twice, "SetColor", "color") == ["red=1", "blue"])
    }

    /// A slots folder with folders in it: each file is named by its path, as sentences name it
    /// ($home/colors), so files of one name in two folders are two lists.
    @Test func slotFilesInFoldersKeepTheirPaths() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hark-slots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("home"), withIntermediateDirectories: true)
        try Data("red\ngreen\n".utf8).write(to: folder.appendingPathComponent("colors"))
        try Data("# the hall's\npurple\n".utf8).write(to: folder.appendingPathComponent("home/colors"))
        let slots = try RhasspyImporter.readSlots(in: folder)
        #expect(slots == ["colors": ["red", "green"], "home/colors": ["purple"]])
        let result = Self.importApp("""
            [SetLight]
            make the light ($colors){color}
            [SetHall]
            make the hall ($home/colors){color}
            """, slots: slots)
        #expect(result.report.isEmpty, "\(result.report)")
        #expect(Self.values(result, "SetLight", "color") == ["red", "green"])
        #expect(Self.values(result, "SetHall", "color") == ["purple"])
    }
}
