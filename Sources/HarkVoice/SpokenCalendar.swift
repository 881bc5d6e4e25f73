import HarkNumbers

/// Times of day as an American listener hears them: on the 12-hour clock, "oh" before a
/// single-digit minute, "o'clock" on the hour, noon and midnight by name.
enum SpokenTime {
    enum Meridiem: String {
        // Written with points: espeak-ng reads "a m" as "uh m" but "a.m." as "ay em".
        case am = "a.m."
        case pm = "p.m."

        /// "am", "PM", "a.m." (its last point may already be set apart as punctuation).
        init?(_ text: Substring) {
            switch text.lowercased().filter({ $0 != "." }) {
            case "am": self = .am
            case "pm": self = .pm
            default: return nil
            }
        }
    }

    /// "7:05", "7:30pm", "19:30", or "7" / "7:30" with "pm" as the next word; nil when the
    /// token is not a time (a bare "7" is a number).
    static func reading(_ core: Substring, next: Substring?) -> SpeechText.Reading? {
        guard let match = core.wholeMatch(of: #/(?<hour>\d{1,2})(?::(?<minute>\d{2}))?(?<meridiem>[aApP]\.?[mM]\.?)?/#),
              let hour = Int(match.hour) else { return nil }
        let minute = match.minute.flatMap { Int($0) }
        var meridiem = match.meridiem.flatMap(Meridiem.init)
        var wordsUsed = 0
        if meridiem == nil, let next, let following = Meridiem(next) {
            meridiem = following
            wordsUsed = 1
        }
        // "7" alone is a number; "7 pm" and "7:00" are times.
        guard minute != nil || meridiem != nil else { return nil }
        let zeroPadded = match.hour.count == 2 && match.hour.first == "0"
        guard let words = words(hour: hour, minute: minute ?? 0, meridiem: meridiem, zeroPadded: zeroPadded) else {
            return nil
        }
        return SpeechText.Reading(words: words, wordsUsed: wordsUsed)
    }

    /// The words for a time. Without a.m. or p.m., an hour of 0 or 12 to 23, or one written with
    /// a leading zero ("07:30"), is on the 24-hour clock and is said with them; 1 to 11 is said
    /// as written, morning or evening being the listener's to know.
    static func words(hour: Int, minute: Int, meridiem written: Meridiem?, zeroPadded: Bool) -> String? {
        guard (0...59).contains(minute) else { return nil }
        let meridiem: Meridiem?
        let hour24: Int?
        if let written {
            guard (1...12).contains(hour) else { return nil }
            meridiem = written
            hour24 = hour % 12 + (written == .pm ? 12 : 0)
        } else if hour == 0 || hour >= 12 || zeroPadded {
            guard hour <= 23 else { return nil }
            meridiem = hour < 12 ? .am : .pm
            hour24 = hour
        } else {
            meridiem = nil
            hour24 = nil
        }
        if minute == 0, hour24 == 12 { return "noon" }
        if minute == 0, hour24 == 0 { return "midnight" }
        let hour12 = hour24.map { $0 % 12 == 0 ? 12 : $0 % 12 } ?? hour
        guard let hourWords = NumberWords.spoken(hour12, hyphenated: true),
              let minuteWords = NumberWords.spoken(minute, hyphenated: true) else { return nil }
        var words = [hourWords]
        if minute == 0 {
            if meridiem == nil { words.append("o'clock") }
        } else {
            if minute < 10 { words.append("oh") }
            words.append(minuteWords)
        }
        if let meridiem { words.append(meridiem.rawValue) }
        return words.joined(separator: " ")
    }
}

/// Dates as they are said: "November twenty-fourth, twenty twenty-six".
enum SpokenDate {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                         "October", "November", "December"]
    /// The most days each month can have.
    static let monthLengths = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]

    /// "2026-11-24", and "2026-11-24T19:30" with its time.
    static func iso(_ core: Substring) -> String? {
        let isoDate = #/(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})(?:T(?<hour>\d{2}):(?<minute>\d{2})(?::\d{2})?)?/#
        guard let match = core.wholeMatch(of: isoDate),
              let year = Int(match.year), let month = Int(match.month), let day = Int(match.day),
              let date = words(year: year, month: month, day: day) else { return nil }
        guard let hourText = match.hour, let minuteText = match.minute else { return date }
        guard let hour = Int(hourText), let minute = Int(minuteText),
              let time = SpokenTime.words(hour: hour, minute: minute, meridiem: nil, zeroPadded: true) else { return nil }
        return "\(date) at \(time)"
    }

    /// "Nov 24", "November 24th", "Nov. 24, 2026": a capitalised month, then a day, then
    /// perhaps a year after a comma.
    static func monthDay(_ token: Token, following: [Token]) -> SpeechText.Reading? {
        guard let month = month(named: token.core), token.trail.isEmpty || token.trail == ".",
              let dayToken = following.first, let day = dayOfMonth(dayToken.core), day <= monthLengths[month - 1],
              let dayWords = NumberWords.ordinal(day, hyphenated: true) else { return nil }
        let monthDay = "\(months[month - 1]) \(dayWords)"
        if dayToken.trail == ",", following.count > 1, following[1].core.count == 4, let year = Int(following[1].core),
           (1000...2999).contains(year), let yearWords = words(year: year) {
            return SpeechText.Reading(words: "\(monthDay), \(yearWords)", wordsUsed: 2)
        }
        return SpeechText.Reading(words: monthDay, wordsUsed: 1)
    }

    /// 1 to 12 for "November" or "Nov" ("Sept" too); a lowercase word is not taken for a
    /// month ("may", "march").
    static func month(named name: Substring) -> Int? {
        guard name.first?.isUppercase == true else { return nil }
        if let index = months.firstIndex(where: { $0 == name || $0.prefix(3) == name }) { return index + 1 }
        return name == "Sept" ? 9 : nil
    }

    /// "24" or "24th", 1 to 31.
    static func dayOfMonth(_ text: Substring) -> Int? {
        let digits = text.prefix(while: \.isNumber)
        guard (1...2).contains(digits.count), let day = Int(digits), (1...31).contains(day) else { return nil }
        let suffix = text.dropFirst(digits.count)
        return suffix.isEmpty || suffix.lowercased() == SpeechText.ordinalSuffix(day) ? day : nil
    }

    static func words(year: Int, month: Int, day: Int) -> String? {
        guard (1...12).contains(month), (1...monthLengths[month - 1]).contains(day),
              let dayWords = NumberWords.ordinal(day, hyphenated: true), let yearWords = words(year: year) else { return nil }
        return "\(months[month - 1]) \(dayWords), \(yearWords)"
    }

    /// A year as it is said: "nineteen ninety-nine", "nineteen oh five", "nineteen hundred",
    /// "two thousand six", "twenty twenty-six".
    static func words(year: Int) -> String? {
        guard (1000...9999).contains(year) else { return nil }
        let century = year / 100
        let rest = year % 100
        if century % 10 == 0, rest < 10 { return NumberWords.spoken(year, hyphenated: true) }
        guard let high = NumberWords.spoken(century, hyphenated: true),
              let low = NumberWords.spoken(rest, hyphenated: true) else { return nil }
        if rest == 0 { return "\(high) hundred" }
        return rest < 10 ? "\(high) oh \(low)" : "\(high) \(low)"
    }
}
