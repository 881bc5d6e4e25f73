@testable import HarkSpeech
import Testing

/// While listening, a candidate the search scored too low to reach the odds Hark listens from
/// gets no second look; a benchmark sweeping thresholds, or a configuration listening from lower
/// odds, looks at every proposal.
@Suite struct WakeWordProposalFloorTests {
    static func spotter(_ change: (inout WakeWordConfiguration) -> Void = { _ in }) throws -> WakeWordSpotter {
        var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
        change(&configuration)
        return try WakeWordSpotter(configuration: configuration)
    }

    @Test func onlyWhatCouldWakeHarkIsLookedAtAgain() throws {
        let floor = WakeWordSpotter.listeningProposalThreshold
        #expect(floor > WakeWordSpotter.proposalThreshold)

        // Sure wake words only, or tentative ones from odds 1 (the live loop's default).
        #expect(try Self.spotter().proposalFloor == floor)
        #expect(try Self.spotter { $0.tentativeOdds = 1 }.proposalFloor == floor)

        // Tentative ones from lower odds: every proposal, until tentative ones are not reported
        // (over Hark's own voice).
        let low = try Self.spotter { $0.tentativeOdds = 0 }
        #expect(low.proposalFloor == WakeWordSpotter.proposalThreshold)
        low.reportsTentative = false
        #expect(low.proposalFloor == floor)

        // A benchmark's sweep sees every proposal; a stricter configured threshold still holds.
        #expect(try Self.spotter { $0.reportsCandidates = true }.proposalFloor == WakeWordSpotter.proposalThreshold)
        #expect(try Self.spotter { $0.proposalThreshold = -1 }.proposalFloor == -1)
    }
}
