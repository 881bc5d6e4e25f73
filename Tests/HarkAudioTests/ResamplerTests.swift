import Foundation
import Testing
@testable import HarkAudio

@Suite struct ResamplerTests {
    /// The steady middle of a signal, away from the filter's start-up and tail.
    func middle(_ samples: [Float]) -> [Float] {
        let margin = samples.count / 10
        return Array(samples[margin..<(samples.count - margin)])
    }

    @Test(arguments: [48_000, 44_100, 24_000, 22_050, 8000])
    func toneKeepsFrequencyAndAmplitude(inputRate: Int) throws {
        let clip = Signals.sine(frequency: 1000, rate: inputRate, seconds: 0.5, amplitude: 0.5)
        let out = try clip.resampled(to: 16_000)
        #expect(out.sampleRate == 16_000 && out.channels == 1)
        #expect(abs(out.frameCount - 8000) <= 1)
        let steady = middle(out.samples)
        #expect(abs(Signals.zeroCrossingFrequency(steady, rate: 16_000) - 1000) < 10)
        #expect(abs(Signals.amplitude(of: 1000, in: steady, rate: 16_000) - 0.5) < 0.005)
    }

    @Test func toneBelowNewNyquistPasses() throws {
        let out = try Signals.sine(frequency: 3000, rate: 48_000, seconds: 0.5).resampled(to: 16_000)
        #expect(abs(Signals.amplitude(of: 3000, in: middle(out.samples), rate: 16_000) - 0.5) < 0.005)
    }

    @Test func toneJustBelowNewNyquistIsKeptWithinOneDecibel() throws {
        let out = try Signals.sine(frequency: 7000, rate: 48_000, seconds: 0.5).resampled(to: 16_000)
        let amplitude = Signals.amplitude(of: 7000, in: middle(out.samples), rate: 16_000)
        #expect(amplitude > 0.5 * pow(10, -1.0 / 20) && amplitude < 0.51)
    }

    @Test func toneAboveNewNyquistDoesNotAlias() throws {
        // 9 kHz sampled at 16 kHz would fold to 7 kHz; the band-limited converter removes it.
        let out = try Signals.sine(frequency: 9000, rate: 48_000, seconds: 0.5).resampled(to: 16_000)
        let steady = middle(out.samples)
        #expect(Signals.amplitude(of: 7000, in: steady, rate: 16_000) < 0.0005)   // > 60 dB down
        let peak = steady.map(abs).max() ?? 1
        #expect(peak < 0.002)
    }

    @Test func stereoChannelsStayApart() throws {
        var clip = Signals.sine(frequency: 1000, rate: 48_000, seconds: 0.2, channels: 2)
        for frame in 0..<clip.frameCount { clip.samples[frame * 2 + 1] = 0 }   // right channel silent
        let out = try clip.resampled(to: 16_000)
        let left = stride(from: 0, to: out.samples.count, by: 2).map { out.samples[$0] }
        let right = stride(from: 1, to: out.samples.count, by: 2).map { out.samples[$0] }
        #expect(abs(Signals.amplitude(of: 1000, in: middle(left), rate: 16_000) - 0.5) < 0.005)
        #expect((right.map(abs).max() ?? 1) < 1e-4)
    }

    @Test func sameRateIsIdentity() throws {
        let clip = Signals.sine(frequency: 500, rate: 16_000, seconds: 0.1)
        #expect(try clip.resampled(to: 16_000) == clip)
    }

    @Test func streamingInPiecesMatchesWholeConversion() throws {
        let clip = Signals.sine(frequency: 1000, rate: 48_000, seconds: 0.3)
        let whole = try SampleRateConverter(from: 48_000, to: 16_000, channels: 1).convert(clip.samples, endOfInput: true)
        let converter = try SampleRateConverter(from: 48_000, to: 16_000, channels: 1)
        var pieces: [Float] = []
        var start = 0
        for size in [1, 100, 479, 960, 3000].cycled(until: clip.samples.count) {
            let end = min(start + size, clip.samples.count)
            pieces += try converter.convert(Array(clip.samples[start..<end]), endOfInput: false)
            start = end
        }
        pieces += try converter.convert([], endOfInput: true)
        #expect(abs(pieces.count - whole.count) <= 1)
        let common = min(pieces.count, whole.count)
        let worst = (0..<common).map { abs(pieces[$0] - whole[$0]) }.max() ?? 1
        #expect(worst < 1e-4)
    }

    @Test func impossibleRatioIsAnError() {
        #expect {
            try AudioClip(samples: [0, 0], sampleRate: 100, channels: 1).resampled(to: 192_000)
        } throws: { error in
            (error as? AudioError)?.code == .resampling && "\(error)".contains("100 Hz to 192000 Hz")
        }
        #expect(throws: AudioError.self) {
            try AudioClip(samples: [0], sampleRate: 8000, channels: 1).resampled(to: 0)
        }
    }

    @Test func emptyClipResamplesToEmpty() throws {
        let out = try AudioClip(samples: [], sampleRate: 48_000, channels: 2).resampled(to: 16_000)
        #expect(out.samples.isEmpty && out.channels == 2)
    }
}

extension Array where Element == Int {
    /// The sizes repeated until they sum to at least `total`.
    func cycled(until total: Int) -> [Int] {
        var result: [Int] = []
        var sum = 0
        while sum < total {
            let next = self[result.count % count]
            result.append(next)
            sum += next
        }
        return result
    }
}
