import Foundation
import HarkGrammar
import HarkSpeech
import Testing

/// Clicks before speech (a microphone opening, a button) must not change what is heard; the
/// bursts inside speech itself must be left alone.
@Suite(.serialized) struct TransientSuppressorTests {
    /// A real recording with 0.4 s of a quiet room before it and a click 50 ms in: 4 ms at full
    /// scale, fading over 30 ms, as make-real-corpus.py puts before every recording of its
    /// click condition.
    static func clicked(_ fixture: String, roomLevel: Int16 = 30) throws -> [Int16] {
        let speech = try RecognizerTests.samples(fixture)
        // A fixed sequence, so every run hears the same room and the same click.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        var samples = [Int16](repeating: 0, count: 6_400) + speech
        for index in samples.indices {
            let room = random(-Int(roomLevel)...Int(roomLevel))
            samples[index] = Int16(max(-32_768, min(32_767, Int(samples[index]) + room)))
        }
        for index in 0..<544 {
            let fade = index < 64 ? 1.0 : exp(-Double(index - 64) / 96)
            let value = Double(random(-32_000...32_000)) * fade
            samples[800 + index] = Int16(max(-32_768, min(32_767, Double(samples[800 + index]) + value)))
        }
        return samples
    }

    @Test(arguments: RecognizerTests.homeRecordings)
    func findsTheClickBeforeARealVoiceAndNothingElse(_ fixture: String) throws {
        let samples = try Self.clicked(fixture + ".wav")
        let (cleaned, bursts) = TransientSuppressor().suppress(samples)
        #expect(bursts.count == 1)
        let burst = try #require(bursts.first)
        #expect(burst.samples.lowerBound == 800 && burst.samples.upperBound <= 800 + 1_280)
        #expect(burst.peakOverRoom > 40)
        // Turned down to the room's level; the speech after it is untouched.
        #expect(cleaned[800..<1_344].allSatisfy { abs(Int($0)) < 2_000 })
        #expect(cleaned[6_400...] == samples[6_400...])
        #expect(cleaned[..<800] == samples[..<800])
    }

    @Test(arguments: RecognizerTests.homeRecordings)
    func leavesRealSpeechAsItIs(_ fixture: String) throws {
        let samples = try RecognizerTests.samples(fixture + ".wav")
        let (cleaned, bursts) = TransientSuppressor().suppress(samples)
        #expect(bursts.isEmpty)
        #expect(cleaned == samples)
    }

    /// Real voices in real household noise after a click (audio-fixtures/click, from make
    /// bench-real): without suppression the click was heard as "forget it".
    static let clickedRecordings = [
        ("click/home-set_the_bedroom_light_green", "set the bedroom light green"),
        ("click/home-set_bedroom_light_to_red", "set bedroom light to red"),
    ]

    @Test func aClickNoLongerChangesWhatIsHeard() throws {
        var grammar = RecognizerTests.home
        // Hark's own phrases are in every top-level grammar; a click was heard as one of them.
        grammar.rules.append(.init(tag: "Cancel", template: try PhraseTemplate("cancel | forget it | never mind | stop")))
        var settings = RecognizerConfiguration()
        settings.rejectionMargin = -.infinity
        let recognizer = try Recognizer(configuration: settings)
        try recognizer.use(grammar)
        // Without the suppression, and with the room between words barred from being heard as
        // noise (pocketsphinx's own filler probability), the click is heard as words.
        settings.suppressesTransients = false
        settings.fillerProbability = nil
        let plain = try Recognizer(configuration: settings)
        try plain.use(grammar)
        var wrongWithoutSuppression = 0
        for (fixture, expected) in Self.clickedRecordings {
            let samples = try RecognizerTests.samples(fixture + ".wav")
            #expect(TransientSuppressor().suppress(samples).bursts.count == 1, "\(fixture)")
            let heard = try recognizer.recognize(samples).text, plainly = try plain.recognize(samples).text
            #expect(heard == expected, "\(fixture): without suppression \(plainly)")
            if plainly != expected { wrongWithoutSuppression += 1 }
        }
        #expect(wrongWithoutSuppression >= 1)
    }

    @Test func tooShortForAnythingLeavesTheAudioAlone() {
        let samples: [Int16] = [0, 32_000, -32_000, 0]
        #expect(TransientSuppressor().suppress(samples).samples == samples)
        #expect(TransientSuppressor().suppress([]).bursts.isEmpty)
    }
}
