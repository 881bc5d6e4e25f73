import HarkNumbers
import Testing

@Suite struct NumberWordsTests {
    @Test func saysLargeNumbers() {
        #expect(NumberWords.spoken(1_000_000) == "one million")
        #expect(NumberWords.spoken(3_450_000_021) == "three billion four hundred fifty million twenty one")
        #expect(NumberWords.spoken(NumberWords.largestSpoken) != nil)
        #expect(NumberWords.spoken(NumberWords.largestSpoken + 1) == nil)
        #expect(NumberWords.spoken(-1) == nil)
    }

    /// The recogniser's form, a word each, is the default; speech joins tens and units.
    @Test func hyphenatesOnlyWhenAsked() {
        #expect(NumberWords.spoken(45) == "forty five")
        #expect(NumberWords.spoken(45, hyphenated: true) == "forty-five")
        #expect(NumberWords.spoken(21_321, hyphenated: true) == "twenty-one thousand three hundred twenty-one")
        #expect(NumberWords.spoken(40, hyphenated: true) == "forty")
    }

    @Test func saysOrdinals() {
        let expected = [1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 8: "eighth", 9: "ninth",
                        11: "eleventh", 12: "twelfth", 20: "twentieth", 22: "twenty second", 90: "ninetieth",
                        100: "one hundredth", 101: "one hundred first", 1000: "one thousandth",
                        2_000_000: "two millionth"]
        for (number, words) in expected {
            #expect(NumberWords.ordinal(number) == words, "\(number)")
        }
        #expect(NumberWords.ordinal(22, hyphenated: true) == "twenty-second")
        #expect(NumberWords.ordinal(0) == nil)
    }
}
