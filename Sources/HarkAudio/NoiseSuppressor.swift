internal import CNoiseSuppression

/// WebRTC's noise suppression (high-pass filter, then suppression at a chosen strength) over a
/// stream of 16 kHz mono audio, fed in pieces of any size.
///
/// The module works on 10 ms frames, so what comes out is what went in 10 ms earlier (and the
/// sound in it 6 ms later still: `delaySamples`): every call returns exactly as many samples as
/// it was given, the first 160 of the stream being silence. The suppressor learns the room's
/// noise from what it hears; feed it everything, not only the pieces whose output is used, so
/// it knows the room when it is needed.
///
/// Not Sendable: the module keeps state between frames; use it from one thread.
public final class NoiseSuppressor {
    /// The strength `make bench-wake-denoised` measured (1, "moderate", of 0 to 3).
    public static let standardLevel: Int32 = 1
    public static let frameSamples = Int(HARK_NS_FRAME_SAMPLES)

    private let suppressor: OpaquePointer
    /// Samples given that do not fill a frame yet.
    private var pending: [Int16] = []
    /// Suppressed samples not returned yet: starts as one frame of silence, the module's delay.
    private var ready: [Int16]

    /// Fails when the module cannot be made or refuses `level` (0 to 3).
    public init(level: Int32 = standardLevel) throws(AudioError) {
        var code: Int32 = 0
        guard let suppressor = hark_ns_create(level, &code) else {
            throw AudioError(.processing, "WebRTC's noise suppression could not be set up at level \(level) (code \(code))", underlying: code)
        }
        self.suppressor = suppressor
        ready = Array(repeating: 0, count: Self.frameSamples)
    }

    deinit { hark_ns_free(suppressor) }

    /// The audio `samples.count` samples back, with its noise suppressed.
    public func process(_ samples: ArraySlice<Int16>) throws(AudioError) -> [Int16] {
        pending.append(contentsOf: samples)
        let whole = pending.count / Self.frameSamples * Self.frameSamples
        // The whole frames are suppressed where they lie, the first failure's code kept.
        let code = pending.withUnsafeMutableBufferPointer { buffer -> Int32 in
            for start in stride(from: 0, to: whole, by: Self.frameSamples) {
                let code = hark_ns_process(suppressor, buffer.baseAddress! + start)
                if code != 0 { return code }
            }
            return 0
        }
        guard code == 0 else {
            throw AudioError(.processing, "WebRTC's noise suppression failed on a frame (code \(code))", underlying: code)
        }
        ready.append(contentsOf: pending[..<whole])
        pending.removeFirst(whole)
        let out = Array(ready.prefix(samples.count))
        ready.removeFirst(out.count)
        return out
    }
}

extension NoiseSuppressor {
    /// How far behind its input the suppressed sound is: the frame `process` waits for, and the
    /// 6 ms the module's own analysis window (256 samples for a 160-sample frame) holds back.
    public static let delaySamples = frameSamples + 96

    /// A whole recording with its noise suppressed by a suppressor of its own that has heard
    /// nothing before it, in step with it (`delaySamples` taken out) and as long.
    public static func suppressing(_ samples: [Int16], level: Int32 = standardLevel) throws(AudioError) -> [Int16] {
        let suppressor = try NoiseSuppressor(level: level)
        let late = try suppressor.process((samples + [Int16](repeating: 0, count: delaySamples))[...])
        return Array(late.dropFirst(delaySamples))
    }
}

@available(*, unavailable, message: "NoiseSuppressor keeps the module's state between frames; use it from one thread")
extension NoiseSuppressor: Sendable {}
