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
}
