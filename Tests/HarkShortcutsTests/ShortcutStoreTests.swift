import Foundation
import GRDB
import HarkIntents
import HarkShortcuts
@testable import HarkStore
import HarkTestSupport
import Testing

/// The database on a real SQLite file in a temporary folder.
@Suite struct ShortcutStoreTests {
    static func store() throws -> ShortcutStore {
        try ShortcutStore(url: try temporaryDirectory().appendingPathComponent("data/shortcuts.sqlite"))
    }

    static let soup = ShortcutStep(app: "soup", intent: "OrderSoup", values: ["soup": "clam_chowder", "orderType": "pickup"])

    @Test func addsListsEditsAndDeletesShortcuts() throws {
        let store = try Self.store()
        let added = try store.addShortcut(phrase: "Soup Time!", steps: [Self.soup])
        #expect(added.phrase == "soup time")
        #expect(try store.shortcuts() == [added])
        #expect(try store.shortcut("SOUP TIME") == added)
        #expect(try store.shortcut("\(added.id)") == added)

        var edited = added
        edited.phrase = "lunch"
        edited.steps.append(ShortcutStep(app: "home", intent: "GetTime"))
        try store.updateShortcut(edited)
        #expect(try store.shortcuts() == [edited])

        #expect(try store.deleteShortcut(id: added.id))
        #expect(try store.shortcuts().isEmpty)
        #expect(try !store.deleteShortcut(id: added.id))
        #expect(throws: StoreError.self) { try store.updateShortcut(edited) }
    }

    @Test func aPhraseIsStoredOnce() throws {
        let store = try Self.store()
        try store.addShortcut(phrase: "soup time", steps: [Self.soup])
        let error = #expect(throws: StoreError.self) { try store.addShortcut(phrase: "Soup time.", steps: [Self.soup]) }
        #expect(error?.code == .duplicate)
    }

    @Test func deletingAShortcutDeletesItsStepsAndAutomations() throws {
        let store = try Self.store()
        let shortcut = try store.addShortcut(phrase: "soup time", steps: [Self.soup, Self.soup])
        try store.addAutomation(shortcutID: shortcut.id, time: TimeOfDay(minutes: 720), days: .workdays)
        try store.deleteShortcut(id: shortcut.id)
        #expect(try store.automations().isEmpty)
        try store.addShortcut(phrase: "soup time", steps: [Self.soup])
        #expect(try store.shortcuts().map(\.steps.count) == [1])
    }

    /// Another process's change is seen through the change counter, polled the way `hark listen` polls it.
    /// The deadline is generous: parallel tests can hold the machine for seconds.
    @Test func anotherConnectionSeesAChange() async throws {
        let first = try Self.store()
        let second = try ShortcutStore(url: first.url)
        let before = try second.changeVersion()
        try first.addShortcut(phrase: "soup time", steps: [Self.soup])
        let clock = ContinuousClock()
        let started = clock.now
        var seen = false
        while clock.now - started < .seconds(10) {
            if try second.changeVersion() != before { seen = true; break }
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(seen)
        #expect(try second.shortcuts().map(\.phrase) == ["soup time"])
        // Donations do not change what is heard: they leave the counter alone.
        let version = try second.changeVersion()
        try first.donate(Donation(app: "soup", intent: "OrderSoup", values: [:], date: Date()))
        #expect(try second.changeVersion() == version)
    }

    @Test func donationsAreDeletedByAppIntentAndValue() throws {
        let store = try Self.store()
        let amy = ParameterValue(identifier: "amy_jones", spoken: "Amy Jones")
        let bob = ParameterValue(identifier: "bob", spoken: "Bob")
        let text = ParameterValue(identifier: "hi", spoken: "hi")
        for recipient in [amy, bob, amy] {
            try store.donate(Donation(app: "messages", intent: "SendMessage", values: ["recipient": recipient, "content": text], date: Date()))
        }
        try store.donate(Donation(app: "soup", intent: "OrderSoup", values: ["recipient": amy], date: Date()))
        #expect(try store.deleteDonations(DonationFilter(app: "messages", values: ["recipient": "amy_jones"])) == 2)
        #expect(try store.donations(app: "messages").map { $0.values["recipient"] } == [bob])
        #expect(try store.donations(app: "soup").count == 1)
        // A parameter name cannot reach the SQL.
        #expect(try store.deleteDonations(DonationFilter(app: "messages", values: ["x') OR 1=1 --": "y"])) == 0)
        #expect(try store.deleteDonations(DonationFilter(app: "messages", intent: "SendMessage")) == 1)
        #expect(try store.donations().count == 1)
    }

    @Test func donationsKeepTheirValuesTimeAndWeekday() throws {
        let store = try Self.store()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        // Friday 2026-03-06 12:05 UTC.
        let date = Date(timeIntervalSince1970: 1_772_798_700)
        let donation = Donation(app: "soup", intent: "OrderSoup", values: ["soup": .init(identifier: "clam_chowder", spoken: "clam chowder")],
                                date: date, calendar: calendar)
        let id = try store.donate(donation)
        let read = try #require(try store.donations().first)
        #expect(read.id == id)
        #expect(read.weekday == 6)
        #expect(read.time == TimeOfDay("12:05"))
        #expect(read.values == donation.values)
        #expect(read.date == date)
    }

    /// A database written by the first schema (one action per shortcut) opens
    /// with its shortcuts turned into one-step shortcuts, nothing lost.
    @Test func migratesTheFirstSchema() throws {
        let url = try temporaryDirectory().appendingPathComponent("old.sqlite")
        do {
            let old = try ShortcutStore.openOld(url: url, upTo: "v1-shortcuts-donations")
            try old.write { db in
                try db.execute(sql: """
                    INSERT INTO shortcut (phrase, app, intent, parameter_values, created)
                        VALUES ('soup time', 'soup', 'OrderSoup', '{"soup":"clam_chowder"}', 0);
                    INSERT INTO donation (app, intent, parameter_values, date, weekday, minute)
                        VALUES ('soup', 'OrderSoup', '{}', 0, 5, 720);
                    """)
            }
            try old.close()
        }
        let store = try ShortcutStore(url: url)
        #expect(try store.appliedMigrations() == ShortcutStore.migrationNames)
        #expect(try store.shortcuts().map(\.steps) == [[ShortcutStep(app: "soup", intent: "OrderSoup", values: ["soup": "clam_chowder"])]])
        #expect(try store.donations().count == 1)
        #expect(try store.integrityCheck() == "ok")
    }

    @Test func refusesADatabaseFromANewerHark() throws {
        let url = try temporaryDirectory().appendingPathComponent("new.sqlite")
        let pool = try ShortcutStore.openOld(url: url, upTo: "v2-steps-automations")
        try pool.write { db in try db.execute(sql: "INSERT INTO grdb_migrations VALUES ('v9-from-the-future')") }
        try pool.close()
        let error = #expect(throws: StoreError.self) { try ShortcutStore(url: url) }
        #expect(error?.code == .unusable)
    }

    @Test func automationsAreStoredAndMarkedOnce() throws {
        let store = try Self.store()
        let shortcut = try store.addShortcut(phrase: "soup time", steps: [Self.soup])
        let automation = try store.addAutomation(shortcutID: shortcut.id, time: TimeOfDay("07:30")!, days: .workdays,
                                                 at: Date(timeIntervalSince1970: 100))
        #expect(automation.phrase == "soup time")
        #expect(automation.days == .workdays)
        let fire = Date(timeIntervalSince1970: 1000)
        #expect(try store.markRun(automation: automation.id, firedAt: fire, at: Date(timeIntervalSince1970: 1001)))
        // A second process running the same firing finds it taken.
        #expect(try !store.markRun(automation: automation.id, firedAt: fire, at: Date(timeIntervalSince1970: 1002)))
        #expect(try store.automations().first?.lastRun == Date(timeIntervalSince1970: 1001))
        #expect(try store.deleteAutomation(id: automation.id))
    }
}

/// A writer killed with SIGKILL in the middle of its writes: the file is sound
/// and every row it reported as committed is there, whole.
@Suite struct DurabilityTests {
    @Test func nothingCommittedIsLostWhenTheWriterIsKilled() async throws {
        let url = try temporaryDirectory().appendingPathComponent("shortcuts.sqlite")
        _ = try ShortcutStore(url: url)   // the schema first, so the writer starts writing at once
        for round in 0..<2 {
            let process = Process()
            process.executableURL = try Fixtures.executable("hark-store-writer")
            process.arguments = [url.path]
            let output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            // Read committed ids until enough have gone by, then kill mid-stream.
            var committed: [String] = []
            var pending = Data()
            let reader = output.fileHandleForReading
            while committed.count < 150 + round * 50 {
                let chunk = try readSome(reader)
                if chunk.isEmpty { break }
                pending += chunk
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    committed.append(String(decoding: pending[pending.startIndex..<newline], as: UTF8.self))
                    pending = Data(pending[pending.index(after: newline)...])
                }
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            #expect(process.terminationReason == .uncaughtSignal)
            // Lines that arrived after the count was reached are committed too.
            let rest = try readToEnd(reader)
            committed += String(decoding: pending + rest, as: UTF8.self).split(separator: "\n").map(String.init)

            let store = try ShortcutStore(url: url)
            #expect(try store.integrityCheck() == "ok")
            let donations = Set(try store.donations().compactMap(\.id))
            let shortcuts = try store.shortcuts()
            let shortcutIDs = Set(shortcuts.map(\.id))
            for line in committed {
                let parts = line.split(separator: " ")
                guard parts.count == 2, let id = Int64(parts[1]) else { continue }
                if parts[0] == "donation" { #expect(donations.contains(id), "donation \(id) lost") }
                if parts[0] == "shortcut" { #expect(shortcutIDs.contains(id), "shortcut \(id) lost") }
            }
            #expect(committed.count >= 150)
            // Each shortcut was written with three steps in one transaction: none is half there.
            #expect(shortcuts.allSatisfy { $0.steps.count == 3 })
        }
    }
}
