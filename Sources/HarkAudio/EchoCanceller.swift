import Foundation
import CSpeexDSP

/// Takes what the loudspeaker played out of what the microphone heard, with speexdsp's
/// adaptive echo canceller (a frequency-domain filter as long as the room's echo) and its
/// preprocessor's residual echo suppression. Fed 16 kHz mono, a 10 ms frame at a time: the
/// captured frame and the frame played at the same moment (aligned with `EchoDelay`).
///
/// Used from one thread at a time; the C states are its own.
public final class EchoCanceller {
    /// Samples per frame: 10 ms at 16 kHz.
    public static let frameSize = 160
    /// The echo the filter models (s): a living room's reverberation, and a little of the
    /// delay a misjudged alignment leaves.
    public static let tailSeconds = 0.25

    private let echo: OpaquePointer
    private let preprocess: OpaquePointer

    /// Fails only when speexdsp cannot make its states (out of memory).
    public init(sampleRate: Int = 16_000) throws(AudioError) {
        let tail = Int32(Self.tailSeconds * Double(sampleRate))
        guard let echo = speex_echo_state_init(Int32(Self.frameSize), tail) else {
            throw AudioError(.device, "speexdsp could not make an echo canceller")
        }
        guard let preprocess = speex_preprocess_state_init(Int32(Self.frameSize), Int32(sampleRate)) else {
            speex_echo_state_destroy(echo)
            throw AudioError(.device, "speexdsp could not make a preprocessor")
        }
        self.echo = echo
        self.preprocess = preprocess
        var rate = Int32(sampleRate)
        var off: Int32 = 0
        // Each setting is checked: speexdsp answers -1 to a request it does not know.
        guard speex_echo_ctl(echo, SPEEX_ECHO_SET_SAMPLING_RATE, &rate) == 0 else {
            throw AudioError(.device, "speexdsp refused the echo canceller's sample rate \(sampleRate)")
        }
        // The preprocessor only suppresses what the canceller left: no denoising, no gain.
        for request in [SPEEX_PREPROCESS_SET_DENOISE, SPEEX_PREPROCESS_SET_AGC, SPEEX_PREPROCESS_SET_DEREVERB] {
            guard speex_preprocess_ctl(preprocess, request, &off) == 0 else {
                throw AudioError(.device, "speexdsp refused preprocessor setting \(request)")
            }
        }
        guard speex_preprocess_ctl(preprocess, SPEEX_PREPROCESS_SET_ECHO_STATE, UnsafeMutableRawPointer(echo)) == 0 else {
            throw AudioError(.device, "speexdsp refused to join the canceller to its preprocessor")
        }
    }

    deinit {
        speex_preprocess_state_destroy(preprocess)
        speex_echo_state_destroy(echo)
    }

    /// `captured` with `played` taken out; both the same length, a whole number of frames
    /// (a last partial frame is passed through as it is).
    public func cancel(captured: [Int16], played: [Int16]) -> [Int16] {
        precondition(captured.count == played.count, "cancel needs as much played audio as captured")
        var cleaned = captured
        let whole = captured.count / Self.frameSize * Self.frameSize
        captured.withUnsafeBufferPointer { heard in
            played.withUnsafeBufferPointer { reference in
                cleaned.withUnsafeMutableBufferPointer { out in
                    for start in stride(from: 0, to: whole, by: Self.frameSize) {
                        speex_echo_cancellation(echo, heard.baseAddress! + start, reference.baseAddress! + start,
                                                out.baseAddress! + start)
                        _ = speex_preprocess_run(preprocess, out.baseAddress! + start)
                    }
                }
            }
        }
        return cleaned
    }

    /// Forgets the room: after the loudspeaker or the microphone moved.
    public func reset() {
        speex_echo_state_reset(echo)
    }
}

/// How long after a sample is played the microphone hears it: the device's buffers and the
/// air between loudspeaker and microphone. Estimated from the audio itself (the lag at which
/// the played signal's 10 ms energy envelope best matches the captured one's), never assumed.
public enum EchoDelay {
    /// How far to delay the played audio before the canceller (samples, whole 10 ms frames):
    /// the lag from 0 to `longest` seconds at which `played` best explains `captured`, less
    /// `margin` (the filter can only take out an echo that comes after the sound it hears, and
    /// the match is only as fine as a frame), with how well it matched (a correlation, 0…1);
    /// nil when nothing was played loud enough to tell.
    public static func estimate(captured: [Int16], played: [Int16], longest: Double = 0.5,
                                sampleRate: Int = 16_000) -> (samples: Int, correlation: Double)? {
        let frame = sampleRate / 100
        let heard = envelope(captured, frame: frame), sent = envelope(played, frame: frame)
        let lags = Int(longest * 100)
        guard sent.count > lags * 2, sent.contains(where: { $0 > silenceFloor + 1 }) else { return nil }
        var best: (lag: Int, correlation: Double)?
        for lag in 0...lags {
            let count = min(sent.count, heard.count - lag)
            guard count > lags else { break }
            let correlation = pearson(Array(sent[0..<count]), Array(heard[lag..<(lag + count)]))
            if correlation > (best?.correlation ?? -1) { best = (lag, correlation) }
        }
        return best.map { (max(0, $0.lag - marginFrames) * frame, max(0, $0.correlation)) }
    }

    /// Frames the alignment is kept short of the match.
    static let marginFrames = 2
    /// log10 of the mean square of a frame taken as silence (-50 dBFS is far louder; this is the floor).
    static let silenceFloor = 2.0

    /// Log energy of each frame (silence floored, so it does not dominate the match).
    static func envelope(_ samples: [Int16], frame: Int) -> [Double] {
        stride(from: 0, to: samples.count - frame + 1, by: frame).map { start in
            var energy = 0.0
            for sample in samples[start..<(start + frame)] { energy += Double(sample) * Double(sample) }
            return max(log10(max(energy / Double(frame), 1)), silenceFloor)
        }
    }

    static func pearson(_ a: [Double], _ b: [Double]) -> Double {
        let n = Double(a.count)
        let meanA = a.reduce(0, +) / n, meanB = b.reduce(0, +) / n
        var covariance = 0.0, varianceA = 0.0, varianceB = 0.0
        for (x, y) in zip(a, b) {
            covariance += (x - meanA) * (y - meanB)
            varianceA += (x - meanA) * (x - meanA)
            varianceB += (y - meanB) * (y - meanB)
        }
        guard varianceA > 0, varianceB > 0 else { return 0 }
        return covariance / (varianceA * varianceB).squareRoot()
    }
}
