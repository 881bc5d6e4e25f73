/// Reading and writing RIFF/WAVE files. The decoder is pure Swift so a damaged or hostile
/// file can only ever produce an `AudioError`, never a crash in C.
public enum WAVFile {
    /// Sample encodings the writer produces (the reader accepts these and more).
    public enum Encoding: Sendable, Equatable, CaseIterable {
        case int16, int24, int32, float32

        var bytesPerSample: Int {
            switch self {
            case .int16: 2
            case .int24: 3
            case .int32, .float32: 4
            }
        }
    }

    /// Format tags from the WAVE specification and mmreg.h.
    enum FormatTag {
        static let pcm: UInt16 = 0x0001
        static let ieeeFloat: UInt16 = 0x0003
        static let extensible: UInt16 = 0xFFFE
    }

    /// The 14 bytes that follow the format code in a WAVE_FORMAT_EXTENSIBLE SubFormat GUID
    /// (KSDATAFORMAT_SUBTYPE_PCM and _IEEE_FLOAT differ only in the first two bytes).
    static let subFormatGUIDTail: [UInt8] = [0x00, 0x00, 0x00, 0x00, 0x10, 0x00, 0x80, 0x00,
                                             0x00, 0xAA, 0x00, 0x38, 0x9B, 0x71]
}
