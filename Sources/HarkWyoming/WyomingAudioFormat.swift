/// The audio format of `audio-start` and `audio-chunk` events: `rate` in hertz, `width` in bytes
/// per sample, `channels` interleaved. Hark reads signed little-endian PCM of 2 or 4 bytes.
public struct WyomingAudioFormat: Sendable, Equatable, CustomStringConvertible {
    public var rate: Int
    public var width: Int
    public var channels: Int

    public static let rates = 8_000...192_000
    public static let widths = [2, 4]
    public static let channelCounts = 1...8

    public init(rate: Int, width: Int, channels: Int) {
        self.rate = rate
        self.width = width
        self.channels = channels
    }

    /// The format an event's data names, refused when Hark cannot read it.
    public init(eventData data: [String: JSONValue], type: String) throws(WyomingError) {
        func field(_ key: String) throws(WyomingError) -> Int {
            guard let value = data[key]?.integerValue else {
                throw WyomingError(.badAudio, "\(type) needs \"\(key)\" as a whole number")
            }
            return value
        }
        self.init(rate: try field("rate"), width: try field("width"), channels: try field("channels"))
        guard Self.rates.contains(rate) else {
            throw WyomingError(.badAudio, "\(type): a rate of \(rate) Hz is outside \(Self.rates.lowerBound)–\(Self.rates.upperBound) Hz")
        }
        guard Self.widths.contains(width) else {
            throw WyomingError(.badAudio, "\(type): a width of \(width) bytes is not 16-bit (2) or 32-bit (4) PCM")
        }
        guard Self.channelCounts.contains(channels) else {
            throw WyomingError(.badAudio, "\(type): \(channels) channels is outside \(Self.channelCounts.lowerBound)–\(Self.channelCounts.upperBound)")
        }
    }

    /// The fields as an event carries them.
    public var eventData: [String: JSONValue] {
        ["rate": .integer(rate), "width": .integer(width), "channels": .integer(channels)]
    }

    public var bytesPerFrame: Int { width * channels }

    public var description: String { "\(rate) Hz, \(width * 8)-bit, \(channels) channel\(channels == 1 ? "" : "s")" }

    /// The payload's frames as mono samples in -1...1, the channels averaged (as `AudioClip`
    /// mixes down). A payload that is not whole frames is refused: the stream has lost its place.
    public func monoSamples(from payload: [UInt8]) throws(WyomingError) -> [Float] {
        guard payload.count % bytesPerFrame == 0 else {
            throw WyomingError(.badAudio, "an audio chunk of \(payload.count) bytes is not whole frames of \(bytesPerFrame) bytes (\(self))")
        }
        let frames = payload.count / bytesPerFrame
        var mono = [Float](repeating: 0, count: frames)
        let scale = 1 / Float(channels)
        payload.withUnsafeBytes { bytes in
            for frame in 0..<frames {
                var sum: Float = 0
                for channel in 0..<channels {
                    let offset = (frame * channels + channel) * width
                    sum += width == 2
                        ? Float(Int16(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int16.self))) / 32_768
                        : Float(Double(Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))) / 2_147_483_648)
                }
                mono[frame] = sum * scale
            }
        }
        return mono
    }

    /// 16-bit samples as a little-endian payload.
    public static func payload(_ samples: ArraySlice<Int16>) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(samples.count * 2)
        for sample in samples {
            let value = UInt16(bitPattern: sample)
            bytes.append(UInt8(truncatingIfNeeded: value))
            bytes.append(UInt8(truncatingIfNeeded: value >> 8))
        }
        return bytes
    }
}
