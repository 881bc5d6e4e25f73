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
        #expect(outcome.output.contains("no speech found after the wake word"))
    }
}
