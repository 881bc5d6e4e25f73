import Foundation

/// A word as espeak-ng's English voice can read it. Given full-width letters or
/// Cyrillic, espeak-ng spells out code points or letter names whose phonemes the
/// phone map lacks, so the word is folded and transliterated first.
public enum LatinSpelling {
    /// `word` in Latin letters: Unicode compatibility folding (NFKC: "ｔｉｍｅｒ" is
    /// "timer", "ﬁ" is "fi"), then Cyrillic transliterated ("Алексей" is "aleksey").
    /// Nil when a letter of another script is left (Greek, Han…), which Hark cannot pronounce.
    public static func of(_ word: String) -> String? {
        var spelled = ""
        for character in word.precomposedStringWithCompatibilityMapping.lowercased() {
            spelled += cyrillic[character] ?? String(character)
        }
        return spelled.unicodeScalars.allSatisfy(isReadable) ? spelled : nil
    }

    /// `spelled` without its accents ("dž" is "dz"): each letter decomposed and its
    /// combining marks dropped.
    public static func withoutAccents(_ spelled: String) -> String {
        var plain = String.UnicodeScalarView()
        plain.append(contentsOf: spelled.decomposedStringWithCanonicalMapping.unicodeScalars.filter { !(0x300...0x36F).contains($0.value) })
        return String(plain)
    }

    /// ASCII letters, digits and the marks words carry, and Latin letters with diacritics.
    private static func isReadable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x30...0x39, 0x61...0x7A, 0x41...0x5A: true
        case 0x27, 0x2D, 0x2E: true // ' - . as in "o'clock", "wi-fi", "a.m."
        case 0xD7, 0xF7: false // × and ÷ sit among the Latin-1 letters
        case 0xC0...0x24F, 0x1E00...0x1EFF: true // Latin-1 letters, Latin Extended A, B and Additional
        case 0x300...0x36F: true // combining accents
        default: false
        }
    }

    /// Russian, Ukrainian, Belarusian and South Slavic letters, spelled as English readers
    /// expect (BGN/PCGN style): what espeak-ng's English voice reads closest to the name.
    private static let cyrillic: [Character: String] = [
        "а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "yo", "ж": "zh", "з": "z",
        "и": "i", "й": "y", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r",
        "с": "s", "т": "t", "у": "u", "ф": "f", "х": "kh", "ц": "ts", "ч": "ch", "ш": "sh", "щ": "shch",
        "ъ": "", "ы": "y", "ь": "", "э": "e", "ю": "yu", "я": "ya",
        "і": "i", "ї": "yi", "є": "ye", "ґ": "g", "ў": "w",
        "ђ": "dj", "ј": "j", "љ": "lj", "њ": "nj", "ћ": "c", "џ": "dzh", "ѓ": "gj", "ќ": "kj", "ѕ": "dz",
    ]
}
