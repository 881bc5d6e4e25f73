/// Plays clips through an ALSA PCM. Each `play` negotiates a configuration for that clip,
/// converts the clip to it, and blocks until the device has played everything.
/// Not Sendable: it owns an ALSA handle; keep it on one thread (a dedicated one, since
/// `play` blocks for the clip's duration).
public final class PlaybackDevice {
    /// Rates tried, after the clip's own, when the device refuses it.
    static let fallbackRates = [48_000, 44_100, 16_000]

    let handle: PCMHandle
    public let spec: PCMDeviceSpec
    /// The rate and channel count the last `play` opened the device at (0 before the first).
    public private(set) var lastRate = 0
    public private(set) var lastChannels = 0
    /// Underruns (and suspends) recovered with snd_pcm_recover since the device was opened:
    /// each one is a click or gap in what was played.
    public var recoveredUnderruns: Int { handle.recoveries }

    public init(_ spec: PCMDeviceSpec) throws(AudioError) {
        self.spec = spec
        handle = try PCMHandle(spec, capture: false)
    }

    public func play(_ clip: AudioClip) throws(AudioError) {
        let configuration = try handle.configure(rates: [clip.sampleRate] + Self.fallbackRates,
                                                 channels: [clip.channels, 2, 1])
        lastRate = configuration.rate
        lastChannels = configuration.channels
        let converted = try clip.withChannels(configuration.channels).resampled(to: configuration.rate)
        let frameBytes = configuration.format.bytes * configuration.channels
        let handle = self.handle
        try PCMSamples(converted.samples, format: configuration.format).withUnsafeBytes { bytes throws(AudioError) in
            try handle.write(bytes, frameBytes: frameBytes)
        }
        try handle.drain()
    }
}

@available(*, unavailable, message: "PlaybackDevice owns an ALSA handle; use it from one thread")
extension PlaybackDevice: Sendable {}
