import Foundation
import HarkAudio
import HarkRuntime
import HarkServer
import HarkTestSupport
import HarkVoice
import Testing

/// More than one text spoken at once (`hark serve`'s speech): the server's own espeak-ng and
/// speech workers, real `hark speak-worker` processes.
@Suite struct SpeechPoolTests {
    /// Two long texts asked for at once are spoken side by side, one of them by a worker, and
    /// each sounds as the server's own voice says it, words from the lexicon included.
    @Test func twoTextsAreSpokenAtOnceAndSoundAsTheServersOwnVoice() async throws {
        // "ghoti" said from the phones of "fishing boats and nets": a word the workers must learn
        // from the server, and far longer than espeak-ng's own reading of it.
        let local = try SpeechService(settings: VoiceSettings(voice: "en-us", rate: 190),
                                      lexicon: try SpokenLexicon(arpabet: [("ghoti", "F IH SH IH NG B OW T S AE N D N EH T S")]))
        let word = "ghoti"
        let pool = SpeechPool(local: local, executable: try Fixtures.executable("hark"), workers: 1)
        let texts = (1...2).map { number in
            String(repeating: "Text \(number) says \(word) while the other one is spoken. ", count: 30)
        }
        async let first = pool.speak(texts[0])
        async let second = pool.speak(texts[1])
        let spoken = try await [first, second]
        #expect(await pool.mostAtOnce == 2)
        for (text, clip) in zip(texts, spoken) {
            let alone = try await local.speak(text)
            // espeak-ng's timing varies by a few milliseconds with what it said before.
            #expect(clip.duration > 60 && abs(clip.duration - alone.duration) < 0.5, "\(clip.duration) s against \(alone.duration) s")
        }
        // Said from its spelling instead, the 30 "ghoti" take seconds less.
        let plain = try await SpeechService(settings: VoiceSettings(voice: "en-us", rate: 190)).speak(texts[1])
        #expect(spoken[1].duration - plain.duration > 10, "\(spoken[1].duration) s against \(plain.duration) s")
        await pool.stop()
    }

    /// A worker that cannot run is reported, and its text is spoken by the server itself.
    @Test func aTextAWorkerCannotSpeakIsSpokenHereAndTheFailureReported() async throws {
        let local = try await WyomingServerTests.hark.value.assistant.speech
        let reports = SatelliteTests.Collected<String>()
        let pool = SpeechPool(local: local, executable: URL(fileURLWithPath: "/bin/false"), workers: 1, report: { reports.append($0) })
        let text = String(repeating: "A sentence long enough to keep the first speaker busy. ", count: 30)
        async let first = pool.speak(text)
        async let second = pool.speak("Hello.")
        let spoken = try await [first, second]
        #expect(spoken.allSatisfy { $0.duration > 0.3 })
        #expect(reports.all.count == 1 && reports.all.first?.contains("speech worker 1") == true, "\(reports.all)")
        await pool.stop()
    }
}
