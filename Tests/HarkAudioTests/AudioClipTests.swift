import Testing
@testable import HarkAudio

@Suite struct AudioClipTests {
    @Test func frameCountAndDuration() {
        let clip = AudioClip(samples: [Float](repeating: 0, count: 48_000 * 2), sampleRate: 48_000, channels: 2)
        #expect(clip.frameCount == 48_000)
        #expect(clip.duration == 1.0)
    }

    @Test func int16RoundTripIsExact() {
        let values: [Int16] = [.min, -32767, -12345, -1, 0, 1, 12345, 32766, .max]
        let clip = AudioClip(int16: values, sampleRate: 16_000, channels: 1)
        #expect(clip.int16Samples() == values)
        #expect(clip.samples.first == -1)
    }

    @Test func int16ClipsRoundsAndMapsNaNToZero() {
        let clip = AudioClip(samples: [2, -2, 1, -1, 0.5, 1.4 / 32768, 1.6 / 32768, .nan, .infinity, -.infinity],
                             sampleRate: 8000, channels: 1)
        #expect(clip.int16Samples() == [32767, -32768, 32767, -32768, 16384, 1, 2, 0, 32767, -32768])
    }

    @Test func mixedToMonoAveragesChannels() {
        let clip = AudioClip(samples: [1, 0, 0.5, 0.5, -1, 1], sampleRate: 8000, channels: 2)
        let mono = clip.mixedToMono()
        #expect(mono.channels == 1)
        #expect(mono.samples == [0.5, 0.5, 0])
        #expect(mono.sampleRate == 8000)
    }

    @Test func monoIsUnchangedByMixing() {
        let clip = AudioClip(samples: [0.1, 0.2], sampleRate: 8000, channels: 1)
        #expect(clip.mixedToMono() == clip)
    }

    @Test func withChannelsDuplicatesMono() {
        let clip = AudioClip(samples: [0.25, -0.5], sampleRate: 8000, channels: 1)
        #expect(clip.withChannels(2).samples == [0.25, 0.25, -0.5, -0.5])
        let six = AudioClip(samples: [Float](repeating: 0.5, count: 12), sampleRate: 8000, channels: 6)
        #expect(six.withChannels(2).samples == [0.5, 0.5, 0.5, 0.5])
    }

    @Test func pipelineSamplesAreSixteenKilohertzMono() throws {
        let clip = Signals.sine(frequency: 440, rate: 44_100, seconds: 0.5, channels: 2)
        let samples = try clip.pipelineSamples()
        #expect(abs(samples.count - 8000) <= 1)
        let floats = samples.map { Float($0) / 32768 }
        #expect(abs(Signals.amplitude(of: 440, in: floats, rate: 16_000) - 0.5) < 0.01)
    }

    @Test func pipelineSamplesOfPipelineAudioAreUnchanged() throws {
        let values: [Int16] = (0..<1000).map { Int16(truncatingIfNeeded: $0 &* 977) }
        let clip = AudioClip(int16: values, sampleRate: 16_000, channels: 1)
        #expect(try clip.pipelineSamples() == values)
    }
}
