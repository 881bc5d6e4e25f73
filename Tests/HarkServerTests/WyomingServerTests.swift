import Foundation
import HarkAudio
import HarkDialogue
import HarkExampleApps
import HarkRuntime
import HarkServer
import HarkSpeech
import HarkTestSupport
import HarkVoice
import HarkWyoming
import Logging
import Testing

/// The real server on an ephemeral loopback port, with the real recogniser, voice and apps,
/// talked to over a socket by a client written here.
struct WyomingServerTests {
    /// One assistant for every test of the run: the model loads once.
    static let hark = Task { () throws -> WyomingAssistant in
        let assistant = try await makeAssistant()
        var wake = WakeWordConfiguration(keyPhrase: "jarvis")
        wake.otherPhrases = ["athena", "amelia"]
        // Rooms far enough apart in time for a test run's loaded cores (SatelliteTests: a full
        // run on two cores has put two real-time satellites more than 2 s apart).
        return await WyomingAssistant(assistant, version: "test", voice: VoiceSettings(), wake: wake, roomsWindow: 5)
    }

    /// An assistant of the bundled apps, with the example apps' handlers and the PIN 5150;
    /// `recognizer` may change the recogniser's settings.
    static func makeAssistant(recognizer: (inout RecognizerConfiguration) -> Void = { _ in }) async throws -> Assistant {
        var configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"),
            modelsDirectory: Fixtures.root.appendingPathComponent("models"),
            inProcessHandlers: ExampleApps.handlers, authenticator: FixedPIN("5150"),
            dataDirectory: try temporaryDirectory())
        configuration.donates = false
        recognizer(&configuration.recognizer)
        return try await Assistant.start(configuration)
    }

    /// Serving `hark` on an ephemeral loopback port.
    static let server = Task { () throws -> WyomingServer in
        let server = try await WyomingServer.bind(.tcp(host: "127.0.0.1", port: 0), serving: try await hark.value,
                                                  logger: Logger(label: "hark-test"))
        Task { try await server.run() }
        return server
    }

    static func port() async throws -> Int {
        try port(of: try await server.value)
    }

    /// The TCP port `server` listens on.
    static func port(of server: WyomingServer) throws -> Int {
        guard case .tcp(_, let port) = server.endpoint, port > 0 else {
            throw WyomingTestClient.Failure(description: "the server has no TCP port")
        }
        return port
    }

    /// The recording as PCM in the layout asked for (resampled, each channel the same sound).
    static func pcm(_ clip: AudioClip, rate: Int, width: Int, channels: Int) throws -> [UInt8] {
        let resampled = try clip.mixedToMono().resampled(to: rate)
        var bytes: [UInt8] = []
        for sample in resampled.samples {
            let value = max(-1, min(sample, 32_767 / 32_768))
            for _ in 0..<channels {
                if width == 2 {
                    withUnsafeBytes(of: Int16((value * 32_768).rounded()).littleEndian) { bytes += $0 }
                } else {
                    withUnsafeBytes(of: Int32((Double(value) * 2_147_483_648).rounded()).littleEndian) { bytes += $0 }
                }
            }
        }
        return bytes
    }

    /// Streams `bytes` as transcribe, audio-start, chunks of 1024 frames and audio-stop; returns
    /// the transcript and the seconds from audio-stop to it.
    /// `context` goes with `transcribe` (a satellite names its room there).
    static func transcribe(_ client: WyomingTestClient, _ bytes: [UInt8], rate: Int, width: Int, channels: Int,
                           context: [String: Any]? = nil) throws -> (String, Double) {
        let format: [String: Any] = ["rate": rate, "width": width, "channels": channels]
        var request: [String: Any] = ["language": "en"]
        if let context { request["context"] = context }
        try client.send("transcribe", request)
        try client.send("audio-start", format)
        let step = 1024 * width * channels
        for start in stride(from: 0, to: bytes.count, by: step) {
            try client.send("audio-chunk", format, payload: Array(bytes[start..<min(start + step, bytes.count)]))
        }
        let stopped = Date()
        try client.send("audio-stop")
        let transcript = try client.expect("transcript")
        let text = try #require(transcript.data["text"] as? String)
        return (text, Date().timeIntervalSince(stopped))
    }

    static func sidecarText(_ recording: String) throws -> String {
        let sidecar = Fixtures.audio(recording.replacingOccurrences(of: ".wav", with: ".json"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: sidecar)) as? [String: Any])
        return try #require(object["text"] as? String)
    }

    @Test func describeListsHarkAsRecogniserVoiceIntentsAndConversation() async throws {
        let port = try await Self.port()
        let info = try await onOwnThread { () throws -> WyomingTestClient.Event in
            let client = try WyomingTestClient(port: port)
            try client.send("describe")
            return try client.expect("info")
        }.data
        let asr = try #require((info["asr"] as? [[String: Any]])?.first)
        #expect(asr["name"] as? String == "hark")
        #expect(asr["installed"] as? Bool == true)
        #expect((asr["attribution"] as? [String: Any])?["name"] as? String == "Hark")
        let models = try #require(asr["models"] as? [[String: Any]])
        #expect(Set(models.compactMap { $0["name"] as? String }) == ["coffee", "home", "meditation", "messages", "soup"])
        #expect(models.allSatisfy { $0["languages"] as? [String] == ["en"] && $0["installed"] as? Bool == true })
        let tts = try #require((info["tts"] as? [[String: Any]])?.first)
        let voices = try #require(tts["voices"] as? [[String: Any]])
        #expect(voices.first?["name"] as? String == VoiceSettings().voice)
        #expect(voices.first?["languages"] as? [String] == ["en"])
        for kind in ["intent", "handle"] {
            let program = try #require((info[kind] as? [[String: Any]])?.first, "\(kind)")
            #expect((program["models"] as? [[String: Any]])?.first?["languages"] as? [String] == ["en"])
        }
        let wake = try #require((info["wake"] as? [[String: Any]])?.first)
        let phrases = try #require(wake["models"] as? [[String: Any]])
        #expect(phrases.compactMap { $0["name"] as? String } == ["jarvis", "athena", "amelia"])
        #expect(phrases.compactMap { $0["phrase"] as? String } == ["jarvis", "athena", "amelia"])
    }

    /// Streams `bytes` after `detect` as audio-start, chunks of 1024 frames and audio-stop, then
    /// a ping (answered in order, so every answer to the stream has come by its pong); returns
    /// each detection (phrase, milliseconds from the stream's start) and whether not-detected came.
    static func detect(_ client: WyomingTestClient, _ bytes: [UInt8], rate: Int, channels: Int,
                       names: [String]? = nil) throws -> (detections: [(String, Int)], notDetected: Bool) {
        let format: [String: Any] = ["rate": rate, "width": 2, "channels": channels]
        try client.send("detect", names.map { ["names": $0] } ?? [:])
        try client.send("audio-start", format)
        let step = 1024 * 2 * channels
        for start in stride(from: 0, to: bytes.count, by: step) {
            try client.send("audio-chunk", format, payload: Array(bytes[start..<min(start + step, bytes.count)]))
        }
        try client.send("audio-stop")
        try client.send("ping", ["text": "done"])
        var detections: [(String, Int)] = [], notDetected = false
        while let event = try client.receive(), event.type != "pong" {
            switch event.type {
            case "detection": detections.append((event.data["name"] as? String ?? "", event.data["timestamp"] as? Int ?? -1))
            case "not-detected": notDetected = true
            default: throw WyomingTestClient.Failure(description: "unexpected \(event.type) while listening")
            }
        }
        return (detections, notDetected)
    }

    static func wakeSegments() throws -> [(start: Double, end: Double, phrase: String)] {
        try String(contentsOf: Fixtures.audio("wake/real_wakes.txt"), encoding: .utf8).split(separator: "\n").map { line in
            let fields = line.split(separator: "\t").map(String.init)
            return (try #require(Double(fields[0])), try #require(Double(fields[1])), fields[4])
        }
    }

    /// Real people's wake words (audio-fixtures/wake: nine, three of each phrase), streamed at
    /// 48 kHz in stereo as a satellite might: each detection names the phrase said where it
    /// ends, and as many are found as the spotter finds on the same recording fed directly.
    @Test func detectHearsRealWakeWordsInAStream() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav"))
        let bytes = try Self.pcm(clip, rate: 48_000, width: 2, channels: 2)
        let port = try await Self.port()
        let (detections, notDetected) = try await onOwnThread {
            try Self.detect(try WyomingTestClient(port: port), bytes, rate: 48_000, channels: 2)
        }
        let segments = try Self.wakeSegments()
        #expect(!notDetected)
        #expect(detections.count >= 4, "\(detections)")
        var found = Set<Int>()
        for (name, milliseconds) in detections {
            let seconds = Double(milliseconds) / 1000
            let said = segments.firstIndex { $0.start < seconds && seconds <= $0.end + 0.5 }
            #expect(said.map { segments[$0].phrase } == name, "\(name) at \(seconds) s")
            if let said { found.insert(said) }
        }
        #expect(found.count == detections.count, "one wake word detected twice: \(detections)")
    }

    /// Two clients listening at once (their spotters share one verifier): each hears the wake
    /// words of its own stream, as one client alone does.
    @Test func twoClientsListeningAtOnceEachHearTheirWakeWords() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav"))
        let bytes = try Self.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        let port = try await Self.port()
        async let first = onOwnThread { try Self.detect(try WyomingTestClient(port: port), bytes, rate: clip.sampleRate, channels: 1) }
        async let second = onOwnThread { try Self.detect(try WyomingTestClient(port: port), bytes, rate: clip.sampleRate, channels: 1) }
        let heard = try await [first.0, second.0]
        let segments = try Self.wakeSegments()
        for detections in heard {
            #expect(detections.count >= 4, "\(detections)")
            for (name, milliseconds) in detections {
                let seconds = Double(milliseconds) / 1000
                #expect(segments.contains { $0.start < seconds && seconds <= $0.end + 0.5 && $0.phrase == name }, "\(name) at \(seconds) s")
            }
        }
        #expect(heard[0].map(\.0) == heard[1].map(\.0))
    }

    @Test func detectListensOnlyForThePhrasesNamed() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav"))
        let bytes = try Self.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        let port = try await Self.port()
        let (detections, _) = try await onOwnThread {
            try Self.detect(try WyomingTestClient(port: port), bytes, rate: clip.sampleRate, channels: 1, names: ["jarvis"])
        }
        #expect(!detections.isEmpty)
        #expect(detections.allSatisfy { $0.0 == "jarvis" }, "\(detections)")
    }

    /// Real speech in a room with a cat (no wake word): not-detected at the end, nothing before;
    /// then the same connection transcribes a request, its audio going to the recogniser again.
    @Test func speechWithoutTheWakeWordIsNotDetectedAndTheConnectionGoesOn() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_speech.wav"))
        let speech = try Self.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        let request = try WAVFile.read(contentsOf: Fixtures.audio("home-en/turn_on_the_garage_light.wav"))
        let requestBytes = try Self.pcm(request, rate: request.sampleRate, width: 2, channels: 1)
        let port = try await Self.port()
        let (detections, notDetected, text) = try await onOwnThread { () throws -> ([(String, Int)], Bool, String) in
            let client = try WyomingTestClient(port: port)
            let (detections, notDetected) = try Self.detect(client, speech, rate: clip.sampleRate, channels: 1)
            let (text, _) = try Self.transcribe(client, requestBytes, rate: request.sampleRate, width: 2, channels: 1)
            return (detections, notDetected, text)
        }
        #expect(detections.isEmpty, "\(detections)")
        #expect(notDetected)
        #expect(text == (try Self.sidecarText("home-en/turn_on_the_garage_light.wav")))
    }

    static let layouts: [(rate: Int?, width: Int, channels: Int)] = [(nil, 2, 1), (48_000, 2, 2), (44_100, 4, 1), (22_050, 2, 6)]

    @Test(arguments: ["home-en/turn_on_the_garage_light.wav", "home-en/what_time_is_it.wav", "home-en/set_the_bedroom_light_to_green.wav"])
    func aRealRecordingIsTranscribedInEveryLayout(_ recording: String) async throws {
        let expected = try Self.sidecarText(recording)
        let clip = try WAVFile.read(contentsOf: Fixtures.audio(recording))
        let port = try await Self.port()
        for layout in Self.layouts {
            let rate = layout.rate ?? clip.sampleRate
            let bytes = try Self.pcm(clip, rate: rate, width: layout.width, channels: layout.channels)
            let (text, seconds) = try await onOwnThread {
                try Self.transcribe(try WyomingTestClient(port: port), bytes, rate: rate, width: layout.width, channels: layout.channels)
            }
            #expect(text == expected, "\(recording) at \(rate) Hz, \(layout.width * 8)-bit, \(layout.channels) channels")
            print("\(recording) \(rate) Hz \(layout.width * 8)-bit \(layout.channels) ch: transcript \(Int(seconds * 1000)) ms after audio-stop")
        }
    }

    @Test(arguments: ["synthetic/outside.play_some_music.en-us-f3.wav", "synthetic/outside.the_quick_brown_fox.awb.wav"])
    func speechOutsideTheAppsGivesAnEmptyTranscript(_ recording: String) async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio(recording))
        let bytes = try Self.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        let port = try await Self.port()
        let (text, _) = try await onOwnThread {
            try Self.transcribe(try WyomingTestClient(port: port), bytes, rate: clip.sampleRate, width: 2, channels: 1)
        }
        #expect(text == "")
    }

    @Test func severalUtterancesOnOneConnection() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("home-en/turn_on_the_garage_light.wav"))
        let outside = try WAVFile.read(contentsOf: Fixtures.audio("synthetic/outside.play_some_music.en-us-f3.wav"))
        let speech = try Self.pcm(clip, rate: 16_000, width: 2, channels: 1)
        let music = try Self.pcm(outside, rate: 16_000, width: 2, channels: 1)
        let port = try await Self.port()
        let texts = try await onOwnThread { () throws -> [String] in
            let client = try WyomingTestClient(port: port)
            return try [speech, music, speech].map { try Self.transcribe(client, $0, rate: 16_000, width: 2, channels: 1).0 }
        }
        #expect(texts == ["turn on the garage light", "", "turn on the garage light"])
    }

    /// A satellite's request is heard with its own room's background in mind: the recogniser
    /// keeps one for each room a `transcribe` names (`context.satellite_id`), and one for the
    /// clients that name none.
    @Test func eachSatellitesRoomIsHeardApart() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("home-en/what_time_is_it.wav"))
        let speech = try Self.pcm(clip, rate: 16_000, width: 2, channels: 1)
        let room = "attic-\(UUID().uuidString.prefix(8))"
        let port = try await Self.port()
        let text = try await onOwnThread {
            try Self.transcribe(try WyomingTestClient(port: port), speech, rate: 16_000, width: 2, channels: 1,
                                context: ["satellite_id": room, "conversation_id": "\(room)/1"]).0
        }
        #expect(text == "what time is it")
        let recognition = try await Self.hark.value.assistant.recognition
        #expect(try await recognition.roomsHeard().contains(room))
        // A client that names no room is heard with this device's own background.
        _ = try await onOwnThread { try Self.transcribe(try WyomingTestClient(port: port), speech, rate: 16_000, width: 2, channels: 1) }
        #expect(try await recognition.roomsHeard().contains(""))
    }
}
