import Foundation
import HarkAudio
import HarkDialogue
import HarkExampleApps
@testable import HarkRuntime
import HarkIntents
import HarkShortcuts
import HarkStore
import HarkSpeech
import HarkTestSupport
import Testing

/// The device loop on audio-fixtures/live/session.wav: a minute of a person talking to Hark
/// (see its SOURCE.md), through the real wake-word spotter, endpointer, recogniser, dialogue
/// and voice.
@Suite(.serialized) struct LiveLoopTests {
    static let session = Fixtures.audio("live/session.wav")

    /// What the person in the session asks, in order, and what each turn must be understood as.
    static let expectedTurns: [(text: String, intent: String, slots: [String: String], isAnswer: Bool)] = [
        ("turn on the garage light", "ChangeLightState", ["name": "garage light", "state": "on"], false),
        ("what time is it", "GetTime", [:], false),
        ("start meditation in serene", "StartMeditation", [:], false),
        ("sleep", "StartMeditation", ["type": "sleep"], true),
        ("turn off the bedroom light", "ChangeLightState", ["name": "bedroom light", "state": "off"], false),
    ]

    static func assistant(recognizer: (inout RecognizerConfiguration) -> Void = { _ in }) async throws -> Assistant {
        var configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"),
            modelsDirectory: Fixtures.root.appendingPathComponent("models"),
            inProcessHandlers: ExampleApps.handlers, authenticator: FixedPIN("1234"),
            dataDirectory: try temporaryDirectory(), wakePhrase: "jarvis")
        // Replies that tell the time keep one length, so the session's timeline is the same every run.
        configuration.clock = { Date(timeIntervalSince1970: 1_800_000_000) }
        recognizer(&configuration.recognizer)
        return try await Assistant.start(configuration)
    }

    /// Collects the loop's events from its thread.
    final class Events: Sendable {
        private let lock = NSLock()
        nonisolated(unsafe) private var stored: [LiveEvent] = []
        func append(_ event: LiveEvent) { lock.withLock { stored.append(event) } }
        var all: [LiveEvent] { lock.withLock { stored } }
        var turns: [LiveTurn] { all.compactMap { if case .turn(let turn) = $0 { turn } else { nil } } }
        var problems: [String] { all.compactMap { if case .problem(let message) = $0 { message } else { nil } } }
        var wakes: Int { all.filter { if case .wake = $0 { true } else { false } }.count }
        var silences: [Bool] { all.compactMap { if case .noSpeech(_, let inConversation) = $0 { inConversation } else { nil } } }
    }

    static func run(_ loop: LiveLoop) async throws -> (Events, LiveSummary) {
        let events = Events()
        let summary = try await loop.run(onEvent: { events.append($0) })
        return (events, summary)
    }

    static func expectSessionUnderstood(_ events: Events, _ summary: LiveSummary) {
        let turns = events.turns
        #expect(turns.map(\.report.text) == expectedTurns.map(\.text), "problems: \(events.problems)")
        #expect(turns.map { $0.report.intent ?? "none" } == expectedTurns.map(\.intent))
        #expect(turns.map(\.isAnswer) == expectedTurns.map(\.isAnswer))
        for (turn, expected) in zip(turns, expectedTurns) where !expected.slots.isEmpty {
            #expect(turn.report.slots == expected.slots, "\(expected.text)")
        }
        // The meditation request asks which meditation; the answer comes without a wake word.
        #expect(turns.map(\.report.expectsAnswer) == [false, false, true, false, false])
        #expect(events.wakes == 5)
        // The wake word with nothing after it; never a question left unanswered.
        #expect(events.silences == [false])
        #expect(summary.turns == 5 && summary.wakeWords == 5 && summary.noSpeech == 1)
        #expect(events.problems.isEmpty)
    }

    @Test func answersEveryRequestInARecordedSession() async throws {
        let source = try RecordingSource(contentsOf: Self.session)
        let loop = LiveLoop(assistant: try await Self.assistant(), settings: LiveSettings(), source: source, sink: nil,
                            keepsPlayed: true)
        let (events, summary) = try await Self.run(loop)
        Self.expectSessionUnderstood(events, summary)
        #expect(events.turns.map(\.report.reply) == [
            "Home: Turning on the garage light.",
            events.turns[1].report.reply, // the time changes; checked below
            "Serene: Your daily meditation?",
            "Starting your sleep meditation.",
            "Home: Turning off the bedroom light.",
        ])
        #expect(events.turns[1].report.reply.hasPrefix("Home: It's "))
        // Requests said after a pause end at the finished phrase, well before the full end silence:
        // recognised early in the pause, or looked at again once the pause reached earlyEndSilence,
        // which the loop sees at the end of the audio piece (30 ms) that crosses it.
        let piece = Double(LiveSettings.chunkSamples) / Double(PipelineAudio.sampleRate)
        for turn in events.turns where !turn.isAnswer {
            #expect(turn.latency.endSilence < LiveSettings().earlyEndSilence + piece, "\(turn.report.text)")
            #expect(turn.latency.endSilence < LiveSettings().endSilence / 2, "\(turn.report.text)")
            #expect(turn.latency.total >= LiveSettings().earlyEndSilence, "\(turn.report.text)")
        }
        // Five chimes and five replies were played, in that order.
        let played = try #require(try await loop.played())
        #expect(played.duration > 5 * Chime.clip().duration)
        #expect(summary.audioSeconds > 54 && summary.audioSeconds < 56)
    }

    /// At the strictest sensitivity some of the session's wake words fall short of the threshold.
    /// Heard as tentative, the ones a request follows at once are answered, without a chime; the
    /// one nothing follows is let go in silence. Without tentative wake words they are missed.
    @Test func aTentativeWakeWordIsAnsweredOnlyWhenAClearRequestFollows() async throws {
        var settings = LiveSettings()
        settings.sensitivity = 0
        settings.tentativeWakeOdds = 1
        let loop = LiveLoop(assistant: try await Self.assistant(), settings: settings,
                            source: try RecordingSource(contentsOf: Self.session), sink: nil, keepsPlayed: true)
        let (events, summary) = try await Self.run(loop)
        #expect(events.turns.map(\.report.text) == Self.expectedTurns.map(\.text), "problems: \(events.problems)")
        let tentative = events.all.enumerated().compactMap { index, event in
            if case .tentativeWake = event { index } else { nil }
        }
        #expect(!tentative.isEmpty, "no wake word of the session fell below odds 6")
        for index in tentative {
            // Each is followed by a request answered or by a dismissal, never by "nothing said".
            switch events.all[index + 1] {
            case .turn(let turn): #expect(!turn.isAnswer)
            case .dismissed: break
            default: Issue.record("after a tentative wake word: \(events.all[index + 1])")
            }
        }
        let answeredTentatively = tentative.filter { if case .turn = events.all[$0 + 1] { true } else { false } }.count
        #expect(answeredTentatively >= 1)
        // A chime for each sure wake word only, and a reply for each turn.
        let played = try #require(await loop.playedClipsForTesting)
        #expect(played.count == events.wakes + events.turns.count)
        #expect(summary.wakeWords == events.wakes + answeredTentatively)
        #expect(summary.tentativeWakes == tentative.count && summary.tentativeAnswered == answeredTentatively)
        #expect(summary.humanReadable().contains("\(tentative.count) tentative wake words: \(answeredTentatively) borne out"))

        settings.tentativeWakeOdds = nil
        let strict = LiveLoop(assistant: try await Self.assistant(), settings: settings,
                              source: try RecordingSource(contentsOf: Self.session), sink: nil, keepsPlayed: false)
        let (missed, _) = try await Self.run(strict)
        #expect(missed.turns.count == events.turns.count - answeredTentatively)
        #expect(!missed.all.contains { if case .tentativeWake = $0 { true } else { false } })
    }

    /// A request after a tentative wake word that a noisy room asks about first is asked about
    /// instead of let go: a wake word half heard over a kitchen's noise then costs a "yes", not
    /// the whole request said again. Here every room asks first, and no request is clear (a
    /// reach no margin clears), so every tentative wake word's request that would be acted on in
    /// a quiet room is asked about.
    @Test func aTentativeWakeWordsUnclearRequestIsAskedAbout() async throws {
        var settings = LiveSettings()
        settings.sensitivity = 0
        settings.tentativeWakeOdds = 1
        let assistant = try await Self.assistant { $0.noisyConfirmation = NoisyConfirmation(below: 200, reach: 10) }
        let loop = LiveLoop(assistant: assistant, settings: settings, source: try RecordingSource(contentsOf: Self.session),
                            sink: nil, keepsPlayed: false)
        let (events, summary) = try await Self.run(loop)
        let afterTentative = events.all.indices.compactMap { index -> LiveTurn? in
            guard case .tentativeWake = events.all[index], index + 1 < events.all.count,
                  case .turn(let turn) = events.all[index + 1] else { return nil }
            return turn
        }
        try #require(!afterTentative.isEmpty, "no request followed a tentative wake word: \(events.all)")
        for turn in afterTentative {
            let guess = try #require(turn.report.guess, "\(turn.report.text): acted on")
            #expect(turn.report.reply == "Did you say \(guess)?")
            #expect(turn.report.expectsAnswer && !turn.report.handled)
            #expect(Self.expectedTurns.contains { $0.text == guess }, "asked about \(guess)")
        }
        #expect(summary.tentativeAnswered == afterTentative.count)
        #expect(events.problems.isEmpty)
    }

    /// After a tentative wake word a clear request of two words or more is acted on, one a noisy
    /// room asks about first is asked about, and anything else is let go: a lone word turns up in
    /// any speech, and so does a phrase rejected by a little.
    @Test func aTentativeWakeWordIsBorneOutByARequestOfSomeWords() {
        func heard(_ words: [String], clear: Bool) -> Recognition {
            var recognition = Recognition(heardElsewhere: words.joined(separator: " "), frames: 100, framesAfterLastWord: nil)
            recognition.isClear = clear
            return recognition
        }
        func guessed(_ words: [String], forTheRoom: Bool) -> Recognition {
            var recognition = Recognition(heardElsewhere: "", frames: 100, framesAfterLastWord: nil)
            recognition.guess = words
            recognition.isAskedForTheRoom = forTheRoom
            return recognition
        }
        let lamp = ["turn", "off", "the", "lamp"]
        #expect(TentativeWakeFollowUp(heard(lamp, clear: true)) == .act)
        #expect(TentativeWakeFollowUp(heard(["call", "amelia"], clear: true)) == .act)
        // Accepted in a quiet room, but not clearly: no noisy room asked first.
        #expect(TentativeWakeFollowUp(heard(lamp, clear: false)) == .dismiss)
        #expect(TentativeWakeFollowUp(guessed(lamp, forTheRoom: true)) == .ask)
        #expect(TentativeWakeFollowUp(guessed(lamp, forTheRoom: false)) == .dismiss)
        #expect(TentativeWakeFollowUp(heard(["five"], clear: true)) == .dismiss)
        #expect(TentativeWakeFollowUp(heard(["five"], clear: false)) == .dismiss)
        #expect(TentativeWakeFollowUp(guessed(["five"], forTheRoom: true)) == .dismiss)
        #expect(TentativeWakeFollowUp(heard([], clear: false)) == .dismiss)
        #expect(TentativeWakeFollowUp(.nothingHeard) == .dismiss)
    }

    @Test func neverTakesItsOwnReplyAsSpeech() async throws {
        let assistant = try await Self.assistant()
        // A loudspeaker next to the microphone: everything played comes back at half its level.
        // Without the chime, which is deliberately not gated: this is about the replies.
        let source = try RecordingSource(contentsOf: Self.session, echo: 0.5)
        var settings = LiveSettings()
        settings.acknowledgement = .none
        let loop = LiveLoop(brain: assistant, settings: settings, source: source, sink: nil,
                            keepsPlayed: false, gatesOwnSpeech: true)
        let (events, summary) = try await Self.run(loop)
        Self.expectSessionUnderstood(events, summary)
    }

    @Test func withoutTheGateItWouldHearItself() async throws {
        // The same room with the gate off: Hark's own question comes back as the "answer". This
        // shows the echo is loud enough to matter, so the test above proves the gate.
        let assistant = try await Self.assistant()
        // A loudspeaker next to the microphone: everything played comes back at half its level.
        let source = try RecordingSource(contentsOf: Self.session, echo: 0.5)
        var settings = LiveSettings()
        settings.acknowledgement = .none
        let loop = LiveLoop(brain: assistant, settings: settings, source: source, sink: nil,
                            keepsPlayed: false, gatesOwnSpeech: false)
        let (events, _) = try await Self.run(loop)
        // Without the chime, so the only echo is of replies. Hark takes the echo of "Your daily
        // meditation?" as speech, and answers itself before the person says "Sleep." (at 31.0 s).
        let answers = events.turns.filter(\.isAnswer)
        let firstAnswer = try #require(answers.first)
        #expect(firstAnswer.endedAt < 31.0)
        #expect(answers.map(\.report.text) != ["sleep"])
    }

    @Test func aQuestionLeftUnansweredIsAskedAgainThenDropped() async throws {
        // "Jarvis … start meditation in serene" and then nothing at all.
        let clip = try WAVFile.read(contentsOf: Self.session)
        let samples = try clip.pipelineSamples()
        let start = Int(21.0 * 16_000), end = Int(24.5 * 16_000)
        let audio = Array(samples[start..<end]) + [Int16](repeating: 0, count: 20 * 16_000)
        let source = RecordingSource(samples: audio, name: "unanswered")
        let loop = LiveLoop(assistant: try await Self.assistant(), settings: LiveSettings(), source: source, sink: nil)
        let (events, _) = try await Self.run(loop)
        #expect(events.silences == [true, true])
        // Asked, asked again shorter, then let go: the loop goes back to waiting for the wake word.
        #expect(events.turns.map(\.report.reply) == [
            "Serene: Your daily meditation?",
            "daily?",
            "Sorry, I still didn't get that. Let's leave it there.",
        ])
        #expect(events.turns.last?.report.expectsAnswer == false)
    }

    /// In a room with a steady noise (a fan, a tap) the answer to a question is listened for
    /// against the room's own level, as the request was: started from a quiet room's level,
    /// the noise counted as speech from the first frame and the answer was lost in ten seconds of it.
    @Test func inALoudRoomTheAnswerToAQuestionIsHeard() async throws {
        let samples = try WAVFile.read(contentsOf: Self.session).pipelineSamples()
        // "Jarvis … start meditation in serene", the question, and "sleep", with 5 s of the room first.
        let speech = [Int16](repeating: 0, count: 5 * 16_000) + Array(samples[Int(21.0 * 16_000)..<Int(33.0 * 16_000)])
            + [Int16](repeating: 0, count: 3 * 16_000)
        // About -42 dBFS of steady noise: some 20 dB below the person's loudest.
        let source = RecordingSource(samples: inSteadyNoise(speech, level: 260), name: "loud-room")
        let loop = LiveLoop(assistant: try await Self.assistant(), settings: LiveSettings(), source: source, sink: nil)
        let (events, _) = try await Self.run(loop)
        #expect(events.turns.map(\.report.text) == ["start meditation in serene", "sleep"], "problems: \(events.problems)")
        #expect(events.turns.map(\.isAnswer) == [false, true])
        #expect(events.turns.last?.report.reply == "Starting your sleep meditation.")
    }

    /// In a noisy room a request Hark could not make out is asked for again, and the request
    /// said again without the wake word is heard: carried out, or in this noise (steady white
    /// noise some 16 dB below the voice, compensated as a household noise) asked about first.
    @Test func aRequestLostInANoisyRoomIsAskedForAgain() async throws {
        let samples = try WAVFile.read(contentsOf: Self.session).pipelineSamples()
        func cut(_ from: Double, _ to: Double) -> [Int16] { Array(samples[Int(from * 16_000)..<Int(to * 16_000)]) }
        let quiet = { (seconds: Double) in [Int16](repeating: 0, count: Int(seconds * 16_000)) }
        // "Jarvis …", then the sentence not meant for Hark where a request should be, then
        // "turn on the garage light" after Hark's question; the room noisy throughout.
        let speech = quiet(5) + cut(1.5, 2.793) + cut(9.407, 12.926) + quiet(6) + cut(2.793, 4.407) + quiet(4)
        let source = RecordingSource(samples: inSteadyNoise(speech, level: noisyRoomLevel), name: "noisy-room")
        let loop = LiveLoop(assistant: try await Self.assistant(), settings: LiveSettings(), source: source, sink: nil)
        let (events, _) = try await Self.run(loop)
        let turns = events.turns
        #expect(turns.map(\.report.reply).first == DialogueEngine.notHeardOverNoise, "problems: \(events.problems)")
        #expect(turns.map(\.isAnswer) == [false, true])
        let retry = try #require(turns.last?.report, "replies: \(turns.map(\.report.reply))")
        if retry.expectsAnswer {
            #expect(retry.reply == "Did you say turn on the garage light?")
        } else {
            #expect(retry.intent == "ChangeLightState")
            #expect(retry.slots == ["name": "garage light", "state": "on"])
        }
        #expect(events.wakes == 1)
    }

    /// A noise that came and went in the seconds before the wake word (here 30 % of each second)
    /// is the room's, though the request itself is said in a moment of quiet: it is asked about
    /// first, as in a noisy room. After a quiet room the same request is carried out.
    @Test func aRequestAfterANoiseThatCameAndWentIsAskedAbout() async throws {
        let samples = try WAVFile.read(contentsOf: Self.session).pipelineSamples()
        // "Jarvis, turn on the garage light", a second of quiet before it and four after.
        let turn = [Int16](repeating: 0, count: 16_000) + Array(samples[Int(1.5 * 16_000)..<Int(4.407 * 16_000)])
            + [Int16](repeating: 0, count: 4 * 16_000)
        var replies: [String] = []
        for before in [inBursts(seconds: 5, level: 1_000, share: 0.3), [Int16](repeating: 0, count: 5 * 16_000)] {
            // Asked about whatever its margin, in a room noisy by the recogniser's measure.
            let assistant = try await Self.assistant { $0.noisyConfirmation = NoisyConfirmation(below: 30, reach: 10) }
            let source = RecordingSource(samples: before + turn, name: "room-before")
            let (events, _) = try await Self.run(LiveLoop(assistant: assistant, settings: LiveSettings(), source: source, sink: nil))
            #expect(events.wakes == 1 && events.problems.isEmpty, "problems: \(events.problems)")
            replies += events.turns.map(\.report.reply)
        }
        #expect(replies == ["Did you say turn on the garage light?", "Home: Turning on the garage light."])
    }

    @Test func speechNotMeantForHarkIsIgnored() async throws {
        // The session's sentence about the weather, alone: no wake word, no turn.
        let samples = try WAVFile.read(contentsOf: Self.session).pipelineSamples()
        let source = RecordingSource(samples: Array(samples[Int(9.0 * 16_000)..<Int(14.0 * 16_000)]), name: "chatter")
        let loop = LiveLoop(assistant: try await Self.assistant(), settings: LiveSettings(), source: source, sink: nil)
        let (events, summary) = try await Self.run(loop)
        #expect(events.wakes == 0 && events.turns.isEmpty)
        #expect(summary.wakeWords == 0)
    }
}

/// The loop through real ALSA: the session captured from a raw file by alsa-lib's `file` plugin,
/// the chimes and replies played into another raw file.
@Suite(.serialized) struct LiveLoopALSATests {
    /// Ends a capture after a number of samples: a `file` plugin capture never runs dry.
    final class LimitedSource: LiveAudioSource {
        let inner: CaptureSource
        var left: Int
        init(_ inner: CaptureSource, samples: Int) {
            self.inner = inner
            left = samples
        }
        var name: String { inner.name }
        nonisolated(nonsending) func read(frames: Int) async throws -> [Int16]? {
            guard left > 0 else { return nil }
            guard let samples = try await inner.read(frames: min(frames, left)) else { return nil }
            left -= samples.count
            return samples
        }
        func discard(spokenFor seconds: Double) throws { try inner.discard(spokenFor: seconds) }
    }

    @Test func capturesFromALSAAndPlaysEveryReplyThroughIt() async throws {
        let directory = try temporaryDirectory()
        let microphone = directory.appendingPathComponent("microphone.raw")
        let loudspeaker = directory.appendingPathComponent("loudspeaker.raw")
        let session = try WAVFile.read(contentsOf: LiveLoopTests.session).pipelineSamples()
        try ALSATestDevices.writeRawInt16(session, to: microphone)

        let source = LimitedSource(CaptureSource(ALSATestDevices.fileInput(microphone)), samples: session.count)
        let sink = PlaybackSink(ALSATestDevices.fileOutput(loudspeaker))
        // The file plugin's capture does not run on while Hark speaks (its null slave has no clock),
        // so the 7 s the session leaves for the meditation question and its answer all count as
        // waiting: allow 8 s.
        var settings = LiveSettings()
        settings.noSpeechTimeout = 8
        let loop = LiveLoop(assistant: try await LiveLoopTests.assistant(), settings: settings,
                            source: source, sink: sink, keepsPlayed: true)
        let events = LiveLoopTests.Events()
        _ = try await loop.run(onEvent: { events.append($0) })

        // The same five requests are understood.
        #expect(events.turns.map(\.report.text) == LiveLoopTests.expectedTurns.map(\.text), "problems: \(events.problems)")
        #expect(events.problems.isEmpty)

        // What reached the loudspeaker is exactly what the loop played: five chimes and five
        // replies, in order, sample for sample (the file plugin writes each clip as opened: S16).
        let clips = try #require(await loop.playedClipsForTesting)
        #expect(clips.count == 10)
        #expect(clips.filter { $0 == Chime.clip() }.count == 5)
        let written = try ALSATestDevices.rawInt16(loudspeaker)
        #expect(written == clips.flatMap { $0.int16Samples() })
    }
}

/// Automations speak on the device while it waits for the wake word.
@Suite struct LiveLoopAutomationTests {
    @Test func anAutomationDueNowIsSpokenWhileWaiting() async throws {
        let data = try temporaryDirectory()
        let database = data.appendingPathComponent("shortcuts.sqlite")
        let store = try ShortcutStore(url: database)
        let shortcut = try store.addShortcut(phrase: "porch light", steps: [
            ShortcutStep(app: "home", intent: "ChangeLightState", values: ["name": "garage light", "state": "on"]),
        ])
        // Due this minute, every day; made two minutes ago so this minute's firing counts.
        let now = Date()
        let minutes = Calendar.current.component(.hour, from: now) * 60 + Calendar.current.component(.minute, from: now)
        try store.addAutomation(shortcutID: shortcut.id, time: TimeOfDay(minutes: minutes), days: .everyDay,
                                at: now.addingTimeInterval(-120))
        var configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: nil,
            inProcessHandlers: ExampleApps.handlers, authenticator: FixedPIN(nil), dataDirectory: data)
        configuration.database = database
        let assistant = try await Assistant.start(configuration)
        // Three seconds of a quiet room.
        let source = RecordingSource(samples: [Int16](repeating: 0, count: 3 * 16_000), name: "quiet")
        let loop = LiveLoop(assistant: assistant, settings: LiveSettings(), source: source, sink: nil, keepsPlayed: true)
        let events = LiveLoopTests.Events()
        _ = try await loop.run(onEvent: { events.append($0) })
        let spoken = events.all.compactMap { if case .automation(let phrase, let reply) = $0 { "\(phrase): \(reply)" } else { nil } }
        #expect(spoken == ["porch light: Home: Turning on the garage light."])
        #expect(try await loop.played() != nil)
        #expect(try store.donations().count == 1)
    }
}
