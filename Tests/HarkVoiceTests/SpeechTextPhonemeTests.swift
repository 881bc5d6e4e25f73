import HarkVoice
import Testing

/// The normaliser judged by what espeak-ng will say: a normalised written form has the phonemes
/// of the words a person would write out for it, and espeak-ng left to the written form itself
/// says something else (else the case would prove nothing).
@Suite(.serialized) struct SpeechTextPhonemeTests {
    static let cases: [(written: String, words: String)] = [
        ("$2.50", "two dollars fifty"),
        ("$0.99", "ninety-nine cents"),
        ("$1,200", "one thousand two hundred dollars"),
        ("£2.50", "two pounds fifty"),
        ("3.75", "three point seven five"),
        ("12,500", "twelve thousand five hundred"),
        ("45%", "forty-five percent"),
        ("7:05", "seven oh five"),
        ("7:00", "seven o'clock"),
        ("19:30", "seven thirty p.m."),
        ("12:00", "noon"),
        ("2026-11-24", "November twenty-fourth, twenty twenty-six"),
        ("Nov 24", "November twenty-fourth"),
        ("22nd", "twenty-second"),
        ("5 km", "five kilometers"),
        ("20°C", "twenty degrees Celsius"),
        ("500 ml", "five hundred milliliters"),
        ("10 min", "ten minutes"),
        ("2 h", "two hours"),
    ]

    @Test(arguments: cases) func soundsAsTheWordsWrittenOut(written: String, words: String) throws {
        let intended = try Phonemizer.phonemes(of: words)
        #expect(try Phonemizer.phonemes(of: SpeechText.normalised(written)) == intended)
        #expect(try Phonemizer.phonemes(of: written) != intended)
    }
}
