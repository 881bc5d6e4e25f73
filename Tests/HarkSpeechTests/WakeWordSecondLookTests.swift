import Foundation
@testable import HarkSpeech
import Testing

/// Spotters of one configuration sharing one second look (as `hark serve` does for its clients'
/// wake-word streams) hear exactly as spotters with their own.
@Suite struct WakeWordSecondLookTests {
    static func configuration(_ phrase: String = "jarvis") throws -> WakeWordConfiguration {
        var configuration = WakeWordConfiguration(keyPhrase: phrase)
        configuration.reportsCandidates = true
        configuration.otherWords = try WakeWordSpotterTests.installedOtherWords()
        return configuration
    }

    /// Two streams fed in turns, piece by piece, so that their looks alternate on the shared
    /// verifier: each finds the candidates, evidence and odds a spotter of its own finds.
    @Test func spottersTakingTurnsOnOneLookHearAsSpottersAlone() throws {
        let clean = try WakeWordSpotterTests.samples("real_wakes")
        let kitchen = try WakeWordSpotterTests.samples("real_wakes_noisy")
        let alone = try (clean: WakeWordSpotterTests.spot(clean, with: WakeWordSpotter(configuration: Self.configuration())),
                         kitchen: WakeWordSpotterTests.spot(kitchen, with: WakeWordSpotter(configuration: Self.configuration())))
        let first = try WakeWordSpotter(configuration: Self.configuration())
        let second = try WakeWordSpotter(configuration: Self.configuration(), sharing: first.secondLook)
        #expect(first.secondLook != nil && first.secondLook === second.secondLook)
        var heard: (clean: [WakeWordDetection], kitchen: [WakeWordDetection]) = ([], [])
        let tail = [Int16](repeating: 0, count: 16_000)
        for start in stride(from: 0, to: max(clean.count, kitchen.count), by: 1600) {
            if start < clean.count { heard.clean += try first.process(Array(clean[start..<min(start + 1600, clean.count)])) }
            if start < kitchen.count { heard.kitchen += try second.process(Array(kitchen[start..<min(start + 1600, kitchen.count)])) }
        }
        heard.clean += try first.process(tail)
        heard.kitchen += try second.process(tail)
        #expect(heard.clean.contains(where: \.isAccepted) && heard.kitchen.contains(where: \.isAccepted))
        #expect(heard.clean.map(\.evidence) == alone.clean.map(\.evidence))
        #expect(heard.clean.map(\.confidence) == alone.clean.map(\.confidence))
        #expect(heard.kitchen.map(\.evidence) == alone.kitchen.map(\.evidence))
        #expect(heard.kitchen.map(\.confidence) == alone.kitchen.map(\.confidence))
    }

    /// Streams heard at once on two threads, with a verifier each allowed: the same again.
    @Test func looksSideBySideOnTwoThreadsHearAsAlone() throws {
        let clean = try WakeWordSpotterTests.samples("real_wakes")
        let alone = try WakeWordSpotterTests.spot(clean, with: WakeWordSpotter(configuration: Self.configuration()))
        let first = try WakeWordSpotter(configuration: Self.configuration())
        let look = try #require(first.secondLook)
        look.allowLooks(atOnce: 2)
        nonisolated(unsafe) let spotters = [first, try WakeWordSpotter(configuration: Self.configuration(), sharing: look)]
        nonisolated(unsafe) var results: [Result<[Double], any Error>?] = [nil, nil]
        // Each spotter is used by its own thread alone; each thread writes its own slot.
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            results[index] = Result { try WakeWordSpotterTests.spot(clean, with: spotters[index]).map(\.confidence) }
        }
        for result in results {
            #expect(try result?.get() == alone.map(\.confidence))
        }
    }

    /// A look made for other phrases (another dictionary word's phones) is not borrowed.
    @Test func aSpotterOfOtherPhrasesMakesItsOwnLook() throws {
        let jarvis = try WakeWordSpotter(configuration: Self.configuration())
        let athena = try WakeWordSpotter(configuration: Self.configuration("athena"), sharing: jarvis.secondLook)
        #expect(athena.secondLook != nil && athena.secondLook !== jarvis.secondLook)
    }
}
