import Foundation
import HarkSpeech
import Testing

@Suite struct NoiseFloorTests {
    static func rmsDecibels(_ samples: [Int16]) -> Double {
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(power / (32_768 * 32_768))
    }

    @Test func addsWhiteNoiseAtTheLevelAsked() {
        for level in [-60.0, -40.0] {
            var floor = NoiseFloor(level: level)
            let hiss = floor.adding(to: [Int16](repeating: 0, count: 160_000)[...])
            #expect(abs(Self.rmsDecibels(hiss) - level) < 0.3, "\(Self.rmsDecibels(hiss)) dBFS asked \(level)")
            let mean = hiss.reduce(0.0) { $0 + Double($1) } / Double(hiss.count)
            #expect(abs(mean) < 1)
            // White: neighbouring samples are unrelated.
            let lagged = zip(hiss, hiss.dropFirst()).reduce(0.0) { $0 + Double($1.0) * Double($1.1) }
            let energy = hiss.reduce(0.0) { $0 + Double($1) * Double($1) }
            #expect(abs(lagged / energy) < 0.02)
        }
    }

    @Test func theSameAudioAlwaysGetsTheSameHissAndPiecesContinueIt() {
        let audio = (0..<4_800).map { Int16(truncatingIfNeeded: $0 * 37) }
        var one = NoiseFloor(), two = NoiseFloor()
        let first = one.adding(to: audio[...])
        #expect(first == two.adding(to: audio[...]))
        #expect(first != audio)
        // Fed in two pieces, the hiss runs on rather than starting again.
        var pieces = NoiseFloor()
        let joined = pieces.adding(to: audio[..<2_400]) + pieces.adding(to: audio[2_400...])
        #expect(joined == first)
    }

    @Test func theFloorStaysItsHeadroomBelowAFaintVoice() {
        // A voice at a usual level leaves the floor where it is set.
        #expect(NoiseFloor.level(-60, beneathVoiceAt: -25, headroom: 20) == -60)
        #expect(NoiseFloor.level(-60, beneathVoiceAt: -40, headroom: 20) == -60)
        // A voice a microphone barely caught takes the floor down with it.
        #expect(NoiseFloor.level(-60, beneathVoiceAt: -70, headroom: 20) == -90)
        // No headroom asked, or no voice measured (too short): the level as set.
        #expect(NoiseFloor.level(-60, beneathVoiceAt: -70, headroom: nil) == -60)
        #expect(NoiseFloor.level(-60, beneathVoiceAt: nil, headroom: 20) == -60)
    }

    @Test func loudAudioIsClippedNotWrappedAround() {
        var floor = NoiseFloor(level: -40)  // at most about ±1,150 on a sample
        let loud = floor.adding(to: [Int16](repeating: .max, count: 1_000)[...] + [Int16](repeating: .min, count: 1_000))
        #expect(loud.prefix(1_000).allSatisfy { $0 > 30_000 } && loud.prefix(1_000).contains(.max))
        #expect(loud.suffix(1_000).allSatisfy { $0 < -30_000 } && loud.suffix(1_000).contains(.min))
    }
}
