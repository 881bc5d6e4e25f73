import Foundation
import HarkAudio
import HarkTestSupport
import Testing

/// `hark listen` as a person or a service manager runs it.
@Suite(.serialized) struct ListenCommandTests {
    /// An empty settings file, so the tests never read the machine's or the owner's.
    static func emptyConfig() throws -> String {
        let file = try temporaryDirectory().appendingPathComponent("hark.yaml")
        try "# defaults\n".write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
        }
    }

    @Test func listensToARecordingAndPrintsEachTurnAsJSON() throws {
        let replies = try temporaryDirectory().appendingPathComponent("played.wav")
        let outcome = try CommandLineTests.hark(["listen", "--input", "audio-fixtures/live/session.wav", "--apps", "apps",
                                                 "--config", try Self.emptyConfig(), "--json", "--reply-out", replies.path])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let events = try Self.jsonLines(outcome.output)
        #expect(events.first?["event"] as? String == "started")
        let turns = events.filter { $0["event"] as? String == "turn" }
        let heard = turns.compactMap { ($0["report"] as? [String: Any])?["text"] as? String }
        #expect(heard == ["turn on the garage light", "what time is it", "start meditation in serene", "sleep",
                          "turn off the bedroom light"])
        #expect(turns.map { $0["answer"] as? Bool } == [false, false, false, true, false])
        #expect(events.filter { $0["event"] as? String == "wake" }.count == 5)
        let summary = try #require(events.last)
        #expect(summary["event"] as? String == "summary")
        #expect(summary["turns"] as? Int == 5)
        #expect((summary["latency_p50_s"] as? Double ?? 0) > 0)
        // Chimes and replies, one after another.
        let played = try WAVFile.read(contentsOf: replies)
        #expect(played.duration > 5)
    }

    /// A bare wake word, then silence, while Hark's own "Yes?" comes back into the microphone as
    /// loud as the person (0 dB) or a little below (-6 dB): nothing was said, so nothing is
    /// answered: no "Sorry, I didn't catch that", no "Did you say …?" about Hark's own voice.
    @Test(arguments: ["0", "-6"])
    func aBareWakeWordOverItsOwnEchoIsNoSpeech(echo: String) throws {
        let sequence = try WAVFile.read(contentsOf: Fixtures.audio("wake/wake_sequence.wav")).pipelineSamples()
        // "Jarvis" (flite awb, 1.0-1.5 s) and the second of silence after it, then 9 s of silence.
        let bare = Array(sequence.prefix(40_000)) + [Int16](repeating: 0, count: 9 * 16_000)
        let input = try temporaryDirectory().appendingPathComponent("bare-wake.wav")
        try WAVFile.write(AudioClip(int16: bare, sampleRate: 16_000, channels: 1), to: input)
        let outcome = try CommandLineTests.hark(["listen", "--input", input.path, "--apps", "apps", "--config", try Self.emptyConfig(),
                                                 "--acknowledgement", "speech", "--simulate-echo", echo, "--json"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let events = try Self.jsonLines(outcome.output).compactMap { $0["event"] as? String }
        #expect(events == ["started", "wake", "no_speech", "summary"], "\(outcome.output)")
    }

    @Test func printsTurnsForAPersonWithASummary() throws {
        let outcome = try CommandLineTests.hark(["listen", "--input", "audio-fixtures/live/session.wav", "--apps", "apps",
                                                 "--config", try Self.emptyConfig()])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("wake word (score"))
        #expect(outcome.output.contains("heard:      \"turn off the bedroom light\""))
        #expect(outcome.output.contains("nothing said after the wake word"))
        #expect(outcome.output.contains("5 wake words, 5 turns, 1 times nobody spoke"))
        #expect(outcome.output.contains("reply latency (end of speech → first reply sample): median"))
    }

    @Test func aBadSettingsFileIsRefusedWithItsLine() throws {
        let file = try temporaryDirectory().appendingPathComponent("hark.yaml")
        try "wake_phrase: jarvis\nsensitivty: 0.4\n".write(to: file, atomically: true, encoding: .utf8)
        let outcome = try CommandLineTests.hark(["listen", "--input", "audio-fixtures/live/session.wav", "--config", file.path])
        #expect(outcome.status == 65)
        #expect(outcome.errors.contains("\(file.path):2: unknown setting \"sensitivty\""))
    }

    @Test func badOptionsAreExplained() throws {
        let outcome = try CommandLineTests.hark(["listen", "--input", "audio-fixtures/live/session.wav",
                                                 "--config", try Self.emptyConfig(), "--sensitivity", "2"])
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("sensitivity must be between 0 and 1"))
    }

    @Test func aCaptureDeviceThatNeverExistedEndsAtOnceNamingTheOnesThatDo() throws {
        let started = Date()
        let outcome = try CommandLineTests.hark(["listen", "--input-device", "nosuch", "--apps", "apps",
                                                 "--config", try Self.emptyConfig()])
        #expect(outcome.status == 66)
        #expect(outcome.errors.contains("Unknown PCM nosuch"))
        // ALSA's null plugin is always there.
        #expect(outcome.errors.contains("Capture devices here: ") && outcome.errors.contains("null"))
        #expect(Date().timeIntervalSince(started) < 30, "it retried instead of ending")
    }

    @Test func aWakeWordTheDictionaryLacksIsListenedForAsEspeakSaysIt() throws {
        let outcome = try CommandLineTests.hark(["listen", "--input", "audio-fixtures/wake/no_wake.wav", "--apps", "apps",
                                                 "--config", try Self.emptyConfig(), "--wake-phrase", "hey chatterbox"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        #expect((outcome.output + outcome.errors).contains("the wake word \"chatterbox\" is not in the dictionary: listening for CH AE T ER B AA K S"))
    }

    @Test func stopsCleanlyOnSIGTERM() throws {
        let process = Process()
        process.executableURL = try CommandLineTests.executable()
        process.arguments = ["listen", "--input", "audio-fixtures/live/session.wav", "--real-time", "--apps", "apps",
                             "--config", try Self.emptyConfig()]
        process.currentDirectoryURL = Fixtures.root
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = try temporaryDirectory().path
        environment["HARK_DATABASE"] = try temporaryDirectory().appendingPathComponent("shortcuts.sqlite").path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = Pipe()
        try process.run()
        // Long enough to load the models and hear the first request, far short of the 55 s session.
        Thread.sleep(forTimeInterval: 6)
        #expect(process.isRunning)
        process.terminate() // SIGTERM, as systemd sends it
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(!process.isRunning, "hark listen did not stop within 10 s of SIGTERM")
        if process.isRunning { process.interrupt() }
        process.waitUntilExit()
        let printed = String(decoding: try readToEnd(output.fileHandleForReading), as: UTF8.self)
        #expect(process.terminationReason == .exit && process.terminationStatus == 0)
        #expect(printed.contains("SIGTERM, stopping"))
        #expect(printed.contains("s of audio:"))
    }
}
