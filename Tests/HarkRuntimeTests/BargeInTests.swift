import Foundation
import HarkAudio
@testable import HarkRuntime
@testable import HarkBench
import HarkSpeech
import HarkVoice
import HarkTestSupport
import Testing

/// Interrupting Hark while it speaks, on audio-fixtures/barge-in/interrupt.wav (see its
/// SOURCE.md): Hark's replies come back into the recording through a simulated room, at half
/// the level of the person, and the real spotter listens to what the echo canceller leaves.
@Suite(.serialized) struct BargeInTests {
    static let recording = Fixtures.audio("barge-in/interrupt.wav")
    /// The loudspeaker 3 ms from the microphone in a small room, its voice at -6 dB.
    static let room = SimulatedRoom(delay: 48, gain: 0.5, reverberation: 0.1)
    /// The two real wake words said over Hark's replies (interrupt.txt: start and end, s).
    static let wakeWordsOverReplies = [(10.977, 14.049), (24.450, 27.522)]

    /// Where each of them ends: the last sound of its stretch of the recording (s).
    static func wakeWordEnds() throws -> [Double] {
        let samples = try WAVFile.read(contentsOf: recording).pipelineSamples()
        return wakeWordsOverReplies.map { start, end in
            let stretch = Array(samples[Int(start * 16_000)..<Int(end * 16_000)])
            return start + Double(EchoBenchmark.endOfLastSound(stretch)) / 16_000
        }
    }

    static func run(_ settings: LiveSettings) async throws -> (LiveLoopTests.Events, LiveSummary, LiveLoop, Assistant) {
        let assistant = try await LiveLoopTests.assistant()
        let source = try RecordingSource(contentsOf: Self.recording, room: Self.room)
        let loop = LiveLoop(assistant: assistant, settings: settings, source: source, sink: nil, keepsPlayed: true)
        let (events, summary) = try await LiveLoopTests.run(loop)
        return (events, summary, loop, assistant)
    }

    @Test func theWakeWordStopsAReplyAndWhatFollowsIsAnswered() async throws {
        let (events, summary, loop, assistant) = try await Self.run(LiveSettings())
        let playedDurations = (await loop.playedClipsForTesting ?? []).map(\.duration)
        try #require(events.turns.map(\.report.text) == ["what time is it", "what can i say", "what time is it", "what can i say", "stop", "what time is it"],
                     "replies: \(events.turns.map(\.report.reply)), played: \(playedDurations), ends: \(events.turns.map(\.endedAt)), events: \(events.all.map { "\($0)".prefix(160) })")
        #expect(events.turns[2].report.intent == "GetTime")
        #expect(events.turns[4].report.reply == "OK.")
        #expect(events.problems.isEmpty)
        // Each reply stopped within 150 ms of the end of the wake word said over it.
        let stops = events.all.compactMap { if case .interrupted(let at, _) = $0 { at } else { nil } }
        #expect(stops.count == 2 && summary.interruptions == 2 && summary.wakeWords == 6)
        // The reply stops in the same 30 ms piece of audio in which the spotter is sure of the
        // wake word, which it is about 0.1 s after the phrase's end (it waits that long for a
        // better end): within 0.2 s of the last sound of the word.
        for (stop, wakeEnd) in zip(stops, try Self.wakeWordEnds()) {
            #expect(stop > wakeEnd - 0.5 && stop <= wakeEnd + 0.2, "stopped at \(stop) s, the wake word ended at \(wakeEnd) s")
        }
        // The interrupted replies were cut short: chime, reply, chime, reply, … as played.
        let clips = try #require(await loop.playedClipsForTesting)
        let help = try await assistant.speak(events.turns[1].report.reply)
        #expect(clips.count == 12)
        #expect(clips[3].duration < help.duration - 0.5 && clips[7].duration < help.duration - 0.5)
        // (Not to the sample: espeak-ng's output can shift a little with what other callers did before.)
        #expect(abs(clips[5].duration - (try await assistant.speak(events.turns[2].report.reply)).duration) < 0.1)
        #expect(summary.speakingSeconds > 5)
    }

    @Test func theGateKeepsItDeafUntilItHasSpoken() async throws {
        var settings = LiveSettings()
        settings.whileSpeaking = .gate
        let (events, summary, _, _) = try await Self.run(settings)
        // The wake words said over its replies are not heard at all.
        #expect(events.turns.map(\.report.text) == ["what time is it", "what can i say", "what can i say", "what time is it"], "problems: \(events.problems)")
        #expect(summary.interruptions == 0 && summary.wakeWords == 4 && summary.speakingSeconds == 0)
    }

    @Test func aRequestSaidOverASpokenAcknowledgementIsHeard() async throws {
        // The recording's last request follows its wake word in one breath ("Jarvis, what time
        // is it?"), so it is said over Hark's "Yes?", after replies have taught the canceller the room.
        var settings = LiveSettings()
        settings.acknowledgement = .speech
        let (events, _, loop, assistant) = try await Self.run(settings)
        #expect(events.turns.last?.report.text == "what time is it", "turns: \(events.turns.map(\.report.text))")
        #expect(events.turns.last?.report.intent == "GetTime")
        // "Yes?" was played before that answer, in full.
        let clips = try #require(await loop.playedClipsForTesting)
        let yes = try await assistant.speak("Yes?")
        #expect(clips.count >= 2 && abs(clips[clips.count - 2].duration - yes.duration) < 0.1)
        // Gated, the microphone is deaf while it says "Yes?", and the request's start is lost.
        settings.whileSpeaking = .gate
        let (gated, _, _, _) = try await Self.run(settings)
        #expect(gated.turns.last?.report.text != "what time is it", "turns: \(gated.turns.map(\.report.text))")
    }

    @Test func itsOwnVoiceSayingTheWakeWordDoesNotWakeIt() async throws {
        // Hark says its own wake word, loud, into a quiet room; the canceller must take it out.
        let speech = try SpeechService(settings: VoiceSettings())
        let said = try await speech.speak("Jarvis is my name. Jarvis. Ask Jarvis what time it is.")
        let played = try said.pipelineSamples()
        let heard = EchoBenchmark.mixed(SimulatedRoom(delay: 48, gain: 1, reverberation: 0.1).heard(played + [Int16](repeating: 0, count: 8_000)),
                                        Self.quietRoom(count: played.count + 8_000))

        /// Wake words found in what the microphone heard: as it was, or with Hark's voice taken
        /// out and each detection checked against what Hark was saying at that moment.
        func wakes(cleaning: Bool) throws -> Int {
            let spotter = try WakeWordSpotter(configuration: LiveSettings().wakeWord)
            // As the loop listens while it speaks: only a sure wake word may stop a reply.
            spotter.reportsTentative = false
            let echo = try EchoPath()
            echo.begin(played, queued: 0)
            var found = 0
            for start in stride(from: 0, to: heard.count, by: LiveSettings.chunkSamples) {
                let piece = Array(heard[start..<min(heard.count, start + LiveSettings.chunkSamples)])
                for detection in try spotter.process(cleaning ? echo.clean(piece) : piece) {
                    if try !cleaning || !echo.isOwnVoice(detection, spotter: spotter) { found += 1 }
                }
            }
            return found
        }
        // Without the canceller its own voice wakes it: the test is not vacuous.
        #expect(try wakes(cleaning: false) > 0)
        #expect(try wakes(cleaning: true) == 0)
    }

    /// A quiet room: faint hiss 50 dB below full scale.
    static func quietRoom(count: Int) -> [Int16] {
        var hiss = NoiseFloor(level: -50, seed: 7)
        return hiss.adding(to: [Int16](repeating: 0, count: count)[...])
    }
}
