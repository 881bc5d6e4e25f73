public import Foundation

/// A time of day to the minute ("07:30"), as people set automations and as
/// apps declare when a shortcut is relevant.
public struct TimeOfDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Minutes since midnight, 0..<1440.
    public var minutes: Int

    public init(minutes: Int) {
        precondition((0..<Self.minutesPerDay).contains(minutes), "a time of day is 0..<1440 minutes")
        self.minutes = minutes
    }

    public static let minutesPerDay = 24 * 60

    /// "7:30", "07:30", "19:05", "23:59"; nil for anything else.
    public init?(_ text: String) {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[1].count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]),
              (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.minutes = hour * 60 + minute
    }

    /// The time of day `date` shows on `calendar`'s clock.
    public init(of date: Date, calendar: Calendar) {
        let parts = calendar.dateComponents([.hour, .minute], from: date)
        self.minutes = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    /// "07:30".
    public var description: String { String(format: "%02d:%02d", hour, minute) }

    /// "7:30 AM": how Hark says it.
    public var spoken: String {
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        return String(format: "%d:%02d %@", twelve, minute, hour < 12 ? "AM" : "PM")
    }

    /// Minutes between two times of day the short way round the clock (23:50 and 00:10 are 20 apart).
    public func distance(to other: TimeOfDay) -> Int {
        let direct = abs(minutes - other.minutes)
        return min(direct, Self.minutesPerDay - direct)
    }

    public static func < (lhs: TimeOfDay, rhs: TimeOfDay) -> Bool { lhs.minutes < rhs.minutes }
}

/// Days of the week, numbered as `Calendar` numbers them: 1 is Sunday, 7 is Saturday.
public struct Weekdays: Sendable, Hashable, Codable, CustomStringConvertible {
    public var days: Set<Int>

    public init(_ days: Set<Int>) {
        self.days = days.filter { (1...7).contains($0) }
    }

    public static let everyDay = Weekdays(Set(1...7))
    public static let workdays = Weekdays(Set(2...6))
    public static let weekend = Weekdays([1, 7])

    static let names = ["sun", "mon", "tue", "wed", "thu", "fri", "sat"]

    /// "mon,wed,fri", "weekdays", "weekends", "daily" (or "every day"), full or short day names;
    /// nil, with the word that was not understood, otherwise.
    public static func parse(_ text: String) -> Result<Weekdays, UnknownDay> {
        var days = Set<Int>()
        for raw in text.lowercased().split(whereSeparator: { $0 == "," || $0 == " " }) {
            let word = String(raw)
            switch word {
            case "daily", "every", "day", "everyday", "all": days.formUnion(everyDay.days)
            case "weekdays", "workdays": days.formUnion(workdays.days)
            case "weekends", "weekend": days.formUnion(weekend.days)
            default:
                guard let index = names.firstIndex(where: { word.hasPrefix($0) && word.count >= 3 }) else {
                    return .failure(UnknownDay(word: word))
                }
                days.insert(index + 1)
            }
        }
        return days.isEmpty ? .failure(UnknownDay(word: text)) : .success(Weekdays(days))
    }

    public struct UnknownDay: Error, Sendable, Equatable, CustomStringConvertible {
        public var word: String
        public var description: String {
            "\"\(word)\" is not a day: use mon, tue, wed, thu, fri, sat, sun, weekdays, weekends or daily"
        }
    }

    public func contains(_ weekday: Int) -> Bool { days.contains(weekday) }

    /// "daily", "weekdays", "weekends" or "mon,wed,fri".
    public var description: String {
        if self == .everyDay { return "daily" }
        if self == .workdays { return "weekdays" }
        if self == .weekend { return "weekends" }
        return days.sorted { ($0 + 5) % 7 < ($1 + 5) % 7 }.map { Self.names[$0 - 1] }.joined(separator: ",")
    }
}

/// When a shortcut an app declares is worth offering: a span of the day on some days.
public struct RelevanceWindow: Sendable, Equatable {
    public var from: TimeOfDay
    /// The end, inclusive; earlier than `from` for a window across midnight.
    public var to: TimeOfDay
    public var days: Weekdays

    public init(from: TimeOfDay, to: TimeOfDay, days: Weekdays = .everyDay) {
        self.from = from
        self.to = to
        self.days = days
    }

    public func contains(_ time: TimeOfDay, weekday: Int) -> Bool {
        guard days.contains(weekday) else { return false }
        return from <= to ? (from...to).contains(time) : (time >= from || time <= to)
    }
}

/// A shortcut an app offers before the person has done it (the guidance's
/// suggested shortcut), or offers at the times it is likely wanted (a relevant
/// shortcut, with a window).
public struct SuggestedShortcut: Sendable, Equatable {
    public var intent: String
    /// Values the shortcut sets, like an App Shortcut's `set:`.
    public var presets: [String: String]
    /// When set, the shortcut is offered inside this window whether or not it was ever run.
    public var window: RelevanceWindow?

    public init(intent: String, presets: [String: String] = [:], window: RelevanceWindow? = nil) {
        self.intent = intent
        self.presets = presets
        self.window = window
    }
}
