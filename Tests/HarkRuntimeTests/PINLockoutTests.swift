import Foundation
import HarkDialogue
import HarkExampleApps
import HarkRuntime
import HarkTestSupport
import Testing

/// Guessing the PIN order after order: wrong PINs are counted across orders and restarts.
@Suite struct PINLockoutTests {
    static func engine(_ authenticator: PINFile, data: URL) async throws -> DialogueEngine {
        let configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: nil,
            inProcessHandlers: ExampleApps.handlers, authenticator: authenticator, dataDirectory: data,
            database: data.appendingPathComponent("shortcuts.sqlite"))
        return try await Assistant.dialogueEngine(configuration).0
    }

    /// Orders a coffee and says `pins` in turn when asked; returns the last reply.
    static func order(_ engine: inout DialogueEngine, saying pins: [String]) async -> DialogueReply {
        _ = await engine.respond(to: .text("order a small dark coffee with oat milk"))
        let asked = await engine.respond(to: .text("yes"))
        #expect(asked.speech == "What's your PIN?")
        var reply = asked
        for pin in pins { reply = await engine.respond(to: .text(pin)) }
        return reply
    }

    @Test func guessingOrderAfterOrderLocksThePINEvenForTheRightOne() async throws {
        let data = try temporaryDirectory()
        let start = Date(timeIntervalSince1970: 1_800_000_000)
        var file = PINFile(url: data.appendingPathComponent("pin"))
        file.now = { start }
        file.iterations = 1_000
        try file.set("1234")
        var engine = try await Self.engine(file, data: data)

        let first = await Self.order(&engine, saying: ["nine nine nine nine", "nine nine nine eight"])
        #expect(first.speech == "Sorry, that PIN isn't right, so I won't go ahead.")
        let second = await Self.order(&engine, saying: ["nine nine nine seven"])
        #expect(second.speech == "Too many wrong PINs, so I won't go ahead. Try again in 30 seconds.")
        let right = await Self.order(&engine, saying: ["one two three four"])
        #expect(right.speech == "Too many wrong PINs, so I won't go ahead. Try again in 30 seconds.")
        #expect(right.handledIntents.isEmpty)
        #expect(try file.readLockout() == PINLockout(failures: 3, lockedUntil: start.addingTimeInterval(30)))

        // A restart keeps the count; once the wait is over the right PIN works and clears it.
        var later = PINFile(url: file.url)
        later.now = { start.addingTimeInterval(31) }
        var restarted = try await Self.engine(later, data: data)
        let ordered = await Self.order(&restarted, saying: ["one two three four"])
        #expect(ordered.speech == "OK. Ordering.")
        #expect(try later.readLockout() == PINLockout())
    }

    @Test func eachFurtherWrongPINDoublesTheWaitUpToADay() {
        var lockout = PINLockout()
        let now = Date(timeIntervalSince1970: 0)
        let waits = (1...20).map { _ in lockout.recordFailure(at: now) }
        #expect(Array(waits.prefix(6)) == [nil, nil, 30, 60, 120, 240])
        #expect(waits.last == 86_400)
        #expect(lockout.secondsLeft(at: now.addingTimeInterval(86_399)) == 1)
        #expect(lockout.secondsLeft(at: now.addingTimeInterval(86_400)) == nil)
    }

    @Test func aDamagedCountIsNotAFreePass() async throws {
        let data = try temporaryDirectory()
        var file = PINFile(url: data.appendingPathComponent("pin"))
        file.iterations = 1_000
        try file.set("1234")
        try "lots\n".write(to: file.attemptsURL, atomically: true, encoding: .utf8)
        guard case .unavailable(let reason) = await file.check("1234") else {
            Issue.record("a damaged attempts file let the PIN be checked")
            return
        }
        #expect(reason.contains("damaged"))
        // Setting the PIN again, at the machine, starts afresh.
        try file.set("1234")
        #expect(await file.check("1234") == .accepted)
    }
}
