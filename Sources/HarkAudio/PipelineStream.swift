/// Mono audio arriving in pieces at any rate, turned into the pipeline's 16 kHz signed 16-bit
/// piece by piece: a stream from the network heard as it comes, not only once it has ended.
/// The filter's history carries across pieces, so a stream converted in pieces sounds as it
/// would converted whole. One stream per instance, from one thread at a time.
public final class PipelineStream {
    public let inputRate: Int
    /// nil when the input is already at the pipeline's rate.
    private let converter: SampleRateConverter?

    public init(inputRate: Int) throws(AudioError) {
        self.inputRate = inputRate
        converter = inputRate == PipelineAudio.sampleRate
            ? nil : try SampleRateConverter(from: inputRate, to: PipelineAudio.sampleRate, channels: 1)
    }

    /// The next piece (mono, −1…1) at the pipeline's rate; a few milliseconds of it may come
    /// out with a later piece, held back by the filter.
    public func convert(_ mono: [Float]) throws(AudioError) -> [Int16] {
        guard let converter else { return mono.map(SampleConversion.int16) }
        return try converter.convert(mono, endOfInput: false).map(SampleConversion.int16)
    }

    /// What the filter still holds at the end of the stream; nothing is converted after it.
    public func finish() throws(AudioError) -> [Int16] {
        guard let converter else { return [] }
        return try converter.convert([], endOfInput: true).map(SampleConversion.int16)
    }
}

@available(*, unavailable, message: "PipelineStream owns a libsamplerate state; use it from one thread at a time")
extension PipelineStream: Sendable {}
