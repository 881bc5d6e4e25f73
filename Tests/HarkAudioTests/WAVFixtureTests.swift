import Foundation
import Testing
import HarkTestSupport
@testable import HarkAudio

/// Files written by SoX (see audio-fixtures/wav-layouts/README.md): 25 ms of 1 kHz at half scale.
@Suite struct WAVFixtureTests {
    struct Layout: Sendable, CustomTestStringConvertible {
        var file: String
        var rate: Int
        var channels: Int
        var tolerance: Double
        var testDescription: String { file }
    }

    static let layouts = [
        Layout(file: "s16-mono-16000.wav", rate: 16_000, channels: 1, tolerance: 0.01),
        Layout(file: "s16-mono-16000-streamed.wav", rate: 16_000, channels: 1, tolerance: 0.01),
        Layout(file: "s16-stereo-44100.wav", rate: 44_100, channels: 2, tolerance: 0.01),
        Layout(file: "u8-mono-8000.wav", rate: 8000, channels: 1, tolerance: 0.02),
        Layout(file: "s24-mono-48000.wav", rate: 48_000, channels: 1, tolerance: 0.01),
        Layout(file: "s32-stereo-22050.wav", rate: 22_050, channels: 2, tolerance: 0.01),
        Layout(file: "f32-mono-24000.wav", rate: 24_000, channels: 1, tolerance: 0.01),
        Layout(file: "f64-mono-16000.wav", rate: 16_000, channels: 1, tolerance: 0.01),
        Layout(file: "s16-6ch-48000.wav", rate: 48_000, channels: 6, tolerance: 0.01),
    ]

    @Test(arguments: layouts)
    func readsSoxLayout(_ layout: Layout) throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("wav-layouts/\(layout.file)"))
        #expect(clip.sampleRate == layout.rate)
        #expect(clip.channels == layout.channels)
        #expect(abs(clip.duration - 0.025) < 0.0002)
        let mono = clip.mixedToMono()
        #expect(abs(Signals.amplitude(of: 1000, in: mono.samples, rate: clip.sampleRate) - 0.5) < layout.tolerance)
        // Every channel carries the same tone.
        for channel in 0..<clip.channels {
            let samples = stride(from: channel, to: clip.samples.count, by: clip.channels).map { clip.samples[$0] }
            #expect(abs((samples.map(abs).max() ?? 0) - 0.5) < 0.02)
        }
    }

    @Test(arguments: [("ulaw-mono-8000.wav", "µ-law (format 7)"), ("alaw-mono-8000.wav", "A-law (format 6)"),
                      ("ima-adpcm-mono-8000.wav", "IMA ADPCM (format 17)")])
    func rejectsCompressedLayout(file: String, name: String) {
        let url = Fixtures.audio("wav-layouts/\(file)")
        #expect {
            try WAVFile.read(contentsOf: url)
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .unsupportedEncoding && error.message.contains(file) && error.message.contains(name)
                && error.message.contains("sox in.wav -e signed -b 16 out.wav")
        }
    }
}
