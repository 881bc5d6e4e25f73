public import Foundation
public import HarkIntents

/// A shortcut that runs by itself at a time of day on chosen days, and speaks its result.
public struct Automation: Sendable, Equatable, Identifiable {
    public var id: Int64
    public var shortcutID: Int64
    /// The shortcut's phrase, for lists and logs.
    public var phrase: String
    public var time: TimeOfDay
    public var days: Weekdays
    public var created: Date
    /// When it last ran; nil if never.
    public var lastRun: Date?

    public init(id: Int64, shortcutID: Int64, phrase: String, time: TimeOfDay, days: Weekdays, created: Date, lastRun: Date? = nil) {
        self.id = id
        self.shortcutID = shortcutID
        self.phrase = phrase
        self.time = time
        self.days = days
        self.created = created
        self.lastRun = lastRun
    }
}

/// When automations fire. Pure: give it a calendar (its time zone decides what "07:30" means).
public struct AutomationSchedule: Sendable {
    public var calendar: Calendar

    public init(calendar: Calendar = .current) {
        self.calendar = calendar
    }

    /// The first moment strictly after `date` that is `time` on one of `days`.
    public func nextFire(after date: Date, time: TimeOfDay, days: Weekdays) -> Date? {
        guard !days.days.isEmpty else { return nil }
        let startOfDay = calendar.startOfDay(for: date)
        for offset in 0...8 {
            guard let day = calendar.date(byAdding: .day, value: offset, to: startOfDay),
                  days.contains(calendar.component(.weekday, from: day)),
                  let fire = calendar.date(bySettingHour: time.hour, minute: time.minute, second: 0, of: day),
                  fire > date else { continue }
            return fire
        }
        return nil
    }

    /// When the automation fires next after it last ran (or was made).
    public func nextFire(of automation: Automation) -> Date? {
        nextFire(after: automation.lastRun ?? automation.created, time: automation.time, days: automation.days)
    }

    /// Automations whose time has come by `now` and that have not run since. One that
    /// was missed by more than `grace` (the machine was off) is skipped, not run late.
    public func due(_ automations: [Automation], at now: Date, grace: TimeInterval = 15 * 60) -> [Automation] {
        automations.filter { automation in
            guard let fire = nextFire(of: automation) else { return false }
            return fire <= now && now.timeIntervalSince(fire) <= grace
        }
    }
}
