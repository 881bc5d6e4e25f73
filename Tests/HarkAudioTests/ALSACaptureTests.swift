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
