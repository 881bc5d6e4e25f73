import Foundation
@testable import HarkAudio

/// Test signals and measurements.
enum Signals {
    /// A sine of `frequency` Hz and `amplitude`, copied into every channel.
    static func sine(frequency: Double, rate: Int, seconds: Double, amplitude: Double = 0.5, channels: Int = 1) -> AudioClip {
        let frames = Int(Double(rate) * seconds)
        var samples = [Float](repeating: 0, count: frames * channels)
        for frame in 0..<frames {
            let value = Float(amplitude * sin(2 * .pi * frequency * Double(frame) / Double(rate)))
            for channel in 0..<channels { samples[frame * channels + channel] = value }
        }
        return AudioClip(samples: samples, sampleRate: rate, channels: channels)
    }

    /// The amplitude of the `frequency` component of a mono signal (a single-bin DFT,
    /// Hann-windowed so a non-integer number of cycles does not smear other tones into it).
    static func amplitude(of frequency: Double, in samples: [Float], rate: Int) -> Double {
        let n = samples.count
        guard n > 1 else { return 0 }
        var re = 0.0, im = 0.0, windowSum = 0.0
        for (i, sample) in samples.enumerated() {
            let window = 0.5 - 0.5 * cos(2 * .pi * Double(i) / Double(n - 1))
            let phase = 2 * .pi * frequency * Double(i) / Double(rate)
            re += Double(sample) * window * cos(phase)
            im += Double(sample) * window * sin(phase)
            windowSum += window
        }
        return 2 * sqrt(re * re + im * im) / windowSum
    }

    /// Sign changes per second / 2: the frequency of a clean tone.
    static func zeroCrossingFrequency(_ samples: [Float], rate: Int) -> Double {
        var crossings = 0
        for i in 1..<samples.count where (samples[i - 1] < 0) != (samples[i] < 0) { crossings += 1 }
        return Double(crossings) / 2 / (Double(samples.count) / Double(rate))
    }
}

/// SplitMix64: a small seeded generator so the fuzz tests are the same on every run.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Builds WAV files chunk by chunk, for layouts our writer never produces.
struct WAVBuilder {
    var chunks: [(id: String, body: [UInt8])] = []
    var riffSize: UInt32?

    static func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func le32(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8((v >> (8 * UInt32($0))) & 0xFF) } }

    static func fmt(tag: UInt16, channels: Int, rate: Int, bits: Int, blockAlign: Int? = nil) -> [UInt8] {
        let align = blockAlign ?? channels * ((bits + 7) / 8)
        return le16(tag) + le16(UInt16(channels)) + le32(UInt32(rate)) + le32(UInt32(rate * align))
            + le16(UInt16(align)) + le16(UInt16(bits))
    }

    mutating func add(_ id: String, _ body: [UInt8]) { chunks.append((id, body)) }

    /// Each chunk gets its true size, and a pad byte after an odd body.
    func bytes(dataSizeOverride: UInt32? = nil) -> [UInt8] {
        var body: [UInt8] = Array("WAVE".utf8)
        for chunk in chunks {
            let size = chunk.id == "data" ? (dataSizeOverride ?? UInt32(chunk.body.count)) : UInt32(chunk.body.count)
            body += Array(chunk.id.utf8) + Self.le32(size) + chunk.body
            if chunk.body.count % 2 == 1 { body.append(0) }
        }
        return Array("RIFF".utf8) + Self.le32(riffSize ?? UInt32(body.count)) + body
    }
}
