public import Foundation

extension WAVFile {
    /// Reads and decodes a WAV file; errors name the file.
    public static func read(contentsOf url: URL) throws(AudioError) -> AudioClip {
        try readNotingDamage(contentsOf: url).clip
    }

    /// Reads a WAV file, and says whether it was cut short: a file whose data chunk declares
    /// more audio than the file holds (a copy or a recording that stopped early) is decoded as
    /// far as it goes, and `cutShort` says how much is missing, for a warning.
    public static func readNotingDamage(contentsOf url: URL) throws(AudioError) -> (clip: AudioClip, cutShort: String?) {
        let bytes = try FileIO.readAll(url)
        var reader = WAVReader(bytes: bytes, name: url.path)
        let clip = try reader.decode()
        return (clip, reader.cutShort)
    }

    /// Decodes WAV bytes; `name` is used in error messages.
    public static func decode(_ data: Data, name: String) throws(AudioError) -> AudioClip {
        try decode([UInt8](data), name: name)
    }

    /// Decodes WAV bytes; `name` is used in error messages.
    public static func decode(_ bytes: [UInt8], name: String) throws(AudioError) -> AudioClip {
        var reader = WAVReader(bytes: bytes, name: name)
        return try reader.decode()
    }
}

/// The parsed `fmt ` chunk.
struct WAVFormat {
    enum SampleKind { case unsignedInt, signedInt, float }
    var kind: SampleKind
    var channels: Int
    var sampleRate: Int
    var blockAlign: Int
    /// Bytes per sample in the data (the container, which may be wider than the valid bits).
    var containerBytes: Int
}

struct WAVReader {
    let bytes: [UInt8]
    let name: String

    /// Set by `decode` when the data chunk declares more bytes than the file holds.
    var cutShort: String?

    func fail(_ code: AudioError.Code, _ detail: String) -> AudioError {
        AudioError(code, "\(name): \(detail)")
    }

    func u16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
    func u32(_ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
    func fourCC(_ at: Int) -> String {
        String(decoding: bytes[at..<at + 4].map { (0x20...0x7E).contains($0) ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }

    mutating func decode() throws(AudioError) -> AudioClip {
        guard !bytes.isEmpty else { throw fail(.empty, "file is empty (0 bytes)") }
        let riff: [UInt8] = Array("RIFF".utf8), wave: [UInt8] = Array("WAVE".utf8)
        // A prefix of a valid header is a cut-short WAV, anything else is some other file.
        let head = Array(bytes.prefix(12))
        let expected = riff + [0, 0, 0, 0] + wave
        for (index, byte) in head.enumerated() where !(4..<8).contains(index) && byte != expected[index] {
            if index < 4, Array(bytes.prefix(4)) == Array("RF64".utf8) {
                throw fail(.unsupportedEncoding, "RF64 (64-bit RIFF) WAV files are not supported; convert with: sox in.wav -b 16 out.wav")
            }
            if index < 4, Array(bytes.prefix(4)) == Array("RIFX".utf8) {
                throw fail(.unsupportedEncoding, "big-endian RIFX WAV files are not supported; convert with: sox in.wav -L out.wav")
            }
            throw fail(.notWAV, "not a WAV file (no RIFF/WAVE header)")
        }
        guard bytes.count >= 12 else { throw fail(.truncated, "file ends inside the RIFF header (\(bytes.count) bytes)") }

        var format: WAVFormat?
        var dataRange: Range<Int>?
        var offset = 12
        // The RIFF size is ignored: streaming writers leave it 0 or 0xFFFFFFFF.
        scan: while offset < bytes.count {
            guard bytes.count - offset >= 8 else {
                if format != nil && dataRange != nil { break scan } // stray bytes after the data
                throw fail(.truncated, "file ends inside a chunk header at byte \(offset)")
            }
            let id = fourCC(offset)
            let size = Int(u32(offset + 4))
            let body = offset + 8
            let available = bytes.count - body
            switch id {
            case "fmt ":
                guard size <= available else { throw fail(.truncated, "file ends inside the fmt chunk") }
                format = try parseFormat(at: body, size: size)
            case "data":
                if size >= available {
                    // 0xFFFFFFFF (or 0) from a streaming writer, or too large: a recording cut
                    // short. Take the whole frames that are there; a cut one is said so.
                    var end = bytes.count
                    if size > available && size != 0xFFFF_FFFF, let format {
                        end = body + (available / format.blockAlign) * format.blockAlign
                        guard end > body else { throw fail(.truncated, "file ends inside the first sample frame") }
                        let seconds = Double(available / format.blockAlign) / Double(format.sampleRate)
                        let missing = Double((size - available) / format.blockAlign) / Double(format.sampleRate)
                        // Interpolated, not %d: %d takes 32 bits and shows 0xFFFFFFF0 as -16.
                        cutShort = "cut short: its data chunk declares \(size) bytes, the file holds \(available); "
                            + String(format: "decoding the %.2f s there (%.2f s missing)", seconds, missing)
                    }
                    dataRange = body..<end
                    break scan
                }
                dataRange = body..<(body + size)
            default:
                if size > available {
                    // A broken trailing chunk (metadata) after a complete file does not lose the audio.
                    if format != nil && dataRange != nil { break scan }
                    throw fail(.truncated, "file ends inside the '\(id)' chunk at byte \(offset)")
                }
            }
            // Chunks are word aligned: an odd-sized chunk is followed by a pad byte.
            offset = body + size + (size & 1)
        }

        guard let format else { throw fail(.truncated, "no fmt chunk before the end of the file") }
        guard let dataRange else { throw fail(.truncated, "no data chunk before the end of the file") }
        guard dataRange.count % format.blockAlign == 0 else {
            throw fail(.truncated, "data ends in the middle of a sample frame (\(dataRange.count) bytes, frames of \(format.blockAlign) bytes)")
        }
        guard !dataRange.isEmpty else { throw fail(.empty, "WAV file contains no samples") }
        let samples = decodeSamples(dataRange, format: format)
        return AudioClip(samples: samples, sampleRate: format.sampleRate, channels: format.channels)
    }

    func parseFormat(at body: Int, size: Int) throws(AudioError) -> WAVFormat {
        guard size >= 16 else { throw fail(.malformed, "fmt chunk is \(size) bytes, shorter than the 16 the format needs") }
        var tag = u16(body)
        let channels = Int(u16(body + 2))
        let sampleRate = Int(u32(body + 4))
        let blockAlign = Int(u16(body + 12))
        let bits = Int(u16(body + 14))
        if tag == WAVFile.FormatTag.extensible {
            guard size >= 40 else { throw fail(.malformed, "WAVE_FORMAT_EXTENSIBLE fmt chunk is \(size) bytes, needs 40") }
            let guid = Array(bytes[(body + 24)..<(body + 40)])
            guard Array(guid[2...]) == WAVFile.subFormatGUIDTail else {
                throw fail(.unsupportedEncoding, "WAVE_FORMAT_EXTENSIBLE with an unknown sub-format GUID is not supported; convert with: sox in.wav -e signed -b 16 out.wav")
            }
            tag = UInt16(guid[0]) | UInt16(guid[1]) << 8
        }
        guard channels > 0 else { throw fail(.malformed, "fmt chunk says 0 channels") }
        guard (1...1_000_000).contains(sampleRate) else { throw fail(.malformed, "fmt chunk says \(sampleRate) Hz") }

        let kind: WAVFormat.SampleKind
        switch tag {
        case WAVFile.FormatTag.pcm: kind = .signedInt
        case WAVFile.FormatTag.ieeeFloat: kind = .float
        default: throw fail(.unsupportedEncoding, Self.unsupportedDescription(tag))
        }
        // The container size comes from the block alignment: a 24-bit sample may sit in 4 bytes.
        // Writers that leave blockAlign 0 or wrong are covered by falling back to the bit depth.
        var container = (bits + 7) / 8
        if blockAlign > 0, blockAlign % channels == 0, blockAlign / channels >= container {
            container = blockAlign / channels
        }
        let allowed: [Int] = kind == .float ? [4, 8] : [1, 2, 3, 4]
        guard allowed.contains(container), bits > 0 else {
            let what = kind == .float ? "\(bits)-bit float" : "\(bits)-bit integer PCM in \(container)-byte samples"
            throw fail(.unsupportedEncoding, "\(what) is not supported; convert with: sox in.wav -e signed -b 16 out.wav")
        }
        return WAVFormat(kind: container == 1 ? .unsignedInt : kind, channels: channels, sampleRate: sampleRate,
                         blockAlign: container * channels, containerBytes: container)
    }

    static func unsupportedDescription(_ tag: UInt16) -> String {
        let names: [UInt16: String] = [
            0x0002: "Microsoft ADPCM", 0x0006: "A-law", 0x0007: "µ-law", 0x0011: "IMA ADPCM",
            0x0031: "GSM 6.10", 0x0050: "MPEG", 0x0055: "MP3",
        ]
        let named = names[tag].map { "\($0) (format \(tag))" } ?? "format \(tag)"
        return "\(named) is not supported; convert with: sox in.wav -e signed -b 16 out.wav"
    }

    func decodeSamples(_ range: Range<Int>, format: WAVFormat) -> [Float] {
        let count = range.count / format.containerBytes
        var out = [Float](repeating: 0, count: count)
        bytes.withUnsafeBufferPointer { all in
            let b = UnsafeBufferPointer(rebasing: all[range])
            switch (format.kind, format.containerBytes) {
            case (.unsignedInt, _):
                for i in 0..<count { out[i] = (Float(b[i]) - 128) / 128 }
            case (_, 2):
                for i in 0..<count {
                    let raw = UInt16(b[2 * i]) | UInt16(b[2 * i + 1]) << 8
                    out[i] = Float(Int16(bitPattern: raw)) / 32768
                }
            case (_, 3):
                for i in 0..<count {
                    // Placed in the top three bytes of an Int32 so the sign extends for free.
                    let raw = UInt32(b[3 * i]) << 8 | UInt32(b[3 * i + 1]) << 16 | UInt32(b[3 * i + 2]) << 24
                    out[i] = Float(Int32(bitPattern: raw) >> 8) / 8_388_608
                }
            case (.signedInt, 4):
                for i in 0..<count {
                    out[i] = Float(Double(Int32(bitPattern: Self.word32(b, 4 * i))) / 2_147_483_648)
                }
            case (.float, 4):
                for i in 0..<count { out[i] = Float(bitPattern: Self.word32(b, 4 * i)) }
            case (.float, 8):
                for i in 0..<count {
                    let low = UInt64(Self.word32(b, 8 * i)), high = UInt64(Self.word32(b, 8 * i + 4))
                    out[i] = Float(Double(bitPattern: high << 32 | low))
                }
            default:
                // parseFormat admits no other combination.
                preconditionFailure("unreachable WAV sample layout \(format)")
            }
        }
        return out
    }

    static func word32(_ b: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        UInt32(b[at]) | UInt32(b[at + 1]) << 8 | UInt32(b[at + 2]) << 16 | UInt32(b[at + 3]) << 24
    }
}

extension WAVFile {
    /// The WAV files of a folder (not its subfolders), in name order.
    public static func files(in directory: URL) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension.lowercased() == "wav" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}
