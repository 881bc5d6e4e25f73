import Foundation
import HarkDialogue
import HarkRuntime
import HarkTestSupport
import Testing

/// Many PIN guesses at the same moment, from one process and from several: each is counted
/// before the next is checked, so the lockout holds however they arrive.
@Suite(.serialized) struct PINConcurrencyTests {
    /// Rounds enough for a check to take a while in a debug build, so guesses overlap unless
    /// something keeps them apart.
    static let slowIterations = 20_000

    static func guesses(_ count: Int, of digits: String, at file: PINFile) async -> [PINCheck] {
        await withTaskGroup(of: PINCheck.self) { group in
            for _ in 0..<count { group.addTask { await file.check(digits) } }
            var results: [PINCheck] = []
            for await result in group { results.append(result) }
            return results
        }
    }

    @Test func fiftyGuessesAtOnceAreCountedOneByOneAndTheRightPINIsThenRefused() async throws {
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var file = PINFile(url: try temporaryDirectory().appendingPathComponent("pin"))
        file.iterations = Self.slowIterations
        file.now = { start }
        try file.set("1234")

        let results = await Self.guesses(50, of: "9999", at: file)
        // Two wrong PINs are free; the third starts a 30 s lockout, in which nothing is checked or counted.
        #expect(results.filter { $0 == .wrong }.count == PINLockout.freeAttempts - 1)
        #expect(results.filter { $0 == .lockedOut(seconds: 30) }.count == 50 - (PINLockout.freeAttempts - 1))
        #expect(await file.check("1234") == .lockedOut(seconds: 30))
        #expect(try file.readLockout() == PINLockout(failures: 3, lockedUntil: start.addingTimeInterval(30)))

        // Once the wait is over, a burst of guesses again gets one check: the wait doubles.
        var later = file
        later.now = { start.addingTimeInterval(31) }
        let burst = await Self.guesses(20, of: "9999", at: later)
        #expect(burst.filter { $0 == .lockedOut(seconds: 60) }.count == 20)
        #expect(try later.readLockout() == PINLockout(failures: 4, lockedUntil: start.addingTimeInterval(91)))
        #expect(await later.check("1234") == .lockedOut(seconds: 60))
    }

    @Test func guessesFromSeveralProcessesAtOnceShareOneCount() async throws {
        let config = try temporaryDirectory()
        var file = PINFile(url: config.appendingPathComponent("hark/pin"))
        file.iterations = Self.slowIterations
        try file.set("1234")
        var environment = try isolatedHarkEnvironment()
        environment["XDG_CONFIG_HOME"] = config.path

        // Each child is brought to the PIN question first, so their guesses go in together.
        // A database each: hark processes creating one database at the same moment can clash.
        let children = try (0..<4).map { index in
            var own = environment
            own["HARK_DATABASE"] = config.appendingPathComponent("shortcuts-\(index).sqlite").path
            return try ChatChild(environment: own)
        }
        for child in children {
            try child.say("order a small dark coffee with oat milk")
            #expect(try child.reply()?.hasSuffix("Ready to order?") == true)
            try child.say("yes")
            #expect(try child.reply() == "What's your PIN?")
        }
        for child in children { try child.say("nine nine nine nine") }
        let here = await Self.guesses(6, of: "9998", at: file)
        var heard = try children.map { try #require(try $0.reply()) }
        for child in children { _ = try child.finish() }

        heard += here.map { result in
            switch result {
            case .wrong: "wrong"
            case .lockedOut: "locked"
            default: "\(result)"
            }
        }
        let checked = heard.filter { $0 == "That PIN isn't right. Try once more." || $0 == "wrong" }
        let locked = heard.filter { $0.hasPrefix("Too many wrong PINs") || $0 == "locked" }
        #expect(checked.count == PINLockout.freeAttempts - 1, "\(heard)")
        #expect(locked.count == heard.count - checked.count, "\(heard)")
        #expect(try file.readLockout().failures == PINLockout.freeAttempts)
        guard case .lockedOut = await file.check("1234") else {
            Issue.record("the right PIN was checked during the lockout")
            return
        }
    }

    @Test func setStoresTheDefaultRoundsAndFilesWithFewerStillVerify() async throws {
        let folder = try temporaryDirectory()
        let file = PINFile(url: folder.appendingPathComponent("pin"))
        try file.set("2468")
        let fields = try String(contentsOf: file.url, encoding: .utf8).split(separator: " ")
        #expect(fields.count == 4)
        #expect(fields[1] == "\(PINFile.defaultIterations)")
        #expect(PINFile.defaultIterations >= 250_000)

        // A PIN stored before the rounds were raised.
        var old = PINFile(url: folder.appendingPathComponent("old-pin"))
        old.iterations = 50_000
        try old.set("1357")
        #expect(try String(contentsOf: old.url, encoding: .utf8).hasPrefix("pbkdf2-sha256 50000 "))
        #expect(await PINFile(url: old.url).check("1357") == .accepted)
        #expect(await PINFile(url: old.url).check("1358") == .wrong)
    }

    @Test func theLockFileIsTheOwnersAlone() async throws {
        var file = PINFile(url: try temporaryDirectory().appendingPathComponent("pin"))
        file.iterations = 1_000
        try file.set("1234")
        #expect(await file.check("1234") == .accepted)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.lockURL.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
    }
}
