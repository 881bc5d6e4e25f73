import Foundation
import HarkAudio
import HarkTestSupport
import Testing

/// WebRTC's noise suppression on a real kitchen (audio-fixtures/wake/real_wakes_noisy: real wake
/// words over the dishes being done, 10 dB below them).
@Suite struct NoiseSuppressorTests {
    static func kitchen() throws -> [Int16] {
        try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes_noisy.wav")).pipelineSamples()
    }

    /// Where each real recording lies in the fixture (s), from its sidecar.
    static func recordings() throws -> [(start: Double, end: Double)] {
        let text = try String(contentsOf: Fixtures.audio("wake/real_wakes_noisy.txt"), encoding: .utf8)
        return try text.split(separator: "\n").map { line in
            let fields = line.split(separator: "\t")
            return (try #require(Double(fields[0])), try #require(Double(fields[1])))
        }
    }

    /// RMS level (dB) of `samples[from..<to]` (seconds).
    static func level(_ samples: [Int16], from: Double, to: Double) -> Double {
        let piece = samples[Int(from * 16_000)..<min(Int(to * 16_000), samples.count)]
        let meanSquare = piece.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(piece.count, 1))
        return 10 * log10(max(meanSquare, 1))
    }

    @Test func takesTheKitchenDownAndLeavesTheVoices() throws {
        let kitchen = try Self.kitchen(), wakes = try Self.recordings()
        let suppressed = try NoiseSuppressor().process(kitchen[...])
        #expect(suppressed.count == kitchen.count)
        // The half second before each recording (the kitchen alone, between two people) and the
        // recording itself (the word, the kitchen under it).
        var noiseDrop: [Double] = [], voiceDrop: [Double] = []
        for wake in wakes.dropFirst() {
            noiseDrop.append(Self.level(kitchen, from: wake.start - 0.6, to: wake.start - 0.1)
                             - Self.level(suppressed, from: wake.start - 0.6, to: wake.start - 0.1))
            voiceDrop.append(Self.level(kitchen, from: wake.start, to: wake.end) - Self.level(suppressed, from: wake.start, to: wake.end))
        }
        let noise = noiseDrop.sorted()[noiseDrop.count / 2], voice = voiceDrop.sorted()[voiceDrop.count / 2]
        #expect(noise > 6, "the kitchen between the words fell by \(noiseDrop) dB")
        #expect(voice < noise - 3, "the words fell by \(voiceDrop) dB, the kitchen by \(noiseDrop) dB")
    }

    /// What comes out is the suppressed stream 10 ms late, whatever pieces it was fed in.
    @Test func givesBackAsManySamplesAsItIsFedInAnyPieces() throws {
        let kitchen = Array(try Self.kitchen().prefix(3 * 16_000))
        let whole = try NoiseSuppressor().process(kitchen[...])
        let pieced = try NoiseSuppressor()
        var out: [Int16] = []
        var start = 0
        for size in [1, 159, 160, 161, 480, 1_600, 7] where start < kitchen.count {
            let end = min(start + size, kitchen.count)
            let piece = try pieced.process(kitchen[start..<end])
            #expect(piece.count == end - start)
            out += piece
            start = end
        }
        out += try pieced.process(kitchen[start...])
        #expect(out == whole)
        #expect(whole.prefix(NoiseSuppressor.frameSamples).allSatisfy { $0 == 0 })
        #expect(whole.dropFirst(NoiseSuppressor.frameSamples).contains { $0 != 0 })
    }

    @Test func aLevelOutsideZeroToThreeIsRefused() {
        for level: Int32 in [-1, 4] {
            #expect(throws: AudioError.self) { try NoiseSuppressor(level: level) }
        }
    }
}
