/// Cardinal numbers as English words, both ways: what the recogniser listens
/// for ("one hundred and five") and the value it stands for (105).
public enum NumberWords {
    /// "zero" to "nineteen", by value.
    public static let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine",
                        "ten", "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen",
                        "seventeen", "eighteen", "nineteen"]
    /// "twenty" to "ninety" at their tens digit; the first two are empty.
    public static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]

    /// The largest number `parse` and the patterns handle: what a grammar listens for.
    public static let maximum = 999_999

    /// The largest number `spoken` says: what a reply may say aloud.
    public static let largestSpoken = 999_999_999_999

    /// "twenty one", "one hundred five", "two thousand", "three million"; nil outside 0…`largestSpoken`.
    /// `hyphenated` joins tens and units as written English does ("twenty-one"): what the
    /// recogniser hears is a word each, what espeak-ng says best is the joined form.
    public static func spoken(_ number: Int, hyphenated: Bool = false) -> String? {
        guard (0...largestSpoken).contains(number) else { return nil }
        if number < 20 { return units[number] }
        return words(number, hyphenated: hyphenated).joined(separator: " ")
    }

    /// Each scale word with its value, largest first.
    private static let scales = [(1_000_000_000, "billion"), (1_000_000, "million"), (1000, "thousand")]

    private static func words(_ number: Int, hyphenated: Bool) -> [String] {
        var result: [String] = []
        var rest = number
        for (scale, name) in scales where rest >= scale {
            result += words(rest / scale, hyphenated: hyphenated) + [name]
            rest %= scale
        }
        if rest >= 100 {
            result += [units[rest / 100], "hundred"]
            rest %= 100
        }
        if rest >= 20 {
            result.append(tens[rest / 10])
            if rest % 10 != 0 {
                if hyphenated { result[result.count - 1] += "-" + units[rest % 10] } else { result.append(units[rest % 10]) }
            }
        } else if rest > 0 || result.isEmpty {
            result.append(units[rest])
        }
        return result
    }

    /// "first", "second", "twenty second" ("twenty-second" `hyphenated`), "one hundredth";
    /// nil outside 1…`largestSpoken`.
    public static func ordinal(_ number: Int, hyphenated: Bool = false) -> String? {
        guard number >= 1, let cardinal = spoken(number, hyphenated: hyphenated) else { return nil }
        // Only the last word changes: "twenty-one" → "twenty-first", "one thousand" → "one thousandth".
        let lastWord = cardinal.lastIndex { $0 == " " || $0 == "-" }.map(cardinal.index(after:)) ?? cardinal.startIndex
        return String(cardinal[..<lastWord]) + ordinal(ofWord: cardinal[lastWord...])
    }

    /// The irregular ordinals; every other cardinal adds "th" ("-y" becoming "-ieth").
    private static let irregularOrdinals: [Substring: String] = ["one": "first", "two": "second", "three": "third",
                                                                 "five": "fifth", "eight": "eighth", "nine": "ninth",
                                                                 "twelve": "twelfth"]

    private static func ordinal(ofWord word: Substring) -> String {
        if let irregular = irregularOrdinals[word] { return irregular }
        if word.hasSuffix("y") { return word.dropLast() + "ieth" }
        return word + "th"
    }

    /// The number `words` say, or nil when they are not a number. Accepts
    /// "a hundred", "one hundred and five", "oh" for zero, and digits.
    public static func parse(_ words: [String]) -> Int? {
        guard !words.isEmpty else { return nil }
        if words.count == 1, let digits = Int(words[0]) { return digits }
        var total = 0
        var current = 0
        var sawNumber = false
        for (index, word) in words.enumerated() {
            if let unit = units.firstIndex(of: word) {
                current += unit
                sawNumber = true
            } else if word == "oh" {
                sawNumber = true
            } else if let ten = tens.firstIndex(of: word), ten >= 2 {
                current += ten * 10
                sawNumber = true
            } else if word == "a", index + 1 < words.count, ["hundred", "thousand"].contains(words[index + 1]) {
                current += 1
            } else if word == "hundred" {
                current = max(current, 1) * 100
                sawNumber = true
            } else if word == "thousand" {
                total += max(current, 1) * 1000
                current = 0
                sawNumber = true
            } else if word == "and" {
                continue
            } else {
                return nil
            }
        }
        return sawNumber ? total + current : nil
    }

    /// A template source for any number below a thousand, ready to nest
    /// inside another template: "(zero | one | … | ninety nine)" and hundreds.
    public static let belowThousandPattern: String = {
        let unit = "(" + units[1...9].joined(separator: " | ") + ")"
        let belowHundred = "(" + units.joined(separator: " | ") + " | (" +
            tens[2...9].joined(separator: " | ") + ") [\(unit)])"
        return "((a | \(unit)) hundred [[and] \(belowHundred)] | \(belowHundred))"
    }()

    /// A template source for any number up to 999,999.
    public static let pattern: String =
        "(\(belowThousandPattern) thousand [[and] \(belowThousandPattern)] | \(belowThousandPattern))"
}
