import Foundation
import Testing
import HarkTestSupport
@testable import HarkAudio

@Suite struct WAVReaderTests {
    static let pcm16: [UInt8] = [0x00, 0x40, 0x00, 0xC0]   // 0.5, -0.5

    func decode(_ bytes: [UInt8]) throws(AudioError) -> AudioClip {
        try WAVFile.decode(bytes, name: "test.wav")
    }

    func expectError(_ code: AudioError.Code, _ bytes: [UInt8], mentioning text: String? = nil,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            let clip = try decode(bytes)
            Issue.record("expected \(code), decoded \(clip.frameCount) frames", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == code, "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.hasPrefix("test.wav: "), sourceLocation: sourceLocation)
            if let text { #expect(error.message.contains(text), "\(error.message)", sourceLocation: sourceLocation) }
        }
    }

    func simple(data: [UInt8] = pcm16) -> WAVBuilder {
        var wav = WAVBuilder()
        wav.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 1, rate: 16_000, bits: 16))
        wav.add("data", data)
        return wav
    }

    @Test func extraChunksBeforeAndAfterData() throws {
        var wav = WAVBuilder()
        wav.add("LIST", Array("INFOISFT\u{5}\0\0\0hark\0".utf8))   // odd-sized: pad byte follows
        wav.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 2, rate: 44_100, bits: 16))
        wav.add("fact", WAVBuilder.le32(1))
        wav.add("cue ", [1, 2, 3])
        wav.add("data", Self.pcm16)
        wav.add("LIST", Array("INFOICMT".utf8) + [1, 0, 0, 0, 65])
        wav.add("junk", [9])
        let clip = try decode(wav.bytes())
        #expect(clip.channels == 2 && clip.sampleRate == 44_100)
        #expect(clip.samples == [0.5, -0.5])
    }

    @Test func dataBeforeFmtIsAccepted() throws {
        var wav = WAVBuilder()
        wav.add("data", Self.pcm16)
        wav.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 1, rate: 8000, bits: 16))
        #expect(try decode(wav.bytes()).samples == [0.5, -0.5])
    }

    @Test func streamedDataSizeTakesWhatIsThere() throws {
        #expect(try decode(simple().bytes(dataSizeOverride: 0xFFFF_FFFF)).samples == [0.5, -0.5])
        #expect(try decode(simple().bytes(dataSizeOverride: 1000)).samples == [0.5, -0.5])
        var zeroRIFF = simple()
        zeroRIFF.riffSize = 0
        #expect(try decode(zeroRIFF.bytes()).samples == [0.5, -0.5])
    }

    @Test func unsignedEightBit() throws {
        var wav = WAVBuilder()
        wav.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 1, rate: 8000, bits: 8))
        wav.add("data", [0, 128, 255])   // odd size, pad byte
        #expect(try decode(wav.bytes()).samples == [-1, 0, 127.0 / 128])
    }

    @Test func twentyFourBitInFourByteContainers() throws {
        // Left-justified 24-bit samples in 32-bit words, as WAVE_FORMAT_EXTENSIBLE allows.
        var wav = WAVBuilder()
        wav.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 1, rate: 48_000, bits: 24, blockAlign: 4))
        wav.add("data", [0, 0, 0, 0x40, 0, 0, 0, 0xC0])
        #expect(try decode(wav.bytes()).samples == [0.5, -0.5])
    }

    @Test func extensibleFloatSubformat() throws {
        var fmt = WAVBuilder.fmt(tag: 0xFFFE, channels: 1, rate: 16_000, bits: 32)
        fmt += WAVBuilder.le16(22) + WAVBuilder.le16(32) + WAVBuilder.le32(4)
        fmt += WAVBuilder.le16(3) + WAVFile.subFormatGUIDTail
        var wav = WAVBuilder()
        wav.add("fmt ", fmt)
        wav.add("data", WAVBuilder.le32(Float(0.25).bitPattern))
        #expect(try decode(wav.bytes()).samples == [0.25])
    }

    @Test func notAWAV() {
        expectError(.notWAV, Array("hello, this is text, not audio".utf8), mentioning: "not a WAV")
        expectError(.notWAV, Array("RIFF\u{4}\0\0\0AVI LIST".utf8))
        expectError(.notWAV, [0xFF, 0xFB, 0x90, 0x64])   // an MP3 frame header
    }

    @Test func emptyFileAndEmptyData() {
        expectError(.empty, [], mentioning: "0 bytes")
        expectError(.empty, simple(data: []).bytes(), mentioning: "no samples")
    }

    /// A file whose data chunk declares more than the file holds was cut short: its whole frames
    /// are decoded and the damage is said, with how much is missing.
    @Test func aCutShortFileIsDecodedAsFarAsItGoesAndSaysSo() throws {
        let folder = try temporaryDirectory()
        let frames = [UInt8](repeating: 0, count: 16_000 * 2) + Self.pcm16   // one second, then two samples
        var wav = simple(data: frames)
        let whole = wav.bytes()
        let cut = folder.appendingPathComponent("cut.wav")
        try Data(whole.prefix(whole.count - 3)).write(to: cut)   // the last sample and half of the one before
        let (clip, cutShort) = try WAVFile.readNotingDamage(contentsOf: cut)
        #expect(clip.frameCount == 16_000)
        let message = try #require(cutShort)
        #expect(message.contains("declares \(frames.count) bytes, the file holds \(frames.count - 3)"), "\(message)")
        #expect(message.contains("1.00 s there"), "\(message)")
        // A whole file, and a streamed one (size 0xFFFFFFFF), are not damaged.
        let fine = folder.appendingPathComponent("fine.wav")
        try Data(whole).write(to: fine)
        #expect(try WAVFile.readNotingDamage(contentsOf: fine).cutShort == nil)
        wav = simple(data: frames)
        try Data(wav.bytes(dataSizeOverride: 0xFFFF_FFFF)).write(to: fine)
        #expect(try WAVFile.readNotingDamage(contentsOf: fine).cutShort == nil)
    }

    /// A size above 2^31 is said as it is, not as a negative number.
    @Test func aHugeDeclaredSizeIsSaidInFull() throws {
        let file = try temporaryDirectory().appendingPathComponent("huge.wav")
        try Data(simple(data: Self.pcm16).bytes(dataSizeOverride: 0xFFFF_FFF0)).write(to: file)
        let (clip, cutShort) = try WAVFile.readNotingDamage(contentsOf: file)
        #expect(clip.samples == [0.5, -0.5])
        let message = try #require(cutShort)
        #expect(message.contains("declares 4294967280 bytes, the file holds 4"), "\(message)")
        #expect(!message.contains("-16"), "\(message)")
    }

    @Test func truncatedHeaderOrFrame() {
        let full = simple().bytes()
        expectError(.truncated, Array(full.prefix(3)))
        expectError(.truncated, Array(full.prefix(12)))
        expectError(.truncated, Array(full.prefix(20)))    // inside fmt
        expectError(.truncated, Array(full.prefix(38)))    // inside the data chunk header
        expectError(.truncated, Array(full.prefix(45)), mentioning: "first sample frame")    // data cut mid-sample
        var stereo = WAVBuilder()
        stereo.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 2, rate: 8000, bits: 16))
        stereo.add("data", Self.pcm16 + [0, 0])             // a frame and a half
        expectError(.truncated, stereo.bytes(), mentioning: "middle of a sample frame")
    }

    @Test func malformedFormat() {
        var noChannels = WAVBuilder()
        noChannels.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 0, rate: 8000, bits: 16, blockAlign: 2))
        noChannels.add("data", Self.pcm16)
        expectError(.malformed, noChannels.bytes(), mentioning: "0 channels")
        var shortFmt = WAVBuilder()
        shortFmt.add("fmt ", [1, 0, 1, 0])
        shortFmt.add("data", Self.pcm16)
        expectError(.malformed, shortFmt.bytes())
    }

    @Test func unsupportedEncodingsSuggestSox() {
        var mulaw = WAVBuilder()
        mulaw.add("fmt ", WAVBuilder.fmt(tag: 7, channels: 1, rate: 8000, bits: 8))
        mulaw.add("data", [1, 2])
        expectError(.unsupportedEncoding, mulaw.bytes(), mentioning: "µ-law (format 7) is not supported; convert with: sox")
        var float16 = WAVBuilder()
        float16.add("fmt ", WAVBuilder.fmt(tag: 3, channels: 1, rate: 8000, bits: 16))
        float16.add("data", [1, 2])
        expectError(.unsupportedEncoding, float16.bytes(), mentioning: "16-bit float")
        expectError(.unsupportedEncoding, Array("RIFX".utf8) + [0, 0, 0, 4] + Array("WAVE".utf8))
    }

    @Test func missingFileNamesThePathAndStrerror() {
        let url = URL(fileURLWithPath: "/nonexistent/hark/missing.wav")
        #expect {
            try WAVFile.read(contentsOf: url)
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .io && error.message.contains("/nonexistent/hark/missing.wav")
                && error.message.contains("No such file or directory") && error.underlying == ENOENT
        }
    }
}
