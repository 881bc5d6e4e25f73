import HarkAudio
@testable import HarkVoice
import Testing

@Suite(.serialized) struct SpokenLexiconTests {
    static let ghoti = try! SpokenLexicon(arpabet: [(word: "Ghoti", phones: "F IH SH")])

    @Test func writesTheModelsPhonesAsEspeakPhonemes() throws {
        let lexicon = try SpokenLexicon(arpabet: [
            (word: "ghoti", phones: "F IH SH"),
            // The stress goes on the first vowel that is not AH …
            (word: "about", phones: "AH B AW T"),
            // … or on the first vowel, where AH and ER have a stressed form.
            (word: "but", phones: "B AH T"),
            (word: "bird", phones: "b er d"),
            // Phonemes that would run together ("tS" is CH) are kept apart.
            (word: "nutshell", phones: "N AH T SH EH L"),
        ])
        #expect(lexicon.mnemonics == [
            "ghoti": "f|'I|S", "about": "@|b|'aU|t", "but": "b|'V|t", "bird": "b|'3:|d", "nutshell": "n|'V|t|S|E|l",
        ])
    }

    /// Where espeak-ng's own reading has as many vowels, its stress is kept ("shiv-AWN"); where it
    /// has not ("ghoti" read in two syllables), the rule decides.
    @Test func takesTheStressFromEspeaksOwnReading() throws {
        let lexicon = try SpokenLexicon(arpabet: [(word: "siobhan", phones: "SH IH V AO N"), (word: "ghoti", phones: "F IH SH")])
        #expect(lexicon.mnemonics["siobhan"] == "S|I|v|'O:|n")
        #expect(lexicon.mnemonics["ghoti"] == "f|'I|S")
        #expect(SpokenLexicon.stressedVowel(inReading: "S_I2_v_'O:_n", vowels: 2) == 1)
        #expect(SpokenLexicon.stressedVowel(inReading: "t_'i:_tS_'0_tS_k", vowels: 2) == 0)
        #expect(SpokenLexicon.stressedVowel(inReading: "g_'oU_t#_i", vowels: 1) == nil)
        #expect(SpokenLexicon.stressedVowel(inReading: "n_u:_n", vowels: 1) == nil)
    }

    @Test func refusesPhonesTheModelDoesNotHave() {
        #expect {
            _ = try SpokenLexicon(arpabet: [(word: "ghoti", phones: "F IH QQ")])
        } throws: { error in
            guard let error = error as? VoiceError else { return false }
            return error.code == .pronunciation && error.message.contains("\"QQ\"") && error.message.contains("ghoti")
        }
        #expect(throws: VoiceError.self) { _ = try SpokenLexicon(arpabet: [(word: "ghoti", phones: " ")]) }
    }

    @Test func marksUpOnlyTheLexiconsWords() {
        #expect(Self.ghoti.markedUp("Feeding the ghoti.") == "Feeding the [[f|'I|S]].")
        #expect(Self.ghoti.markedUp("GHOTI, ghotis and ghoti's") == "[[f|'I|S]], ghotis and ghoti's")
        #expect(Self.ghoti.markedUp("Feeding the fish.") == nil)
        #expect(SpokenLexicon().markedUp("Feeding the ghoti.") == nil)
    }

    /// With phoneme input on, the text's own "[[" must not start phonemes.
    @Test func keepsTheTextsOwnBracketsFromReadingAsPhonemes() {
        #expect(Self.ghoti.markedUp("[[x]] ghoti") == "[ [x] ] [[f|'I|S]]")
        #expect(Self.ghoti.markedUp("[ghoti]") == "[ [[f|'I|S]] ]")
    }

    /// Real espeak-ng: the word is said as the word its phones spell, not as its spelling reads.
    /// (Two syntheses of the same text differ by a few samples, so lengths are compared.)
    /// Samples from the first sound to the last: espeak-ng pads the end of a synthesis with
    /// silence whose length depends on what it said before (7 or 28 ms measured), not on the words.
    static func spokenLength(_ clip: AudioClip) -> Int {
        guard let first = clip.samples.firstIndex(where: { abs($0) > 1e-4 }),
              let last = clip.samples.lastIndex(where: { abs($0) > 1e-4 }) else { return 0 }
        return last - first + 1
    }

    @Test func saysTheWordFromItsPhones() throws {
        let plain = try SpeechSynthesizer()
        let fromPhones = Self.spokenLength(try SpeechSynthesizer(lexicon: Self.ghoti).synthesize("Feeding the ghoti."))
        let fish = Self.spokenLength(try plain.synthesize("Feeding the fish."))
        let spelling = Self.spokenLength(try plain.synthesize("Feeding the ghoti."))
        #expect(abs(fromPhones - fish) < 50, "\(fromPhones) samples against \(fish) for \"fish\"")
        #expect(abs(spelling - fish) > 400, "espeak-ng's own \"ghoti\" (two syllables) should be longer than \"fish\"")
    }
}
