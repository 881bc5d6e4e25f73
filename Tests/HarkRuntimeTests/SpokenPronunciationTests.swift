import Foundation
import HarkAudio
import HarkGrammar
import HarkRuntime
import HarkSpeech
import HarkTestSupport
import HarkVoice
import Testing

/// Hark says a word the way it listens for it: phones written by hand for listening are the
/// phones espeak-ng speaks.
@Suite(.serialized) struct SpokenPronunciationTests {
    /// An app whose word "ghoti" is pronounced "fish", beside the dictionary's "goatee"
    /// (G OW T IY), which is how espeak-ng reads the spelling "ghoti".
    static func aquarium() throws -> URL {
        try temporaryApps(folder: "aquarium", manifest: """
        name: Aquarium
        vocabulary:
          - word: ghoti
            pronunciation: F IH SH
        intents:
          FeedFish:
            phrases: [feed the ghoti]
            responses:
              success: Feeding the ghoti.
          GroomBeard:
            phrases: [trim the goatee]
            responses:
              success: Trimming.
        """)
    }

    /// Every phone of the model survives the trip to espeak-ng's phonemes and back through
    /// the phone map that turns espeak-ng's guesses into the model's phones.
    @Test func everyPhoneMapsToEspeakAndBack() throws {
        let map = try PhoneMap(contentsOf: Fixtures.root.appendingPathComponent("models/espeak2arpabet.tsv"))
        let words = Phones.all.map { (word: "w" + $0.lowercased(), phones: $0) } + [
            (word: "nutshell", phones: "N AH T SH EH L"), (word: "about", phones: "AH B AW T"),
            (word: "unicornchat", phones: "Y UW N IH K AO R N CH AE T"), (word: "bird", phones: "B ER D"),
        ]
        let lexicon = try SpokenLexicon(arpabet: words)
        for (word, phones) in words {
            let espeak = try #require(lexicon.mnemonics[word]).replacingOccurrences(of: "|", with: "_")
            #expect(try map.phones(fromEspeak: espeak, word: word) == phones.split(separator: " ").map(String.init),
                    "\(word): \(espeak)")
        }
    }

    /// Real espeak-ng and pocketsphinx: the assistant says "feed the ghoti" with the app's
    /// "fish" and hears it back as that phrase; espeak-ng reading the spelling says "goatee", which is not heard as well.
    @Test func namesAreSaidAsTheyAreHeard() async throws {
        var recognizer = RecognizerConfiguration()
        recognizer.rejectionMargin = -4 // espeak-ng's voice; see EndToEndTests.lenientAssistant
        let assistant = try await Assistant.start(AssistantConfiguration(
            appsDirectory: try Self.aquarium(), modelsDirectory: Fixtures.root.appendingPathComponent("models"),
            recognizer: recognizer))
        let padding = [Int16](repeating: 0, count: 4_000)
        func heard(_ clip: AudioClip) async throws -> TurnReport {
            try await assistant.answer(samples: padding + (try clip.pipelineSamples()) + padding, name: "ghoti").0
        }
        let said = try await heard(try await assistant.speech.speak("Feed the ghoti."))
        #expect(said.text == "feed the ghoti")
        // The spelling's "goatee" is not the word: rejected, or (with this lenient threshold)
        // forced onto the only phrase there is with far less evidence.
        let bySpelling = try await heard(try SpeechSynthesizer().synthesize("Feed the ghoti."))
        #expect(bySpelling.text != "feed the ghoti" || bySpelling.margin < said.margin - 1,
                "\(bySpelling.text): margin \(bySpelling.margin), Hark's own \(said.margin)")
    }

    /// The project lexicon's words are spoken from their phones too; dictionary words are not.
    @Test func theLexiconsWordsAreHandWritten() async throws {
        let models = try temporaryDirectory()
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("models/espeak2arpabet.tsv"),
                                         to: models.appendingPathComponent("espeak2arpabet.tsv"))
        // "goatee" is in the dictionary, whose pronunciation wins.
        try "ghoti F IH SH\nghoti(2) F IY SH\ngoatee G OW T EY\n"
            .write(to: models.appendingPathComponent("lexicon.dict"), atomically: true, encoding: .utf8)
        let recognition = RecognitionService()
        var configuration = RecognizerConfiguration()
        configuration.lexicons = [models.appendingPathComponent("lexicon.dict")]
        try await recognition.prepare(configuration, grammar: Grammar(rules: [
            .init(tag: "x", template: try PhraseTemplate("feed the ghoti")),
        ]), pronunciations: [(word: "Zorblax", phones: "Z AO R B L AE K S"), (word: "fish", phones: "F EY SH")])
        let handWritten = try await recognition.handWrittenPronunciations()
        #expect(handWritten.map { "\($0.word) \($0.phones)" } == ["ghoti F IH SH", "zorblax Z AO R B L AE K S"])
    }
}
