import Foundation
import HarkDialogue
import HarkImport
import HarkIntents
import Testing

/// Home Assistant's sentences that mean the area of the satellite that heard them
/// (`requires_context: {area: {slot: true}}`): carried over, and given the room's area.
struct AreaFromRoomTests {
    static func importedHome() throws -> (AppManifest, [String], String) {
        let home = try HomeEntities.read("""
            areas:
              - {name: Kitchen, id: kitchen}
              - {name: Living Room, id: living_room}
            entities:
              - {name: "kitchen light", id: light.kitchen, area: kitchen}
            """, file: "home.yaml")
        let result = HomeAssistantImporter.makeApp(name: "Home", files: [("sentences.yaml", """
            language: en
            intents:
              HassTurnOn:
                data:
                  - sentences: ["turn on the lights"]
                    requires_context: {area: {slot: true}}
                    slots: {domain: light}
                  - sentences: ["turn on the lights in [the] {area}"]
                    slots: {domain: light}
            """)], home: home)
        let yaml = AppYAML.text(of: result.app, header: ["test"])
        return (try AppCatalog.manifest(yaml: yaml, identifier: "home"), result.report, yaml)
    }

    @Test func theAreaComesFromTheRoomThatHeardTheRequest() async throws {
        let (app, report, yaml) = try Self.importedHome()
        #expect(report.isEmpty, "\(report)")
        #expect(yaml.contains("{phrase: \"turn on the lights\", set: {domain: \"light\"}, room: [\"area\"]}"), "\(yaml)")
        var engine = DialogueEngine(catalog: AppCatalog(apps: [app]))

        // Said in the living room (a satellite named "living-room"): its area, without a question.
        engine.room = "living-room"
        let inTheLivingRoom = try ConversationScript("""
            you: turn on the lights
            hark: Home: OK.
            handled: home.HassTurnOn area=Living Room domain=light
            you: turn on the lights in the kitchen
            hark: Home: OK.
            handled: home.HassTurnOn area=Kitchen domain=light
            """)
        let mismatches = await inTheLivingRoom.run(&engine)
        #expect(mismatches.isEmpty, "\(mismatches)")

        // No room known, or a room that is no area: the area is asked for, never guessed.
        for room in [nil, "garage"] as [String?] {
            engine.room = room
            let unknown = try ConversationScript("""
                you: turn on the lights
                hark: What area?
                you: kitchen
                hark: OK.
                handled: home.HassTurnOn area=Kitchen domain=light
                """)
            let mismatches = await unknown.run(&engine)
            #expect(mismatches.isEmpty, "room \(room ?? "none"): \(mismatches)")
        }
    }

    @Test func aPhraseCannotTakeFromTheRoomWhatItSays() throws {
        let (_, _, yaml) = try Self.importedHome()
        let said = yaml.replacingOccurrences(of: "{phrase: \"turn on the lights\", set: {domain: \"light\"}, room: [\"area\"]}",
                                             with: "{phrase: \"turn on the lights in <area>\", room: [area]}")
        #expect(throws: (any Error).self) { try AppCatalog.manifest(yaml: said, identifier: "home") }
    }
}
