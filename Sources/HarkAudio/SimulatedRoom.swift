import Foundation

/// A loudspeaker and a microphone in a room, for measuring echo cancellation without a room:
/// the direct path `delay` samples away at `gain`, then reflections (fixed-seed noise, so the
/// same room every run) decaying to -60 dB in `reverberation` seconds. 16 kHz.
public struct SimulatedRoom: Sendable {
    public let response: [Double]

    public init(delay: Int, gain: Double, reverberation: Double = 0.2) {
        let length = delay + Int(reverberation * 16_000)
        var response = [Double](repeating: 0, count: length)
        response[delay] = gain
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for index in (delay + 16)..<length {
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            let noise = Double(Int64(bitPattern: state % 2_000_001) - 1_000_000) / 1_000_000
            response[index] = gain * 0.3 * noise * pow(10, -3 * Double(index - delay) / (reverberation * 16_000))
        }
        self.response = response
    }

    /// What the microphone hears of `played`.
    public func heard(_ played: [Int16]) -> [Int16] {
        let taps = response.enumerated().filter { $0.element != 0 }
        return played.indices.map { index in
            var sum = 0.0
            for (lag, weight) in taps where lag <= index { sum += Double(played[index - lag]) * weight }
            return Int16(clamping: Int(sum.rounded()))
        }
    }
}
