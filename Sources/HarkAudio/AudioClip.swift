/// A block of audio held in memory: interleaved `Float` samples in the nominal range
/// -1...1, the form every conversion in this module works on.
public struct AudioClip: Sendable, Equatable {
    public var samples: [Float]
    public var sampleRate: Int
    public var channels: Int

    public init(samples: [Float], sampleRate: Int, channels: Int) {
        precondition(sampleRate > 0, "AudioClip needs a positive sample rate, got \(sampleRate)")
        precondition(channels > 0, "AudioClip needs at least one channel, got \(channels)")
        self.samples = samples
        self.sampleRate = sampleRate
        self.channels = channels
    }

    /// Signed 16-bit samples are scaled by 1/32768 so that the conversion back with
    /// `int16Samples()` is exact for every value.
    public init(int16 samples: [Int16], sampleRate: Int, channels: Int) {
        self.init(samples: samples.map { Float($0) / 32768 }, sampleRate: sampleRate, channels: channels)
    }

    /// Whole frames only: a trailing partial frame (which a well-formed clip never has) is not counted.
    public var frameCount: Int { samples.count / channels }

    /// Length in seconds.
    public var duration: Double { Double(frameCount) / Double(sampleRate) }

    /// The average of the channels, so a signal present in only one channel is kept (at half level)
    /// rather than lost, and the result cannot clip when the input did not.
    public func mixedToMono() -> AudioClip {
        guard channels > 1 else { return self }
        let frames = frameCount
        var mono = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        samples.withUnsafeBufferPointer { input in
            for frame in 0..<frames {
                var sum: Float = 0
                let base = frame * channels
                for channel in 0..<channels { sum += input[base + channel] }
                mono[frame] = sum * scale
            }
        }
        return AudioClip(samples: mono, sampleRate: sampleRate, channels: 1)
    }

    /// The first `seconds` of the clip (whole frames).
    public func prefix(seconds: Double) -> AudioClip {
        let frames = min(frameCount, max(0, Int(seconds * Double(sampleRate))))
        return AudioClip(samples: Array(samples.prefix(frames * channels)), sampleRate: sampleRate, channels: channels)
    }

    /// Signed 16-bit samples, scaled by 32768, rounded to nearest and clipped to the Int16 range.
    /// NaN becomes 0 so a corrupt float file cannot trap the conversion.
    public func int16Samples() -> [Int16] {
        samples.map(SampleConversion.int16)
    }
}

/// The pipeline's internal format: 16 kHz mono signed 16-bit.
public enum PipelineAudio {
    public static let sampleRate = 16_000
}

extension AudioClip {
    /// Converted to the pipeline's 16 kHz mono signed 16-bit (mix down, then resample with libsamplerate).
    public func pipelineSamples() throws(AudioError) -> [Int16] {
        try mixedToMono().resampled(to: PipelineAudio.sampleRate).int16Samples()
    }

    /// The same sound at another sample rate, through libsamplerate's band-limited converter,
    /// so content above the new Nyquist frequency is filtered out instead of aliasing.
    public func resampled(to rate: Int) throws(AudioError) -> AudioClip {
        if rate == sampleRate { return self }
        let converter = try SampleRateConverter(from: sampleRate, to: rate, channels: channels)
        let output = try converter.convert(samples, endOfInput: true)
        return AudioClip(samples: output, sampleRate: rate, channels: channels)
    }

    /// The clip with `count` channels: unchanged if it already has them, mono copied to every
    /// channel, anything else mixed to mono first (a device with fewer channels than the
    /// source has no agreed speaker layout to map onto).
    func withChannels(_ count: Int) -> AudioClip {
        precondition(count > 0)
        if count == channels { return self }
        let mono = mixedToMono()
        if count == 1 { return mono }
        var out = [Float](repeating: 0, count: mono.samples.count * count)
        for (frame, value) in mono.samples.enumerated() {
            for channel in 0..<count { out[frame * count + channel] = value }
        }
        return AudioClip(samples: out, sampleRate: sampleRate, channels: count)
    }
}

/// Float ⇄ integer sample conversions shared by the WAV writer and the ALSA devices.
enum SampleConversion {
    static func int16(_ value: Float) -> Int16 {
        guard !value.isNaN else { return 0 }
        let scaled = (value * 32768).rounded()
        if scaled >= 32767 { return .max }
        if scaled <= -32768 { return .min }
        return Int16(scaled)
    }

    /// Scaled by 2^(bits-1) in Double, because Float cannot represent Int32.max and a
    /// full-scale Float sample would otherwise overflow the conversion.
    static func integer(_ value: Float, bits: Int) -> Int32 {
        guard !value.isNaN else { return 0 }
        let full = Double(1 << (bits - 1))
        let scaled = (Double(value) * full).rounded()
        if scaled >= full - 1 { return Int32(full - 1) }
        if scaled <= -full { return Int32(-full) }
        return Int32(scaled)
    }
}
