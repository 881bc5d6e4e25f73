import HarkNumbers

/// Replies rewritten from the way they are written into the words a listener follows (en-US),
/// before espeak-ng reads them: left alone, espeak-ng reads "$2.50" as "dollar two point five
/// zero" and "24th" letter by letter where it does not know the form.
///
/// - money: "$2.50" → "two dollars fifty", "$1" → "one dollar", "$0.99" → "ninety-nine cents",
///   "-$5" → "minus five dollars", "$1.5 million" → "one point five million dollars"; "€" and "£"
///   the same with euros and cents, pounds and pence.
/// - numbers with a point or separators: "3.75" → "three point seven five", "12,500" →
///   "twelve thousand five hundred". A plain whole number is left to espeak-ng, which reads it
///   well and reads a year ("1999") as a year.
/// - percentages and units after a number: "45%", "5 km", "20°C", "1 kg" (singular for one).
/// - times on the 12-hour clock American listeners use: "7:05" → "seven oh five", "7:00" →
///   "seven o'clock", "7:30 PM" and "19:30" → "seven thirty p.m.", "12:00" → "noon", "0:00"
///   → "midnight". A time written on the 24-hour clock says a.m. or p.m., since its reader
///   cannot tell morning from evening otherwise.
/// - dates: "2026-11-24" → "November twenty-fourth, twenty twenty-six", "Nov 24" → "November
///   twenty-fourth"; ordinals "22nd" → "twenty-second".
///
/// Numbers are written as English writes them, "twenty-four" hyphenated: espeak-ng says that
/// as one word, as a speaker does, where "twenty four" gets a pause between. Anything not
/// recognised, and every space and punctuation mark around what is, passes through unchanged.
public enum SpeechText {
    /// `text` with its written forms spelt out as words.
    public static func normalised(_ text: String) -> String {
        let pieces = Piece.split(text)
        var output = ""
        var index = 0
        while index < pieces.count {
            let piece = pieces[index]
            guard case .word(let token) = piece else {
                output += piece.text
                index += 1
                continue
            }
            // The next two words, for forms written over more than one ("7:30 pm", "Nov 24, 2026");
            // words and spaces alternate.
            let following = pieces[(index + 1)...].prefix(4).compactMap { piece -> Token? in
                if case .word(let token) = piece { token } else { nil }
            }
            if let reading = read(token, followedBy: following) {
                let last = reading.wordsUsed == 0 ? token : following[reading.wordsUsed - 1]
                // "at 7 p.m." ends on the point of "p.m.", not on two.
                let trail = reading.words.hasSuffix(".") && last.trail.hasPrefix(".") ? last.trail.dropFirst() : last.trail
                output += token.lead + reading.words + trail
                index += 1 + 2 * reading.wordsUsed
            } else {
                output += piece.text
                index += 1
            }
        }
        return output
    }

    /// Words for a token, and how many of the following tokens they also stand for.
    struct Reading: Equatable {
        var words: String
        var wordsUsed = 0
    }

    static func read(_ token: Token, followedBy following: [Token]) -> Reading? {
        let core = token.core
        // A following word joins the reading only when nothing but a space stands between.
        let next = token.trail.isEmpty ? following.first?.core : nil
        if let money = money(core, scale: next) { return money }
        if let date = SpokenDate.iso(core) { return Reading(words: date) }
        if let time = SpokenTime.reading(core, next: next) { return time }
        if let date = SpokenDate.monthDay(token, following: following) { return date }
        if let ordinal = ordinal(core) { return Reading(words: ordinal) }
        if let measure = measure(core, next: next) { return measure }
        if let number = WrittenNumber(core), number.isGrouped || !number.fraction.isEmpty {
            return Reading(words: number.words)
        }
        // A contact in Cyrillic or a word in full-width letters is said the way Hark listens for
        // it (`LatinSpelling`), not letter by letter with letter names.
        if core.contains(where: { !$0.isASCII }), let latin = LatinSpelling.of(String(core)), latin != core.lowercased() {
            return Reading(words: latin)
        }
        return nil
    }

    // MARK: Money

    struct Currency {
        var one: String, many: String, cent: String, cents: String
    }

    static let currencies: [Character: Currency] = [
        "$": Currency(one: "dollar", many: "dollars", cent: "cent", cents: "cents"),
        "€": Currency(one: "euro", many: "euros", cent: "cent", cents: "cents"),
        "£": Currency(one: "pound", many: "pounds", cent: "penny", cents: "pence"),
    ]

    static let scaleWords: Set<Substring> = ["thousand", "million", "billion", "trillion"]

    /// "$2.50", "-£0.99", "€1,200"; with `scale` ("million") the amount is read as a number of them.
    static func money(_ core: Substring, scale: Substring?) -> Reading? {
        var rest = core
        let negative = rest.first.map(WrittenNumber.minusSigns.contains) ?? false
        if negative { rest = rest.dropFirst() }
        guard let symbol = rest.first, let currency = currencies[symbol],
              let amount = WrittenNumber(rest.dropFirst()), !amount.isNegative else { return nil }
        let minus = negative ? "minus " : ""
        if let scale, scaleWords.contains(scale) {
            return Reading(words: "\(minus)\(amount.words) \(scale) \(currency.many)", wordsUsed: 1)
        }
        guard amount.fraction.count <= 2 else {
            return Reading(words: "\(minus)\(amount.words) \(currency.many)")
        }
        // "$2.5" is two dollars fifty.
        let cents = Int(amount.fraction.count == 1 ? amount.fraction + "0" : amount.fraction) ?? 0
        guard let whole = NumberWords.spoken(amount.whole, hyphenated: true),
              let centWords = NumberWords.spoken(cents, hyphenated: true) else { return nil }
        let words: String
        switch (amount.whole, cents) {
        case (0, 0): words = "zero \(currency.many)"
        case (0, 1): words = "one \(currency.cent)"
        case (0, _): words = "\(centWords) \(currency.cents)"
        case (1, 0): words = "one \(currency.one)"
        case (_, 0): words = "\(whole) \(currency.many)"
        case (1, _): words = "one \(currency.one) \(centWords)"
        default: words = "\(whole) \(currency.many) \(centWords)"
        }
        return Reading(words: minus + words)
    }

    // MARK: Ordinals

    /// "1st", "22nd", "113th"; a suffix that does not fit the number ("2th") is not read.
    static func ordinal(_ core: Substring) -> String? {
        guard let match = core.wholeMatch(of: #/(?<number>\d+)(?<suffix>st|nd|rd|th|ST|ND|RD|TH)/#),
              let number = Int(match.number), let words = NumberWords.ordinal(number, hyphenated: true),
              match.suffix.lowercased() == ordinalSuffix(number) else { return nil }
        return words
    }

    static func ordinalSuffix(_ number: Int) -> String {
        if (11...13).contains(number % 100) { return "th" }
        switch number % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    // MARK: Units

    /// A unit's name for one and for any other amount.
    struct Unit {
        var one: String, many: String
        init(_ one: String, _ many: String? = nil) {
            self.one = one
            self.many = many ?? one + "s"
        }
    }

    /// Units as written after a number, with or without a space; case matters ("mL" and "ml"
    /// are listed, "M" is not a metre). Letters that are also English words ("in", "m", "s")
    /// are left out: "5 in the box" must stay as written.
    static let units: [Substring: Unit] = [
        "%": Unit("percent", "percent"),
        "km": Unit("kilometer"), "cm": Unit("centimeter"), "mm": Unit("millimeter"),
        "mi": Unit("mile"), "ft": Unit("foot", "feet"),
        "km/h": Unit("kilometer per hour", "kilometers per hour"), "mph": Unit("mile per hour", "miles per hour"),
        "kg": Unit("kilogram"), "g": Unit("gram"), "mg": Unit("milligram"),
        "lb": Unit("pound"), "lbs": Unit("pound"), "oz": Unit("ounce"),
        "l": Unit("liter"), "L": Unit("liter"), "ml": Unit("milliliter"), "mL": Unit("milliliter"),
        "°C": Unit("degree Celsius", "degrees Celsius"), "°F": Unit("degree Fahrenheit", "degrees Fahrenheit"),
        "°": Unit("degree"),
        "h": Unit("hour"), "hr": Unit("hour"), "hrs": Unit("hour"),
        "min": Unit("minute"), "mins": Unit("minute"), "sec": Unit("second"), "secs": Unit("second"),
        "ms": Unit("millisecond"),
        "kWh": Unit("kilowatt hour"), "MB": Unit("megabyte"), "GB": Unit("gigabyte"),
    ]

    /// "20°C", "45%", or a number with its unit in the next word ("5 km").
    static func measure(_ core: Substring, next: Substring?) -> Reading? {
        if let number = WrittenNumber(core), let next, let unit = units[next] {
            return Reading(words: number.words + " " + number.inUnit(unit), wordsUsed: 1)
        }
        guard let end = core.firstIndex(where: { !($0.isNumber || ",.".contains($0) || WrittenNumber.minusSigns.contains($0)) }),
              let number = WrittenNumber(core[..<end]), let unit = units[core[end...]] else { return nil }
        return Reading(words: number.words + " " + number.inUnit(unit))
    }
}

/// A word of the text with the punctuation around it set apart: "($2.50)," is "(", "$2.50", "),".
struct Token: Equatable {
    var lead: Substring
    var core: Substring
    var trail: Substring

    static let leading: Set<Character> = ["(", "[", "{", "\"", "'", "“", "‘", "«"]
    static let trailing: Set<Character> = [".", ",", ";", ":", "!", "?", ")", "]", "}", "\"", "'", "”", "’", "»", "…"]

    init(_ word: Substring) {
        let coreStart = word.firstIndex { !Self.leading.contains($0) } ?? word.endIndex
        var coreEnd = word.endIndex
        while coreEnd > coreStart, Self.trailing.contains(word[word.index(before: coreEnd)]) {
            coreEnd = word.index(before: coreEnd)
        }
        lead = word[..<coreStart]
        core = word[coreStart..<coreEnd]
        trail = word[coreEnd...]
    }

    var text: Substring { lead + core + trail }
}

/// The text as runs of white space and the words between them.
enum Piece: Equatable {
    case space(Substring)
    case word(Token)

    var text: String {
        switch self {
        case .space(let space): String(space)
        case .word(let token): String(token.text)
        }
    }

    static func split(_ text: String) -> [Piece] {
        var pieces: [Piece] = []
        var start = text.startIndex
        while start < text.endIndex {
            let isSpace = text[start].isWhitespace
            let end = text[start...].firstIndex { $0.isWhitespace != isSpace } ?? text.endIndex
            pieces.append(isSpace ? .space(text[start..<end]) : .word(Token(text[start..<end])))
            start = end
        }
        return pieces
    }
}

/// A number as written: "12,500", "-3.75", "0.5"; digits after the point kept as written.
struct WrittenNumber: Equatable {
    var isNegative: Bool
    var whole: Int
    var fraction: Substring
    /// Written with thousands separators.
    var isGrouped: Bool

    static let minusSigns: Set<Character> = ["-", "−"]

    /// nil for anything else, for a whole part with a leading zero ("007" is a code, not seven),
    /// and beyond what NumberWords says.
    init?(_ text: Substring) {
        guard let match = text.wholeMatch(of: #/(?<sign>[-−])?(?<whole>\d{1,3}(?:,\d{3})+|\d+)(?:\.(?<fraction>\d+))?/#) else {
            return nil
        }
        let digits = match.whole.filter(\.isNumber)
        guard digits == "0" || digits.first != "0", let whole = Int(digits), whole <= NumberWords.largestSpoken else {
            return nil
        }
        isNegative = match.sign != nil
        self.whole = whole
        fraction = match.fraction ?? ""
        isGrouped = match.whole.contains(",")
    }

    /// "minus three point seven five".
    var words: String {
        var words = isNegative ? ["minus"] : []
        words.append(NumberWords.spoken(whole, hyphenated: true) ?? String(whole))
        if !fraction.isEmpty {
            words.append("point")
            words += fraction.compactMap { $0.wholeNumberValue.map { NumberWords.units[$0] } }
        }
        return words.joined(separator: " ")
    }

    /// The unit's name for this amount: singular for exactly one (or minus one).
    func inUnit(_ unit: SpeechText.Unit) -> String {
        whole == 1 && fraction.isEmpty ? unit.one : unit.many
    }
}
