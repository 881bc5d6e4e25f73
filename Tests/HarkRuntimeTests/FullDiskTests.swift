import Foundation
import HarkDialogue
import HarkExampleApps
import HarkIntents
import HarkRuntime
import HarkShortcuts
import HarkStore
import HarkTestSupport
import Testing

/// A tmpfs of a few hundred KiB, mounted for one test and filled to the last byte: a real full
/// disk, not a simulated error. Mounting needs root (or CAP_SYS_ADMIN).
final class TinyFilesystem {
    let url: URL

    init(kilobytes: Int) throws {
        url = try temporaryDirectory(prefix: "hark-full-disk")
        let mounted = "size=\(kilobytes)k,mode=0700".withCString { options in mount("tmpfs", url.path, "tmpfs", 0, options) }
        guard mounted == 0 else {
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }

    /// Writes zeros into `name` until the filesystem says ENOSPC; any other failure is thrown.
    func fill(_ name: String = "filler") throws {
        let descriptor = open(url.appendingPathComponent(name).path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0, count: 4096)
        while true {
            // Down to single bytes, so not even a partial block is left free.
            var size = block.count
            while size > 0, write(descriptor, block, size) < 0 {
                guard errno == ENOSPC else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
                size /= 2
            }
            if size == 0 { return }
        }
    }

    var freeBytes: UInt64 {
        var stats = statvfs()
        guard statvfs(url.path, &stats) == 0 else { return .max }
        return UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
    }

    deinit {
        if umount2(url.path, Int32(MNT_DETACH)) != 0 {
            FileHandle.standardError.write(Data("could not unmount \(url.path): \(String(cString: strerror(errno)))\n".utf8))
        }
    }

    /// Whether this process may mount one at all: tried once, on a throwaway mount.
    static let canMount: Bool = (try? TinyFilesystem(kilobytes: 64)) != nil
}

/// A full data disk: answering and listing need no writes, so they go on; the writes that fail say so.
@Suite(.serialized, .enabled(if: TinyFilesystem.canMount, "mounting a tmpfs was refused (the test needs root): skipped"))
struct FullDiskTests {
    @Test func hearingListingAndAnsweringGoOnWhenTheDiskIsFull() throws {
        let disk = try TinyFilesystem(kilobytes: 512)
        let data = disk.url.appendingPathComponent("data")
        let database = data.appendingPathComponent("hark/shortcuts.sqlite")
        let environment = ["XDG_DATA_HOME": data.path, "HARK_DATABASE": database.path]
        let added = try CommandLineTests.hark(["shortcuts", "add", "tea time", "--apps", "apps", "--intent", "home.GetTime"],
                                              environment: environment)
        try #require(added.status == 0, "\(added.errors)")
        try disk.fill()
        try #require(disk.freeBytes == 0)

        let listed = try CommandLineTests.hark(["shortcuts", "list"], environment: environment)
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.contains("tea time"))
        #expect(listed.errors.contains("can only be read for now"))
        #expect(listed.errors.contains("is full"))

        // The reply goes to another disk: only the database's is full.
        let replies = try temporaryDirectory()
        let run = try CommandLineTests.hark(["run", "audio-fixtures/home-en/what_time_is_it.wav", "--apps", "apps", "--donate",
                                             "--reply-out", replies.appendingPathComponent("reply.wav").path], environment: environment)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("GetTime"))
        #expect(run.errors.contains("warning: donating home.GetTime: recording what was done:"), "\(run.errors)")

        let refused = try CommandLineTests.hark(["shortcuts", "add", "coffee time", "--apps", "apps", "--intent", "home.GetTime"],
                                                environment: environment)
        #expect(refused.status == 73)
        #expect(refused.errors.contains("adding the shortcut \"coffee time\""))
        #expect(refused.errors.contains("is full"))

        // With space again the same database takes changes: nothing was left half-written.
        try FileManager.default.removeItem(at: disk.url.appendingPathComponent("filler"))
        let again = try CommandLineTests.hark(["shortcuts", "add", "coffee time", "--apps", "apps", "--intent", "home.GetTime"],
                                              environment: environment)
        #expect(again.status == 0, "\(again.errors)")
        #expect(try ShortcutStore(url: database).shortcuts().map(\.phrase) == ["coffee time", "tea time"])
    }

    @Test func aStoreOnAFullDiskReadsRefusesChangesWithTheReasonAndWritesOnceThereIsRoom() throws {
        let disk = try TinyFilesystem(kilobytes: 512)
        let database = disk.url.appendingPathComponent("shortcuts.sqlite")
        do {
            try ShortcutStore(url: database).addShortcut(phrase: "tea time", steps: [.init(app: "home", intent: "GetTime", values: [:])])
        }
        try disk.fill()
        let store = try ShortcutStore(url: database)
        #expect(try store.shortcuts().map(\.phrase) == ["tea time"])
        #expect(store.readOnlyReason?.contains("is full") == true)
        let refused = #expect(throws: StoreError.self) { try store.deleteShortcut(id: 1) }
        #expect(refused?.code == .readOnly)
        #expect(refused?.message.hasPrefix("deleting shortcut 1: \(database.path) can only be read for now") == true)

        // Space freed, the same store (a long-running listen) takes changes again.
        try FileManager.default.removeItem(at: disk.url.appendingPathComponent("filler"))
        #expect(try store.deleteShortcut(id: 1))
        #expect(store.readOnlyReason == nil)
        #expect(try store.shortcuts().isEmpty)
        #expect(try ShortcutStore(url: database).shortcuts().isEmpty)
    }

    @Test func aDueAutomationWaitsForRoomAndThenRunsOnce() async throws {
        let disk = try TinyFilesystem(kilobytes: 512)
        let database = disk.url.appendingPathComponent("shortcuts.sqlite")
        let made = try #require(ISO8601DateFormatter().date(from: "2026-03-05T09:00:00Z"))
        do {
            let store = try ShortcutStore(url: database)
            let shortcut = try store.addShortcut(phrase: "porch light", steps: [
                ShortcutStep(app: "home", intent: "ChangeLightState", values: ["name": "garage light", "state": "on"]),
            ])
            try store.addAutomation(shortcutID: shortcut.id, time: TimeOfDay("18:30")!, days: .workdays, at: made)
        }
        try disk.fill()
        let store = try ShortcutStore(url: database)
        try #require(store.readOnlyReason != nil)
        let configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: nil,
            inProcessHandlers: ExampleApps.handlers, dataDirectory: try temporaryDirectory(), database: nil)
        let conversation = ConversationService(try await Assistant.dialogueEngine(configuration).0)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let runner = AutomationRunner(store: store, schedule: AutomationSchedule(calendar: calendar))
        let due = try #require(ISO8601DateFormatter().date(from: "2026-03-05T18:30:20Z"))

        // It could not be marked as run, so it would run at every look: it waits.
        #expect(try await runner.runDue(at: due, in: conversation).isEmpty)
        #expect(try await runner.runDue(at: due.addingTimeInterval(1), in: conversation).isEmpty)
        try FileManager.default.removeItem(at: disk.url.appendingPathComponent("filler"))
        let ran = try await runner.runDue(at: due.addingTimeInterval(2), in: conversation)
        #expect(ran.map(\.1.speech) == ["Home: Turning on the garage light."])
        #expect(try await runner.runDue(at: due.addingTimeInterval(3), in: conversation).isEmpty)
        #expect(store.readOnlyReason == nil)
    }
}
