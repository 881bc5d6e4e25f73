import Foundation
import HarkAudio
import HarkGrammar
@testable import HarkSpeech
import HarkTestSupport
import Testing

@Suite struct OtherWordsTests {
    static func list(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("other-words-\(UUID().uuidString).txt")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    @Test func theShippedListHoldsFiveHundredCommonWords() throws {
        let words = try OtherWords.read(Fixtures.root.appendingPathComponent("models/other-words.txt"))
        #expect(words.count == 500)
        #expect(Set(words).count == 500)
        #expect(words.prefix(3) == ["the", "to", "i"])
        #expect(words.allSatisfy { $0 == $0.lowercased() && !$0.contains(" ") })
    }

    @Test func aListIsReadSkippingCommentsAndBlankLines() throws {
        let url = try Self.list("# common words\n\nThe\n  of \n")
        #expect(try OtherWords.read(url) == ["the", "of"])
    }

    @Test func aBadListIsRefusedWithItsNameAndLine() throws {
        let two = try Self.list("the\nto be\n")
        #expect(throws: RecognitionError.self) { try OtherWords.read(two) }
        do {
            _ = try OtherWords.read(two)
        } catch {
            #expect(error.message.contains("\(two.path):2: expected one word a line"), "\(error.message)")
        }
        let empty = try Self.list("# nothing\n\n")
        do {
            _ = try OtherWords.read(empty)
            Issue.record("an empty list was read")
        } catch {
            #expect(error.message.contains("lists no words"))
        }
        do {
            _ = try OtherWords.read(URL(fileURLWithPath: "/nonexistent/other-words.txt"))
            Issue.record("a missing list was read")
        } catch {
            #expect(error.message.contains("cannot read the list of other words /nonexistent/other-words.txt"))
        }
    }

    /// A word of the grammar, or one said like a word of it, would let the loop take the phrase's
    /// own words away from it.
    @Test func theLoopLeavesOutTheGrammarsWordsAndWordsSaidLikeThem() {
        let sounds = ["two": ["T UW"], "to": ["T UW", "T AH"], "too": ["T UW"], "the": ["DH AH", "DH IY"],
                      "tea": ["T IY"], "four": ["F AO R"]]
        let beside = OtherWords.beside(grammarWords: ["two", "four"], ["the", "to", "too", "two", "tea", "xyzzy", "for"],
                                       pronunciations: { sounds[$0] ?? [] })
        #expect(beside == ["the", "tea"])
    }

    /// The search beside other words is worth its cost only between a margin that clears the
    /// threshold anyway and one the allowance could not lift into the ask band.
    @Test func theOtherWordsAreSearchedOnlyWhereTheyCouldChangeTheVerdict() {
        let threshold = -1.78, askMargin = -2.09
        func decides(_ margin: Double) -> Bool {
            Confidence.otherWordsCouldDecide(margin: margin, threshold: threshold, askMargin: askMargin)
        }
        let clear = threshold + Confidence.otherWordsClearance
        #expect(!decides(clear) && !decides(0))
        #expect(decides(clear - 0.01) && decides(threshold) && decides(askMargin))
        let hopeless = askMargin - Confidence.otherWordsAllowance - Confidence.otherWordsHopeless
        #expect(decides(hopeless))
        #expect(!decides(hopeless - 0.01) && !decides(-10))
        // The window follows a stricter threshold and a wider ask band.
        #expect(Confidence.otherWordsCouldDecide(margin: clear, threshold: -1.0, askMargin: -1.5))
        #expect(Confidence.otherWordsCouldDecide(margin: hopeless - 0.01, threshold: threshold, askMargin: -3))
    }

    @Test func theLoopIsEnteredFromTheStartAndLeftForTheEnd() {
        let arcs = OtherWords.loopArcs(words: ["the", "of"], start: 0, final: 5, firstFreeState: 6)
        #expect(arcs.count == 5)
        #expect(arcs.contains { $0 == (0, 6, nil, OtherWords.entryProbability) })
        #expect(arcs.contains { $0 == (6, 7, "the", OtherWords.wordProbability) })
        #expect(arcs.contains { $0 == (6, 7, "of", OtherWords.wordProbability) })
        #expect(arcs.contains { $0 == (7, 6, nil, 1) })
        #expect(arcs.contains { $0 == (7, 5, nil, 1) })
        #expect(OtherWords.addedStates == 2)
    }
}

/// Real decoding of real voices in a quiet room, against the home phrases and a keypad's digits.
@Suite struct OtherWordsRecognizerTests {
    static var keypad: Grammar {
        get throws {
            var grammar = RecognizerTests.home
            grammar.rules.append(.init(tag: "PressKey", template: try PhraseTemplate("<digit>"), parameterValues: ["digit": "digit"]))
            let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
            grammar.values["digit"] = digits.map { .init(spoken: $0, identifier: $0) }
            return grammar
        }
    }

    static func recognizer(otherWords: Bool, quietAbove: Double? = nil) throws -> Recognizer {
        var configuration = RecognizerConfiguration()
        // The digits were recorded at 8 kHz: judged here as full-band audio would be, so that
        // only the other words decide (a telephone band's asking: `TelephoneBandRecognizerTests`).
        configuration.telephoneBandReach = nil
        if otherWords {
            configuration.otherWords = try OtherWords.read(Fixtures.root.appendingPathComponent("models/other-words.txt"))
        }
        if let quietAbove { configuration.otherWordsQuietAbove = quietAbove }
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(keypad)
        return recognizer
    }

    /// "flooring" (audio-fixtures/other-words) is forced onto "four" by the grammar alone, with a
    /// margin that passes; with the common words beside it, they explain it better.
    @Test func aRealWordThatIsNoCommandIsHeardAsOtherWords() throws {
        let samples = try RecognizerTests.samples("other-words/flooring.wav")
        let plain = try Self.recognizer(otherWords: false).recognize(samples)
        #expect(!(plain.rejection ?? "").contains("other words"), "\(plain.rejection ?? plain.text)")
        #expect(plain.features?.checkedAgainstOtherWords == false)
        let checked = try Self.recognizer(otherWords: true).recognize(samples)
        #expect(checked.isRejected)
        #expect(checked.guess.isEmpty)
        #expect((checked.rejection ?? "").hasPrefix("other words fit better (\""), "\(checked.rejection ?? checked.text)")
    }

    static func digit(_ fixture: String) throws -> (said: String, samples: [Int16]) {
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.audio("\(fixture).json"))) as? [String: Any]
        return (try #require(sidecar?["text"] as? String), try RecognizerTests.samples("\(fixture).wav"))
    }

    /// A real digit by a speaker the choices were not made on (audio-fixtures/digits) that the
    /// grammar alone hears right but too unsure to accept: beside the other words it still wins,
    /// and is judged with the allowance. (The other digits there are heard clearly now that the
    /// room between words may be a filler, `RecognizerConfiguration.fillerProbability`.)
    @Test(arguments: ["digits/digit-lucas-4-17"])
    func aRealDigitStillBeatsTheOtherWords(_ fixture: String) throws {
        let (said, samples) = try Self.digit(fixture)
        let heard = try Self.recognizer(otherWords: true).recognize(samples)
        #expect(heard.text == said && !heard.isRejected, "\(heard.rejection ?? heard.text)")
        #expect(heard.features?.checkedAgainstOtherWords == true)
        // Above the line the search beside other words never runs: too unsure, no allowance.
        let loud = try Self.recognizer(otherWords: true, quietAbove: 90).recognize(samples)
        #expect(loud.features?.checkedAgainstOtherWords == false)
        #expect(loud.isRejected && loud.guess == [said], "\(loud.rejection ?? loud.text) \(loud.margin)")
        #expect(heard.margin > loud.margin)
    }

    /// Real digits the grammar alone hears clearly (audio-fixtures/digits): the other words could
    /// not change the verdict, so they are not searched, and the margin is the grammar's own.
    @Test(arguments: ["digits/digit-george-9-34", "digits/digit-yweweler-4-17"])
    func aDigitHeardClearlyIsNotSearchedAgain(_ fixture: String) throws {
        let (said, samples) = try Self.digit(fixture)
        let heard = try Self.recognizer(otherWords: true).recognize(samples)
        #expect(heard.text == said && !heard.isRejected, "\(heard.rejection ?? heard.text)")
        #expect(heard.features?.checkedAgainstOtherWords == false)
        let plain = try Self.recognizer(otherWords: false).recognize(samples)
        #expect(heard.margin == plain.margin)
        #expect(heard.margin >= RecognizerConfiguration().rejectionMargin + Confidence.otherWordsClearance)
    }

    /// A longer phrase is never checked: the loop would cost a second search for nothing.
    @Test func aLongerPhraseIsNotChecked() throws {
        let heard = try Self.recognizer(otherWords: true).recognize(RecognizerTests.samples("home-en/what_time_is_it.wav"))
        #expect(heard.text == "what time is it", "\(heard.rejection ?? heard.text)")
        #expect(heard.features?.checkedAgainstOtherWords == false)
    }
}
