import Foundation
import HarkSpeech
import Testing

@Suite struct SignalToNoiseTests {
    /// 25 ms pieces of a square wave of the given amplitude: power amplitude² exactly.
    static func pieces(_ count: Int, amplitude: Int16) -> [Int16] {
        (0..<(count * 400)).map { $0 % 2 == 0 ? amplitude : -amplitude }
    }

    @Test func aVoiceTenTimesLouderThanTheRoomIsTwentyDecibelsAboveIt() throws {
        let heard = Self.pieces(20, amplitude: 100) + Self.pieces(20, amplitude: 1000) + Self.pieces(10, amplitude: 100)
        let estimate = try #require(SignalToNoise.estimate(heard))
        #expect(abs(estimate - 20) < 0.01, "\(estimate) dB")
    }

    @Test func theRoomIsTheQuietestTenthAndTheVoiceTheLoudestTenth() throws {
        // A lone click louder than the voice and a moment of digital silence move neither end.
        let heard = Self.pieces(1, amplitude: 0) + Self.pieces(30, amplitude: 100) + Self.pieces(1, amplitude: 30_000)
            + Self.pieces(30, amplitude: 1000)
        #expect(abs(try #require(SignalToNoise.estimate(heard)) - 20) < 0.01)
    }

    @Test func speechCutTightMeasuresAsNoisy() throws {
        let estimate = try #require(SignalToNoise.estimate(Self.pieces(40, amplitude: 3000)))
        #expect(abs(estimate) < 0.01)
        #expect(Confidence.noisePenalty(signalToNoise: estimate) == Confidence.noisePenaltyBelow * Confidence.noisePenaltyPerDecibel)
    }

    @Test func theVoiceLevelIsTheLoudestTenthAgainstFullScale() throws {
        // A square wave's power is its amplitude squared: 3,277 is a tenth of full scale, -20 dBFS.
        let heard = Self.pieces(30, amplitude: 33) + Self.pieces(30, amplitude: 3_277) + Self.pieces(1, amplitude: 32_767)
        let level = try #require(SignalToNoise.voiceLevel(heard))
        #expect(abs(level - -20) < 0.01, "\(level) dBFS")
        let faint = try #require(SignalToNoise.voiceLevel(Self.pieces(40, amplitude: 10)))
        #expect(abs(faint - 20 * log10(10.0 / 32_768)) < 0.01, "\(faint) dBFS")
        #expect(SignalToNoise.voiceLevel(Self.pieces(1, amplitude: 500)) == nil)
    }

    @Test func audioShorterThanTwoPiecesHasNoEstimate() {
        #expect(SignalToNoise.estimate([]) == nil)
        #expect(SignalToNoise.estimate(Self.pieces(1, amplitude: 500)) == nil)
        #expect(SignalToNoise.estimate(Self.pieces(2, amplitude: 500)) != nil)
    }

    @Test func onlyARoomLouderThanItsThresholdCostsMargin() {
        #expect(Confidence.noisePenalty(signalToNoise: 60) == 0)
        #expect(Confidence.noisePenalty(signalToNoise: Confidence.noisePenaltyBelow) == 0)
        let fiveBelow = Confidence.noisePenalty(signalToNoise: Confidence.noisePenaltyBelow - 5)
        #expect(abs(fiveBelow - 5 * Confidence.noisePenaltyPerDecibel) < 1e-12)
        // Too short to tell: judged as if at 0 dB, the strictest.
        #expect(Confidence.noisePenalty(signalToNoise: nil) == Confidence.noisePenalty(signalToNoise: 0))
    }
}
