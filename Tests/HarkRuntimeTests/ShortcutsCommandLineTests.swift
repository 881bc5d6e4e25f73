import Foundation
import HarkIntents
import HarkShortcuts
import HarkStore
import HarkTestSupport
import Testing

/// `hark shortcuts`, `donations`, `suggest` and `automations` as a person runs them, on a temporary database.
@Suite(.serialized) struct ShortcutsCommandLineTests {
    static func hark(_ arguments: [String], database: URL) throws -> CommandLineTests.Outcome {
        try CommandLineTests.hark(arguments + ["--database", database.path])
    }

    @Test func aPhraseWithTheWakePhraseTheDeviceListensForIsRefused() throws {
        let database = try temporaryDirectory().appendingPathComponent("shortcuts.sqlite")
        let config = try temporaryDirectory()
        let add = ["shortcuts", "add", "--apps", "apps", "--intent", "home.GetTime", "--database", database.path]
        let empty = ["XDG_CONFIG_HOME": config.path]
        let jarvis = try CommandLineTests.hark(add + ["jarvis relax"], environment: empty)
        #expect(jarvis.status == 65)
        #expect(jarvis.errors.contains("contains the wake phrase \"jarvis\""))
        // The settings file's wake phrase, not the default, is the one to keep out.
        try FileManager.default.createDirectory(at: config.appendingPathComponent("hark"), withIntermediateDirectories: true)
        try "wake_phrase: computer\n".write(to: config.appendingPathComponent("hark/hark.yaml"), atomically: true, encoding: .utf8)
        let computer = try CommandLineTests.hark(add + ["computer relax"], environment: empty)
        #expect(computer.status == 65)
        #expect(computer.errors.contains("contains the wake phrase \"computer\""))
        #expect(try CommandLineTests.hark(add + ["jarvis relax"], environment: empty).status == 0)
    }

    @Test func addListEditDeleteAndRefusals() throws {
        let database = try temporaryDirectory().appendingPathComponent("shortcuts.sqlite")
        let added = try Self.hark(["shortcuts", "add", "soup time", "--apps", "apps", "--intent", "soup.OrderSoup",
                                   "--set", "soup=clam_chowder", "--set", "orderType=pickup"], database: database)
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("\"soup time\""))

        let clash = try Self.hark(["shortcuts", "add", "Soup time", "--apps", "apps", "--intent", "home.GetTime"], database: database)
        #expect(clash.status == 65)
        #expect(clash.errors.contains("already your shortcut \"soup time\""))
        let command = try Self.hark(["shortcuts", "add", "what can i say", "--apps", "apps", "--intent", "home.GetTime"], database: database)
        #expect(command.status == 65)
        #expect(command.errors.contains("one of Hark's own commands"))
        let long = try Self.hark(["shortcuts", "add", "tell me the time of day zorblax", "--apps", "apps", "--intent", "home.GetTime"],
                                 database: database)
        #expect(long.status == 0, "\(long.errors)")
        #expect(long.errors.contains("warning: the phrase is long"))
        #expect(long.output.contains("Not in the dictionary: zorblax"))

        let edited = try Self.hark(["shortcuts", "edit", "soup time", "--apps", "apps", "--phrase", "chowder time"], database: database)
        #expect(edited.status == 0, "\(edited.errors)")
        let listed = try Self.hark(["shortcuts", "list", "--json"], database: database)
        #expect(listed.output.contains("\"phrase\":\"chowder time\""))
        #expect(listed.output.split(separator: "\n").count == 2)

        #expect(try Self.hark(["shortcuts", "delete", "chowder time"], database: database).status == 0)
        let missing = try Self.hark(["shortcuts", "delete", "chowder time"], database: database)
        #expect(missing.status == 66)
        #expect(try ShortcutStore(url: database).shortcuts().map(\.phrase) == ["tell me the time of day zorblax"])
    }

    @Test func replayedRecordingsAreNotTheOwnersHabitsUnlessAsked() throws {
        let folder = try temporaryDirectory()
        let database = folder.appendingPathComponent("shortcuts.sqlite")
        let run = ["run", "audio-fixtures/home-en/turn_on_the_garage_light.wav", "--apps", "apps",
                   "--reply-out", folder.appendingPathComponent("reply.wav").path]
        let replayed = try CommandLineTests.hark(run, environment: ["HARK_DATABASE": database.path])
        #expect(replayed.status == 0, "\(replayed.errors)")
        #expect(replayed.output.contains("ChangeLightState"))
        #expect(try ShortcutStore(url: database).donations().isEmpty)
        let donated = try CommandLineTests.hark(run + ["--donate"], environment: ["HARK_DATABASE": database.path])
        #expect(donated.status == 0, "\(donated.errors)")
        #expect(try ShortcutStore(url: database).donations().map(\.intent) == ["ChangeLightState"])
    }

    @Test func donationsSuggestionsAndAutomations() throws {
        let database = try temporaryDirectory().appendingPathComponent("shortcuts.sqlite")
        let store = try ShortcutStore(url: database)
        let iso = ISO8601DateFormatter()
        for day in 0..<5 {
            let date = iso.date(from: "2026-03-0\(2 + day)T07:30:00Z")!
            try store.donate(Donation(app: "home", intent: "ChangeLightState",
                                      values: ["name": .init(identifier: "garage light", spoken: "garage light"),
                                               "state": .init(identifier: day == 4 ? "off" : "on", spoken: "on")], date: date))
        }
        let suggested = try Self.hark(["suggest", "--apps", "apps", "--at", "2026-03-09T07:30:00Z", "--json"], database: database)
        #expect(suggested.status == 0, "\(suggested.errors)")
        let first = try #require(try JSONSerialization.jsonObject(with: Data(suggested.output.split(separator: "\n")[0].utf8)) as? [String: Any])
        #expect(first["intent"] as? String == "ChangeLightState")
        #expect((first["values"] as? [String: String])?["state"] == "on")
        #expect(try Self.hark(["suggest", "--at", "half past"], database: database).status == 64)

        let deleted = try Self.hark(["donations", "delete", "--app", "home", "--where", "state=on"], database: database)
        #expect(deleted.output.contains("Deleted 4 donations."))
        #expect(try store.donations().count == 1)

        try store.addShortcut(phrase: "garage on", steps: [ShortcutStep(app: "home", intent: "ChangeLightState",
                                                                        values: ["name": "garage light", "state": "on"])])
        let automation = try Self.hark(["automations", "add", "garage on", "--at", "18:30", "--on", "mon,fri"], database: database)
        #expect(automation.status == 0, "\(automation.errors)")
        #expect(automation.output.contains("18:30 mon,fri"))
        #expect(try Self.hark(["automations", "add", "garage on", "--at", "6pm"], database: database).status == 64)
        // One made on Thursday 5 March at 09:00 (local time), for 18:30 on Fridays; run on Friday at 18:30.
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.dateFormat = "yyyy-MM-dd'T'HH:mm"
        let shortcut = try #require(try store.shortcut("garage on"))
        try store.addAutomation(shortcutID: shortcut.id, time: TimeOfDay("18:30")!, days: Weekdays([6]),
                                at: try #require(local.date(from: "2026-03-05T09:00")))
        let out = try temporaryDirectory().appendingPathComponent("said.wav")
        let ran = try Self.hark(["automations", "run", "--apps", "apps", "--now", "2026-03-06T18:30", "--reply-out", out.path],
                                database: database)
        #expect(ran.status == 0, "\(ran.errors)")
        #expect(ran.output.contains("18:30 \"garage on\": Home: Turning on the garage light."))
        #expect(FileManager.default.fileExists(atPath: out.path))
        let again = try Self.hark(["automations", "run", "--apps", "apps", "--now", "2026-03-06T18:31", "--reply-out", out.path],
                                  database: database)
        #expect(again.output.contains("No automation is due."))
    }
}
