/// Records from an ALSA PCM and hands out pipeline samples (16 kHz mono signed 16-bit),
/// converting from whatever rate and channel count the device agreed to.
/// Not Sendable: it owns an ALSA handle and converter state; `read` blocks until the device
/// has delivered enough audio, so keep it on a dedicated thread.
public final class CaptureDevice {
    let handle: PCMHandle
    private let converter: SampleRateConverter?
    private let configuration: PCMConfiguration
    /// Converted samples beyond what the last `read` asked for; the device delivers whole periods.
    private var pending: [Float] = []
    private var buffer: [UInt8]

    public let spec: PCMDeviceSpec
    /// The resampler holds back a few input periods at the start, so a few empty
    /// conversions are normal; this many in a row is not.
    static let maximumEmptyReads = 1000
    /// The rate the device runs at (the preferred rate when it accepts it).
    public var deviceRate: Int { configuration.rate }
    /// The channel count the device runs at (mono when it accepts it).
    public var deviceChannels: Int { configuration.channels }
    /// Frames per ALSA period: the unit the device delivers in.
    public var periodFrames: Int { configuration.periodFrames }
    /// The sample format the device delivers: "S16_LE", "S32_LE" or "FLOAT_LE".
    public var deviceFormat: String { configuration.format.name }
    /// Overruns (and suspends) recovered with snd_pcm_recover since the device was opened.
    /// Each one is a gap in the audio: the reader did not keep up.
    public var recoveredOverruns: Int { handle.recoveries }

    /// Opens `spec` for capture at the pipeline's 16 kHz mono signed 16-bit when the device
    /// accepts it; otherwise at the nearest rate and channel count it offers (48 and 44.1 kHz
    /// are tried first, then whatever ALSA finds nearest) in S16_LE, S32_LE or FLOAT_LE, and
    /// `read` converts to the pipeline's format.
    public convenience init(_ spec: PCMDeviceSpec, preferredRate: Int = PipelineAudio.sampleRate) throws(AudioError) {
        try self.init(spec, preferredRate: preferredRate, formats: PCMSampleFormat.allCases)
    }

    /// `formats` lists the sample formats to accept, in order of preference (tests use it to
    /// exercise the 32-bit paths on devices that would take S16).
    init(_ spec: PCMDeviceSpec, preferredRate: Int, formats: [PCMSampleFormat]) throws(AudioError) {
        self.spec = spec
        handle = try PCMHandle(spec, capture: true)
        var rates = [preferredRate]
        for rate in [PipelineAudio.sampleRate, 48_000, 44_100] where !rates.contains(rate) { rates.append(rate) }
        configuration = try handle.configure(rates: rates, channels: [1, 2], formats: formats)
        converter = configuration.rate == PipelineAudio.sampleRate ? nil
            : try SampleRateConverter(from: configuration.rate, to: PipelineAudio.sampleRate, channels: 1)
        buffer = [UInt8](repeating: 0, count: configuration.periodFrames * configuration.channels * configuration.format.bytes)
    }

    /// Blocks until `frames` pipeline samples (16 kHz mono) are available and returns them.
    /// Overruns (the caller not reading fast enough) are recovered; the audio lost in one is a gap.
    public func read(frames: Int) throws(AudioError) -> [Int16] {
        precondition(frames >= 0, "cannot read \(frames) frames")
        var emptyReads = 0
        while pending.count < frames {
            let before = pending.count
            try readPeriod()
            // A blocking read that keeps returning nothing means a broken device, not silence
            // (silence is delivered as zeros); give up rather than spin.
            emptyReads = pending.count == before ? emptyReads + 1 : 0
            if emptyReads > Self.maximumEmptyReads {
                throw AudioError(.device, "ALSA device '\(spec.name)': snd_pcm_readi returned no audio \(Self.maximumEmptyReads) times in a row")
            }
        }
        let result = pending[0..<frames].map(SampleConversion.int16)
        pending.removeFirst(frames)
        return result
    }

    /// Throws away everything captured but not yet read, and starts capturing afresh: after Hark
    /// has spoken, what the microphone picked up meanwhile is its own voice.
    public func discardBuffered() throws(AudioError) {
        try handle.drop()
        try handle.prepare()
        pending.removeAll(keepingCapacity: true)
    }

    private func readPeriod() throws(AudioError) {
        let frameBytes = configuration.format.bytes * configuration.channels
        let handle = self.handle
        var failure: AudioError?
        let samples: [Float] = buffer.withUnsafeMutableBytes { raw in
            do throws(AudioError) {
                let got = try handle.read(into: raw, frameBytes: frameBytes)
                return PCMSamples.floats(from: UnsafeRawBufferPointer(rebasing: raw[0..<(got * frameBytes)]),
                                         format: configuration.format)
            } catch {
                failure = error
                return []
            }
        }
        if let failure { throw failure }
        let mono = AudioClip(samples: samples, sampleRate: configuration.rate, channels: configuration.channels).mixedToMono().samples
        if let converter {
            pending += try converter.convert(mono, endOfInput: false)
        } else {
            pending += mono
        }
    }
}

@available(*, unavailable, message: "CaptureDevice owns an ALSA handle; use it from one thread")
extension CaptureDevice: Sendable {}
