import Foundation
import Testing
import HarkTestSupport
@testable import HarkAudio

@Suite struct WAVRoundTripTests {
    /// The largest error each encoding's quantisation may introduce.
    static func tolerance(_ encoding: WAVFile.Encoding) -> Float {
        switch encoding {
        case .int16: 1 / 32768
        case .int24: 1 / 8_388_608
        case .int32: 1e-7
        case .float32: 0
        }
    }

    @Test(arguments: WAVFile.Encoding.allCases, [1, 2, 3, 6])
    func roundTrip(encoding: WAVFile.Encoding, channels: Int) throws {
        let clip = Signals.sine(frequency: 997, rate: 22_050, seconds: 0.05, amplitude: 0.9, channels: channels)
        let decoded = try WAVFile.decode(WAVFile.encode(clip, as: encoding), name: "roundtrip.wav")
        #expect(decoded.sampleRate == clip.sampleRate)
        #expect(decoded.channels == channels)
        #expect(decoded.samples.count == clip.samples.count)
        let worst = zip(decoded.samples, clip.samples).map { abs($0 - $1) }.max() ?? 1
        #expect(worst <= Self.tolerance(encoding))
    }

    @Test(arguments: [8000, 11_025, 16_000, 22_050, 44_100, 48_000, 96_000, 192_000])
    func everyRateRoundTrips(rate: Int) throws {
        let clip = AudioClip(int16: [0, 100, -100, 32767, -32768], sampleRate: rate, channels: 1)
        let decoded = try WAVFile.decode(WAVFile.encode(clip), name: "rate.wav")
        #expect(decoded == clip)
    }

    @Test func int16IsBitExact() throws {
        let values: [Int16] = (0..<4000).map { Int16(truncatingIfNeeded: $0 &* 7919) }
        let clip = AudioClip(int16: values, sampleRate: 16_000, channels: 2)
        let decoded = try WAVFile.decode(WAVFile.encode(clip), name: "exact.wav")
        #expect(decoded.int16Samples() == values)
    }

    @Test func fullScaleDoesNotOverflowWideIntegers() throws {
        let clip = AudioClip(samples: [1, -1, 1.5, -1.5], sampleRate: 8000, channels: 1)
        for encoding in [WAVFile.Encoding.int24, .int32] {
            let decoded = try WAVFile.decode(WAVFile.encode(clip, as: encoding), name: "full.wav")
            #expect(decoded.samples.allSatisfy { abs($0) <= 1 })
            #expect(decoded.samples[0] > 0.999 && decoded.samples[1] == -1)
        }
    }

    @Test func writeThenReadFromDisk() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appendingPathComponent("clip.wav")
        let clip = AudioClip(int16: [1, 2, 3, -4], sampleRate: 16_000, channels: 2)
        try WAVFile.write(clip, to: url, as: .int16)
        #expect(try WAVFile.read(contentsOf: url) == clip)
    }

    @Test func headerMatchesTheCanonicalLayout() {
        let data = [UInt8](WAVFile.encode(AudioClip(int16: [0x0102, -2], sampleRate: 16_000, channels: 1)))
        #expect(data.count == 48)
        #expect(Array(data[0..<4]) == Array("RIFF".utf8))
        #expect(Array(data[4..<8]) == [40, 0, 0, 0])
        #expect(Array(data[8..<16]) == Array("WAVEfmt ".utf8))
        #expect(Array(data[20..<22]) == [1, 0])          // PCM
        #expect(Array(data[24..<28]) == [0x80, 0x3E, 0, 0]) // 16000
        #expect(Array(data[36..<44]) == Array("data".utf8) + [4, 0, 0, 0])
        #expect(Array(data[44..<48]) == [0x02, 0x01, 0xFE, 0xFF])
    }

    @Test func soxReadsWhatWeWrite() throws {
        // The other direction of the fixture tests: a real tool accepts our files.
        let sox = URL(fileURLWithPath: "/usr/bin/sox")
        guard FileManager.default.isExecutableFile(atPath: sox.path) else { return }
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for encoding in WAVFile.Encoding.allCases {
            let url = directory.appendingPathComponent("\(encoding).wav")
            try WAVFile.write(Signals.sine(frequency: 1000, rate: 16_000, seconds: 0.1, channels: 3), to: url, as: encoding)
            let process = Process()
            process.executableURL = sox
            process.arguments = ["--i", "-s", url.path]   // prints the sample count per channel
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            let output = String(decoding: try readToEnd(pipe.fileHandleForReading), as: UTF8.self)
            #expect(process.terminationStatus == 0, "sox rejected our \(encoding) file")
            #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == "1600")
        }
    }
}
