public import Foundation
public import HarkGrammar
import HarkNumbers

/// How each parameter type is said: the spoken values a grammar listens for,
/// and the value a run of heard words stands for.
public struct ValueReader: Sendable {
    public enum Reading: Sendable, Equatable {
        case value(ParameterValue)
        /// Understood, but not a value the parameter accepts; the reason is spoken.
        case unsupported(String)
        /// The words do not say a value of this type at all.
        case notAValue
    }

    public var now: Date
    public var calendar: Calendar
    public var locale: Locale

    public init(now: Date = Date(), calendar: Calendar = .current, locale: Locale = Locale(identifier: "en_US")) {
        self.now = now
        self.calendar = calendar
        self.locale = locale
    }

    /// Integer ranges up to this size are listed value by value: a smaller,
    /// more accurate grammar than the general number pattern.
    static let enumeratedIntegerLimit = 120

    // MARK: What the grammar listens for

    /// The spoken values of a type; empty for free text, which is dictated, not parsed.
    public static func spokenValues(of type: ParameterType, enumerated: [EnumeratedValue] = []) -> [Grammar.SpokenValue] {
        switch type {
        case .text:
            return []
        case .enumeration:
            return enumerated.flatMap { value in
                value.spokenForms.map { Grammar.SpokenValue(spoken: $0, identifier: value.identifier) }
            }
        case .integer(let range, let step):
            if let range, range.lowerBound >= 0, range.upperBound <= NumberWords.maximum,
               range.count / step <= enumeratedIntegerLimit {
                return stride(from: range.lowerBound, through: range.upperBound, by: step).compactMap { number in
                    NumberWords.spoken(number).map { Grammar.SpokenValue(spoken: $0, identifier: "\(number)") }
                }
            }
            return patterns(NumberWords.pattern)
        case .decimal:
            return patterns("\(NumberWords.belowThousandPattern) [point \(digit) [\(digit)]]")
        case .boolean:
            return booleanForms.flatMap { id, forms in forms.map { Grammar.SpokenValue(spoken: $0, identifier: id) } }
        case .dateTime:
            return patterns("(\(day) [\(time)] | \(time) [\(day)])")
        case .duration:
            return patterns(duration)
        case .currency:
            let amount = NumberWords.belowThousandPattern
            return patterns("(\(amount) (dollar | dollars) [[and] \(belowHundred) [(cent | cents)]] | \(belowHundred) (cent | cents))")
        }
    }

    private static func patterns(_ source: String) -> [Grammar.SpokenValue] {
        do {
            return [Grammar.SpokenValue(pattern: try PhraseTemplate(source))]
        } catch {
            preconditionFailure("built-in value pattern does not parse: \(error)")
        }
    }

    /// How a yes or a no is said, by identifier.
    private static let booleanForms: [(id: String, forms: [String])] = [
        ("true", ["yes", "yeah", "yep", "sure", "true"]), ("false", ["no", "nope", "false"]),
    ]

    private static let digit = "(zero | oh | one | two | three | four | five | six | seven | eight | nine)"
    private static let belowHundred = "(" + NumberWords.units.joined(separator: " | ") + " | (" +
        NumberWords.tens[2...9].joined(separator: " | ") + ") [(" + NumberWords.units[1...9].joined(separator: " | ") + ")])"
    private static let weekdays = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]
    private static let day = "(today | tomorrow | tonight | this (morning | afternoon | evening) | [on] [next] (" +
        weekdays.joined(separator: " | ") + "))"
    private static let hour = "(" + NumberWords.units[1...12].joined(separator: " | ") + ")"
    private static let minutes = "(oh (" + NumberWords.units[1...9].joined(separator: " | ") + ") | " +
        NumberWords.units[10...19].joined(separator: " | ") + " | (twenty | thirty | forty | fifty) [(" +
        NumberWords.units[1...9].joined(separator: " | ") + ")])"
    private static let time = "[at] (\(hour) [(o'clock | \(minutes))] [(a.m. | p.m. | in the (morning | afternoon | evening) | at night)] | noon | midnight)"
    /// "five minutes", "two hours and ten minutes", "five and a half minutes", "two hours and a
    /// half", "an hour and a half", "half an hour", "a quarter of an hour", "three quarters of an hour".
    private static let duration = "(\(belowHundred) [and a half] (second | seconds | minute | minutes | hour | hours) " +
        "[and (\(belowHundred) (second | seconds | minute | minutes) | a half)] " +
        "| (a | an | one) (second | minute | hour) [and a half] " +
        "| half (a | an) (minute | hour) | [a] quarter (of an hour | hour) | three quarters of an hour)"

    // MARK: What the words mean

    /// The value `words` say for a parameter of `type`. For enumerations the
    /// grammar has already chosen `identifier`; for the rest the words are read.
    public func read(_ words: [String], identifier: String, type: ParameterType,
                     enumerated: [EnumeratedValue] = []) -> Reading {
        switch type {
        case .text:
            let text = words.joined(separator: " ")
            return text.isEmpty ? .notAValue : .value(ParameterValue(identifier: text, spoken: text))
        case .enumeration:
            guard let value = enumerated.first(where: { $0.identifier == identifier })
                ?? Self.matching(words, in: enumerated).first else { return .notAValue }
            return .value(ParameterValue(identifier: value.identifier, spoken: value.spoken))
        case .boolean:
            if let id = ["true", "false"].first(where: { $0 == identifier }) {
                return .value(ParameterValue(identifier: id, spoken: id == "true" ? "yes" : "no"))
            }
            let said = words.joined(separator: " ")
            guard let (id, _) = Self.booleanForms.first(where: { $0.forms.contains(said) }) else { return .notAValue }
            return .value(ParameterValue(identifier: id, spoken: id == "true" ? "yes" : "no"))
        case .integer(let range, let step):
            guard let number = Int(identifier) ?? NumberWords.parse(words) else { return .notAValue }
            if let range, !range.contains(number) {
                return .unsupported("That has to be between \(range.lowerBound) and \(range.upperBound).")
            }
            if (number - (range?.lowerBound ?? 0)) % step != 0 {
                return .unsupported("That has to be in steps of \(step).")
            }
            return .value(ParameterValue(identifier: "\(number)", spoken: "\(number)"))
        case .decimal(let range, let step):
            guard let number = Self.decimal(words) else { return .notAValue }
            if !range.contains(number) {
                return .unsupported("That has to be between \(Self.format(range.lowerBound)) and \(Self.format(range.upperBound)).")
            }
            if step > 0, abs((number - range.lowerBound) / step - ((number - range.lowerBound) / step).rounded()) > 1e-6 {
                return .unsupported("That has to be in steps of \(Self.format(step)).")
            }
            return .value(ParameterValue(identifier: Self.format(number), spoken: Self.format(number)))
        case .currency(let range):
            guard let cents = Self.cents(words) else { return .notAValue }
            let amount = Double(cents) / 100
            if !range.contains(amount) {
                return .unsupported("That has to be between \(Self.money(range.lowerBound)) and \(Self.money(range.upperBound)).")
            }
            return .value(ParameterValue(identifier: String(format: "%.2f", amount), spoken: Self.money(amount)))
        case .duration:
            guard let seconds = Self.seconds(words), seconds > 0 else { return .notAValue }
            return .value(ParameterValue(identifier: "\(seconds)", spoken: Self.describe(seconds: seconds)))
        case .dateTime:
            return dateTime(words)
        }
    }

    /// Enumerated values one of whose spoken forms is exactly `words`: more
    /// than one means the words are ambiguous ("Amy" for Amy Smith and Amy Jones).
    public static func matching(_ words: [String], in values: [EnumeratedValue]) -> [EnumeratedValue] {
        values.filter { value in value.spokenForms.contains { Grammar.words(of: $0) == words } }
    }

    // MARK: Numbers, money, durations

    static func format(_ number: Double) -> String {
        number == number.rounded() ? "\(Int(number))" : String(format: "%g", number)
    }

    static func money(_ amount: Double) -> String {
        String(format: "$%.2f", amount)
    }

    static func decimal(_ words: [String]) -> Double? {
        guard let point = words.firstIndex(of: "point") else { return NumberWords.parse(words).map(Double.init) }
        guard let whole = NumberWords.parse(Array(words[..<point])) else { return nil }
        let fraction = words[(point + 1)...]
        guard !fraction.isEmpty else { return nil }
        var digits = ""
        for word in fraction {
            guard let digit = word == "oh" ? 0 : NumberWords.units.firstIndex(of: word), digit < 10 else { return nil }
            digits += "\(digit)"
        }
        return Double("\(whole).\(digits)")
    }

    static func cents(_ words: [String]) -> Int? {
        if let dollarIndex = words.firstIndex(where: { $0 == "dollar" || $0 == "dollars" }) {
            guard let dollars = NumberWords.parse(Array(words[..<dollarIndex])) else { return nil }
            var rest = Array(words[(dollarIndex + 1)...])
            if rest.first == "and" { rest.removeFirst() }
            if let last = rest.last, last == "cent" || last == "cents" { rest.removeLast() }
            let cents = rest.isEmpty ? 0 : NumberWords.parse(rest)
            guard let cents, cents < 100 else { return nil }
            return dollars * 100 + cents
        }
        guard let last = words.last, last == "cent" || last == "cents",
              let cents = NumberWords.parse(Array(words.dropLast())) else { return nil }
        return cents
    }

    static func seconds(_ words: [String]) -> Int? {
        let unitSeconds = ["second": 1, "seconds": 1, "minute": 60, "minutes": 60, "hour": 3600, "hours": 3600]
        let said = words.joined(separator: " ")
        if said.hasPrefix("a quarter") || said.hasPrefix("quarter") { return 900 }
        if said.hasPrefix("three quarters") { return 2700 }
        if said.hasPrefix("half a") || said.hasPrefix("half an") {
            guard let unit = words.last.flatMap({ unitSeconds[$0] }) else { return nil }
            return unit / 2
        }
        var total = 0
        var pending: [String] = []
        var lastUnit = 0
        // "five and a half minutes": the half waits for its unit.
        var halfPending = false
        for word in words {
            if let unit = unitSeconds[word] {
                let count = pending == ["a"] || pending == ["an"] ? 1 : NumberWords.parse(pending)
                guard let count else { return nil }
                total += count * unit + (halfPending ? unit / 2 : 0)
                lastUnit = unit
                pending = []
                halfPending = false
            } else if word == "and" {
                continue
            } else if word == "half", pending == ["a"], lastUnit > 0 {
                total += lastUnit / 2
                pending = []
            } else if word == "half", pending.count > 1, pending.last == "a", !halfPending {
                halfPending = true
                pending.removeLast()
            } else {
                pending.append(word)
            }
        }
        return pending.isEmpty ? total : nil
    }

    static func describe(seconds: Int) -> String {
        func part(_ count: Int, _ unit: String) -> String { "\(count) \(unit)\(count == 1 ? "" : "s")" }
        var parts: [String] = []
        if seconds >= 3600 { parts.append(part(seconds / 3600, "hour")) }
        if seconds % 3600 >= 60 { parts.append(part(seconds % 3600 / 60, "minute")) }
        if seconds % 60 > 0 { parts.append(part(seconds % 60, "second")) }
        return parts.joined(separator: " and ")
    }

    // MARK: Dates and times

    private func dateTime(_ words: [String]) -> Reading {
        var rest = words
        var dayOffset: Int?
        var partOfDay: String?
        var hour: Int?
        var minute = 0
        var meridiem: String?

        func take(_ word: String) -> Bool {
            guard let index = rest.firstIndex(of: word) else { return false }
            rest.remove(at: index)
            return true
        }
        if take("today") { dayOffset = 0 }
        if take("tomorrow") { dayOffset = 1 }
        if take("tonight") { dayOffset = 0; partOfDay = "evening" }
        for part in ["morning", "afternoon", "evening"] where take(part) {
            partOfDay = part
            if take("this") { dayOffset = 0 }
        }
        if take("night") { partOfDay = "evening" }
        for (index, name) in Self.weekdays.enumerated() where take(name) {
            let today = calendar.component(.weekday, from: now) - 1
            var ahead = (index - today + 7) % 7
            if ahead == 0 { ahead = 7 }
            dayOffset = ahead
        }
        for filler in ["on", "next", "at", "in", "the", "o'clock"] { while take(filler) {} }
        if take("a.m.") { meridiem = "am" }
        if take("p.m.") { meridiem = "pm" }
        if take("noon") { hour = 12; meridiem = "pm" }
        if take("midnight") { hour = 0; meridiem = "am" }

        if !rest.isEmpty {
            guard let first = NumberWords.units.firstIndex(of: rest[0]), (1...12).contains(first) else { return .notAValue }
            hour = first
            let minuteWords = Array(rest.dropFirst()).filter { $0 != "oh" }
            if !minuteWords.isEmpty {
                guard let parsed = NumberWords.parse(minuteWords), parsed < 60 else { return .notAValue }
                minute = parsed
            }
        }
        guard dayOffset != nil || hour != nil else { return .notAValue }

        let startOfToday = calendar.startOfDay(for: now)
        var components = DateComponents()
        components.day = dayOffset ?? 0
        guard var date = calendar.date(byAdding: components, to: startOfToday) else { return .notAValue }
        guard var hour24 = hour else {
            return .value(ParameterValue(identifier: Self.isoDay(date, calendar), spoken: spokenDay(date)))
        }
        if meridiem == "pm" || partOfDay == "afternoon" || partOfDay == "evening" {
            if hour24 < 12 { hour24 += 12 }
        } else if meridiem == "am" || partOfDay == "morning" {
            if hour24 == 12 { hour24 = 0 }
        }
        guard let withTime = calendar.date(bySettingHour: hour24, minute: minute, second: 0, of: date) else { return .notAValue }
        date = withTime
        // "At seven" with no day or half of the day means the next seven to come.
        if dayOffset == nil, meridiem == nil, partOfDay == nil, date <= now, hour24 < 12,
           let evening = calendar.date(byAdding: .hour, value: 12, to: date), evening > now {
            date = evening
        } else if dayOffset == nil, date <= now, let tomorrow = calendar.date(byAdding: .day, value: 1, to: date) {
            date = tomorrow
        }
        let time = DateFormatter()
        time.locale = locale
        time.calendar = calendar
        time.timeZone = calendar.timeZone
        time.dateFormat = "h:mm a"
        let iso = DateFormatter()
        iso.locale = Locale(identifier: "en_US_POSIX")
        iso.calendar = Calendar(identifier: .gregorian)
        iso.timeZone = calendar.timeZone
        iso.dateFormat = "yyyy-MM-dd'T'HH:mm"
        return .value(ParameterValue(identifier: iso.string(from: date), spoken: "\(spokenDay(date)) at \(time.string(from: date))"))
    }

    private func spokenDay(_ date: Date) -> String {
        if calendar.isDate(date, inSameDayAs: now) { return "today" }
        if let tomorrow = calendar.date(byAdding: .day, value: 1, to: now), calendar.isDate(date, inSameDayAs: tomorrow) {
            return "tomorrow"
        }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.calendar = calendar
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "EEEE"
        return formatter.string(from: date)
    }

    private static func isoDay(_ date: Date, _ calendar: Calendar) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.calendar = Calendar(identifier: .gregorian)
        formatter.timeZone = calendar.timeZone
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }
}
