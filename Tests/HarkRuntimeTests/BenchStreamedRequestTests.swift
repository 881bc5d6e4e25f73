import Foundation
import HarkAudio
@testable import HarkRuntime
@testable import HarkBench
import HarkTestSupport
import Testing

/// A benchmark recording that gives the room before its request ("wakeAt", as make bench-noise's
/// corpus does) is cut as the live loop cuts a request from its microphone.
@Suite struct BenchStreamedRequestTests {
    /// `seconds` of steady white noise at about -45 dBFS, the same on every run.
    static func room(_ seconds: Double, seed: UInt64 = 7) -> [Int16] {
        var state = seed
        return (0..<Int(seconds * 16_000)).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(truncatingIfNeeded: Int(state >> 33) % 401 - 200)
        }
    }

    static func request() throws -> [Int16] {
        try WAVFile.read(contentsOf: Fixtures.audio("home-en/turn_on_the_garage_light.wav")).pipelineSamples()
    }

    @Test func theRequestIsCutFromWhatFollowsTheWakeWord() throws {
        let speech = try Self.request()
        let stream = Self.room(5) + speech + Self.room(1.5, seed: 9)
        let cut = try #require(StreamedRequest.cut(stream, roomSeconds: 5))
        // None of the five seconds before the wake word, and all of the request with the
        // endpointer's pre-roll and the quiet that ended it: no more than the request and 1.5 s.
        #expect(cut.count > speech.count / 2)
        #expect(cut.count <= speech.count + 24_000)
        #expect(StreamedRequest.cut(Self.room(5) + Self.room(3, seed: 11), roomSeconds: 5) == nil)
    }

    /// Through `hark bench`: the request in the room is understood, a room with nobody speaking
    /// after the wake word is reported as such, and plain pocketsphinx hears both.
    @Test func benchCutsEachRequestAndSaysWhenNobodySpoke() throws {
        let directory = try temporaryDirectory()
        func write(_ name: String, _ samples: [Int16]) throws {
            try WAVFile.write(AudioClip(int16: samples, sampleRate: 16_000, channels: 1),
                                to: directory.appendingPathComponent("\(name).wav"))
            let sidecar = #"{"text": "turn on the garage light", "intent": {"name": "ChangeLightState"}, "#
                + #""slots": {"name": "garage light", "state": "on"}, "wakeAt": 5}"#
            try Data(sidecar.utf8).write(to: directory.appendingPathComponent("\(name).json"))
        }
        try write("spoken", Self.room(5) + (try Self.request()) + Self.room(1.5, seed: 9))
        try write("silent", Self.room(8, seed: 13))
        let report = try temporaryDirectory().appendingPathComponent("bench.json")
        let outcome = try CommandLineTests.hark(["bench", directory.path, "--apps", "apps", "--baseline", "--json", report.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let outcomes = try #require(figures["outcomes"] as? [[String: Any]])
        let spoken = try #require(outcomes.first { $0["recording"] as? String == "spoken.wav" })
        let silent = try #require(outcomes.first { $0["recording"] as? String == "silent.wav" })
        #expect(spoken["commandRight"] as? Bool == true, "\(spoken["account"] ?? "")")
        #expect(silent["understood"] as? Bool == false)
        #expect((silent["account"] as? String)?.hasPrefix("no speech found after the wake word") == true)
        #expect(outcomes.allSatisfy { $0["baseline"] is [String: Any] })
        // Plain pocketsphinx's hearing is set beside the same recording's.
        #expect((spoken["baseline"] as? [String: Any])?["commandRight"] as? Bool == true, "\(spoken["baseline"] ?? "")")
        #expect(outcome.output.contains("no speech found after the wake word"))
    }

    /// A recorded turn ("wakePhrase"): with --spot-wake the spotter must find the wake word
    /// before the request is cut from where it ended; a turn whose wake word is not there is
    /// reported as a wake word missed, not as a request misheard.
    @Test func benchSpotsTheWakeWordOfARecordedTurn() throws {
        let directory = try temporaryDirectory()
        let wakes = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav")).pipelineSamples()
        let jarvis = Array(wakes[89_152..<138_304])  // 5.572 to 8.644 s: a real person's "jarvis"
        func write(_ name: String, _ samples: [Int16]) throws {
            try WAVFile.write(AudioClip(int16: samples, sampleRate: 16_000, channels: 1),
                              to: directory.appendingPathComponent("\(name).wav"))
            let sidecar = #"{"text": "turn on the garage light", "intent": {"name": "ChangeLightState"}, "#
                + #""slots": {"name": "garage light", "state": "on"}, "wakePhrase": "jarvis", "wakeStartsAt": 5, "wakeAt": 8.072}"#
            try Data(sidecar.utf8).write(to: directory.appendingPathComponent("\(name).json"))
        }
        try write("turn", Self.room(5) + jarvis + (try Self.request()) + Self.room(1.5, seed: 9))
        try write("unwoken", Self.room(5) + Self.room(3.072, seed: 17) + (try Self.request()) + Self.room(1.5, seed: 9))
        let report = try temporaryDirectory().appendingPathComponent("bench.json")
        let outcome = try CommandLineTests.hark(["bench", directory.path, "--apps", "apps", "--spot-wake", "--json", report.path])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let figures = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: report)) as? [String: Any])
        let outcomes = try #require(figures["outcomes"] as? [[String: Any]])
        let turn = try #require(outcomes.first { $0["recording"] as? String == "turn.wav" })
        let unwoken = try #require(outcomes.first { $0["recording"] as? String == "unwoken.wav" })
        #expect(turn["wake"] as? String == "woke")
        #expect(turn["commandRight"] as? Bool == true, "\(turn["account"] ?? "")")
        #expect(unwoken["wake"] as? String == "missed")
        #expect(unwoken["understood"] as? Bool == false)
        #expect(unwoken["account"] as? String == "wake word missed, expected ChangeLightState [\"name\": \"garage light\", \"state\": \"on\"]")
        // Without the spotter the same sidecars are cut at "wakeAt", as if the wake word were always heard.
        let plain = try CommandLineTests.hark(["bench", directory.path, "--apps", "apps", "--tentative-wake", "none"])
        #expect(plain.status == 64 && plain.errors.contains("--tentative-wake needs --spot-wake"))
    }
}
