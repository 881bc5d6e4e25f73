import Foundation
import HarkAudio
import HarkRuntime
@testable import HarkServer
import HarkTestSupport
import HarkVoice
import Logging
import Testing

/// Rooms: satellites (`hark listen --hub`) with their own wake word and endpointing, sending
/// requests to the test hub (`WyomingServerTests.server`, the real recogniser, apps and voice)
/// over loopback.
@Suite(.serialized) struct SatelliteTests {
    /// Collects what a satellite's loop or brain says, from any thread.
    final class Collected<Element: Sendable>: Sendable {
        private let lock = NSLock()
        nonisolated(unsafe) private var stored: [Element] = []
        func append(_ element: Element) { lock.withLock { stored.append(element) } }
        var all: [Element] { lock.withLock { stored } }
    }

    static func voice() throws -> SpeechService { try SpeechService(settings: VoiceSettings()) }

    /// Claims made together fall in one round (a window far longer than the test's scheduling
    /// can stretch); claims one after another, each past a short window, in rounds of their own.
    @Test func theRoomThatHeardTheWakeWordBestAnswers() async throws {
        let told = Collected<String>()
        let arbiter = WakeArbiter(window: 2) { told.append($0) }
        // Louder above its background wins, whatever the spotter's confidence.
        async let kitchen = arbiter.claim(room: "kitchen", signalToNoise: 18, confidence: 6)
        async let hall = arbiter.claim(room: "hall", signalToNoise: 31, confidence: 2.5)
        // Heard as loud (to the dB): the surer spotter answers.
        async let study = arbiter.claim(room: "study", signalToNoise: 31.2, confidence: 3)
        let (fromKitchen, fromHall, fromStudy) = await (kitchen, hall, study)
        #expect(fromKitchen == WakeArbiter.Decision(answers: false, winner: "study"))
        #expect(fromHall == WakeArbiter.Decision(answers: false, winner: "study"))
        #expect(fromStudy == WakeArbiter.Decision(answers: true, winner: "study"))
        // Told once, with every room that claimed it.
        #expect(told.all.count == 1, "\(told.all)")
        #expect(told.all.first?.hasPrefix("the wake word was heard in 3 rooms (") == true, "\(told.all)")
        #expect(told.all.first?.hasSuffix("): study answers") == true, "\(told.all)")
        #expect(["kitchen 18 dB, odds 6.0", "hall 31 dB, odds 2.5", "study 31 dB, odds 3.0"].allSatisfy { told.all.first?.contains($0) == true })

        // A room alone answers, however unsure; so does one that wakes after the window closed.
        let quick = WakeArbiter(window: 0.05)
        #expect(await quick.claim(room: "kitchen", signalToNoise: 3, confidence: -3).answers)
        #expect(await quick.claim(room: "hall", signalToNoise: 1, confidence: -5).answers)
    }

    /// Two rooms hear the same person (audio-fixtures/live/session.wav: "Jarvis" … "Turn on the
    /// garage light."), one near (as recorded) and one farther (10 dB quieter, 0.15 s later, with
    /// a household hum), each through its own real spotter and endpointer, in real time: both
    /// wake, and the near one answers.
    @Test func twoRoomsHearTheSameWordsAndOnlyTheOneThatHeardBestAnswers() async throws {
        let port = try await WyomingServerTests.port()
        let recording = try WAVFile.read(contentsOf: Fixtures.audio("live/session.wav"))
        let speech = Array(try recording.pipelineSamples()[..<Int(8.5 * 16_000)])
        // The same hum (100 Hz, about -50 dBFS) in both rooms; the far room hears the person
        // 10 dB quieter and 0.15 s later.
        func room(gain: Double, delay: Int) -> [Int16] {
            let voice = [Int16](repeating: 0, count: delay) + speech
            return voice.indices.map { index in
                let hum = 150 * sin(2 * Double.pi * 100 * Double(index) / 16_000)
                return Int16((Double(voice[index]) * gain + hum).rounded())
            }
        }
        let near = room(gain: 1, delay: 0), far = room(gain: 0.316, delay: 2_400)
        let reports = Collected<String>()
        func satellite(_ room: String, _ audio: [Int16]) async throws -> [LiveEvent] {
            let brain = HubBrain(hub: .tcp(host: "127.0.0.1", port: port), room: room, voice: try Self.voice(),
                                 report: { reports.append("\(room): \($0)") })
            let loop = LiveLoop(brain: brain, settings: LiveSettings(),
                                source: RecordingSource(samples: audio, name: room, realTime: true), sink: nil)
            let events = Collected<LiveEvent>()
            _ = try await loop.run(onEvent: { events.append($0) })
            return events.all
        }
        async let kitchen = satellite("kitchen", near)
        async let hall = satellite("hall", far)
        let rooms = try await ["kitchen": kitchen, "hall": hall]
        #expect(reports.all.isEmpty)

        var woke: Set<String> = []
        var turns: [String: [LiveTurn]] = [:]
        var yielded: [String] = []
        for (room, events) in rooms {
            for event in events {
                switch event {
                case .wake: woke.insert(room)
                case .turn(let turn): turns[room, default: []].append(turn)
                case .yielded: yielded.append(room)
                case .problem(let message): Issue.record("\(room): \(message)")
                default: break
                }
            }
        }
        try #require(woke == ["kitchen", "hall"], "both rooms must hear the wake word: \(woke)")
        let (best, other) = ("kitchen", "hall")
        #expect(yielded == [other])
        #expect(turns[other] == nil)
        let answered = try #require(turns[best]?.first)
        #expect(turns[best]?.count == 1)
        #expect(answered.report.text == "turn on the garage light")
        #expect(answered.report.reply == "Home: Turning on the garage light.")
        #expect(answered.report.handled && !answered.report.expectsAnswer)
    }

    /// The hub is not there, comes up, and goes away again: the satellite logs each change once,
    /// answers each request it cannot send with a short tone (no sentence: every room that heard
    /// the wake word answers it), and never needs a restart.
    @Test func aSatelliteThatLosesItsHubSaysSoOnceAndRecovers() async throws {
        let path = "/tmp/hark-hub-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).socket"
        defer { unlink(path) }
        let reports = Collected<String>()
        let brain = HubBrain(hub: .unix(path: path), room: "study", voice: try Self.voice(), report: { reports.append($0) })
        let request = try WAVFile.read(contentsOf: Fixtures.audio("home-en/turn_on_the_garage_light.wav")).pipelineSamples()

        // No hub: the wake word is this room's to answer, with a tone.
        #expect(await brain.claimWake(phrase: "jarvis", signalToNoise: 20, confidence: 1))
        let (lost, tone) = try await brain.respond(to: request, early: nil, continuing: false, name: "turn 1")
        #expect(lost.reply.isEmpty && lost.problem?.contains("the hub is out of reach") == true, "\(lost.problem ?? "")")
        #expect(tone.frameCount > 0 && tone.duration < 0.5, "\(tone.duration) s")
        _ = try await brain.whileWaiting()
        #expect(reports.all.count == 1)
        #expect(reports.all.first?.contains("lost the hub at unix://\(path)") == true, "\(reports.all)")

        // The hub comes up: the next request reaches it.
        let server = try await WyomingServer.bind(.unix(path: path), serving: try await WyomingServerTests.hark.value,
                                                  logger: Logger(label: "hark-test"))
        let running = Task { try await server.run() }
        let (heard, reply) = try await brain.respond(to: request, early: nil, continuing: false, name: "turn 2")
        #expect(heard.text == "turn on the garage light" && heard.problem == nil)
        #expect(heard.reply == "Home: Turning on the garage light." && reply.frameCount > 0)
        #expect(reports.all.count == 2 && reports.all.last?.contains("reached the hub") == true, "\(reports.all)")

        // It goes away again: logged once more, and a tone for every request meanwhile.
        running.cancel()
        _ = try? await running.value
        for turn in 3...4 {
            let (again, tone) = try await brain.respond(to: request, early: nil, continuing: false, name: "turn \(turn)")
            #expect(again.reply.isEmpty && tone.frameCount > 0 && tone.duration < 0.5)
            _ = try await brain.whileWaiting()
        }
        #expect(reports.all.count == 3, "\(reports.all)")
    }

    /// With the hub out of reach, the room's own apps answer what they understand, a question
    /// they ask is answered here, speech they do not understand gets a tone, and "what can I say"
    /// is told why the hub does not answer. The own apps start only once the hub is missed.
    @Test func withoutItsHubASatelliteAnswersWhatItsOwnAppsCan() async throws {
        let path = "/tmp/hark-hub-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).socket"
        let reports = Collected<String>()
        let started = Collected<Bool>()
        // A room's own apps: an assistant of its own, as `hark listen --hub` starts one.
        let own = try await WyomingServerTests.makeAssistant()
        let brain = HubBrain(hub: .unix(path: path), room: "study", voice: try Self.voice(),
                             ownApps: { started.append(true); return own }, report: { reports.append($0) })
        #expect(started.all.isEmpty)
        func said(_ fixture: String, from start: Double? = nil, to end: Double? = nil) throws -> [Int16] {
            let samples = try WAVFile.read(contentsOf: Fixtures.audio(fixture)).pipelineSamples()
            guard let start, let end else { return samples }
            return Array(samples[Int(start * 16_000)..<Int(end * 16_000)])
        }

        // Understood here: carried out here, the hub's absence noted in the report only.
        let (light, spoken) = try await brain.respond(to: try said("home-en/turn_on_the_garage_light.wav"), early: nil,
                                                      continuing: false, name: "turn 1")
        #expect(light.reply == "Home: Turning on the garage light." && light.handled && spoken.frameCount > 0)
        #expect(light.problem?.contains("the hub is out of reach") == true, "\(light.problem ?? "")")
        #expect(started.all.count == 1)
        #expect(reports.all.count == 1 && reports.all.first?.contains("own apps answer what they can") == true, "\(reports.all)")

        // Speech no app declares (audio-fixtures/live/session.wav, 9.4-12.9 s): a tone, no sentence.
        let sentence = try said("live/session.wav", from: 9.2, to: 13.4)
        let (other, tone) = try await brain.respond(to: sentence, early: nil, continuing: false, name: "turn 2")
        #expect(other.reply.isEmpty && tone.duration < 0.5, "\(other.reply)")
        // The same in a noisy room: still a tone, not "say it again?" (it may be the hub's to hear).
        let (noisy, noisyTone) = try await brain.respond(to: inSteadyNoise(sentence, level: noisyRoomLevel),
                                                         early: nil, continuing: false, name: "turn 2b")
        #expect(noisy.reply.isEmpty && !noisy.expectsAnswer && noisyTone.duration < 0.5, "\(noisy.reply)")

        // Asked what it can do (audio-fixtures/barge-in/interrupt.wav, 7.9-9.0 s): why first.
        let (help, _) = try await brain.respond(to: try said("barge-in/interrupt.wav", from: 7.7, to: 9.5), early: nil,
                                                continuing: false, name: "turn 3")
        #expect(help.text == "what can i say", "\(help.text)")
        #expect(help.reply.hasPrefix(HubBrain.cannotReachHub + " You can say"), "\(help.reply)")

        // A question of the own apps is answered here: "order a bowl of tomato soup" asks
        // "Pickup or delivery?", and "delivery" (a turn that continues it) goes on from there.
        let (order, _) = try await brain.respond(to: try said("conversations/soup.1.wav"), early: nil, continuing: false, name: "turn 4")
        #expect(order.expectsAnswer && order.reply.hasSuffix("Pickup or delivery?"), "\(order.reply)")
        let (answer, _) = try await brain.respond(to: try said("conversations/soup.2.wav"), early: nil, continuing: true, name: "turn 5")
        #expect(answer.text == "delivery" && answer.expectsAnswer, "\(answer.text): \(answer.reply)")
        #expect(started.all.count == 1 && reports.all.count == 1, "\(reports.all)")
    }
}
