import Foundation
import Testing
import HarkTestSupport
@testable import HarkAudio

@Suite struct ALSAPlaybackTests {
    @Test func playsExactSamplesIntoFilePlugin() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.raw")
        let values: [Int16] = (0..<16_000).map { Int16(truncatingIfNeeded: $0 &* 31) }
        let device = try PlaybackDevice(ALSATestDevices.fileOutput(out))
        try device.play(AudioClip(int16: values, sampleRate: 16_000, channels: 1))
        #expect(device.lastRate == 16_000 && device.lastChannels == 1)
        #expect(try ALSATestDevices.rawInt16(out) == values)
    }

    @Test func aStreamedClipReachesTheDeviceAsFarAsAskedAndStopsThere() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let values: [Int16] = (0..<16_000).map { Int16(truncatingIfNeeded: $0 &* 31) }
        let clip = AudioClip(int16: values, sampleRate: 16_000, channels: 1)

        // Handed over in three pieces and finished: every sample, in order, nothing doubled.
        let whole = directory.appendingPathComponent("whole.raw")
        let device = try PlaybackDevice(ALSATestDevices.fileOutput(whole))
        let stream = try device.stream(clip)
        #expect(abs(stream.duration - 1) < 1e-9)
        try stream.play(through: 0.25)
        #expect(stream.framesWritten == 4_000)
        try stream.play(through: 0.1)  // already there: nothing more
        #expect(stream.framesWritten == 4_000)
        try stream.play(through: 0.6)
        try stream.finish()
        #expect(try ALSATestDevices.rawInt16(whole) == values)

        // Stopped after 0.3 s: the rest never reaches the device, and it plays the next clip.
        let cut = directory.appendingPathComponent("cut.raw")
        let second = try PlaybackDevice(ALSATestDevices.fileOutput(cut))
        let interrupted = try second.stream(clip)
        try interrupted.play(through: 0.3)
        try interrupted.stop()
        try second.play(AudioClip(int16: [1, 2, 3], sampleRate: 16_000, channels: 1))
        #expect(try ALSATestDevices.rawInt16(cut) == Array(values.prefix(4_800)) + [1, 2, 3])
    }

    @Test func keepsTheClipsOwnRateAndChannelsWhenAccepted() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.raw")
        let clip = Signals.sine(frequency: 440, rate: 44_100, seconds: 0.3, channels: 2)
        let device = try PlaybackDevice(ALSATestDevices.fileOutput(out))
        try device.play(clip)
        #expect(device.lastRate == 44_100 && device.lastChannels == 2)
        #expect(try ALSATestDevices.rawInt16(out) == clip.int16Samples())
    }

    @Test func convertsToARateTheDeviceSupports() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.raw")
        let clip = Signals.sine(frequency: 1000, rate: 16_000, seconds: 0.5)
        let device = try PlaybackDevice(ALSATestDevices.fixedRateOutput(out, rate: 48_000))
        try device.play(clip)
        #expect(device.lastRate == 48_000)
        // Whatever channel count the plug accepted, the file holds 48 kHz stereo S16.
        let raw = try ALSATestDevices.rawInt16(out)
        #expect(abs(raw.count - 48_000) <= 4)
        let left = stride(from: 0, to: raw.count, by: 2).map { Float(raw[$0]) / 32768 }
        let right = stride(from: 1, to: raw.count, by: 2).map { Float(raw[$0]) / 32768 }
        let steady = Array(left[2400..<21_600])
        #expect(abs(Signals.amplitude(of: 1000, in: steady, rate: 48_000) - 0.5) < 0.01)
        #expect(abs(Signals.zeroCrossingFrequency(steady, rate: 48_000) - 1000) < 10)
        #expect(left == right)
    }

    @Test func playsSeveralClipsOnOneDevice() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.raw")
        let device = try PlaybackDevice(ALSATestDevices.fileOutput(out))
        let first: [Int16] = [1, 2, 3, 4], second: [Int16] = [5, 6, 7, 8]
        try device.play(AudioClip(int16: first, sampleRate: 16_000, channels: 1))
        try device.play(AudioClip(int16: second, sampleRate: 16_000, channels: 1))
        #expect(try ALSATestDevices.rawInt16(out) == first + second)
    }

    @Test func emptyAndMultichannelClips() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let out = directory.appendingPathComponent("out.raw")
        let device = try PlaybackDevice(ALSATestDevices.fileOutput(out))
        try device.play(AudioClip(samples: [], sampleRate: 16_000, channels: 1))
        let six = AudioClip(int16: (0..<600).map { Int16($0) }, sampleRate: 48_000, channels: 6)
        try device.play(six)
        #expect(device.lastChannels == 6)
        #expect(try ALSATestDevices.rawInt16(out) == six.int16Samples())
    }

    @Test func globalNullDeviceOpensWithoutASoundCard() throws {
        let device = try PlaybackDevice(PCMDeviceSpec(name: "null"))
        try device.play(Signals.sine(frequency: 440, rate: 22_050, seconds: 0.1))
    }

    @Test func unknownDeviceNamesTheDeviceAndTheALSAError() {
        #expect {
            try PlaybackDevice(PCMDeviceSpec(name: "hark_no_such_device"))
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .device && error.message.contains("'hark_no_such_device'")
                && error.message.contains("snd_pcm_open") && error.message.contains("No such file or directory")
                && error.underlying == -ENOENT
        }
    }

    @Test func brokenConfigurationTextIsAnError() {
        #expect {
            try PlaybackDevice(PCMDeviceSpec(name: "broken", configText: "pcm.broken { type file "))
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .device && error.message.contains("'broken'") && error.message.contains("snd_config_load")
        }
    }
}
