import HarkNumbers
import Testing

/// Digits typed in a request, spelt out as the phrases say numbers.
@Suite struct TypedNumbersTests {
    func spelt(_ text: String) -> String {
        TypedNumbers.spellingOut(text.split(separator: " ").map(String.init)).joined(separator: " ")
    }

    @Test func digitsSignsAndHyphensBecomeWords() {
        #expect(spelt("cancel the timer for 27 minutes") == "cancel the timer for twenty seven minutes")
        #expect(spelt("set the volume to 58%") == "set the volume to fifty eight percent")
        #expect(spelt("set it to 66 %") == "set it to sixty six percent")
        #expect(spelt("heat to 21°") == "heat to twenty one degrees")
        #expect(spelt("a 5-minute timer") == "a five minute timer")
        #expect(spelt("the 100 seconds") == "the one hundred seconds")
        #expect(spelt("0 percent") == "zero percent")
        #expect(spelt("to thirty-one percent") == "to thirty one percent")
        #expect(spelt("up by nine%") == "up by nine percent")
        #expect(spelt("ninety-five%") == "ninety five percent")
        #expect(spelt("8 and a 1/2 hours") == "eight and a half hours")
        #expect(spelt("3/4 of an hour") == "three quarters of an hour")
        #expect(spelt("to 26.5 degrees") == "to twenty six point five degrees")
        #expect(spelt("21.5°") == "twenty one point five degrees")
    }

    /// What is not a number is left as typed: a code, a word with a hyphen, an IP address.
    @Test func otherWordsAreKept() {
        #expect(spelt("wi-fi on") == "wi-fi on")
        #expect(spelt("ping 10.0.0.1") == "ping 10.0.0.1")
        #expect(spelt("version 2.") == "version 2.")
        #expect(spelt("r2d2 and 5g") == "r2d2 and 5g")
        #expect(spelt("-3 steps") == "-3 steps")
        #expect(spelt("99999999999999 stars") == "99999999999999 stars")
    }

    /// A unit typed against its number, read apart where asked to (a phrase says no "6000k").
    @Test func unitsTypedAgainstTheirNumbersArePartedWhenAsked() {
        func parted(_ text: String) -> String {
            TypedNumbers.spellingOut(text.split(separator: " ").map(String.init), splittingUnits: true).joined(separator: " ")
        }
        #expect(parted("to 6000k") == "to six thousand k")
        #expect(parted("to 1400kelvin") == "to one thousand four hundred kelvin")
        #expect(parted("r2d2 and 5g") == "r2d2 and five g")
        #expect(parted("5g2 and 58%") == "5g2 and fifty eight percent")
        #expect(spelt("to 6000k") == "to 6000k")
    }

    /// The typed words behind a run of spelt-out words, for text kept as it was typed.
    @Test func theTypedWordsBehindSpeltOutOnesAreFound() {
        let typed = ["dinner", "at", "25", "past", "6000k"]
        // "dinner at twenty five past 6000k"
        #expect(TypedNumbers.written(0..<5, of: typed) == "dinner at 25 past")
        #expect(TypedNumbers.written(2..<4, of: typed) == "25")
        #expect(TypedNumbers.written(2..<3, of: typed) == nil)  // "twenty" alone
        #expect(TypedNumbers.written(3..<6, of: typed) == nil)
        #expect(TypedNumbers.written(0..<7, of: typed) == nil)  // past the end
        // "dinner at twenty five past six thousand k", parted
        #expect(TypedNumbers.written(4..<8, of: typed, splittingUnits: true) == "past 6000k")
        #expect(TypedNumbers.written(4..<7, of: typed, splittingUnits: true) == nil)
    }
}
