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

/// Speech, intents and conversations over the server (`WyomingServerTests`), and bad input.
extension WyomingServerTests {
    @Test func synthesizeStreamsHarksVoice() async throws {
        let port = try await Self.port()
        let (start, chunks, stop) = try await onOwnThread { () throws -> (WyomingTestClient.Event, [WyomingTestClient.Event], WyomingTestClient.Event) in
            let client = try WyomingTestClient(port: port)
            try client.send("synthesize", ["text": "Turning on the garage light."])
            let start = try client.expect("audio-start")
            var chunks: [WyomingTestClient.Event] = []
            while true {
                guard let event = try client.receive() else { throw WyomingTestClient.Failure(description: "closed before audio-stop") }
                if event.type == "audio-stop" { return (start, chunks, event) }
                #expect(event.type == "audio-chunk")
                chunks.append(event)
            }
        }
        #expect(start.data["rate"] as? Int == 22_050)
        #expect(start.data["width"] as? Int == 2)
        #expect(start.data["channels"] as? Int == 1)
        #expect(chunks.allSatisfy { $0.data["rate"] as? Int == 22_050 && $0.payload.count <= 2048 && $0.payload.count % 2 == 0 })
        let samples = chunks.flatMap(\.payload).withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let seconds = Double(samples.count) / 22_050
        #expect(seconds > 1 && seconds < 5, "\(seconds) s of speech")
        let loud = samples.filter { abs(Int($0)) > 3_000 }.count
        #expect(Double(loud) / Double(samples.count) > 0.05, "mostly silence: \(loud) of \(samples.count) samples above 3000")
        #expect(stop.data["timestamp"] as? Int == samples.count * 1000 / 22_050)
    }

    @Test func recognizeReadsTheAppsIntents() async throws {
        let port = try await Self.port()
        let (recognized, unknown) = try await onOwnThread { () throws -> (WyomingTestClient.Event, WyomingTestClient.Event) in
            let client = try WyomingTestClient(port: port)
            try client.send("recognize", ["text": "Turn on the garage light!"])
            let intent = try client.expect("intent")
            try client.send("recognize", ["text": "what is the weather tomorrow"])
            return (intent, try #require(try client.receive()))
        }
        let intent = recognized.data
        #expect(intent["name"] as? String == "home.ChangeLightState")
        let entities = try #require(intent["entities"] as? [[String: String]])
        #expect(entities == [["name": "name", "value": "garage_light"], ["name": "state", "value": "on"]]
            || entities == [["name": "name", "value": "garage light"], ["name": "state", "value": "on"]])
        #expect(unknown.type == "not-recognized")
    }

    @Test func eachConnectionKeepsItsOwnConversation() async throws {
        let port = try await Self.port()
        let (first, second) = try await onOwnThread { () throws -> ([String], [String]) in
            let client = try WyomingTestClient(port: port)
            let other = try WyomingTestClient(port: port)
            func turn(_ client: WyomingTestClient, _ text: String) throws -> String {
                try client.send("handle", ["text": text])
                let reply = try #require(try client.receive())
                return "\(reply.type): \(reply.data["text"] as? String ?? "")"
            }
            var first = [try turn(client, "order a bowl of chicken noodle soup")]
            // The other connection's "minestrone" answers nothing: it has no question open.
            let second = [try turn(other, "minestrone")]
            first.append(try turn(client, "minestrone"))
            first.append(try turn(client, "pick up"))
            first.append(try turn(client, "cancel"))
            return (first, second)
        }
        #expect(first == [
            "handled: Soup Shack: Sorry, we're out of chicken noodle soup. Which soup?",
            "handled: Pickup or delivery?",
            "handled: Which store?",
            "handled: OK.",
        ])
        #expect(second == ["not-handled: \(DialogueEngine.didNotUnderstand)"])
    }

    /// Speech on a connection that holds a conversation is heard as its next turn: the spoken
    /// answer to Hark's question ("delivery", audio-fixtures/conversations) is transcribed
    /// against the question's answers; on a connection with no conversation it is no request.
    @Test func anAnswerToHarksQuestionIsTranscribedOnTheSameConnection() async throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("conversations/soup.2.wav"))
        let bytes = try Self.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        let port = try await Self.port()
        let (question, answer, next, elsewhere) = try await onOwnThread { () throws -> (String, String, String, String) in
            let client = try WyomingTestClient(port: port)
            func turn(_ text: String) throws -> String {
                try client.send("handle", ["text": text])
                return try client.expect("handled").data["text"] as? String ?? ""
            }
            let question = try turn("order a bowl of tomato soup")
            let (answer, _) = try Self.transcribe(client, bytes, rate: clip.sampleRate, width: 2, channels: 1)
            let next = try turn(answer)
            let (elsewhere, _) = try Self.transcribe(try WyomingTestClient(port: port), bytes, rate: clip.sampleRate, width: 2, channels: 1)
            return (question, answer, next, elsewhere)
        }
        #expect(question == "Soup Shack: Pickup or delivery?")
        #expect(answer == "delivery")
        #expect(next != question && !next.isEmpty, "\(next)")
        #expect(elsewhere == "")
    }

    /// Home Assistant's conversation agent sends each turn as a `transcript` on a new connection,
    /// naming the conversation in its context: a question asked on one connection is answered on
    /// the next, conversations with other names stay apart, and the reply says a question is open.
    @Test func namedConversationsCarryAcrossConnectionsAndStayApart() async throws {
        let port = try await Self.port()
        let turns = try await onOwnThread { () throws -> [WyomingTestClient.Event] in
            func turn(_ text: String, _ name: String?) throws -> WyomingTestClient.Event {
                let client = try WyomingTestClient(port: port)
                var data: [String: Any] = ["text": text]
                if let name { data["context"] = ["conversation_id": name] }
                try client.send("transcript", data)
                return try #require(try client.receive())
            }
            return [try turn("order a bowl of tomato soup", "kitchen"), try turn("delivery", "hall"),
                    try turn("delivery", nil), try turn("delivery", "kitchen")]
        }
        #expect(turns[0].type == "handled" && turns[0].data["text"] as? String == "Soup Shack: Pickup or delivery?")
        #expect(turns[0].data["continue_conversation"] as? Bool == true)
        #expect((turns[0].data["context"] as? [String: Any])?["conversation_id"] as? String == "kitchen")
        // No question is open in "hall", nor on a connection that names no conversation.
        #expect(turns[1].type == "not-handled" && turns[2].type == "not-handled")
        #expect(turns[1].data["continue_conversation"] as? Bool == false)
        #expect(turns[2].data["context"] == nil)
        let next = turns[3].data["text"] as? String ?? ""
        #expect(turns[3].type == "handled" && !next.isEmpty && next != "Soup Shack: Pickup or delivery?", "\(next)")
    }

    /// "Volume four" from a client is for the client's loudspeaker (a satellite's): the reply
    /// says the change and leaves the hub's own level alone.
    @Test func aVolumeCommandIsTheClientsToMake() async throws {
        let port = try await Self.port()
        let reply = try await onOwnThread { () throws -> WyomingTestClient.Event in
            let client = try WyomingTestClient(port: port)
            try client.send("transcript", ["text": "volume four", "context": ["conversation_id": "study/1"]])
            return try #require(try client.receive())
        }
        #expect(reply.type == "handled" && reply.data["volume"] as? String == "4" && reply.data["text"] as? String == "")
        #expect(try await Self.hark.value.assistant.loudspeaker.level == LoudnessLevels.highest)
    }

    /// A request heard just below the threshold comes back as an empty transcript; handing that
    /// turn on (an empty text after it) asks about it, as the device would, instead of dropping it.
    /// On an assistant of its own with the bundled apps as installed (the suite's shared one has
    /// had satellites and other suites talk to it by now), its threshold 0.1 above the margin a
    /// fresh assistant hears the recording at: inside the band asked about.
    @Test func aRequestHalfHeardIsAskedAboutWhenItsTurnIsHandled() async throws {
        let recording = Fixtures.audio("synthetic/what_time_is_it.en-us.wav")
        let clip = try WAVFile.read(contentsOf: recording)
        let bytes = try Self.pcm(clip, rate: clip.sampleRate, width: 2, channels: 1)
        func configuration(_ recognizer: RecognizerConfiguration) throws -> AssistantConfiguration {
            AssistantConfiguration(appsDirectory: Fixtures.root.appendingPathComponent("apps"),
                                   modelsDirectory: Fixtures.root.appendingPathComponent("models"), recognizer: recognizer,
                                   inProcessHandlers: ExampleApps.handlers, dataDirectory: try temporaryDirectory())
        }
        var recognizer = RecognizerConfiguration()
        let (heard, _) = try await Assistant.start(configuration(recognizer)).answer(recordingAt: recording)
        #expect(!heard.rejected, "\(heard.rejection ?? "")")
        recognizer.rejectionMargin = heard.margin + 0.1
        let assistant = try await Assistant.start(configuration(recognizer))
        let server = try await WyomingServer.bind(.tcp(host: "127.0.0.1", port: 0),
                                                  serving: await WyomingAssistant(assistant, version: "test", voice: VoiceSettings()),
                                                  logger: Logger(label: "hark-test"))
        let running = Task { try await server.run() }
        defer { running.cancel() }
        let port = try Self.port(of: server)
        let (transcript, reply, silence) = try await onOwnThread { () throws -> (String, WyomingTestClient.Event, WyomingTestClient.Event) in
            let client = try WyomingTestClient(port: port)
            let (transcript, _) = try Self.transcribe(client, bytes, rate: clip.sampleRate, width: 2, channels: 1)
            try client.send("transcript", ["text": transcript])
            let reply = try #require(try client.receive())
            // The same empty text with no hearing behind it is silence, and nothing is asked.
            let other = try WyomingTestClient(port: port)
            try other.send("transcript", ["text": ""])
            return (transcript, reply, try #require(try other.receive()))
        }
        #expect(transcript == "")
        #expect(reply.type == "handled" && reply.data["text"] as? String == "Did you say what time is it?")
        #expect(reply.data["continue_conversation"] as? Bool == true)
        #expect(silence.data["text"] as? String != "Did you say what time is it?")
    }

    /// A satellite's request Hark could not make out over a noisy room is asked for again on the
    /// same connection (not handled, the conversation continued), and the request said again is
    /// heard as a new one and carried out.
    @Test func aRequestLostInNoiseIsAskedForAgainOverWyoming() async throws {
        let session = try WAVFile.read(contentsOf: Fixtures.audio("live/session.wav")).pipelineSamples()
        // The session's sentence not meant for Hark, in a room about 16 dB below the voice.
        let noisy = AudioClip(int16: inSteadyNoise(Array(session[Int(9.2 * 16_000)..<Int(13.4 * 16_000)]), level: noisyRoomLevel),
                              sampleRate: 16_000, channels: 1)
        let noisyBytes = try Self.pcm(noisy, rate: 16_000, width: 2, channels: 1)
        let request = try WAVFile.read(contentsOf: Fixtures.audio("home-en/turn_on_the_garage_light.wav"))
        let requestBytes = try Self.pcm(request, rate: request.sampleRate, width: 2, channels: 1)
        let port = try await Self.port()
        let (lost, again) = try await onOwnThread { () throws -> (WyomingTestClient.Event, WyomingTestClient.Event) in
            let client = try WyomingTestClient(port: port)
            let (heard, _) = try Self.transcribe(client, noisyBytes, rate: 16_000, width: 2, channels: 1)
            try client.send("transcript", ["text": heard])
            let lost = try #require(try client.receive())
            let (text, _) = try Self.transcribe(client, requestBytes, rate: request.sampleRate, width: 2, channels: 1)
            try client.send("transcript", ["text": text])
            return (lost, try #require(try client.receive()))
        }
        #expect(lost.type == "not-handled" && lost.data["text"] as? String == DialogueEngine.notHeardOverNoise, "\(lost.type) \(lost.data)")
        #expect(lost.data["continue_conversation"] as? Bool == true)
        #expect(again.type == "handled" && again.data["text"] as? String == "Home: Turning on the garage light.", "\(again.data)")
        #expect(again.data["continue_conversation"] as? Bool == false)
    }

    /// Each kind of bad input, sent after whatever good events come first.
    static let malformed: [(name: String, bytes: [UInt8], code: String)] = [
        ("not JSON", Array("this is not json\n".utf8), "bad-json"),
        ("an unknown event type", Array(#"{"type": "make-coffee"}"#.utf8) + [10], "unknown-event"),
        ("a header line over 64 KiB", [UInt8](repeating: UInt8(ascii: " "), count: 70_000), "too-large"),
        ("a payload claimed over 2 MiB", Array(#"{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 1}, "payload_length": 4000000000}"#.utf8) + [10], "too-large"),
        ("data claimed over the limit", Array(#"{"type": "describe", "data_length": 50000000}"#.utf8) + [10], "too-large"),
        ("24-bit audio", Array(#"{"type": "audio-start", "data": {"rate": 16000, "width": 3, "channels": 1}}"#.utf8) + [10], "bad-audio"),
        ("a rate of 4 kHz", Array(#"{"type": "audio-start", "data": {"rate": 4000, "width": 2, "channels": 1}}"#.utf8) + [10], "bad-audio"),
        ("half a frame", Array(#"{"type": "audio-chunk", "data": {"rate": 16000, "width": 2, "channels": 2}, "payload_length": 3}"#.utf8) + [10, 1, 2, 3], "bad-audio"),
        ("audio-stop with no audio", Array(#"{"type": "audio-stop"}"#.utf8) + [10], "unexpected-event"),
        ("synthesize with no text", Array(#"{"type": "synthesize", "data": {"voice": {"name": "en-us"}}}"#.utf8) + [10], "bad-data"),
        ("another language", Array(#"{"type": "transcribe", "data": {"language": "de"}}"#.utf8) + [10], "unsupported-language"),
        ("a room's power that is no number", Array(#"{"type": "transcribe", "data": {"language": "en", "context": {"room_power": "loud"}}}"#.utf8) + [10], "bad-data"),
        ("a room's power below zero", Array(#"{"type": "transcribe", "data": {"language": "en", "context": {"room_power": -3}}}"#.utf8) + [10], "bad-data"),
        ("a wake phrase not served", Array(#"{"type": "detect", "data": {"names": ["computer"]}}"#.utf8) + [10], "bad-data"),
        ("wake names not a list", Array(#"{"type": "detect", "data": {"names": "jarvis"}}"#.utf8) + [10], "bad-data"),
    ]

    @Test(arguments: malformed.indices)
    func badInputGetsAnErrorAndACloseWhileOthersAreServed(_ index: Int) async throws {
        let (name, bytes, code) = Self.malformed[index]
        let port = try await Self.port()
        let (refusal, afterError, otherInfo) = try await onOwnThread { () throws -> (WyomingTestClient.Event, WyomingTestClient.Event?, String) in
            // A second client, connected first and in the middle of an utterance, is served on.
            let bystander = try WyomingTestClient(port: port)
            try bystander.send("audio-start", ["rate": 16_000, "width": 2, "channels": 1])
            let client = try WyomingTestClient(port: port)
            try client.send("describe")
            _ = try client.expect("info")
            try client.sendRaw(bytes)
            let error = try client.expect("error")
            let afterError = try client.receive()
            try bystander.send("audio-chunk", ["rate": 16_000, "width": 2, "channels": 1], payload: [UInt8](repeating: 0, count: 3_200))
            try bystander.send("audio-stop")
            _ = try bystander.expect("transcript")
            try bystander.send("describe")
            let info = try bystander.expect("info")
            return (error, afterError, info.type)
        }
        let error = refusal.data
        #expect(error["code"] as? String == code, "\(name): \(error)")
        #expect((error["text"] as? String)?.isEmpty == false, "\(name)")
        #expect(afterError == nil, "\(name): the connection stayed open (\(afterError?.type ?? ""))")
        #expect(otherInfo == "info")
    }

    @Test func servesOnAUnixSocket() async throws {
        // A socket path must fit in 108 bytes, which the test run's folder does not leave room for.
        let path = "/tmp/hark-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).socket"
        defer { unlink(path) }
        // A second server on the same assistant, as `hark serve --uri unix://…` makes.
        let assistant = try await Assistant.start(AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps/home"),
            modelsDirectory: Fixtures.root.appendingPathComponent("models")))
        let server = try await WyomingServer.bind(WyomingEndpoint.unix(path: path),
                                                  serving: await WyomingAssistant(assistant, version: "test", voice: VoiceSettings()),
                                                  logger: Logger(label: "hark-test"))
        let running = Task { try await server.run() }
        defer { running.cancel() }
        #expect(server.endpoint == .unix(path: path))
        let models = try await onOwnThread { () throws -> [String] in
            let client = try WyomingTestClient(unixPath: path)
            try client.send("describe")
            let asr = try #require((try client.expect("info").data["asr"] as? [[String: Any]])?.first)
            return (asr["models"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(models == ["home"])
    }
}
