import Foundation
import Testing
import HarkTestSupport
@testable import HarkAudio

@Suite struct ALSACaptureTests {
    @Test func capturesTheFileSamplesUnchanged() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in.raw")
        let values: [Int16] = (0..<8000).map { Int16(truncatingIfNeeded: $0 &* 131) }
        try ALSATestDevices.writeRawInt16(values, to: input)

        let device = try CaptureDevice(ALSATestDevices.fileInput(input))
        #expect(device.deviceRate == 16_000 && device.deviceChannels == 1)
        // Reads in sizes unrelated to the period, to cross period boundaries.
        var captured: [Int16] = []
        while captured.count < values.count {
            captured += try device.read(frames: min(333, values.count - captured.count))
        }
        #expect(captured == values)
    }

    @Test func convertsADeviceRateToPipelineAudio() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in48k.raw")
        let tone = Signals.sine(frequency: 1000, rate: 48_000, seconds: 0.5)
        try ALSATestDevices.writeRawInt16(tone.int16Samples(), to: input)

        let device = try CaptureDevice(ALSATestDevices.fileInput(input), preferredRate: 48_000)
        #expect(device.deviceRate == 48_000)
        let captured = try device.read(frames: 6000).map { Float($0) / 32768 }
        #expect(captured.count == 6000)
        let steady = Array(captured[1000..<6000])
        #expect(abs(Signals.amplitude(of: 1000, in: steady, rate: 16_000) - 0.5) < 0.01)
        #expect(abs(Signals.zeroCrossingFrequency(steady, rate: 16_000) - 1000) < 10)
    }

    @Test func zeroFramesReturnsNothing() throws {
        let device = try CaptureDevice(PCMDeviceSpec(name: "null"))
        #expect(try device.read(frames: 0).isEmpty)
        #expect(try device.read(frames: 100).count == 100)
    }

    @Test func unknownCaptureDeviceIsAnError() {
        #expect {
            try CaptureDevice(PCMDeviceSpec(name: "hark_missing_mic"))
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .device && error.message.contains("'hark_missing_mic'") && error.message.contains("capture")
        }
    }
}

@Suite struct ALSACaptureNegotiationTests {
    /// A 1 kHz tone at 48 kHz stereo, left and right at different levels.
    static func stereoTone(seconds: Double) -> [Int16] {
        let frames = Int(48_000 * seconds)
        var samples: [Int16] = []
        samples.reserveCapacity(frames * 2)
        for frame in 0..<frames {
            let value = sin(2 * Double.pi * 1000 * Double(frame) / 48_000)
            samples.append(Int16((0.6 * value * 32767).rounded()))
            samples.append(Int16((0.2 * value * 32767).rounded()))
        }
        return samples
    }

    @Test func aDeviceOfferingOnly48kHzStereoIsCapturedAsPipelineAudio() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("stereo48k.raw")
        try ALSATestDevices.writeRawInt16(Self.stereoTone(seconds: 1), to: input)

        // Asked for the pipeline's 16 kHz mono, the device can only say 48 kHz stereo.
        let device = try CaptureDevice(ALSATestDevices.fixedCapture(input, rate: 48_000, channels: 2))
        #expect(device.deviceRate == 48_000)
        #expect(device.deviceChannels == 2)
        #expect(device.deviceFormat == "S16_LE")
        let captured = try device.read(frames: 12_000).map { Float($0) / 32768 }
        #expect(captured.count == 12_000)
        // The tone keeps its frequency, and mono is the mean of the channels: (0.6 + 0.2) / 2.
        let steady = Array(captured[2000..<12_000])
        #expect(abs(Signals.zeroCrossingFrequency(steady, rate: 16_000) - 1000) < 5)
        #expect(abs(Signals.amplitude(of: 1000, in: steady, rate: 16_000) - 0.4) < 0.01)
        #expect(Signals.amplitude(of: 3000, in: steady, rate: 16_000) < 0.005)
        #expect(device.recoveredOverruns == 0)
    }

    @Test func aDeviceOfferingOnly44100HzMonoIsResampled() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("mono44k.raw")
        let tone = Signals.sine(frequency: 440, rate: 44_100, seconds: 1)
        try ALSATestDevices.writeRawInt16(tone.int16Samples(), to: input)

        let device = try CaptureDevice(ALSATestDevices.fixedCapture(input, rate: 44_100, channels: 1))
        #expect(device.deviceRate == 44_100 && device.deviceChannels == 1)
        let steady = Array(try device.read(frames: 14_000).map { Float($0) / 32768 }[2000...])
        #expect(abs(Signals.zeroCrossingFrequency(steady, rate: 16_000) - 440) < 5)
        #expect(abs(Signals.amplitude(of: 440, in: steady, rate: 16_000) - 0.5) < 0.01)
    }

    @Test func thirtyTwoBitSamplesAreScaledToSixteen() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("in32.raw")
        let values: [Int32] = [0, 1 << 16, -(1 << 16), Int32.max, Int32.min, 123 << 16]
        try ALSATestDevices.writeRawInt32(values, to: input)

        let device = try CaptureDevice(ALSATestDevices.fileInput(input), preferredRate: 16_000, formats: [.s32])
        #expect(device.deviceFormat == "S32_LE")
        #expect(try device.read(frames: values.count) == [0, 1, -1, 32767, -32768, 123])
    }

    @Test func recoveredOverrunsAreCounted() throws {
        let device = try CaptureDevice(PCMDeviceSpec(name: "null"))
        #expect(device.recoveredOverruns == 0)
        // An overrun as snd_pcm_readi reports it; snd_pcm_recover prepares the PCM again.
        var attempt = 0
        try device.handle.recover(-EPIPE, call: "snd_pcm_readi", attempt: &attempt)
        try device.handle.recover(-EPIPE, call: "snd_pcm_readi", attempt: &attempt)
        #expect(device.recoveredOverruns == 2)
        #expect(try device.read(frames: 160).count == 160)
    }

    @Test func anErrorSndPcmRecoverCannotHandleIsThrownWithBothCalls() throws {
        let device = try CaptureDevice(PCMDeviceSpec(name: "null"))
        var attempt = 0
        #expect {
            try device.handle.recover(-EIO, call: "snd_pcm_readi", attempt: &attempt)
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .device && error.message.contains("'null'") && error.message.contains("snd_pcm_readi failed")
                && error.message.contains("snd_pcm_recover failed") && error.underlying == -EIO
        }
        #expect(device.recoveredOverruns == 0)
    }

    @Test func aMissingDeviceQuotesWhatALSASaid() {
        #expect {
            try CaptureDevice(PCMDeviceSpec(name: "hark_unplugged_mic"))
        } throws: { error in
            guard let error = error as? AudioError else { return false }
            return error.code == .device && error.message.contains("'hark_unplugged_mic'")
                && error.message.contains("No such file or directory")
                && error.message.contains("alsa-lib: Unknown PCM hark_unplugged_mic")
        }
        let last = ALSAMessages.last
        #expect(last != nil)
    }
}
