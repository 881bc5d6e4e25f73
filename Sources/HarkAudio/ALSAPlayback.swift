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

extension PlaybackDevice {
    /// Starts `clip` without waiting for it: the returned stream hands it to the device piece by
    /// piece as its caller asks, so the caller can listen meanwhile and stop it at any moment.
    public func stream(_ clip: AudioClip) throws(AudioError) -> ClipStream {
        let configuration = try handle.configure(rates: [clip.sampleRate] + Self.fallbackRates,
                                                 channels: [clip.channels, 2, 1])
        lastRate = configuration.rate
        lastChannels = configuration.channels
        // Converted whole, once: a resampler restarted on every piece would click at each seam.
        let converted = try clip.withChannels(configuration.channels).resampled(to: configuration.rate)
        let bytes = try PCMSamples(converted.samples, format: configuration.format).withUnsafeBytes { Array($0) }
        return ClipStream(handle: handle, bytes: bytes, frameBytes: configuration.format.bytes * configuration.channels,
                          rate: configuration.rate)
    }
}

/// A clip being played bit by bit (`PlaybackDevice.stream`). Not Sendable, like its device.
public final class ClipStream {
    private let handle: PCMHandle
    private let bytes: [UInt8]
    private let frameBytes: Int
    private let rate: Int
    /// Frames handed to the device so far.
    public private(set) var framesWritten = 0
    private var frameCount: Int { bytes.count / frameBytes }

    init(handle: PCMHandle, bytes: [UInt8], frameBytes: Int, rate: Int) {
        self.handle = handle
        self.bytes = bytes
        self.frameBytes = frameBytes
        self.rate = rate
    }

    /// Seconds the clip lasts.
    public var duration: Double { Double(frameCount) / Double(rate) }

    /// Hands the device the clip up to `seconds` into it. Blocks only while the device's buffer
    /// is full, so a caller that asks a little ahead of real time keeps the sound unbroken.
    public func play(through seconds: Double) throws(AudioError) {
        let target = min(frameCount, Int(seconds * Double(rate)))
        guard target > framesWritten else { return }
        let (from, to) = (framesWritten * frameBytes, target * frameBytes)
        let handle = self.handle, frameBytes = self.frameBytes
        var failure: AudioError?
        bytes[from..<to].withUnsafeBytes { piece in
            do throws(AudioError) { try handle.write(piece, frameBytes: frameBytes) } catch { failure = error }
        }
        if let failure { throw failure }
        framesWritten = target
    }

    /// Seconds between handing the device a sample and its being heard: what is queued in it.
    public func queuedSeconds() -> Double {
        Double(handle.queuedFrames() ?? 0) / Double(rate)
    }

    /// Stops the sound at once: what the device still holds is dropped, not played.
    public func stop() throws(AudioError) {
        try handle.drop()
    }

    /// Plays the rest and returns once it has all been heard.
    public func finish() throws(AudioError) {
        try play(through: duration)
        try handle.drain()
    }
}
