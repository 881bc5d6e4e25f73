internal import CALSA
#if canImport(Glibc)
internal import Glibc
#endif

/// The sample format a PCM was opened with; the devices convert to and from Float.
enum PCMSampleFormat: CaseIterable {
    case s16, s32, float32

    var alsa: snd_pcm_format_t {
        switch self {
        case .s16: SND_PCM_FORMAT_S16_LE
        case .s32: SND_PCM_FORMAT_S32_LE
        case .float32: SND_PCM_FORMAT_FLOAT_LE
        }
    }

    var bytes: Int { self == .s16 ? 2 : 4 }
    var name: String {
        switch self {
        case .s16: "S16_LE"
        case .s32: "S32_LE"
        case .float32: "FLOAT_LE"
        }
    }
}

/// What a PCM agreed to after negotiation.
struct PCMConfiguration: Equatable {
    var format: PCMSampleFormat
    var rate: Int
    var channels: Int
    var periodFrames: Int
    var bufferFrames: Int
}

/// Owns one `snd_pcm_t` (and the private configuration tree it was opened from, which must
/// outlive it). Blocking mode: reads and writes wait for the device, so callers run them on
/// a thread of their own, not on the cooperative pool.
final class PCMHandle {
    let device: String
    let pcm: OpaquePointer
    private let config: ALSAConfig?

    init(_ spec: PCMDeviceSpec, capture: Bool) throws(AudioError) {
        try ALSAMessages.install()
        let stream = capture ? SND_PCM_STREAM_CAPTURE : SND_PCM_STREAM_PLAYBACK
        let mark = ALSAMessages.mark
        var handle: OpaquePointer?
        let status: Int32
        let config: ALSAConfig?
        if let text = spec.configText {
            let tree = try ALSAConfig(text: text, device: spec.name)
            status = snd_pcm_open_lconf(&handle, spec.name, stream, 0, tree.tree)
            config = tree
        } else {
            status = snd_pcm_open(&handle, spec.name, stream, 0)
            config = nil
        }
        guard status >= 0, let handle else {
            let direction = capture ? "capture" : "playback"
            throw AudioError(.device, "ALSA device '\(spec.name)': cannot open for \(direction): snd_pcm_open failed: \(ALSA.errorText(status))\(ALSA.said(since: mark, about: spec.name))",
                             underlying: status)
        }
        self.device = spec.name
        self.pcm = handle
        self.config = config
    }

    deinit {
        // A close failure leaves nothing to retry or report from a deinit.
        _ = snd_pcm_close(pcm)
    }

    private func check(_ status: Int32, _ call: String) throws(AudioError) {
        try ALSA.check(status, call, device: device)
    }

    /// Sets the hardware parameters to the first of each candidate list the device accepts,
    /// falling back to the nearest value it offers. ALSA's own resampler is switched off so a
    /// rate the hardware lacks is converted by libsamplerate instead of ALSA's linear one.
    func configure(rates: [Int], channels: [Int], formats: [PCMSampleFormat] = PCMSampleFormat.allCases,
                   bufferMicroseconds: UInt32 = 200_000, periodMicroseconds: UInt32 = 50_000) throws(AudioError) -> PCMConfiguration {
        let params = try HardwareParameters(device: device)
        let hw = params.pointer
        try check(snd_pcm_hw_params_any(pcm, hw), "snd_pcm_hw_params_any")
        try check(snd_pcm_hw_params_set_rate_resample(pcm, hw, 0), "snd_pcm_hw_params_set_rate_resample")
        try check(snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED), "snd_pcm_hw_params_set_access(RW_INTERLEAVED)")

        guard let format = formats.first(where: { snd_pcm_hw_params_test_format(pcm, hw, $0.alsa) == 0 }) else {
            throw ALSA.error("supports none of the sample formats \(formats.map(\.name).joined(separator: ", "))", device: device)
        }
        try check(snd_pcm_hw_params_set_format(pcm, hw, format.alsa), "snd_pcm_hw_params_set_format(\(format.name))")

        if let count = channels.first(where: { $0 > 0 && snd_pcm_hw_params_test_channels(pcm, hw, UInt32($0)) == 0 }) {
            try check(snd_pcm_hw_params_set_channels(pcm, hw, UInt32(count)), "snd_pcm_hw_params_set_channels(\(count))")
        } else {
            var near = UInt32(channels.first ?? 1)
            try check(snd_pcm_hw_params_set_channels_near(pcm, hw, &near), "snd_pcm_hw_params_set_channels_near")
        }

        if let rate = rates.first(where: { $0 > 0 && snd_pcm_hw_params_test_rate(pcm, hw, UInt32($0), 0) == 0 }) {
            try check(snd_pcm_hw_params_set_rate(pcm, hw, UInt32(rate), 0), "snd_pcm_hw_params_set_rate(\(rate))")
        } else {
            var near = UInt32(rates.first ?? 48_000)
            var direction: Int32 = 0
            try check(snd_pcm_hw_params_set_rate_near(pcm, hw, &near, &direction), "snd_pcm_hw_params_set_rate_near")
        }

        var bufferTime = bufferMicroseconds
        var direction: Int32 = 0
        try check(snd_pcm_hw_params_set_buffer_time_near(pcm, hw, &bufferTime, &direction), "snd_pcm_hw_params_set_buffer_time_near")
        var periodTime = periodMicroseconds
        direction = 0
        try check(snd_pcm_hw_params_set_period_time_near(pcm, hw, &periodTime, &direction), "snd_pcm_hw_params_set_period_time_near")
        try check(snd_pcm_hw_params(pcm, hw), "snd_pcm_hw_params")

        var rate: UInt32 = 0, channelCount: UInt32 = 0
        var period: snd_pcm_uframes_t = 0, buffer: snd_pcm_uframes_t = 0
        direction = 0
        try check(snd_pcm_hw_params_get_rate(hw, &rate, &direction), "snd_pcm_hw_params_get_rate")
        try check(snd_pcm_hw_params_get_channels(hw, &channelCount), "snd_pcm_hw_params_get_channels")
        direction = 0
        try check(snd_pcm_hw_params_get_period_size(hw, &period, &direction), "snd_pcm_hw_params_get_period_size")
        try check(snd_pcm_hw_params_get_buffer_size(hw, &buffer), "snd_pcm_hw_params_get_buffer_size")
        guard rate > 0, channelCount > 0, period > 0 else {
            throw ALSA.error("reported an unusable configuration (\(rate) Hz, \(channelCount) channels, period \(period))", device: device)
        }
        return PCMConfiguration(format: format, rate: Int(rate), channels: Int(channelCount),
                                periodFrames: Int(period), bufferFrames: Int(buffer))
    }

    /// Underruns and overruns are recovered and retried this many times in a row before the
    /// transfer is given up, so a device stuck in error cannot spin forever.
    static let maximumRecoveries = 100

    /// Underruns, overruns and suspends recovered with snd_pcm_recover since the PCM was opened.
    private(set) var recoveries = 0

    /// Writes all frames, recovering from underruns (EPIPE) and suspends (ESTRPIPE).
    func write(_ bytes: UnsafeRawBufferPointer, frameBytes: Int) throws(AudioError) {
        guard let base = bytes.baseAddress, frameBytes > 0 else { return }
        let frames = bytes.count / frameBytes
        var done = 0
        var recoveries = 0
        while done < frames {
            let result = snd_pcm_writei(pcm, base + done * frameBytes, snd_pcm_uframes_t(frames - done))
            if result < 0 {
                try recover(Int32(truncatingIfNeeded: result), call: "snd_pcm_writei", attempt: &recoveries)
                continue
            }
            recoveries = 0
            done += result
        }
    }

    /// Reads up to `frames` frames into `bytes`, recovering from overruns; returns frames read.
    func read(into bytes: UnsafeMutableRawBufferPointer, frameBytes: Int) throws(AudioError) -> Int {
        guard let base = bytes.baseAddress, frameBytes > 0 else { return 0 }
        let frames = bytes.count / frameBytes
        var recoveries = 0
        while true {
            let result = snd_pcm_readi(pcm, base, snd_pcm_uframes_t(frames))
            if result >= 0 { return result }
            try recover(Int32(truncatingIfNeeded: result), call: "snd_pcm_readi", attempt: &recoveries)
        }
    }

    func recover(_ code: Int32, call: String, attempt: inout Int) throws(AudioError) {
        attempt += 1
        guard attempt <= Self.maximumRecoveries else {
            throw AudioError(.device, "ALSA device '\(device)': \(call) kept failing after \(Self.maximumRecoveries) recoveries: \(ALSA.errorText(code))", underlying: code)
        }
        // silent = 1: an xrun on a loaded machine is expected, not worth ALSA's stderr message.
        let recovered = snd_pcm_recover(pcm, code, 1)
        guard recovered >= 0 else {
            throw AudioError(.device, "ALSA device '\(device)': \(call) failed: \(ALSA.errorText(code)); snd_pcm_recover failed: \(ALSA.errorText(recovered))", underlying: code)
        }
        recoveries += 1
    }

    /// Waits until everything written has been played.
    func drain() throws(AudioError) {
        try check(snd_pcm_drain(pcm), "snd_pcm_drain")
    }

    /// Frames written to a playback stream that have not been heard yet (snd_pcm_delay), or nil
    /// when the device cannot say (not running).
    func queuedFrames() -> Int? {
        var frames: snd_pcm_sframes_t = 0
        guard snd_pcm_delay(pcm, &frames) == 0 else { return nil }
        return max(0, Int(frames))
    }

    /// Discards anything buffered and stops the stream.
    func drop() throws(AudioError) {
        try check(snd_pcm_drop(pcm), "snd_pcm_drop")
    }

    /// Makes a stopped stream ready to run again (a capture stream starts with the next read).
    func prepare() throws(AudioError) {
        try check(snd_pcm_prepare(pcm), "snd_pcm_prepare")
    }
}

/// Owns a `snd_pcm_hw_params_t` for the duration of one negotiation.
final class HardwareParameters {
    let pointer: OpaquePointer

    init(device: String) throws(AudioError) {
        var params: OpaquePointer?
        let status = snd_pcm_hw_params_malloc(&params)
        guard status >= 0, let params else { throw ALSA.error("snd_pcm_hw_params_malloc", device: device, code: status) }
        pointer = params
    }

    deinit {
        snd_pcm_hw_params_free(pointer)
    }
}
