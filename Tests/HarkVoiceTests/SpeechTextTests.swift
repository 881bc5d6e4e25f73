import HarkVoice
import Testing

/// What each written form becomes, word for word.
@Suite struct SpeechTextTests {
    static func check(_ cases: [(String, String)], sourceLocation: SourceLocation = #_sourceLocation) {
        for (written, spoken) in cases {
            #expect(SpeechText.normalised(written) == spoken, "\(written)", sourceLocation: sourceLocation)
        }
    }

    /// Said as Hark listens for them; accented Latin and other scripts are left to espeak-ng.
    @Test func fullWidthAndCyrillicWordsAreSaidInLatinLetters() {
        Self.check([
            ("Message Алексей?", "Message aleksey?"),
            ("Start the ｔｉｍｅｒ.", "Start the timer."),
            ("Café naïve", "Café naïve"),
            ("Ζευς", "Ζευς"),
        ])
    }

    @Test func money() {
        Self.check([
            ("$2.50", "two dollars fifty"),
            ("$1", "one dollar"),
            ("$0.99", "ninety-nine cents"),
            ("$0.01", "one cent"),
            ("$1,200", "one thousand two hundred dollars"),
            ("$1,200.00", "one thousand two hundred dollars"),
            ("$1.05", "one dollar five"),
            ("$2.5", "two dollars fifty"),
            ("$0", "zero dollars"),
            ("-$5", "minus five dollars"),
            ("−$0.50", "minus fifty cents"),
            ("€3.20", "three euros twenty"),
            ("€1", "one euro"),
            ("£2.50", "two pounds fifty"),
            ("£0.50", "fifty pence"),
            ("£0.01", "one penny"),
            ("$1.5 million", "one point five million dollars"),
            ("That's $4.75, please.", "That's four dollars seventy-five, please."),
        ])
    }

    @Test func numbers() {
        Self.check([
            ("3.75", "three point seven five"),
            ("0.5", "zero point five"),
            ("-2.05", "minus two point zero five"),
            ("12,500", "twelve thousand five hundred"),
            ("1,000,000", "one million"),
            ("3,450,000,000", "three billion four hundred fifty million"),
            ("45%", "forty-five percent"),
            ("2.5%", "two point five percent"),
            ("45 %", "forty-five percent"),
        ])
    }

    @Test func times() {
        Self.check([
            ("7:05", "seven oh five"),
            ("7:00", "seven o'clock"),
            ("10:45", "ten forty-five"),
            ("7:30 pm", "seven thirty p.m."),
            ("7:30 PM", "seven thirty p.m."),
            ("7:30pm", "seven thirty p.m."),
            ("7:30 p.m.", "seven thirty p.m."),
            ("at 7 p.m. tomorrow", "at seven p.m. tomorrow"),
            ("7 AM", "seven a.m."),
            ("7:00 pm", "seven p.m."),
            ("19:30", "seven thirty p.m."),
            ("07:05", "seven oh five a.m."),
            ("0:15", "twelve fifteen a.m."),
            ("12:00", "noon"),
            ("12:00 pm", "noon"),
            ("12 am", "midnight"),
            ("00:00", "midnight"),
            ("12:30", "twelve thirty p.m."),
            ("It's 7:30 PM.", "It's seven thirty p.m."),
        ])
    }

    @Test func dates() {
        Self.check([
            ("2026-11-24", "November twenty-fourth, twenty twenty-six"),
            ("2000-01-01", "January first, two thousand"),
            ("2009-03-02", "March second, two thousand nine"),
            ("1999-12-31", "December thirty-first, nineteen ninety-nine"),
            ("1905-07-04", "July fourth, nineteen oh five"),
            ("2026-11-24T19:30", "November twenty-fourth, twenty twenty-six at seven thirty p.m."),
            ("Nov 24", "November twenty-fourth"),
            ("Nov. 3", "November third"),
            ("Tuesday, November 24", "Tuesday, November twenty-fourth"),
            ("Sept 1st", "September first"),
            ("on Nov 24, 2026.", "on November twenty-fourth, twenty twenty-six."),
        ])
    }

    @Test func ordinals() {
        Self.check([
            ("1st", "first"), ("2nd", "second"), ("3rd", "third"), ("4th", "fourth"), ("11th", "eleventh"),
            ("12th", "twelfth"), ("13th", "thirteenth"), ("20th", "twentieth"), ("22nd", "twenty-second"),
            ("24th", "twenty-fourth"), ("101st", "one hundred first"), ("1000th", "one thousandth"),
        ])
    }

    @Test func units() {
        Self.check([
            ("5 km", "five kilometers"),
            ("1 km", "one kilometer"),
            ("20 °C", "twenty degrees Celsius"),
            ("20°C", "twenty degrees Celsius"),
            ("-1 °C", "minus one degree Celsius"),
            ("3 kg", "three kilograms"),
            ("500 ml", "five hundred milliliters"),
            ("2 h", "two hours"),
            ("1 h", "one hour"),
            ("10 min", "ten minutes"),
            ("1.5 km", "one point five kilometers"),
            ("6 ft", "six feet"),
            ("1 ft", "one foot"),
            ("Bake for 25 min at 180°C.", "Bake for twenty-five minutes at one hundred eighty degrees Celsius."),
        ])
    }

    /// Words, plain numbers and anything not understood stay exactly as written, spacing too.
    @Test func leavesEverythingElseAsWritten() {
        for text in [
            "", "   ", "Turning on the garage light.", "Amy Smith or Amy Jones?", "I have 3 apples",
            "Call 555 0199", "model B12 and mp3", "pages 5-10", "version 1.2.3", "ratio 3:2", "007",
            "2th", "25:00", "13:00 pm", "2026-13-01", "2026-02-30", "$", "$abc", "may 5", "Nov",
            "Mind  the\tgap\n", "5 in the box", "(hello), [world]!", "1999",
        ] {
            #expect(SpeechText.normalised(text) == text, "\(text)")
        }
    }

    @Test func punctuationAroundAFormStays() {
        Self.check([
            ("($2.50)", "(two dollars fifty)"),
            ("\"45%\"", "\"forty-five percent\""),
            ("Open at 7:00, close at 19:00.", "Open at seven o'clock, close at seven p.m."),
            ("Costs: $3 and  $4.", "Costs: three dollars and  four dollars."),
        ])
    }

    /// A comma between a number and the next word keeps them apart.
    @Test func aCommaKeepsAFollowingWordOutOfTheReading() {
        Self.check([
            ("7:30, PM", "seven thirty, PM"),
            ("5, km", "5, km"),
        ])
    }
}
