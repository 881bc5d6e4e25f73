import Foundation
@testable import HarkSpeech
import HarkTestSupport
import Testing

@Suite struct PronunciationDictionaryTests {
    /// A dictionary in the layout of Debian's: alternates as "word(2)", a tab as separator on
    /// some lines, words that begin like others, a line without phones, a word with a combining
    /// accent, no newline at the end.
    static let text = """
        'bout B AW T
        garage G ER AA ZH
        garage(2) G ER AA JH
        garages G ER AA ZH IH Z
        gar G AA R
        lamp\tL AE M P
        lamp(2)\tL AE M P\r
        light L AY T
        broken
        one's W AH N Z
        caf\u{65}\u{301} K AE F EY
        zorblax Z AO R B L AE K S
        """

    static func dictionary() throws -> PronunciationDictionary {
        let file = try temporaryDirectory().appendingPathComponent("words.dict")
        try text.write(to: file, atomically: false, encoding: .utf8)
        return PronunciationDictionary(path: file.path)
    }

    @Test func findsTheWordsAskedForWithTheirAlternatesInTheFilesOrder() throws {
        let found = try Self.dictionary().entries(for: ["lamp", "garage", "one's"])
        #expect(found.map(\.word) == ["garage", "garage(2)", "lamp", "lamp(2)", "one's"])
        #expect(found.map(\.phones) == ["G ER AA ZH", "G ER AA JH", "L AE M P", "L AE M P", "W AH N Z"])
    }

    @Test func aWordIsNotFoundByTheStartOfAnother() throws {
        let dictionary = try Self.dictionary()
        #expect(try dictionary.entries(for: ["gara"]).isEmpty)
        #expect(try dictionary.entries(for: ["gar"]).map(\.word) == ["gar"])
        #expect(try dictionary.entries(for: ["garages"]).map(\.word) == ["garages"])
    }

    @Test func theLastLineCountsWithoutANewlineAndALineWithoutPhonesDoesNot() throws {
        let dictionary = try Self.dictionary()
        #expect(try dictionary.entries(for: ["zorblax"]).map(\.phones) == ["Z AO R B L AE K S"])
        #expect(try dictionary.entries(for: ["broken"]).isEmpty)
        #expect(try dictionary.entries(for: []).isEmpty)
    }

    @Test func aWordIsFoundWhateverItsUnicodeNormalisation() throws {
        // The file spells it with a combining accent, the grammar with a precomposed "é".
        #expect(try Self.dictionary().entries(for: ["caf\u{E9}"]).map(\.phones) == ["K AE F EY"])
    }

    @Test func readsEveryEntryWhenAskedForAll() throws {
        let all = try Self.dictionary().allEntries()
        #expect(all.count == 11)
        #expect(all.first?.word == "'bout" && all.last?.word == "zorblax")
    }

    @Test func saysWhichFileIsMissing() throws {
        let missing = PronunciationDictionary(path: "/nonexistent/words.dict")
        #expect {
            _ = try missing.entries(for: ["garage"])
        } throws: { error in
            "\(error)".contains("/nonexistent/words.dict") && "\(error)".contains("missing")
        }
    }

    @Test func findsWordsInDebiansDictionary() throws {
        let dictionary = PronunciationDictionary(path: RecognizerConfiguration().dictionary)
        let found = try dictionary.entries(for: ["garage", "either", "zorblax"])
        #expect(found.contains { $0.word == "garage" && $0.phones == "G ER AA ZH" })
        #expect(found.filter { $0.word.hasPrefix("either") }.count >= 2)
        #expect(!found.contains { $0.word.hasPrefix("zorblax") })
    }
}

@Suite struct TemporaryDictionaryFileTests {
    @Test func theFileHoldsTheTextForTheBodyAndIsGoneAfterIt() throws {
        var seen = ""
        let answer = try PronunciationDictionary.withTemporaryFile("lamp L AE M P\n", extension: "dict") { path in
            seen = path
            return (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        }
        #expect(answer == "lamp L AE M P\n")
        #expect(!FileManager.default.fileExists(atPath: seen))
    }

    @Test func failingToRemoveTheFileIsAnError() throws {
        // The body takes the file away itself, so the removal afterwards fails.
        let error = #expect(throws: RecognitionError.self) {
            try PronunciationDictionary.withTemporaryFile("lamp L AE M P\n", extension: "dict") { path in
                try? FileManager.default.removeItem(atPath: path)
                return 1
            }
        }
        #expect(error?.message.contains("cannot remove the temporary file") == true)
    }

    @Test func theBodysOwnErrorIsTheOneReported() throws {
        let error = #expect(throws: RecognitionError.self) {
            try PronunciationDictionary.withTemporaryFile("lamp L AE M P\n", extension: "dict") { (path) throws(RecognitionError) -> Int in
                try? FileManager.default.removeItem(atPath: path)
                throw RecognitionError(.decoding, "the body failed")
            }
        }
        #expect(error?.message == "the body failed")
    }
}
