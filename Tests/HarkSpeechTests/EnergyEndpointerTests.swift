import Foundation
import HarkSpeech
import Testing

@Suite struct EnergyEndpointerTests {
    /// A tone of `seconds` at `amplitude`, standing in for speech or background.
    static func tone(_ seconds: Double, amplitude: Double) -> [Int16] {
        (0..<Int(seconds * 16_000)).map { Int16(amplitude * sin(Double($0) * 2 * .pi * 300 / 16_000)) }
    }

    @Test func cutsOneUtteranceOutOfQuietAudio() {
        var endpointer = EnergyEndpointer()
        let audio = Self.tone(1, amplitude: 30) + Self.tone(1.2, amplitude: 8000) + Self.tone(1.5, amplitude: 30)
        let utterances = endpointer.feed(audio)
        #expect(utterances.count == 1)
        let seconds = Double(utterances[0].count) / 16_000
        // The speech, plus pre-roll before it and the end silence after it.
        #expect(seconds > 1.2 && seconds < 2.4, "utterance of \(seconds) s")
    }

    @Test func ignoresClicksShorterThanTheMinimum() {
        var endpointer = EnergyEndpointer()
        let audio = Self.tone(1, amplitude: 30) + Self.tone(0.05, amplitude: 8000) + Self.tone(1, amplitude: 30)
        #expect(endpointer.feed(audio).isEmpty)
        #expect(!endpointer.isInSpeech)
    }

    @Test func cutsAnUtteranceThatNeverEnds() {
        var settings = EnergyEndpointer.Settings()
        settings.maximumUtterance = 2
        var endpointer = EnergyEndpointer(settings: settings)
        let utterances = endpointer.feed(Self.tone(0.5, amplitude: 30) + Self.tone(5, amplitude: 8000))
        #expect(utterances.count >= 1)
        #expect(utterances.allSatisfy { $0.count <= 2 * 16_000 + EnergyEndpointer.frameLength })
    }

    @Test func findsTwoUtterancesFedInSmallPieces() {
        var endpointer = EnergyEndpointer()
        let audio = Self.tone(1, amplitude: 30) + Self.tone(0.8, amplitude: 6000) + Self.tone(1.2, amplitude: 30)
            + Self.tone(0.8, amplitude: 6000) + Self.tone(1.2, amplitude: 30)
        var found = 0
        var index = 0
        while index < audio.count {
            let end = min(index + 333, audio.count)
            found += endpointer.feed(Array(audio[index..<end])).count
            index = end
        }
        #expect(found == 2)
    }

    @Test func endsAnUtteranceOnRequestWithItsAudio() {
        var endpointer = EnergyEndpointer()
        #expect(endpointer.endNow() == nil)
        #expect(endpointer.feed(Self.tone(1, amplitude: 30) + Self.tone(0.8, amplitude: 8000) + Self.tone(0.25, amplitude: 30)).isEmpty)
        #expect(endpointer.isInSpeech)
        #expect(endpointer.quietSoFar >= 0.2 && endpointer.quietSoFar < EnergyEndpointer.Settings().endSilence)
        let utterance = endpointer.endNow()
        #expect(endpointer.utteranceSoFar.isEmpty)
        #expect(Double(utterance?.count ?? 0) / 16_000 > 0.8)
        #expect(!endpointer.isInSpeech && endpointer.quietSoFar == 0)
        #expect(endpointer.lastTrailingQuiet >= 0.2)
    }

    @Test func dropsATailTooShortToBeSpeech() {
        // 0.12 s of sound in all (a burst long enough to start an utterance, then a fainter
        // tail) has less loud audio than minimumLoud: the tail of a word or a knock, not a request.
        var endpointer = EnergyEndpointer()
        let audio = Self.tone(1, amplitude: 30) + Self.tone(0.12, amplitude: 8000) + Self.tone(1, amplitude: 30)
        #expect(endpointer.feed(audio).isEmpty)
        #expect(!endpointer.isInSpeech)
    }

    @Test func keepsAShortCrispWord() {
        // "one" said crisply in a quiet room is loud for about 0.2 s: a request, not a tail.
        var endpointer = EnergyEndpointer()
        let audio = Self.tone(1, amplitude: 30) + Self.tone(0.2, amplitude: 8000) + Self.tone(1, amplitude: 30)
        let utterances = endpointer.feed(audio)
        #expect(utterances.count == 1)
        #expect(Double(utterances.first?.count ?? 0) / 16_000 >= 0.2)
    }

    @Test func findsWhereASoundStops() {
        let endpointer = EnergyEndpointer(background: -60)
        let audio = Self.tone(0.3, amplitude: 8000) + Self.tone(0.5, amplitude: 0)
        let end = endpointer.endOfSound(in: audio)
        #expect(end == 4800)
        #expect(endpointer.endOfSound(in: Self.tone(0.5, amplitude: 8000)) == nil)
    }

    @Test func digitalSilenceDoesNotMakeItOversensitive() {
        var endpointer = EnergyEndpointer()
        endpointer.observe([Int16](repeating: 0, count: 16_000))
        #expect(endpointer.background == EnergyEndpointer.quietestBackground)
        // A faint hiss at -66 dBFS is still background.
        #expect(endpointer.feed(Self.tone(1, amplitude: 16)).isEmpty && !endpointer.isInSpeech)
    }
}
