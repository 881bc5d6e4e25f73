public import Foundation

extension WAVFile {
    /// The clip as a complete WAV file. Integer encodings are rounded and clipped; more than
    /// two channels are written as WAVE_FORMAT_EXTENSIBLE, as the format requires.
    /// Audio too long for a 32-bit RIFF size gets the streaming convention (0xFFFFFFFF sizes),
    /// which `decode` reads back.
    public static func encode(_ clip: AudioClip, as encoding: Encoding = .int16) -> Data {
        let width = encoding.bytesPerSample
        let channels = clip.channels
        let extensible = channels > 2
        let tag = encoding == .float32 ? FormatTag.ieeeFloat : FormatTag.pcm
        let fmtSize = extensible ? 40 : (encoding == .float32 ? 18 : 16)
        // Float files carry a fact chunk (frame count), as the spec asks of non-PCM formats.
        let factSize = encoding == .float32 ? 12 : 0
        let dataBytes = clip.frameCount * channels * width
        let headerBytes = 12 + 8 + fmtSize + factSize + 8

        var out = [UInt8]()
        out.reserveCapacity(headerBytes + dataBytes)
        func put16(_ v: UInt16) { out.append(UInt8(v & 0xFF)); out.append(UInt8(v >> 8)) }
        func put32(_ v: UInt32) { for shift in stride(from: 0, to: 32, by: 8) { out.append(UInt8((v >> UInt32(shift)) & 0xFF)) } }
        func clamped32(_ v: Int) -> UInt32 { v > Int(UInt32.max) ? UInt32.max : UInt32(v) }

        out += Array("RIFF".utf8); put32(clamped32(headerBytes - 8 + dataBytes)); out += Array("WAVE".utf8)
        out += Array("fmt ".utf8); put32(UInt32(fmtSize))
        put16(extensible ? FormatTag.extensible : tag)
        put16(UInt16(clamping: channels))
        put32(UInt32(clamping: clip.sampleRate))
        put32(clamped32(clip.sampleRate * channels * width))
        put16(UInt16(clamping: channels * width))
        put16(UInt16(width * 8))
        if extensible {
            put16(22)                      // cbSize
            put16(UInt16(width * 8))       // valid bits
            put32(0)                       // channel mask: no speaker positions claimed
            put16(tag); out += subFormatGUIDTail
        } else if encoding == .float32 {
            put16(0)                       // cbSize
        }
        if factSize > 0 { out += Array("fact".utf8); put32(4); put32(clamped32(clip.frameCount)) }
        out += Array("data".utf8); put32(clamped32(dataBytes))

        let samples = clip.samples.prefix(clip.frameCount * channels)
        switch encoding {
        case .int16:
            for s in samples { put16(UInt16(bitPattern: SampleConversion.int16(s))) }
        case .int24:
            for s in samples {
                let v = UInt32(bitPattern: SampleConversion.integer(s, bits: 24))
                out.append(UInt8(v & 0xFF)); out.append(UInt8((v >> 8) & 0xFF)); out.append(UInt8((v >> 16) & 0xFF))
            }
        case .int32:
            for s in samples { put32(UInt32(bitPattern: SampleConversion.integer(s, bits: 32))) }
        case .float32:
            for s in samples { put32(s.bitPattern) }
        }
        return Data(out)
    }

    /// Encodes the clip and writes it to `url`, replacing any file there.
    public static func write(_ clip: AudioClip, to url: URL, as encoding: Encoding = .int16) throws(AudioError) {
        try FileIO.writeAll(Array(encode(clip, as: encoding)), to: url)
    }
}
