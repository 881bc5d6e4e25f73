import Foundation
@testable import HarkSpeech
import Testing

/// The wake-word search stops in a room quiet for a while and starts again at the first sound,
/// hearing the moments before it first.
@Suite struct SearchQuietGateTests {
    static let piece = [Int16](repeating: 1, count: 1_600)

    @Test func closesAfterAQuietSpellAndOpensWithTheMomentsBeforeTheSound() throws {
        var gate = SearchQuietGate()
        let quietPieces = SearchQuietGate.closesAfterSamples / Self.piece.count
        // Every piece of the quiet spell is searched; the gate closes after the last.
        for _ in 0..<quietPieces {
            let searched = gate.admit(Self.piece, quiet: true, mayClose: true)
            #expect(searched != nil)
        }
        #expect(gate.isClosed)
        // 3 s held: not searched.
        for _ in 0..<30 {
            let searched = gate.admit(Self.piece, quiet: true, mayClose: true)
            #expect(searched == nil)
        }
        let admitted = gate.admit(Self.piece, quiet: false, mayClose: true)
        let opened = try #require(admitted)
        #expect(!gate.isClosed)
        #expect(opened.backlog.count == SearchQuietGate.backlogSamples)
        #expect(opened.skipped == 30 * Self.piece.count - SearchQuietGate.backlogSamples)
        // Open again, nothing is held back any more.
        let afterwards = gate.admit(Self.piece, quiet: true, mayClose: true)
        let next = try #require(afterwards)
        #expect(next.backlog.isEmpty && next.skipped == 0)
    }

    @Test func staysOpenWhileSomethingWaitsOrTheRoomIsNotQuiet() {
        var gate = SearchQuietGate()
        let pieces = 2 * SearchQuietGate.closesAfterSamples / Self.piece.count
        for _ in 0..<pieces { _ = gate.admit(Self.piece, quiet: true, mayClose: false) }
        #expect(!gate.isClosed)
        var noisy = SearchQuietGate()
        for index in 0..<pieces { _ = noisy.admit(Self.piece, quiet: index % 20 != 0, mayClose: true) }
        #expect(!noisy.isClosed)
        // A short quiet spell never held anything: opening returns no backlog.
        var brief = SearchQuietGate()
        for _ in 0..<10 { _ = brief.admit(Self.piece, quiet: true, mayClose: true) }
        let opened = brief.admit(Self.piece, quiet: false, mayClose: true)
        #expect(opened?.backlog.isEmpty == true && opened?.skipped == 0)
    }

    /// Real "jarvis" (real_pruned: three people, each with a second of their quiet room either
    /// side) said after 20 s of that room: the search stops in the room and starts again for the
    /// phrase, which is found where and as surely as by a spotter that searched the whole room.
    @Test func aPhraseAfterALongQuietIsHeardAsIfTheSearchNeverStopped() throws {
        let samples = try WakeWordSpotterTests.samples("real_pruned"), wakes = try WakeWordSpotterTests.segments("real_pruned")
        func best(pausing: Bool) throws -> [(confidence: Double, end: Int, paused: Bool)] {
            var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
            configuration.reportsCandidates = true
            configuration.pausesInQuietRooms = pausing
            let spotter = try WakeWordSpotter(configuration: configuration)
            return try wakes.map { wake in
                let recording = WakeWordSpotterTests.recording(of: wake, in: samples)
                try spotter.startAfresh()
                let room = Array(recording.prefix(16_000))
                for _ in 0..<20 { _ = try WakeWordSpotterTests.feed(room, to: spotter) }
                let paused = spotter.isSearchPaused
                let origin = spotter.samplesProcessed
                let found = try WakeWordSpotterTests.spot(recording, with: spotter)
                let surest = try #require(found.max { $0.confidence < $1.confidence })
                return (surest.confidence, surest.endSample - origin, paused)
            }
        }
        let pausing = try best(pausing: true), searching = try best(pausing: false)
        #expect(pausing.allSatisfy { $0.paused }, "\(pausing)")
        #expect(searching.allSatisfy { !$0.paused })
        for (paused, heard) in zip(pausing, searching) {
            #expect(abs(paused.confidence - heard.confidence) < 0.3, "odds \(paused.confidence) against \(heard.confidence)")
            #expect(abs(paused.end - heard.end) <= 2 * 160, "end \(paused.end) against \(heard.end)")
        }
    }
}
