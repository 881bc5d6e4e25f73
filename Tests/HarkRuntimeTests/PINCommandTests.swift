import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HarkDialogue
import HarkRuntime
import HarkTestSupport
import Testing

/// `hark pin status` and `clear` when the PIN's folder cannot be looked into: they say so and
/// fail, rather than report a PIN absent or removed while nothing changed.
@Suite(.serialized) struct PINCommandTests {
    @Test func aPathThroughAFileIsReportedAndFails() throws {
        let blocker = try temporaryDirectory().appendingPathComponent("not-a-folder")
        try "x".write(to: blocker, atomically: true, encoding: .utf8)
        let pin = blocker.appendingPathComponent("pin")
        for action in ["status", "clear"] {
            let outcome = try CommandLineTests.hark(["pin", action, "--file", pin.path])
            #expect(outcome.status == 74, "\(action): \(outcome.output)\(outcome.errors)")
            #expect(outcome.errors.contains("cannot look for \(pin.path): Not a directory"), "\(outcome.errors)")
            #expect(!outcome.output.contains("No PIN is set") && !outcome.output.contains("PIN removed"), "\(outcome.output)")
        }
    }

    /// As a user who may not look into the owner's folder (the tests run as root, who may).
    @Test func aFolderTheUserCannotSearchIsReportedAndThePINStays() async throws {
        let folder = try temporaryDirectory().appendingPathComponent("owners")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false,
                                                attributes: [.posixPermissions: 0o700])
        var file = PINFile(url: folder.appendingPathComponent("pin"))
        file.iterations = 1_000
        try file.set("1234")
        guard getuid() == 0 else {
            // Not root: the folder is this user's own, so no other user can be played here.
            return
        }
        for action in ["status", "clear"] {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
            process.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", "--",
                                 try Fixtures.executable("hark").path, "pin", action, "--file", file.url.path]
            process.currentDirectoryURL = URL(fileURLWithPath: "/")
            process.environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
            let output = Pipe(), errors = Pipe()
            process.standardOutput = output
            process.standardError = errors
            try process.run()
            let printed = String(decoding: try readToEnd(output.fileHandleForReading), as: UTF8.self)
            let complaint = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 74, "\(action): \(printed)\(complaint)")
            #expect(complaint.contains("cannot look for \(file.url.path): Permission denied"), "\(complaint)")
            #expect(!printed.contains("No PIN is set") && !printed.contains("PIN removed"), "\(printed)")
        }
        #expect(try file.isStored())
        #expect(await file.check("1234") == .accepted)
    }

    @Test func clearingWhenNoPINIsSetSaysSo() throws {
        let file = try temporaryDirectory().appendingPathComponent("pin")
        let outcome = try CommandLineTests.hark(["pin", "clear", "--file", file.path])
        #expect(outcome.status == 0)
        #expect(outcome.output.contains("No PIN was set."))
    }
}
