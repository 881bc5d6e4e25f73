/// Interleaved samples in a device's format, ready for `snd_pcm_writei` / from `snd_pcm_readi`.
enum PCMSamples {
    case s16([Int16])
    case s32([Int32])
    case float32([Float])

    init(_ samples: [Float], format: PCMSampleFormat) {
        switch format {
        case .s16: self = .s16(samples.map(SampleConversion.int16))
        case .s32: self = .s32(samples.map { SampleConversion.integer($0, bits: 32) })
        case .float32: self = .float32(samples)
        }
    }

    func withUnsafeBytes<R>(_ body: (UnsafeRawBufferPointer) throws(AudioError) -> R) throws(AudioError) -> R {
        // Swift's withUnsafeBytes is rethrows (untyped), so the typed error is carried out by hand.
        var failure: AudioError?
        let result: R? = switch self {
        case .s16(let values): values.withUnsafeBytes { bytes in capture(&failure) { () throws(AudioError) in try body(bytes) } }
        case .s32(let values): values.withUnsafeBytes { bytes in capture(&failure) { () throws(AudioError) in try body(bytes) } }
        case .float32(let values): values.withUnsafeBytes { bytes in capture(&failure) { () throws(AudioError) in try body(bytes) } }
        }
        if let failure { throw failure }
        guard let result else { preconditionFailure("closure neither returned nor threw") }
        return result
    }

    /// Decodes raw device bytes (whole samples only) to Float.
    static func floats(from bytes: UnsafeRawBufferPointer, format: PCMSampleFormat) -> [Float] {
        switch format {
        case .s16:
            return bytes.withMemoryRebound(to: Int16.self) { values in values.map { Float($0) / 32768 } }
        case .s32:
            return bytes.withMemoryRebound(to: Int32.self) { values in values.map { Float(Double($0) / 2_147_483_648) } }
        case .float32:
            return bytes.withMemoryRebound(to: Float.self) { Array($0) }
        }
    }
}

private func capture<R>(_ failure: inout AudioError?, _ body: () throws(AudioError) -> R) -> R? {
    do { return try body() } catch { failure = error; return nil }
}
