import Foundation

/// A faint, steady hiss added to audio before pocketsphinx's front end hears it.
///
/// Why: a quiet room recorded by a good converter is close to digital silence between words
/// (−80 dBFS and below). The live cepstral mean then settles on near-silence, and the first
/// phones of speech after a pause score badly against the model, which was trained on
/// recordings that always had a noise floor. On the wake corpus's tune recordings (make
/// bench-wake, real speakers, room 60 dB below speech), white noise at −60 dBFS before the
/// spotter cut "jarvis" missed at sensitivity 0.5 from 38 % to 18 %, "athena" 55 % → 40 %,
/// "amelia" 76 % → 65 %; −50 and −70 dBFS were each worse on one phrase. Audio that already has
/// a floor above it (any real microphone in a room with a fan, the fridge, traffic) is barely
/// changed: −60 dBFS is 34 dB below speech at a usual −26 dBFS.
///
/// The noise is pseudo-random from a fixed seed, so the same input always gives the same
/// output (tests and benchmarks repeat exactly).
public struct NoiseFloor: Sendable {
    /// The level of the hiss, RMS in dB relative to full scale.
    public let level: Double
    private let amplitude: Double
    private var state: UInt64

    /// The level the spotter uses unless told otherwise (see the type's comment for the measurement).
    public static let standardLevel = -60.0

    public init(level: Double = NoiseFloor.standardLevel, seed: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        self.level = level
        amplitude = 32_768 * pow(10, level / 20)
        state = seed == 0 ? 1 : seed
    }

    /// `samples` with the hiss added (clipped to 16 bits).
    public mutating func adding(to samples: ArraySlice<Int16>) -> [Int16] {
        samples.map { sample in
            let mixed = Double(sample) + amplitude * nextGaussian()
            return Int16(max(-32_768, min(32_767, mixed.rounded())))
        }
    }

    /// Roughly normal with unit variance: the sum of four uniform numbers, centred and scaled
    /// (cheap, bounded, and close enough to white noise's distribution for a front end).
    private mutating func nextGaussian() -> Double {
        var sum = 0.0
        for _ in 0..<4 { sum += nextUniform() }
        return (sum - 2) * 3.0.squareRoot()  // four uniforms on 0…1: mean 2, variance 1/3
    }

    /// xorshift64*: uniform on 0…1.
    private mutating func nextUniform() -> Double {
        state ^= state >> 12
        state ^= state << 25
        state ^= state >> 27
        return Double((state &* 0x2545_F491_4F6C_DD1D) >> 11) / Double(1 << 53)
    }
}
