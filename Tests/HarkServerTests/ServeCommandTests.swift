import Foundation
import HarkAudio
import HarkRuntime
import HarkVoice
import HarkTestSupport
import Testing

/// `hark serve` as it is run, talked to by the reference Wyoming client (the `wyoming` Python
/// package that Home Assistant uses; `make test` installs it).
@Suite(.serialized) struct ServeCommandTests {
    /// Starts `hark serve` on a free loopback port and returns it with the port it printed.
    /// `environment` is laid over the isolated one; `errors` receives its standard error.
    static func startServe(_ extra: [String] = [], apps: String = "apps", environment: [String: String] = [:],
                           errors: Pipe? = nil) throws -> (Process, Int, FileHandle) {
        let process = Process()
        process.executableURL = try Fixtures.executable("hark")
        process.arguments = ["serve", "--uri", "tcp://127.0.0.1:0", "--apps", apps] + extra
        process.currentDirectoryURL = Fixtures.root
        process.environment = try isolatedHarkEnvironment().merging(environment) { $1 }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = errors ?? FileHandle.standardError
        try process.run()
        var printed = ""
        while !printed.contains("\n") {
            let chunk = try readSome(output.fileHandleForReading)
            guard !chunk.isEmpty else { throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "hark serve ended before saying where it listens"]) }
            printed += String(decoding: chunk, as: UTF8.self)
        }
        let line = printed.split(separator: "\n")[0]
        guard line.hasPrefix("hark: serving Wyoming on tcp://127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "") else {
            process.terminate()
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "unexpected first line: \(line)"])
        }
        return (process, port, output.fileHandleForReading)
    }

    /// Runs `process` to its end: what it printed, and what it said on standard error.
    static func runToEnd(_ process: Process) throws -> (printed: Data, complaints: String) {
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = try readToEnd(output.fileHandleForReading)
        let complaints = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        return (printed, complaints)
    }

    /// Everything Home Assistant asks of a Wyoming service, through its own client library:
    /// describe, transcribe, detect, a two-turn conversation as its agent holds one, synthesize.
    @Test func theReferenceClientDescribesTranscribesDetectsConversesAndSynthesizes() async throws {
        let recordings = ["audio-fixtures/home-en/turn_on_the_garage_light.wav", "audio-fixtures/home-en/how_cold_is_it.wav",
                          "audio-fixtures/synthetic/outside.what_is_the_weather_tomorrow.en-us.wav"]
        let (server, port, _) = try Self.startServe()
        defer { if server.isRunning { server.terminate() } }
        let speechFolder = try temporaryDirectory()

        let client = Process()
        client.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        client.arguments = ["python3", "Tests/Wyoming/client.py", "--port", String(port)] + recordings
            + ["--detect", "audio-fixtures/wake/real_wakes.wav", "audio-fixtures/wake/real_speech.wav"]
            + ["--converse", "order a bowl of tomato soup", "delivery"]
            + ["--synthesize", "Turning on the garage light.", "--speech-out", speechFolder.path]
        client.currentDirectoryURL = Fixtures.root
        let (printed, complaints) = try Self.runToEnd(client)
        try #require(client.terminationStatus == 0, "the wyoming client failed (make test installs it): \(complaints)")

        let result = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])
        let asr = try #require((result["asr"] as? [[String: Any]])?.first)
        #expect(asr["name"] as? String == "hark")
        #expect(asr["languages"] as? [String] == ["en"])
        #expect((asr["models"] as? [String])?.contains("home") == true)
        #expect((result["tts"] as? [[String: Any]])?.first?["voices"] as? [String] == ["en-us"])
        #expect(result["intent"] as? [String] == ["hark"])
        #expect(result["handle"] as? [String] == ["hark"])
        let transcripts = try #require(result["transcripts"] as? [[String: Any]])
        var expected: [String] = []
        for recording in recordings {
            let sidecar = Fixtures.root.appendingPathComponent(recording.replacingOccurrences(of: ".wav", with: ".json"))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any])
            // Speech no app declares (a sidecar with no intent) must come back empty.
            expected.append(object["intent"] is NSNull ? "" : try #require(object["text"] as? String))
        }
        #expect(transcripts.map { $0["text"] as? String } == expected)

        // The settings' wake phrase ("jarvis" by default), heard in real people's wake words
        // where one of them said it, and not in real speech without it.
        let wake = try #require((result["wake"] as? [[String: Any]])?.first)
        #expect(wake["phrases"] as? [String] == ["jarvis"])
        let listened = try #require(result["detections"] as? [[String: Any]])
        try #require(listened.count == 2)
        let heard = try #require(listened[0]["detections"] as? [[String: Any]])
        #expect(!heard.isEmpty && listened[0]["not_detected"] as? Bool == false)
        let jarvisSaid = [(1.0, 4.072), (5.572, 8.644), (10.144, 13.216)]  // real_wakes.txt
        for detection in heard {
            let seconds = Double(detection["timestamp"] as? Int ?? -1_000) / 1000
            #expect(detection["name"] as? String == "jarvis")
            #expect(jarvisSaid.contains { $0.0 < seconds && seconds <= $0.1 + 0.5 }, "a detection at \(seconds) s")
        }
        #expect((listened[1]["detections"] as? [Any])?.isEmpty == true)
        #expect(listened[1]["not_detected"] as? Bool == true)

        // Home Assistant's conversation agent: a transcript a connection, the conversation named
        // in its context; Hark's question is answered on the next connection.
        let turns = try #require(result["conversation"] as? [[String: Any]])
        try #require(turns.count == 2)
        #expect(turns[0]["type"] as? String == "handled")
        #expect(turns[0]["text"] as? String == "Soup Shack: Pickup or delivery?")
        #expect((turns[0]["context"] as? [String: Any])?["conversation_id"] as? String == "01HARKTEST")
        #expect(turns[1]["type"] as? String == "handled")
        let next = turns[1]["text"] as? String ?? ""
        #expect(!next.isEmpty && next != "Soup Shack: Pickup or delivery?" && !next.contains("didn't catch"), "\(next)")

        // Hark's voice, as the reference client reads it: one format from audio-start to audio-stop,
        // a sentence's length of speech, and about as long and as loud as Hark says it itself
        // (not sample for sample: the server's voice says its apps' words their own way).
        let speech = try #require((result["speech"] as? [[String: Any]])?.first)
        #expect(speech["rate"] as? Int == 22_050 && speech["width"] as? Int == 2 && speech["channels"] as? Int == 1)
        let seconds = speech["seconds"] as? Double ?? 0
        #expect(seconds > 1 && seconds < 4, "\(seconds) s")
        let received = try WAVFile.read(contentsOf: URL(fileURLWithPath: try #require(speech["path"] as? String)))
        let own = try await SpeechService(settings: VoiceSettings()).speak("Turning on the garage light.")
        #expect(abs(received.frameCount - own.frameCount) < own.frameCount / 10, "\(received.frameCount) vs \(own.frameCount)")
        let loudness = { (clip: AudioClip) in (clip.samples.reduce(0) { $0 + $1 * $1 } / Float(max(clip.samples.count, 1))).squareRoot() }
        #expect(abs(loudness(received) / loudness(own) - 1) < 0.25)

        // SIGTERM stops it cleanly.
        server.terminate()
        server.waitUntilExit()
        #expect(server.terminationReason == .exit && server.terminationStatus == 0)
    }

    /// `hark listen --hub` on a recording of a person talking to it (audio-fixtures/live), with
    /// `hark serve` as the hub: the satellite wakes and endpoints, the hub understands and keeps
    /// the conversation, so the answer to its question ("sleep") is heard as one.
    @Test func aSatelliteSendsEachRequestToTheHubAndPlaysItsAnswer() async throws {
        let (server, port, _) = try Self.startServe()
        defer { if server.isRunning { server.terminate() } }
        let satellite = Process()
        satellite.executableURL = try Fixtures.executable("hark")
        satellite.arguments = ["listen", "--hub", "tcp://127.0.0.1:\(port)", "--room", "kitchen",
                               "--input", "audio-fixtures/live/session.wav", "--json"]
        satellite.currentDirectoryURL = Fixtures.root
        satellite.environment = try isolatedHarkEnvironment()
        let (printed, complaints) = try Self.runToEnd(satellite)
        try #require(satellite.terminationStatus == 0, "\(complaints)")
        let events = try String(decoding: printed, as: UTF8.self).split(separator: "\n").map {
            try #require(try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])
        }
        let turns = events.filter { $0["event"] as? String == "turn" }.compactMap { $0["report"] as? [String: Any] }
        #expect(turns.map { $0["text"] as? String } == ["turn on the garage light", "what time is it", "start meditation in serene",
                                                          "sleep", "turn off the bedroom light"], "\(complaints)")
        #expect(turns.map { $0["expectsAnswer"] as? Bool } == [false, false, true, false, false])
        #expect(turns.first?["reply"] as? String == "Home: Turning on the garage light.")
        #expect(turns.first?["app"] as? String == "home" && turns.first?["intent"] as? String == "ChangeLightState")
        #expect(turns.first?["slots"] as? [String: String] == ["name": "garage light", "state": "on"])
        // Requests end at the finished phrase, as the hub heard it at the pause, not after the
        // full end silence (0.6 s).
        for turn in events where turn["event"] as? String == "turn" && turn["answer"] as? Bool == false {
            #expect((turn["end_silence_s"] as? Double ?? 1) < 0.3, "\(turn)")
        }
        #expect(turns[safe: 3]?["reply"] as? String == "Starting your sleep meditation.")
        #expect(!events.contains { $0["event"] as? String == "problem" } && !complaints.contains("lost the hub"), "\(complaints)")
    }

    /// Home Assistant's sentences imported with its home's entities, served: a typed request
    /// comes back to the reference of Wyoming's `recognize` as Home Assistant names it, its
    /// intent (HassTurnOff) and slots (name, domain) with their values as the home names them.
    @Test func anImportedHomeAssistantHomeIsRecognisedByHomeAssistantsNames() async throws {
        let folder = try temporaryDirectory()
        let sentences = folder.appendingPathComponent("sentences.yaml")
        try """
            language: en
            intents:
              HassTurnOff:
                data:
                  - sentences: ["turn off [the] {name}"]
                    requires_context: {domain: light}
                  - sentences: ["turn off [the] lights in [the] {area}"]
                    slots: {domain: light}
              HassSetVolumeRelative:
                data:
                  - sentences: ["volume down by {volume_step_down:volume_step}"]
                  - sentences: ["volume up by {volume_step_up:volume_step}"]
            lists:
              volume_step_down:
                range: {from: 1, to: 5, multiplier: -1}
              volume_step_up:
                range: {from: 1, to: 5}
            """.write(to: sentences, atomically: true, encoding: .utf8)
        let home = folder.appendingPathComponent("home.yaml")
        try """
            areas: [{name: Living Room, id: living_room}]
            entities: [{name: "Reading Lamp", id: light.reading_lamp, area: living_room}]
            """.write(to: home, atomically: true, encoding: .utf8)
        let app = folder.appendingPathComponent("home_assistant")
        let importer = Process()
        importer.executableURL = try Fixtures.executable("hark")
        importer.arguments = ["import", "home-assistant", sentences.path, "--entities", home.path, "--out", app.path]
        importer.environment = try isolatedHarkEnvironment()
        let (printed, complaints) = try Self.runToEnd(importer)
        #expect(importer.terminationStatus == 0, "\(String(decoding: printed, as: UTF8.self))\(complaints)")
        let (server, port, _) = try Self.startServe(apps: app.path)
        defer { server.terminate(); server.waitUntilExit() }
        let events = try await onOwnThread { () throws -> [WyomingTestClient.Event] in
            let client = try WyomingTestClient(port: port)
            return try ["turn off the reading lamp", "Turn off the lights in the living room.", "volume down by 3", "volume up by 3"].map { text in
                try client.send("recognize", ["text": text])
                return try client.expect("intent")
            }
        }
        let lamp = events[0].data, room = events[1].data
        // Up and down by three: one slot, each with its own value.
        #expect(events[2].data["entities"] as? [[String: String]] == [["name": "volume_step", "value": "-3"]])
        #expect(events[3].data["entities"] as? [[String: String]] == [["name": "volume_step", "value": "3"]])
        #expect(lamp["name"] as? String == "HassTurnOff")
        #expect(lamp["entities"] as? [[String: String]] == [["name": "name", "value": "Reading Lamp"]])
        #expect(room["name"] as? String == "HassTurnOff")
        #expect(room["entities"] as? [[String: String]] == [["name": "area", "value": "Living Room"], ["name": "domain", "value": "light"]])
    }

    /// --zeroconf runs Avahi's avahi-publish for the port served and stops it on the way out.
    /// A stand-in avahi-publish on PATH records how it was called and when it was stopped, and
    /// answers as Avahi does once the name is up.
    @Test func zeroconfAnnouncesThePortThroughAvahiAndWithdrawsIt() async throws {
        let (folder, log) = try Self.standInAvahiPublish()
        let errors = Pipe()
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let (server, port, _) = try Self.startServe(["--zeroconf", "--zeroconf-name", "Hark test"], environment: ["PATH": path], errors: errors)
        defer { if server.isRunning { server.terminate() } }
        var called: [String] = []
        for _ in 0..<100 where called.count < 4 {
            try await Task.sleep(for: .milliseconds(50))
            called = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        #expect(called.prefix(4) == ["-s", "Hark test", "_wyoming._tcp", String(port)])
        server.terminate()
        server.waitUntilExit()
        let said = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
        #expect(said.contains("zeroconf: announced as \"Hark test\" (_wyoming._tcp, port \(port))"), "\(said)")
        // Bound to loopback (as tests are), the announcement is one nobody else can use: said so.
        #expect(said.contains("answers this machine only, but is announced to the network"), "\(said)")
        let lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        #expect(lines.last == "withdrawn", "avahi-publish was not stopped: \(lines)")
    }

    /// A Hark killed outright (SIGKILL: no chance to stop anything) takes its announcer with it,
    /// so Home Assistant is not told of a server that is gone.
    @Test func theAnnouncerDiesWithAKilledHark() async throws {
        let (folder, log) = try Self.standInAvahiPublish()
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let (server, _, _) = try Self.startServe(["--zeroconf"], environment: ["PATH": path], errors: Pipe())
        defer { if server.isRunning { server.terminate() } }
        var lines: [String] = []
        for _ in 0..<100 where !lines.contains(where: { $0.hasPrefix("pid ") }) {
            try await Task.sleep(for: .milliseconds(50))
            lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        let announcer = try #require(lines.first { $0.hasPrefix("pid ") }.flatMap { Int32($0.dropFirst(4)) })
        #expect(kill(announcer, 0) == 0, "the stand-in avahi-publish is not running")
        // The shell that ties it to Hark (its parent) must end too, not wait on forever.
        let stat = try String(contentsOfFile: "/proc/\(announcer)/stat", encoding: .utf8)
        let afterName = try #require(stat.range(of: ") ", options: .backwards))
        let shell = try #require(Int32(stat[afterName.upperBound...].split(separator: " ")[1]))
        #expect(shell != server.processIdentifier)
        kill(server.processIdentifier, SIGKILL)
        server.waitUntilExit()
        for _ in 0..<100 where !lines.contains("withdrawn") {
            try await Task.sleep(for: .milliseconds(50))
            lines = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").map(String.init) ?? []
        }
        #expect(lines.last == "withdrawn", "avahi-publish outlived Hark: \(lines)")
        #expect(await eventually(within: 5) { processIsGone(shell) }, "the announcer's shell \(shell) outlived Hark")
    }

    /// A stand-in for Avahi's avahi-publish, in a folder of its own to put first on PATH: it writes
    /// its arguments and then its pid to the log, answers as Avahi does once the name is up, and
    /// writes "withdrawn" when stopped with SIGTERM.
    static func standInAvahiPublish() throws -> (folder: URL, log: URL) {
        let folder = try temporaryDirectory()
        let log = folder.appendingPathComponent("avahi.log")
        let script = folder.appendingPathComponent("avahi-publish")
        try Data("""
            #!/bin/sh
            printf '%s\\n' "$@" > '\(log.path)'
            echo "pid $$" >> '\(log.path)'
            trap 'echo withdrawn >> "\(log.path)"; exit 0' TERM
            echo "Established under name '$2'" >&2
            while :; do sleep 0.05; done
            """.utf8).write(to: script)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: script.path)
        return (folder, log)
    }

    /// Without avahi-publish the service is not announced, the log says what to install, and
    /// Hark serves on.
    @Test func withoutAvahiItSaysWhatToInstallAndServesOn() async throws {
        let errors = Pipe()
        let (server, port, _) = try Self.startServe(["--zeroconf"], environment: ["PATH": try temporaryDirectory().path], errors: errors)
        defer { if server.isRunning { server.terminate() } }
        let info = try await onOwnThread { () throws -> String in
            let client = try WyomingTestClient(port: port)
            try client.send("describe")
            return try client.expect("info").type
        }
        #expect(info == "info")
        server.terminate()
        server.waitUntilExit()
        let said = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
        #expect(said.contains("avahi-publish is missing (apt-get install avahi-utils avahi-daemon)"), "\(said)")
    }

    @Test func anAddressItCannotUseIsRefusedPlainly() throws {
        let process = Process()
        process.executableURL = try Fixtures.executable("hark")
        process.arguments = ["serve", "--uri", "http://127.0.0.1:10300"]
        process.currentDirectoryURL = Fixtures.root
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let message = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 64)
        #expect(message.contains("http://127.0.0.1:10300 is not tcp://HOST:PORT or unix://PATH"), "\(message)")
    }
}

extension Array {
    subscript(safe index: Int) -> Element? { indices.contains(index) ? self[index] : nil }
}
