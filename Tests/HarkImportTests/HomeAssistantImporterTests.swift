import Foundation
import HarkGrammar
import HarkImport
import HarkIntents
import Testing

/// Home Assistant's sentence YAML, construct by construct, into a Hark app that hears the same.
@Suite struct HomeAssistantImporterTests {
    static let home = """
        language: en
        intents:
          HassTurnOn:
            data:
              - sentences:
                  - "<turn> on [the] {name}"
                slots:
                  domain: light
              - sentences:
                  - "open [the] {cover:name}"
                slots:
                  domain: cover
                requires_context:
                  domain: cover
          HassLightSet:
            data:
              - sentences:
                  - "set [the] {name} [brightness] to {brightness} [percent]"
                  - "make [the] {name} {color}"
          HassShoppingListAddItem:
            data:
              - sentences:
                  - "add {item} to my shopping list"
          HassGetWeather:
            data:
              - sentences:
                  - "what's the weather in {area}"
        lists:
          name:
            values:
              - "kitchen light"
              - in: "(tv | telly) light"
                out: "light.tv"
          cover:
            values:
              - "garage door"
          brightness:
            range:
              from: 10
              to: 30
              step: 10
          color:
            values: [red, green]
          item:
            wildcard: true
        expansion_rules:
          turn: "(turn | switch)"

        """

    static func imported() throws -> (RhasspyImporter.Result, AppManifest) {
        let result = HomeAssistantImporter.makeApp(name: "Test Home", file: "home.yaml", text: Self.home)
        let yaml = AppYAML.text(of: result.app, header: ["test"])
        return (result, try AppCatalog.manifest(yaml: yaml, identifier: "test_home"))
    }

    @Test func everyConstructBecomesPhrasesParametersAndValues() throws {
        let (result, app) = try Self.imported()
        #expect(app.intents.map(\.name) == ["HassTurnOn", "HassLightSet", "HassShoppingListAddItem"])
        let turnOn = try #require(app.intent(named: "HassTurnOn"))
        // The expansion rule written in place; {cover:name} fills the name slot from the cover list.
        #expect(turnOn.phrases.map(\.description) == ["(turn | switch) on [the] <name>", "open [the] <name>"])
        // Each phrase keeps to its own list, and sets the slot its block fixed.
        #expect(turnOn.phraseOptions[0] == PhraseOptions(only: ["name": ["kitchen light", "light.tv"]], presets: ["domain": "light"]))
        #expect(turnOn.phraseOptions[1] == PhraseOptions(only: ["name": ["garage door"]], presets: ["domain": "cover"]))
        let lightSet = try #require(app.intent(named: "HassLightSet"))
        #expect(lightSet.phrases.map(\.description) == ["set [the] <name> [brightness] to <brightness> [percent]",
                                                         "make [the] <name> <color>"])
        // A slot some phrases leave out is not asked for.
        #expect(lightSet.parameter(named: "name")?.isRequired == true)
        #expect(lightSet.parameter(named: "color")?.isRequired == false)
        let spoken = result.app.intents[1].parameters.first { $0.name == "brightness" }?.values.map { "\($0.spoken)=\($0.id)" }
        #expect(spoken == ["ten=10", "twenty=20", "thirty=30"])
        // The wildcard list: free text said inside the phrase.
        let shopping = try #require(app.intent(named: "HassShoppingListAddItem"))
        #expect(shopping.phrases.map(\.description) == ["add <item> to my shopping list"])
        #expect(shopping.parameter(named: "item")?.type == .text && shopping.parameter(named: "item")?.maxWords == 8)
    }

    @Test func whatCannotBeCarriedOverIsReportedByLine() throws {
        let (result, _) = try Self.imported()
        #expect(result.report.contains("home.yaml:10: the context (domain cover) is not checked without the home's entities (--entities)"), "\(result.report)")
        #expect(result.report.contains("home.yaml:44: list item is a wildcard: free text of up to 8 words, heard by dictation (a Hark phrase says one, with another word or slot beside it)"), "\(result.report)")
        #expect(result.report.contains { $0.hasPrefix("home.yaml:27: {area} is not in lists:") })
        // A wildcard with nothing beside it, however it is said, is more than a Hark phrase holds.
        let mixed = HomeAssistantImporter.makeApp(name: "Notes", file: "notes.yaml", text: """
            language: en
            intents:
              AddNote:
                data:
                  - sentences:
                      - "note {text} in {color}"
                      - "[{color}] {text}"
            lists:
              text:
                wildcard: true
              color:
                values: [red]
            """)
        #expect(!mixed.report.contains { $0.hasPrefix("notes.yaml:6:") }, "\(mixed.report)")
        #expect(mixed.report.contains("notes.yaml:7: {text} is a wildcard (any words): a Hark phrase needs another word beside them, however it is said; the sentence is left out"), "\(mixed.report)")
        // A wildcard beside another slot is heard, the slot's words found around the text.
        let notes = AppYAML.text(of: mixed.app, header: ["test"])
        let catalog = AppCatalog(apps: [try AppCatalog.manifest(yaml: notes, identifier: "notes")])
        let match = catalog.freeTextMatch(Grammar.words(of: "note buy more milk in red"))
        #expect(match?.intent.name == "AddNote" && match?.values["text"]?.identifier == "buy more milk"
                && match?.values["color"]?.identifier == "red", "\(notes)")
    }

    /// Home Assistant's "who is at {zone:state}" beside "is the door {state}": one slot, said as
    /// any words in one sentence and as a list's values in the other, is two parameters.
    @Test func aSlotSaidAsAnyWordsAndAsValuesIsTwoParameters() throws {
        let result = HomeAssistantImporter.makeApp(name: "People", file: "people.yaml", text: """
            language: en
            intents:
              HassGetState:
                data:
                  - sentences:
                      - "is the door {state}"
                      - "who is at the {zone:state}"
            lists:
              state:
                values: [{in: open, out: "on"}, {in: closed, out: "off"}]
              zone:
                wildcard: true
            """)
        let catalog = AppCatalog(apps: [try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "people")])
        let intent = try #require(catalog.apps.first?.intent(named: "HassGetState"))
        #expect(intent.parameter(named: "state")?.type != .text)
        #expect(intent.parameter(named: "state_2")?.type == .text && intent.parameter(named: "state_2")?.slotName == "state")
        let zone = catalog.freeTextMatch(Grammar.words(of: "who is at the golf club"))
        #expect(zone?.values["state_2"]?.identifier == "golf club" && zone?.values["state"] == nil, "\(result.report)")
    }

    @Test func theAppHearsWhatHomeAssistantWould() throws {
        let (_, app) = try Self.imported()
        let heard = Understanding([app])
        let catalog = heard.catalog
        #expect(heard("switch on the telly light") == "HassTurnOn domain=light name=light.tv")
        #expect(heard("open the garage door") == "HassTurnOn domain=cover name=garage door")
        #expect(heard("turn on the garage door") == nil)
        #expect(heard("open the kitchen light") == nil)
        #expect(heard("set the kitchen light to thirty percent") == "HassLightSet brightness=30 name=kitchen light")
        #expect(heard("set the kitchen light to fifteen percent") == nil)
        #expect(catalog.freeTextMatch(Grammar.words(of: "add oat milk to my shopping list"))?.values["item"]?.identifier == "oat milk")
    }

    /// Parts inside a word ("fan[s]", "batter(y|ies)", "(light|lamp)s"), a choice one of whose
    /// options has nothing to say ("( | -)"), and Home Assistant's own "never mind" and "what can
    /// I say", which are Hark's cancel and help: the app loads and hears what hassil would.
    @Test func partsInsideWordsSilentChoicesAndHarksOwnCommands() throws {
        let result = HomeAssistantImporter.makeApp(name: "Words", file: "words.yaml", text: """
            language: en
            skip_words:
              - please
              - "could you"
              - "I'd like to"
            intents:
              HassTurnOff:
                data:
                  - sentences:
                      - "turn off the fan[s]"
                      - "switch off the (light|lamp)s"
              HassGetState:
                data:
                  - sentences:
                      - "how are the batter(y|ies)"
                      - "how are all [[of ](the|my)] doors"
              HassStartTimer:
                data:
                  - sentences:
                      - "set a {minutes}( | -)minute[s] timer"
              HassSetVolume:
                data:
                  - sentences:
                      - "volume to {volume}[%| percent]"
                      - "heat to {volume}[([ ]°)|( degree[s])]"
              HassListAddItem:
                data:
                  - sentences:
                      - "add {item} to my list"
              HassNevermind:
                data:
                  - sentences:
                      - "never mind"
                      - "nevermind"
              HassHelp:
                data:
                  - sentences:
                      - "what can i (say|ask)"
                      - "what is the day[ ]light"
            lists:
              minutes:
                range:
                  from: 1
                  to: 3
              volume:
                range:
                  from: 10
                  to: 20
                  step: 10
              item:
                wildcard: true
            """)
        #expect(result.report.contains("words.yaml:33: \"never mind\" is Hark's own command (cancel, help, repeat, …), which Hark answers itself (a Wyoming client's recognize is told HassNevermind); the sentence is left out"), "\(result.report)")
        #expect(result.report.contains("words.yaml:38: \"what can i say\" is Hark's own command (cancel, help, repeat, …), which Hark answers itself (a Wyoming client's recognize is told HassHelp); the sentence's other ways are kept"), "\(result.report)")
        #expect(result.app.intents.first { $0.name == "HassStartTimer" }?.phrases == ["[please | could you | i'd like to] set a <minutes> (minute | minutes) timer [please | could you | i'd like to]"])
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "words")
        let heard = Understanding([app])
        let catalog = heard.catalog
        #expect(catalog.clashes().isEmpty, "\(catalog.clashes())")
        #expect(heard("turn off the fan") == "HassTurnOff")
        #expect(heard("turn off the fans") == "HassTurnOff")
        #expect(heard("turn off the fan s") == nil)
        #expect(heard("switch off the lamps") == "HassTurnOff")
        #expect(heard("switch off the lamp") == nil)
        #expect(heard("how are the battery") == "HassGetState")
        #expect(heard("how are the batteries") == "HassGetState")
        // A space inside the brackets parts the words.
        #expect(heard("how are all of my doors") == "HassGetState")
        #expect(heard("how are all the doors") == "HassGetState")
        #expect(heard("how are all ofmy doors") == nil)
        #expect(heard("set a two minute timer") == "HassStartTimer minutes=2")
        #expect(heard("set a one minutes timer") == "HassStartTimer minutes=1")
        #expect(heard("volume to twenty percent") == "HassSetVolume volume=20")
        #expect(heard("volume to ten") == "HassSetVolume volume=10")
        #expect(heard("heat to twenty degrees") == "HassSetVolume volume=20")
        #expect(heard("heat to twenty degree") == "HassSetVolume volume=20")
        #expect(heard("nevermind") == "HassNevermind")
        // Skip words, before and after a request.
        #expect(heard("could you turn off the fans please") == "HassTurnOff")
        #expect(heard("i'd like to set a two minute timer") == "HassStartTimer minutes=2")
        #expect(heard("please please turn off the fans") == nil)
        #expect(catalog.freeTextMatch(Grammar.words(of: "add oat milk to my list"))?.values["item"]?.identifier == "oat milk")
        #expect(result.report.contains("words.yaml:2: skip_words: heard before and after each sentence but one with a wildcard (Home Assistant ignores them anywhere)"), "\(result.report)")
        #expect(heard("what can i ask") == "HassHelp")
        // Hark's own commands, told to Wyoming clients as the intents that said them.
        #expect(app.intent(named: "HassNevermind")?.ownCommandPhrases == ["never mind"])
        #expect(app.intent(named: "HassHelp")?.ownCommandPhrases == ["what can i say"])
        // A space that may be there or not: the words glued, or apart.
        #expect(heard("what is the daylight") == "HassHelp")
        #expect(heard("what is the day light") == "HassHelp")
    }

    /// The home's entities fill {name}, {area} and {floor}, and a sentence's requires_context:
    /// keeps it to the entities it may name: "is the front door locked" asks the lock, "turn off
    /// the bedroom lamp" turns off that lamp and nothing else is a light.
    @Test func theHomesEntitiesFillTheListsAndHonourTheContext() throws {
        let home = try HomeEntities.read("""
            areas:
              - {name: Kitchen, id: kitchen, floor: ground_floor}
              - {name: Bedroom, id: bedroom, aliases: [bedchamber]}
            floors:
              - {name: Ground Floor, id: ground_floor}
            entities:
              - {name: "[the] kitchen light", id: light.kitchen, area: kitchen}
              - {name: "bedroom lamp", id: light.bedroom_lamp, area: bedroom}
              - {name: "front door", id: lock.front_door}
              - {name: "back door", id: binary_sensor.back_door, attributes: {device_class: door}}
              - {name: "garage door", id: cover.garage, attributes: {device_class: garage}}
              - {name: "kitchen fan", id: fan.kitchen, area: kitchen}
            """, file: "home.yaml")
        #expect(home.notes.isEmpty, "\(home.notes)")
        #expect(home.entities.map(\.name) == ["kitchen light", "bedroom lamp", "front door", "back door", "garage door", "kitchen fan"])
        let result = HomeAssistantImporter.makeApp(name: "Home", files: [("sentences.yaml", """
            language: en
            intents:
              HassTurnOff:
                data:
                  - sentences: ["turn off [the] {area} fan[s]"]
                    slots: {domain: fan}
                  - sentences: ["turn off [the] {name}"]
                    requires_context: {domain: [light, fan]}
                  - sentences: ["turn off [the] lights in [the] {area}"]
                    slots: {domain: light}
              HassGetState:
                data:
                  - sentences: ["is [the] {name} locked"]
                    requires_context: {domain: lock}
                  - sentences: ["is [the] {name} open"]
                    requires_context: {domain: binary_sensor, device_class: [door, window]}
                  - sentences: ["is [the] {name} shut"]
                    excludes_context: {domain: [lock, light, cover]}
                  - sentences: ["what is on the {floor}"]
              HassVacuumStart:
                data:
                  - sentences: ["start [the] {name}"]
                    requires_context: {domain: vacuum}
            """)], home: home)
        #expect(result.report == ["sentences.yaml:22: no entity of the home is domain vacuum; the sentence is left out",
                                  "sentences.yaml:20: intent HassVacuumStart has no sentence that could be carried over, left out"],
                "\(result.report)")
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "home")
        let heard = Understanding([app])
        #expect(heard("turn off the bedroom lamp") == "HassTurnOff name=bedroom lamp")
        #expect(heard("turn off kitchen light") == "HassTurnOff name=kitchen light")
        #expect(heard("turn off the front door") == nil)
        // The entity, as Home Assistant reads it, not the kitchen's fans.
        #expect(heard("turn off the kitchen fan") == "HassTurnOff name=kitchen fan")
        #expect(heard("turn off the kitchen fans") == "HassTurnOff area=Kitchen domain=fan")
        #expect(heard("turn off the lights in the bedchamber") == "HassTurnOff area=Bedroom domain=light")
        #expect(heard("is the front door locked") == "HassGetState name=front door")
        #expect(heard("is the back door locked") == nil)
        #expect(heard("is the back door open") == "HassGetState name=back door")
        #expect(heard("is the garage door open") == nil)
        #expect(heard("is the back door shut") == "HassGetState name=back door")
        #expect(heard("is the front door shut") == nil)
        #expect(heard("what is on the ground floor") == "HassGetState floor=Ground Floor")
    }

    /// The same sentence in two blocks, each keeping to its own entities and values, is heard
    /// as either block hears it and never as a pairing neither allows: a door sensor is not asked
    /// whether it is "closed" as a cover is.
    @Test func theSameSentenceInTwoBlocksKeepsEachBlocksPairings() throws {
        let home = try HomeEntities.read("""
            entities:
              - {name: "back door", id: binary_sensor.back_door, attributes: {device_class: occupancy}}
              - {name: "garage door", id: cover.garage, attributes: {device_class: garage}}
            """, file: "home.yaml")
        let result = HomeAssistantImporter.makeApp(name: "Home", files: [("sentences.yaml", """
            language: en
            intents:
              HassGetState:
                data:
                  - sentences: ["is [the] {name} {cover_states:state}"]
                    requires_context: {domain: cover}
                  - sentences: ["is [the] {name} {occupancy_states:state}"]
                    requires_context: {domain: binary_sensor}
            lists:
              cover_states:
                values: [{in: open, out: open}, {in: closed, out: closed}]
              occupancy_states:
                values: [{in: clear, out: "off"}, {in: occupied, out: "on"}]
            """)], home: home)
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "home")
        let heard = Understanding([app])
        #expect(heard("is the garage door closed") == "HassGetState name=garage door state=closed")
        #expect(heard("is the back door clear") == "HassGetState name=back door state=off")
        #expect(heard("is the back door closed") == nil)
        #expect(heard("is the garage door occupied") == nil)
    }

    /// Home Assistant's REST API's /api/states, as a home's entities: names and device classes,
    /// the domain from each id.
    @Test func theHomeFromApiStates() throws {
        let home = try HomeEntities.read("""
            [{"entity_id": "light.porch", "state": "off", "attributes": {"friendly_name": "Porch Light"}},
             {"entity_id": "binary_sensor.hall_window", "state": "on", "attributes": {"friendly_name": "Hall Window", "device_class": "window"}},
             {"state": "on"}]
            """, file: "states.json")
        #expect(home.entities.map(\.name) == ["Porch Light", "Hall Window"])
        #expect(home.entities.map(\.domain) == ["light", "binary_sensor"])
        #expect(home.entities.map(\.deviceClass) == [nil, "window"])
        #expect(home.notes == ["states.json:3: an entry without entity_id, left out"])
        #expect(throws: HomeEntities.Failure.self) { try HomeEntities.read("just words", file: "x.yaml") }
    }

    /// A fraction in a list ("1/2", Home Assistant's timer_half) is said as a word ("half"),
    /// never as its digits run together ("12", another number); digits in a sentence are said
    /// as words; a sentence with a fraction Hark cannot say is left out with a note.
    @Test func fractionsAndDigitsAreSaidAsWords() throws {
        let result = HomeAssistantImporter.makeApp(name: "Timers", file: "timers.yaml", text: """
            language: en
            intents:
              HassStartTimer:
                data:
                  - sentences: ["set a timer for {minutes} and a {half} minutes", "set a 2 hour timer", "set a 5/8 hour timer"]
            lists:
              minutes:
                range: {from: 1, to: 3}
              half:
                values: [{in: "half", out: 30}, {in: "1/2", out: 30}]
            """)
        #expect(result.report == ["timers.yaml:5: \"1/2\" is said as \"half\"", "timers.yaml:5: \"2\" is said as \"two\"",
                                  "timers.yaml:5: \"5/8\": the fraction 5/8 cannot be said as words; the sentence is left out"],
                "\(result.report)")
        #expect(result.app.intents[0].phrases.count == 2)
        let half = result.app.intents[0].parameters.first { $0.name == "half" }?.values.map(\.spoken)
        #expect(half == ["half"])
        let heard = Understanding([try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "timers")])
        #expect(heard("set a timer for two and a half minutes") == "HassStartTimer half=30 minutes=2")
        #expect(heard("set a timer for two and a twelve minutes") == nil)
        #expect(heard("set a two hour timer") == "HassStartTimer")
    }

    /// A range with fractions: halves said "point five" or "and a half", with their values.
    @Test func aRangesHalvesAreSaid() throws {
        let result = HomeAssistantImporter.makeApp(name: "Heat", file: "heat.yaml", text: """
            language: en
            intents:
              HassClimateSetTemperature:
                data:
                  - sentences: ["set the heat to {temperature} degrees"]
            lists:
              temperature:
                range: {from: 20, to: 22, fractions: halves}
            """)
        #expect(result.report.isEmpty, "\(result.report)")
        let heard = Understanding([try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "heat")])
        #expect(heard("set the heat to twenty one point five degrees") == "HassClimateSetTemperature temperature=21.5")
        #expect(heard("set the heat to twenty and a half degrees") == "HassClimateSetTemperature temperature=20.5")
        #expect(heard("set the heat to twenty two degrees") == "HassClimateSetTemperature temperature=22")
        #expect(heard("set the heat to twenty two point five degrees") == nil)
    }

    /// A range with a multiplier: the number said stands for itself times it ("down by three
    /// percent" is -3), as Home Assistant gives the value. The same words standing for another
    /// value in another sentence of the intent (up by three: 3) is a parameter of its own, told
    /// to Wyoming clients as the same slot: never heard as -3.
    @Test func aRangesMultiplierGivesTheValue() throws {
        let result = HomeAssistantImporter.makeApp(name: "Volume", file: "volume.yaml", text: """
            language: en
            intents:
              HassSetVolumeRelative:
                data:
                  - sentences: ["volume down by {volume_step_down:volume_step} percent"]
                  - sentences: ["volume up by {volume_step_up:volume_step} percent"]
            lists:
              volume_step_down:
                range: {from: 1, to: 3, multiplier: -1}
              volume_step_up:
                range: {from: 1, to: 3}
            """)
        #expect(result.report.isEmpty, "\(result.report)")
        let app = try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "volume")
        let catalog = AppCatalog(apps: [app])
        let graph = WordGraph(catalog.topLevelGrammar())
        func value(_ text: String) -> String? {
            graph.interpret(Grammar.words(of: text)).flatMap { catalog.match($0) }?.values["volume_step"]?.value.identifier
        }
        #expect(value("volume down by three percent") == "-3")
        #expect(value("volume up by three percent") == nil)
        let heard = Understanding([app])
        #expect(heard("volume up by three percent") == "HassSetVolumeRelative volume_step_2=3")
        #expect(app.intents[0].parameter(named: "volume_step_2")?.slotName == "volume_step")
        #expect(value("volume down by four percent") == nil)
    }

    /// Home Assistant's permutations, "(the volume;(up|down))": the items said in any order, each
    /// apart from the next (they were glued into "volumeup"); too many items are left out, noted.
    @Test func permutationsAreSaidInAnyOrder() throws {
        let result = HomeAssistantImporter.makeApp(name: "Order", file: "order.yaml", text: """
            language: en
            intents:
              HassSetVolume:
                data:
                  - sentences:
                      - "(turn (the volume;(up|down)) to {volume};[in] the kitchen)"
                      - "(a;b;c;d;e) louder"
            lists:
              volume:
                range: {from: 10, to: 20, step: 10}
            """)
        #expect(result.report == ["order.yaml:7: a permutation of 5 items (at most 4), left out: (a;b;c;d;e) louder"], "\(result.report)")
        let heard = Understanding([try AppCatalog.manifest(yaml: AppYAML.text(of: result.app, header: ["test"]), identifier: "order")])
        #expect(heard("turn the volume up to ten in the kitchen") == "HassSetVolume volume=10")
        #expect(heard("turn up the volume to twenty the kitchen") == "HassSetVolume volume=20")
        #expect(heard("in the kitchen turn down the volume to ten") == "HassSetVolume volume=10")
        #expect(heard("turn the volumeup to ten in the kitchen") == nil)
        #expect(heard("turn the volume to ten up") == nil)
    }

}

/// What typed words are understood as by a set of apps, as the dialogue reads a request: "Intent
/// slot=value …" (slots by name), or nil when no phrase says them.
struct Understanding {
    let catalog: AppCatalog
    let graph: WordGraph

    init(_ apps: [AppManifest]) {
        catalog = AppCatalog(apps: apps)
        graph = WordGraph(catalog.topLevelGrammar())
    }

    func callAsFunction(_ text: String) -> String? {
        guard let interpretation = graph.interpret(Grammar.words(of: text)), let match = catalog.match(interpretation) else { return nil }
        return ([match.intent.name] + match.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value.identifier)" })
            .joined(separator: " ")
    }
}
