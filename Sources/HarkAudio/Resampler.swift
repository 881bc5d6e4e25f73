internal import CSampleRate

/// Owns one libsamplerate converter state. Stateful so a stream converted in pieces
/// (device capture) sounds the same as one converted whole: the filter history carries
/// across calls. Not Sendable: libsamplerate state must not be used from two threads.
final class SampleRateConverter {
    /// SRC_SINC_MEDIUM_QUALITY, chosen by measurement (one core of the 2-core build machine,
    /// a minute of 48 kHz mono to 16 kHz): BEST 1.8 s, flat to 7.2 kHz, aliases below -145 dB;
    /// MEDIUM 0.51 s, -0.3 dB at 7 kHz, -2.1 dB at 7.2 kHz, aliases below -119 dB;
    /// FASTEST 0.23 s but already -14 dB at 7 kHz, cutting into the top of the speech band.
    /// MEDIUM keeps what a 16 kHz recogniser uses at a third of BEST's cost (about 1 % of a
    /// core for live 48 kHz capture).
    static let converterType = Int32(SRC_SINC_MEDIUM_QUALITY)

    let inputRate: Int
    let outputRate: Int
    let channels: Int
    private let ratio: Double
    private let state: OpaquePointer

    init(from inputRate: Int, to outputRate: Int, channels: Int,
         converter: Int32 = SampleRateConverter.converterType) throws(AudioError) {
        guard inputRate > 0, outputRate > 0, channels > 0 else {
            throw AudioError(.resampling, "cannot resample \(inputRate) Hz to \(outputRate) Hz with \(channels) channels: rates and channel count must be positive")
        }
        let ratio = Double(outputRate) / Double(inputRate)
        guard src_is_valid_ratio(ratio) != 0 else {
            throw AudioError(.resampling, "cannot resample \(inputRate) Hz to \(outputRate) Hz: libsamplerate supports ratios from 1/256 to 256")
        }
        var error: Int32 = 0
        guard let state = src_new(converter, Int32(channels), &error) else {
            throw AudioError(.resampling, "src_new failed: \(Self.errorText(error))", underlying: error)
        }
        self.inputRate = inputRate
        self.outputRate = outputRate
        self.channels = channels
        self.ratio = ratio
        self.state = state
    }

    deinit {
        // src_delete only frees memory; its return value (always NULL) carries no error.
        _ = src_delete(state)
    }

    /// Converts the next piece of interleaved input. With `endOfInput` the converter also
    /// flushes the samples it holds back for its filter, so the output of a whole clip has
    /// (to within a frame) `input frames × ratio` frames; after that call the converter is reset
    /// and may start a new stream.
    func convert(_ input: [Float], endOfInput: Bool) throws(AudioError) -> [Float] {
        let inputFrames = input.count / channels
        // Room for this call's share plus the filter's held-back tail; src_process is called
        // again while it still reports progress, so an underestimate costs a loop, not data.
        let chunkFrames = Int((Double(inputFrames) * ratio).rounded(.up)) + 256
        var output: [Float] = []
        output.reserveCapacity(chunkFrames * channels)
        var buffer = [Float](repeating: 0, count: chunkFrames * channels)
        var consumed = 0
        while true {
            var used = 0
            var generated = 0
            let status: Int32 = input.withUnsafeBufferPointer { inputBuffer in
                buffer.withUnsafeMutableBufferPointer { outputBuffer in
                    var data = SRC_DATA()
                    data.data_in = inputBuffer.baseAddress.map { $0 + consumed * channels }
                    data.input_frames = inputFrames - consumed
                    data.data_out = outputBuffer.baseAddress
                    data.output_frames = chunkFrames
                    data.end_of_input = endOfInput ? 1 : 0
                    data.src_ratio = ratio
                    let status = src_process(state, &data)
                    used = data.input_frames_used
                    generated = data.output_frames_gen
                    return status
                }
            }
            guard status == 0 else {
                throw AudioError(.resampling, "src_process failed (\(inputRate) Hz to \(outputRate) Hz): \(Self.errorText(status))", underlying: status)
            }
            consumed += used
            output.append(contentsOf: buffer[0..<(generated * channels)])
            let inputLeft = consumed < inputFrames
            // Without end of input, stop once all input is taken and nothing more comes out;
            // with it, keep going until the tail is fully flushed.
            if !inputLeft && generated == 0 { break }
            if used == 0 && generated == 0 { break }
        }
        if endOfInput {
            let status = src_reset(state)
            guard status == 0 else {
                throw AudioError(.resampling, "src_reset failed: \(Self.errorText(status))", underlying: status)
            }
        }
        return output
    }

    static func errorText(_ code: Int32) -> String {
        guard let text = src_strerror(code) else { return "unknown libsamplerate error \(code)" }
        return String(cString: text)
    }
}
