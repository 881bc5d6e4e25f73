/// Numbers typed as digits ("set a 5-minute timer", "volume to 58%"), spelt out as a grammar
/// listens for them ("five minute", "fifty eight percent"): typed requests meet the phrases
/// speech is heard against, where numbers are words.
public enum TypedNumbers {
    /// Fractions written with a slash, as they are said ("8 and a 1/2 hours"); sentence
    /// templates say them the same way.
    public static let fractions: [String: [String]] = ["1/2": ["half"], "1/3": ["third"], "2/3": ["two", "thirds"], "1/4": ["quarter"],
                                                 "3/4": ["three", "quarters"]]

    /// The typed words of `typed` that `spellingOut(typed, splittingUnits:)` made the words at
    /// `range` of, joined, when that range begins and ends where a typed word's words do; nil
    /// when it cuts through one ("twenty" of "25").
    public static func written(_ range: Range<Int>, of typed: [String], splittingUnits: Bool = false) -> String? {
        let origins = typed.enumerated().flatMap { index, word in spellingOut([word], splittingUnits: splittingUnits).map { _ in index } }
        guard !range.isEmpty, range.lowerBound >= 0, range.upperBound <= origins.count,
              range.lowerBound == 0 || origins[range.lowerBound - 1] != origins[range.lowerBound],
              range.upperBound == origins.count || origins[range.upperBound] != origins[range.upperBound - 1] else { return nil }
        return typed[origins[range.lowerBound]...origins[range.upperBound - 1]].joined(separator: " ")
    }

    /// `words` (lower case, split on spaces) with each whole number of digits written out, a
    /// percent or degree sign after it said, and a hyphen between a number and a word dropped.
    /// Decimals are said with "point" ("26.5": "twenty six point five"). Other words and numbers
    /// beyond `NumberWords.largestSpoken` are kept as typed. `splittingUnits`: a unit typed
    /// against its number ("6000k", "1400kelvin") is a word of its own; not by default, where
    /// "5g" may be a name.
    public static func spellingOut(_ words: [String], splittingUnits: Bool = false) -> [String] {
        words.flatMap { word -> [String] in
            var rest = Substring(word)
            var sign: String?
            if rest.hasSuffix("%") { sign = "percent" } else if rest.hasSuffix("°") { sign = "degrees" }
            if sign != nil { rest = rest.dropLast() }
            // "67-seconds", "40-hour": the number and the word.
            var unit: String?
            if let hyphen = rest.firstIndex(of: "-"), hyphen != rest.startIndex,
               rest[..<hyphen].allSatisfy(\.isASCIIDigit), rest[rest.index(after: hyphen)...].allSatisfy(\.isLetter) {
                unit = String(rest[rest.index(after: hyphen)...])
                rest = rest[..<hyphen]
            } else if splittingUnits, sign == nil, let letter = rest.firstIndex(where: \.isLetter), letter != rest.startIndex,
                      rest[..<letter].allSatisfy(\.isASCIIDigit), rest[letter...].allSatisfy(\.isLetter) {
                // "6000k", "1400kelvin", "5min": a unit typed against its number.
                unit = String(rest[letter...])
                rest = rest[..<letter]
            }
            if rest.isEmpty, let sign { return [sign] }
            if let fraction = fractions[String(rest)] { return fraction + [sign].compactMap { $0 } }
            // "thirty-one" as it is heard: two words.
            let halves = rest.split(separator: "-", omittingEmptySubsequences: false)
            if halves.count == 2, NumberWords.tens.contains(String(halves[0])), NumberWords.units.contains(String(halves[1])) {
                return halves.map(String.init) + [sign].compactMap { $0 }
            }
            // "nine%": a number said in words, then the sign.
            if let sign, rest.allSatisfy(\.isLetter) { return [String(rest), sign] }
            // "26.5": the whole number, then "point" and each digit after the dot.
            if let dot = rest.firstIndex(of: "."), dot != rest.startIndex, rest.index(after: dot) != rest.endIndex,
               rest[..<dot].count <= 12, rest[..<dot].allSatisfy(\.isASCIIDigit), rest[rest.index(after: dot)...].allSatisfy(\.isASCIIDigit),
               let whole = Int(rest[..<dot]), let spoken = NumberWords.spoken(whole) {
                let digits = rest[rest.index(after: dot)...].compactMap { $0.wholeNumberValue }.map { NumberWords.units[$0] }
                return spoken.split(separator: " ").map(String.init) + ["point"] + digits + [sign, unit].compactMap { $0 }
            }
            guard !rest.isEmpty, rest.count <= 12, rest.allSatisfy(\.isASCIIDigit), let number = Int(rest),
                  let spoken = NumberWords.spoken(number) else {
                return [word]
            }
            return spoken.split(separator: " ").map(String.init) + [sign, unit].compactMap { $0 }.filter { !$0.isEmpty }
        }
    }
}

private extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
