import Foundation
import HarkAudio
import HarkRuntime
import HarkServer
import HarkSpeech
import HarkTestSupport
import HarkVoice
import Logging
import Testing

/// A satellite (`hark listen --hub`) sends the hub how loud its room was before the wake word
/// (`context.room_power`), and the hub judges the request by that room: after a noise that came
/// and went it asks first, after a quiet room it acts.
@Suite(.serialized) struct HubRoomBeforeTests {
    /// A hub whose noisy rooms ask about whatever they would act on, so the room alone decides.
    static let hub = Task { () throws -> WyomingServer in
        let assistant = try await WyomingServerTests.makeAssistant {
            $0.noisyConfirmation = NoisyConfirmation(below: 30, reach: 10)
        }
        let served = await WyomingAssistant(assistant, version: "test", voice: VoiceSettings(),
                                            wake: WakeWordConfiguration(keyPhrase: "jarvis"), roomsWindow: 0.05)
        let server = try await WyomingServer.bind(.tcp(host: "127.0.0.1", port: 0), serving: served,
                                                  logger: Logger(label: "hark-test"))
        Task { try await server.run() }
        return server
    }

    @Test func theHubJudgesARequestByTheSatellitesRoomBeforeIt() async throws {
        let port = try WyomingServerTests.port(of: try await Self.hub.value)
        let session = try WAVFile.read(contentsOf: Fixtures.audio("live/session.wav")).pipelineSamples()
        // "Jarvis, turn on the garage light", a second of quiet before it and four after.
        let turn = [Int16](repeating: 0, count: 16_000) + Array(session[Int(1.5 * 16_000)..<Int(4.407 * 16_000)])
            + [Int16](repeating: 0, count: 4 * 16_000)
        var replies: [String] = []
        for (room, before) in [("pantry", inBursts(seconds: 5, level: 1_000, share: 0.3)),
                               ("larder", [Int16](repeating: 0, count: 5 * 16_000))] {
            let brain = HubBrain(hub: .tcp(host: "127.0.0.1", port: port), room: room,
                                 voice: try SpeechService(settings: VoiceSettings()), report: { Issue.record("\(room): \($0)") })
            let loop = LiveLoop(brain: brain, settings: LiveSettings(), source: RecordingSource(samples: before + turn, name: room),
                                sink: nil)
            let events = SatelliteTests.Collected<LiveEvent>()
            _ = try await loop.run(onEvent: { events.append($0) })
            for event in events.all {
                switch event {
                case .turn(let turn): replies.append(turn.report.reply)
                case .problem(let message): Issue.record("\(room): \(message)")
                default: break
                }
            }
        }
        #expect(replies == ["Did you say turn on the garage light?", "Home: Turning on the garage light."])
    }
}
