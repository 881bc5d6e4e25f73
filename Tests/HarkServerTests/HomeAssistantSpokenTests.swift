import Foundation
import HarkTestSupport
import Testing

/// Home Assistant's sentences imported with its home, spoken (espeak-ng) to `hark serve` through
/// the reference Wyoming client: the transcript is a sentence Home Assistant's own matcher
/// (hassil, a peer installed by make test) understands, and Hark's `recognize` of it gives the
/// same intent and slots, the satellite's area included.
@Suite(.serialized) struct HomeAssistantSpokenTests {
    static let sentences = """
        language: en
        intents:
          HassTurnOff:
            data:
              - sentences: ["turn off [the] {name}"]
                requires_context: {domain: light}
              - sentences: ["turn off the lights"]
                requires_context: {area: {slot: true}}
                slots: {domain: light}
        """
    static let home = """
        areas: [{name: Living Room, id: living_room}, {name: Kitchen, id: kitchen}]
        entities: [{name: "Reading Lamp", id: light.reading_lamp, area: living_room}]
        """

    /// Runs `arguments` (python3 or hark) to its end from the repository's root; what it printed.
    static func run(_ arguments: [String], hark: Bool = false) throws -> Data {
        let process = Process()
        if hark {
            process.executableURL = try Fixtures.executable("hark")
            process.environment = try isolatedHarkEnvironment()
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = arguments
        }
        process.currentDirectoryURL = Fixtures.root
        let (printed, complaints) = try ServeCommandTests.runToEnd(process)
        try #require(process.terminationStatus == 0, "\(arguments.prefix(2)) failed: \(complaints)")
        return printed
    }

    /// `sentences` and `home` written to a new folder and imported with `hark import
    /// home-assistant`: the folder, the two files and the app made.
    static func imported(_ sentences: String) throws -> (folder: URL, sentences: URL, home: URL, app: URL) {
        let folder = try temporaryDirectory()
        let file = folder.appendingPathComponent("sentences.yaml"), home = folder.appendingPathComponent("home.yaml")
        try sentences.write(to: file, atomically: true, encoding: .utf8)
        try Self.home.write(to: home, atomically: true, encoding: .utf8)
        let app = folder.appendingPathComponent("home_assistant")
        _ = try run(["import", "home-assistant", file.path, "--entities", home.path, "--out", app.path], hark: true)
        return (folder, file, home, app)
    }

    @Test func aSpokenRequestArrivesAsASentenceHomeAssistantUnderstandsAndAsItsIntent() async throws {
        let (folder, sentences, home, app) = try Self.imported(Self.sentences)
        let spoken = ["turn off the reading lamp", "turn off the lights"]
        var recordings: [String] = []
        for (index, text) in spoken.enumerated() {
            let wav = folder.appendingPathComponent("request-\(index).wav").path
            _ = try Self.run(["espeak-ng", "-v", "en-us", "-s", "150", "-w", wav, text])
            recordings.append(wav)
        }

        let (server, port, _) = try ServeCommandTests.startServe(apps: app.path)
        defer { server.terminate(); server.waitUntilExit() }
        let printed = try Self.run(["python3", "Tests/Wyoming/client.py", "--port", String(port)] + recordings)
        let result = try #require(try JSONSerialization.jsonObject(with: printed) as? [String: Any])
        let transcripts = try #require(result["transcripts"] as? [[String: Any]]).compactMap { $0["text"] as? String }
        #expect(transcripts.map { $0.lowercased() } == spoken, "\(transcripts)")

        // Home Assistant's matcher on what Hark heard, in the living room's satellite.
        let matched = try Self.run(["python3", "Tests/HomeAssistant/hassil_match.py", sentences.path, home.path]
                                   + transcripts + ["--area", "Living Room"])
        let reference = try #require(try JSONSerialization.jsonObject(with: matched) as? [[String: Any]])
        #expect(reference.count == 2)

        // Hark's recognize of the same words, from the satellite named after that area.
        let intents = try await Self.recognize(transcripts, port: port, satellite: "living-room")
        Self.expectTheSame(intents, as: reference)
        #expect(reference.last?["slots"] as? [String: String] == ["area": "Living Room", "domain": "light"])
    }
}

extension HomeAssistantSpokenTests {
    /// Hark's `recognize` of each text through `hark serve` on `port`, from `satellite` when given.
    static func recognize(_ texts: [String], port: Int, satellite: String? = nil) async throws -> [WyomingTestClient.Event] {
        try await onOwnThread { () throws -> [WyomingTestClient.Event] in
            let client = try WyomingTestClient(port: port)
            return try texts.map { text in
                var data: [String: Any] = ["text": text]
                if let satellite { data["context"] = ["satellite_id": satellite] }
                try client.send("recognize", data)
                return try client.expect("intent")
            }
        }
    }

    /// Each of Hark's intents has hassil's name and slots (`hassil_match.py`'s output).
    static func expectTheSame(_ intents: [WyomingTestClient.Event], as reference: [[String: Any]]) {
        for (hassil, hark) in zip(reference, intents) {
            let slots = Dictionary(uniqueKeysWithValues: (hark.data["entities"] as? [[String: String]] ?? []).compactMap { entity in
                entity["name"].flatMap { name in entity["value"].map { (name, $0) } }
            })
            #expect(hark.data["name"] as? String == hassil["intent"] as? String, "\(hark.data) \(hassil)")
            #expect(slots == hassil["slots"] as? [String: String], "\(hark.data) \(hassil)")
        }
    }

    static let typedSentences = """
        language: en
        intents:
          HassNevermind:
            data:
              - sentences: ["never mind"]
          HassBroadcast:
            data:
              - sentences: ["broadcast {message}"]
          HassMediaSearchAndPlay:
            data:
              - sentences: ["play {search_query} in [the] {area}"]
        lists:
          message:
            wildcard: true
          search_query:
            wildcard: true
        """

    /// Typed requests a Wyoming client asks `recognize` about, as Home Assistant's matcher reads
    /// them: free text beside one word and beside the area, and "never mind", which Hark answers
    /// itself but tells the client as Home Assistant's own intent.
    @Test func typedRequestsArriveAsHomeAssistantsIntents() async throws {
        let (_, sentences, home, app) = try Self.imported(Self.typedSentences)
        // Digits in the text stay as typed, as Home Assistant's matcher keeps them.
        let typed = ["never mind", "broadcast dinner is ready", "play miles davis in the kitchen", "broadcast dinner at 5"]
        let matched = try Self.run(["python3", "Tests/HomeAssistant/hassil_match.py", sentences.path, home.path] + typed)
        let reference = try #require(try JSONSerialization.jsonObject(with: matched) as? [[String: Any]])
        #expect(reference.count == 4)

        let (server, port, _) = try ServeCommandTests.startServe(apps: app.path)
        defer { server.terminate(); server.waitUntilExit() }
        let intents = try await Self.recognize(typed, port: port)
        Self.expectTheSame(intents, as: reference)
        #expect(intents.map { $0.data["name"] as? String } == ["HassNevermind", "HassBroadcast", "HassMediaSearchAndPlay", "HassBroadcast"])
    }
}
