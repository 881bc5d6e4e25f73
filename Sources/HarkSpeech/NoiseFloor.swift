import Foundation

/// A faint, steady hiss added to audio before pocketsphinx's front end hears it.
///
/// Why: a quiet room recorded by a good converter is close to digital silence between words
/// (−80 dBFS and below). The live cepstral mean then settles on near-silence, and the first
/// phones of speech after a pause score badly against the model, which was trained on
/// recordings that always had a noise floor. Audio that already has a floor above it (any real
/// microphone in a room with a fan, the fridge, traffic) is barely changed: −60 dBFS is 34 dB
/// below speech at a usual −26 dBFS (figures: docs/benchmarks.md, "The settings' figures").
///
/// The noise is pseudo-random from a fixed seed, so the same input always gives the same
/// output (tests and benchmarks repeat exactly).
public struct NoiseFloor: Sendable {
    /// The level of the hiss, RMS in dB relative to full scale.
    public let level: Double
    private let amplitude: Double
    private var state: UInt64

    /// The level the spotter uses unless told otherwise (figures: docs/benchmarks.md, "The settings' figures").
    public static let standardLevel = -60.0
    /// How far below a request's voice the recogniser keeps its floor at the least (see
    /// `level(_:beneathVoiceAt:headroom:)`): so the floor moves only for a voice quieter than
    /// -40 dBFS. Some devices catch voices under the fixed floor itself; a larger headroom also
    /// moved the floor for usual voices, which the fixed floor serves, for little gain (figures:
    /// docs/benchmarks.md, "The settings' figures"). The wake-word spotter, which hears a stream,
    /// keeps the fixed level.
    public static let headroomBelowVoice = 20.0

    /// The level for an utterance whose voice is at `voiceLevel` dBFS (`SignalToNoise.voiceLevel`):
    /// `level`, or `headroom` dB below the voice where that is quieter. A device that barely
    /// caught a request (a voice at -70 dBFS) would otherwise hear it under a hiss louder than
    /// the voice, and hear nothing in it. Nil `headroom` or an unknown voice: `level`.
    public static func level(_ level: Double, beneathVoiceAt voiceLevel: Double?, headroom: Double?) -> Double {
        guard let headroom, let voiceLevel else { return level }
        return min(level, voiceLevel - headroom)
    }

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
