import Foundation
import HarkAudio
import HarkTestSupport
import Testing

/// `hark mic-check`, run as a person would: on a recording, and on a capture device that ALSA's
/// `file` plugin feeds from the same samples (named in the person's own ~/.asoundrc).
@Suite struct MicCheckCommandTests {
    let directory: URL
    let voice: [Int16]

    init() throws {
        directory = try temporaryDirectory()
        let said = try WAVFile.read(contentsOf: Fixtures.audio("home-en/how_cold_is_it.wav")).pipelineSamples()
        voice = [Int16](repeating: 0, count: 4_800) + said + [Int16](repeating: 0, count: 4_800)
    }

    /// A WAV of `roomSeconds` of steady noise at `level`, then the voice in the same noise.
    func recording(roomSeconds: Int, level: Double, voice: [Int16]? = nil) throws -> URL {
        let samples = inSteadyNoise([Int16](repeating: 0, count: roomSeconds * 16_000) + (voice ?? self.voice), level: level)
        let url = directory.appendingPathComponent("room-\(roomSeconds)-\(Int(level))-\(voice?.count ?? 0).wav")
        try WAVFile.write(AudioClip(int16: samples, sampleRate: 16_000, channels: 1), to: url)
        return url
    }

    @Test func aNoisyRoomIsMeasuredAndWhatHarkDoesThereIsSaid() throws {
        let outcome = try CommandLineTests.hark(["mic-check", "--input", try recording(roomSeconds: 5, level: noisyRoomLevel).path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.output.contains("room:  -32 dBFS (its quiet moments), -32 dBFS on average"), "\(outcome.output)")
        #expect(outcome.output.contains("dB above the room"))
        #expect(outcome.output.contains("listened for through noise suppression"))
        #expect(outcome.output.contains("Below 30 dB (confirm_in_noise_below), Hark asks \"Did you say …?\""))
        #expect(!outcome.output.contains("Good:"))
        // The request has no wake word in it: the settings' phrase is listened for, and not heard.
        #expect(outcome.output.contains("wake word \"jarvis\": not heard") || outcome.output.contains("wake word \"jarvis\": heard faintly"))
    }

    @Test func theSettingsFileDecidesWhatIsSaid() throws {
        let settings = directory.appendingPathComponent("hark.yaml")
        try Data("confirm_in_noise_below: never\nwake_denoise_above: -20\n".utf8).write(to: settings)
        let outcome = try CommandLineTests.hark(["mic-check", "--config", settings.path,
                                                 "--input", try recording(roomSeconds: 5, level: noisyRoomLevel).path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(!outcome.output.contains("Did you say"))
        #expect(!outcome.output.contains("noise suppression"))
        #expect(outcome.output.contains("asked for again"))
    }

    @Test func aQuietRoomAndAClearVoiceAreGood() throws {
        let wakes = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav")).pipelineSamples()
        let jarvis = Array(wakes[Int(5.572 * 16_000)..<Int(8.644 * 16_000)])
        let said = try recording(roomSeconds: 3, level: 30, voice: jarvis + voice)
        let text = try CommandLineTests.hark(["mic-check", "--input", said.path, "--room-seconds", "3"])
        #expect(text.output.contains("wake word \"jarvis\": heard (odds"), "\(text.output)")
        #expect(text.output.contains("* Good:"))
        let outcome = try CommandLineTests.hark(["mic-check", "--input", said.path, "--room-seconds", "3", "--json"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let figures = try #require(JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect((figures["findings"] as? [String]) == [])
        let wake = try #require(figures["wakeWord"] as? [String: Any])
        #expect(wake["sure"] as? Bool == true)
        let above = try #require(figures["voiceAboveRoom"] as? Double)
        #expect(above > 35)
        let room = try #require(figures["roomMeanLevel"] as? Double)
        #expect(abs(room - 20 * log10(30 / 32_768.0)) < 0.5)
    }

    @Test func noVoiceExitsOneSayingSo() throws {
        let outcome = try CommandLineTests.hark(["mic-check", "--input", try recording(roomSeconds: 6, level: 200, voice: []).path,
                                                 "--room-seconds", "4"])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("voice: none heard above the room"))
        #expect(outcome.output.contains("Nothing stood above the room"))
    }

    @Test func badInputIsExplained() throws {
        let short = try CommandLineTests.hark(["mic-check", "--input", try recording(roomSeconds: 5, level: 30, voice: []).path])
        #expect(short.status == 65)
        #expect(short.errors.contains("the speech lasts 0.0 s; at least 0.5 s is needed"), "\(short.errors)")
        #expect(short.errors.contains("its first 5 s are the room"))
        let missing = try CommandLineTests.hark(["mic-check", "--input", directory.appendingPathComponent("nothing.wav").path])
        #expect(missing.status == 66)
        #expect(missing.errors.contains("nothing.wav"))
        let range = try CommandLineTests.hark(["mic-check", "--input", "x.wav", "--room-seconds", "0.5"])
        #expect(range.status == 64)
        #expect(range.errors.contains("--room-seconds must be 1 to 60"))
        let both = try CommandLineTests.hark(["mic-check", "--input", "x.wav", "--input-device", "default"])
        #expect(both.status == 64)
        let blank = try CommandLineTests.hark(["mic-check", "--input-device", " "])
        #expect(blank.status == 64)
        #expect(blank.errors.contains("--input-device needs a device name"))
    }

    @Test func withoutASoundCardARecordingIsSuggested() throws {
        guard !AudioDevices.hasSoundCard() else { return }
        let outcome = try CommandLineTests.hark(["mic-check", "--room-seconds", "1", "--speech-seconds", "1"])
        #expect(outcome.status == 69)
        #expect(outcome.errors.contains("this machine has no sound card; check a recording with --input FILE.wav"))
        #expect(outcome.output.isEmpty)
    }

    @Test func aCaptureDeviceIsHeardRoomFirst() throws {
        let samples = inSteadyNoise([Int16](repeating: 0, count: 2 * 16_000) + voice, level: noisyRoomLevel)
        let raw = directory.appendingPathComponent("microphone.raw")
        try ALSATestDevices.writeRawInt16(samples, to: raw)
        let home = directory.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
        try Data("""
            pcm.hark_mic_check_test {
                type file
                slave.pcm { type null }
                file "/dev/null"
                infile "\(raw.path)"
                format "raw"
            }
            """.utf8).write(to: home.appendingPathComponent(".asoundrc"))
        let seconds = String(format: "%.2f", Double(voice.count) / 16_000)
        let outcome = try CommandLineTests.hark(["mic-check", "--input-device", "hark_mic_check_test", "--room-seconds", "2",
                                                 "--speech-seconds", seconds], environment: ["HOME": home.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect(outcome.errors.contains("Stay quiet for 2 s"))
        #expect(outcome.errors.contains("Now say the wake word"))
        #expect(outcome.output.contains("room:  -32 dBFS"), "\(outcome.output)")
        #expect(outcome.output.contains("Did you say"))
    }
}
