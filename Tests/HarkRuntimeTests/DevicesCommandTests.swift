import Foundation
import HarkAudio
import Testing

/// `hark devices`, run as a person would, on whatever this machine has.
@Suite struct DevicesCommandTests {
    @Test func listsCaptureAndPlaybackDevicesAndSaysWhenThereIsNoCard() throws {
        let outcome = try CommandLineTests.hark(["devices"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let output = outcome.output
        let capture = try #require(output.range(of: "Capture devices"))
        let playback = try #require(output.range(of: "Playback devices"))
        #expect(capture.lowerBound < playback.lowerBound)
        // ALSA's null device exists everywhere, card or not, in both lists, with its description.
        let captureSection = output[capture.upperBound..<playback.lowerBound]
        let playbackSection = output[playback.upperBound...]
        #expect(captureSection.contains("null") && captureSection.contains("generate zero samples"))
        #expect(playbackSection.contains("null") && playbackSection.contains("Discard all samples"))
        if AudioDevices.hasSoundCard() {
            #expect(output.contains("Sound cards:"))
        } else {
            #expect(output.contains("No sound card"))
            #expect(output.contains("hark run"))
        }
        #expect(!outcome.errors.contains("ALSA lib"))
    }

    @Test func triesTheNamedDevices() throws {
        let outcome = try CommandLineTests.hark(["devices", "--input-device", "null", "--output-device", "null"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("capture null: opens at 16000 Hz, 1 channel(s), S16_LE; read 1600 samples"))
        #expect(outcome.output.contains("playback null: opens at 16000 Hz, 1 channel(s)"))
    }

    @Test func aMissingDeviceIsExplainedWithoutALSAsOwnNoise() throws {
        let outcome = try CommandLineTests.hark(["devices", "--input-device", "hark_unplugged"])
        #expect(outcome.status == 66)
        #expect(outcome.errors.contains("hark: ALSA device 'hark_unplugged': cannot open for capture"))
        #expect(outcome.errors.contains("No such file or directory (alsa-lib: Unknown PCM hark_unplugged)"))
        // alsa-lib would print "ALSA lib pcm.c:…" on stderr if its handler were not replaced.
        #expect(!outcome.errors.contains("ALSA lib"))
        #expect(outcome.output.isEmpty)
    }

    @Test func everyBadNameIsReportedAndAGoodOneStillTried() throws {
        let both = try CommandLineTests.hark(["devices", "--input-device", "hark_gone_in", "--output-device", "hark_gone_out"])
        #expect(both.status == 66)
        #expect(both.errors.contains("Unknown PCM hark_gone_in"))
        #expect(both.errors.contains("Unknown PCM hark_gone_out"))
        #expect(both.errors.contains("2 of the 2 devices named could not be used"))
        let one = try CommandLineTests.hark(["devices", "--input-device", "hark_gone_in", "--output-device", "null"])
        #expect(one.status == 66)
        #expect(one.output.contains("playback null: opens at 16000 Hz"))
        #expect(one.errors.contains("1 of the 2 devices named could not be used"))
    }

    @Test func anEmptyDeviceNameIsRefused() throws {
        let outcome = try CommandLineTests.hark(["devices", "--output-device", " "])
        #expect(outcome.status == 64)
        #expect(outcome.errors.contains("--output-device needs a device name"))
    }
}
