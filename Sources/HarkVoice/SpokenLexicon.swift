/// Words Hark says from the phones it listens for, so a name is said the way it is heard.
///
/// A word whose pronunciation was written by hand (an app's vocabulary, or the project's
/// lexicon) is listened for with those phones; espeak-ng would read its spelling its own way
/// ("ghoti" as "goatee" when the app says "fish"). Such words are handed to espeak-ng as
/// inline phonemes instead. Words the recogniser knows from the dictionary or from espeak-ng's
/// own guess are left to espeak-ng: its reading is as good, with its own stress.
public struct SpokenLexicon: Sendable, Equatable {
    /// Lowercased word → espeak-ng phoneme mnemonics, e.g. "ghoti" → "f|'I|S".
    public private(set) var mnemonics: [String: String] = [:]

    public init() {}

    /// Words with their espeak-ng mnemonics as `mnemonics` holds them (another process's lexicon).
    public init(mnemonics: [String: String]) {
        self.mnemonics = mnemonics
    }

    /// Words with ARPAbet phones separated by spaces, as the recogniser's dictionary writes them.
    /// A later entry for the same word replaces an earlier one.
    public init(arpabet entries: [(word: String, phones: String)]) throws(VoiceError) {
        for entry in entries {
            let phones = entry.phones.split(separator: " ").map { $0.uppercased() }
            let stress = Self.stressedVowel(inReading: try Phonemizer.phonemes(of: entry.word),
                                            vowels: phones.filter(Self.isVowel).count)
            mnemonics[entry.word.lowercased()] = try Self.espeakMnemonics(arpabet: phones, word: entry.word,
                                                                          stressedVowel: stress)
        }
    }

    public var isEmpty: Bool { mnemonics.isEmpty }

    // MARK: ARPAbet to espeak-ng

    /// The espeak-ng (en-us) phoneme for each phone of the acoustic model. AH and ER have a
    /// stressed and an unstressed form; the others sound the same either way.
    static let espeakPhoneme: [String: String] = [
        "AA": "A:", "AE": "a", "AH": "@", "AO": "O:", "AW": "aU", "AY": "aI", "B": "b", "CH": "tS",
        "D": "d", "DH": "D", "EH": "E", "ER": "3", "EY": "eI", "F": "f", "G": "g", "HH": "h",
        "IH": "I", "IY": "i:", "JH": "dZ", "K": "k", "L": "l", "M": "m", "N": "n", "NG": "N",
        "OW": "oU", "OY": "OI", "P": "p", "R": "r", "S": "s", "SH": "S", "T": "t", "TH": "T",
        "UH": "U", "UW": "u:", "V": "v", "W": "w", "Y": "j", "Z": "z", "ZH": "Z",
    ]
    static let stressedPhoneme: [String: String] = ["AH": "V", "ER": "3:"]

    /// espeak-ng mnemonics for ARPAbet phones, joined by "|" (espeak-ng's separator that makes
    /// no sound: "t|S" is T then SH, where "tS" would be CH).
    ///
    /// The model's phones carry no stress, and espeak-ng needs one to say a word naturally: it
    /// goes on vowel number `stressedVowel` (counting from 0) when given, else on the first vowel
    /// other than AH (a schwa far more often than not), or on the first vowel if all are AH.
    static func espeakMnemonics(arpabet phones: [String], word: String, stressedVowel: Int? = nil) throws(VoiceError) -> String {
        guard !phones.isEmpty else {
            throw VoiceError(.pronunciation, "no phones given for \"\(word)\"")
        }
        for phone in phones where espeakPhoneme[phone] == nil {
            throw VoiceError(.pronunciation, "\"\(phone)\" in the pronunciation of \"\(word)\" is not a phone of the model (ARPAbet, e.g. \"F IH SH\")")
        }
        let vowels = phones.indices.filter { isVowel(phones[$0]) }
        let stressed = stressedVowel.flatMap { vowels.indices.contains($0) ? vowels[$0] : nil }
            ?? vowels.first { phones[$0] != "AH" } ?? vowels.first
        return phones.indices.map { index in
            let phone = phones[index]
            guard index == stressed else { return espeakPhoneme[phone]! }
            return "'" + (stressedPhoneme[phone] ?? espeakPhoneme[phone]!)
        }.joined(separator: "|")
    }

    /// Which vowel espeak-ng stresses in its own reading of a word ("S_I2_v_'O:_n" for "siobhan":
    /// 1), when that reading has `vowels` vowels as the hand-written phones do: the syllables
    /// then line up, and espeak-ng's sense of where English puts stress is better than a rule.
    /// nil when the counts differ ("ghoti" read as "g_'oU_t#_i" against "F IH SH").
    static func stressedVowel(inReading reading: String, vowels: Int) -> Int? {
        let tokens = reading.split(whereSeparator: { $0 == "_" || $0 == " " })
        var vowel = 0
        var stressed: Int?
        for token in tokens {
            let bare = token.drop(while: { "',%=".contains($0) })
            guard let first = bare.first, "@3aAeEiIoOuUV0".contains(first) else { continue }
            if stressed == nil, token.hasPrefix("'") { stressed = vowel }
            vowel += 1
        }
        return vowel == vowels ? stressed : nil
    }

    /// ARPAbet's vowels are the phones spelt with two letters from A, E, I, O, U.
    static func isVowel(_ phone: String) -> Bool {
        guard let first = phone.first else { return false }
        return "AEIOU".contains(first)
    }

    // MARK: Marking up text

    /// `text` with each word of the lexicon replaced by its phonemes in espeak-ng's inline
    /// form ("[[f|'I|S]]"), for synthesis with phoneme input on; nil when no word is in the
    /// lexicon, so ordinary text is spoken exactly as before. Matching ignores case; a word
    /// is letters, digits and apostrophes, so "ghoti," matches and "ghotis" does not.
    public func markedUp(_ text: String) -> String? {
        guard !mnemonics.isEmpty else { return nil }
        var output = ""
        var word = ""
        var replaced = false
        // With phoneme input on, a "[[" of the text itself would start phonemes too: doubled
        // brackets get a space between them.
        func append(_ character: Character) {
            if character == "[" || character == "]", output.last == character { output.append(" ") }
            output.append(character)
        }
        func endWord() {
            if let phonemes = mnemonics[word.lowercased()] {
                if output.last == "[" { output.append(" ") }
                output += "[[" + phonemes + "]]"
                replaced = true
            } else {
                word.forEach(append)
            }
            word = ""
        }
        for character in text {
            if character.isLetter || character.isNumber || character == "'" || character == "’" {
                word.append(character)
            } else {
                endWord()
                append(character)
            }
        }
        endWord()
        return replaced ? output : nil
    }
}
