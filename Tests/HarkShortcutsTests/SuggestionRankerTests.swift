import Foundation
import HarkIntents
import HarkShortcuts
import HarkTestSupport
import Testing

/// Suggestions from a synthetic month of donations, with a fixed clock and calendar.
@Suite struct SuggestionRankerTests {
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }()

    static func catalog() throws -> AppCatalog {
        try AppCatalog.load(from: Fixtures.root.appendingPathComponent("apps"))
    }

    static func value(_ id: String, _ spoken: String? = nil) -> ParameterValue {
        ParameterValue(identifier: id, spoken: spoken ?? id)
    }

    static let coffee: [String: ParameterValue] = ["size": value("large"), "milk": value("cream"), "roast": value("house", "house blend"),
                                                   "sugars": value("0")]
    static let soup: [String: ParameterValue] = ["soup": value("clam_chowder", "clam chowder"), "orderType": value("pickup"),
                                                 "storeLocation": value("harbor", "Harbor"), "quantity": value("1"), "size": value("cup")]
    static let sleep: [String: ParameterValue] = ["type": value("sleep")]
    static let lamp: [String: ParameterValue] = ["name": value("living room lamp"), "state": value("on")]
    static let message: [String: ParameterValue] = ["recipient": value("bob_lee", "Bob Lee"), "content": value("on my way")]

    /// Monday 2026-02-02 00:00 UTC: the month starts here; it runs five weeks.
    static let start = Date(timeIntervalSince1970: 1_769_990_400)

    static func at(day: Int, _ hour: Int, _ minute: Int) -> Date {
        start.addingTimeInterval(Double(day) * 86_400 + Double(hour * 3600 + minute * 60))
    }

    /// Five weeks of a person's habits, with a little jitter in the minutes.
    static func month() -> [Donation] {
        var donations: [Donation] = []
        func add(_ app: String, _ intent: String, _ values: [String: ParameterValue], _ date: Date) {
            donations.append(Donation(app: app, intent: intent, values: values, date: date, calendar: calendar))
        }
        for day in 0..<35 {
            let jitter = (day * 7) % 21 - 10   // -10…+10 minutes
            let weekday = calendar.component(.weekday, from: at(day: day, 0, 0))
            if (2...6).contains(weekday) { add("coffee", "OrderCoffee", coffee, at(day: day, 7, 30 + jitter)) }
            if weekday == 6 { add("soup", "OrderSoup", soup, at(day: day, 12, 5 + jitter / 2)) }
            add("meditation", "StartMeditation", sleep, at(day: day, 22, 15 + jitter))
            if weekday == 1 || weekday == 7 { add("home", "ChangeLightState", lamp, at(day: day, 9, 30 + jitter)) }
            // A habit that stopped three weeks ago: checking the temperature at seven.
            if day < 14 { add("home", "GetTemperature", [:], at(day: day, 7, 0)) }
            if day % 9 == 4 { add("messages", "SendMessage", message, at(day: day, 18, 0)) }
        }
        return donations.sorted { $0.date < $1.date }
    }

    struct Case: CustomStringConvertible {
        var name: String
        var day: Int
        var hour: Int
        var minute: Int
        /// "app.Intent" expected first; nil when no habit applies.
        var expected: String?
        var description: String { name }
    }

    /// Day 35 is Monday 2026-03-09, the day after the month ends.
    static let cases: [Case] = [
        Case(name: "Mon 07:25", day: 35, hour: 7, minute: 25, expected: "coffee.OrderCoffee"),
        Case(name: "Mon 06:30", day: 35, hour: 6, minute: 30, expected: "coffee.OrderCoffee"),
        Case(name: "Tue 12:00", day: 36, hour: 12, minute: 0, expected: nil),
        Case(name: "Wed 22:00", day: 37, hour: 22, minute: 0, expected: "meditation.StartMeditation"),
        Case(name: "Fri 11:55", day: 39, hour: 11, minute: 55, expected: "soup.OrderSoup"),
        Case(name: "Fri 07:40", day: 39, hour: 7, minute: 40, expected: "coffee.OrderCoffee"),
        Case(name: "Sat 09:40", day: 40, hour: 9, minute: 40, expected: "home.ChangeLightState"),
        // No weekend habit at 07:30: the app's relevant morning meditation, not the workday coffee.
        Case(name: "Sun 07:30", day: 41, hour: 7, minute: 30, expected: "meditation.StartMeditation"),
        Case(name: "Sun 09:20", day: 41, hour: 9, minute: 20, expected: "home.ChangeLightState"),
        Case(name: "Thu 18:05", day: 38, hour: 18, minute: 5, expected: nil),
    ]

    @Test(arguments: cases) func theHabitOfTheMomentComesFirst(_ check: Case) throws {
        let ranked = SuggestionRanker(calendar: Self.calendar)
            .rank(donations: Self.month(), catalog: try Self.catalog(), at: Self.at(day: check.day, check.hour, check.minute), limit: 3)
        let top = ranked.map { "\($0.app).\($0.intent) \($0.kind.rawValue) \(String(format: "%.2f", $0.score))" }
        print("ranking \(check.name): \(top.joined(separator: " | "))")
        try #require(!ranked.isEmpty)
        if let expected = check.expected {
            #expect("\(ranked[0].app).\(ranked[0].intent)" == expected, "\(check.name): \(top)")
        }
    }

    @Test func aStoppedHabitFadesBehindACurrentOne() throws {
        // At 07:00 on a workday, the temperature was checked daily for two weeks, three weeks ago;
        // coffee is ordered at 07:30 every workday still.
        let ranked = SuggestionRanker(calendar: Self.calendar).rank(donations: Self.month(), catalog: try Self.catalog(),
                                                                   at: Self.at(day: 35, 7, 0))
        let order = ranked.map(\.intent)
        let coffee = try #require(order.firstIndex(of: "OrderCoffee"))
        let temperature = try #require(order.firstIndex(of: "GetTemperature"))
        #expect(coffee < temperature)
    }

    @Test func relevantAndSuggestedShortcutsOfApps() throws {
        let catalog = try Self.catalog()
        let ranker = SuggestionRanker(calendar: Self.calendar)
        // Nothing done yet, 06:30: the morning meditation is relevant; ground coffee is suggested (never run).
        let morning = ranker.rank(donations: [], catalog: catalog, at: Self.at(day: 35, 6, 30))
        #expect(morning.map(\.kind) == [.relevant, .suggested])
        #expect(morning.map(\.title) == ["Start a meditation, morning", "Order ground coffee, coarse"])
        // Outside every window only the suggested one is left; once ground coffee is ordered, not even that.
        #expect(ranker.rank(donations: [], catalog: catalog, at: Self.at(day: 35, 15, 0)).map(\.kind) == [.suggested])
        let ordered = Donation(app: "coffee", intent: "OrderGroundCoffee", values: ["grind": Self.value("fine")],
                               date: Self.at(day: 30, 9, 0), calendar: Self.calendar)
        #expect(!ranker.rank(donations: [ordered], catalog: catalog, at: Self.at(day: 35, 15, 0)).contains { $0.kind == .suggested })
    }

    @Test func donationsOfUninstalledAppsAreIgnoredAndPhrasesNamed() throws {
        let catalog = try Self.catalog()
        let gone = Donation(app: "weather", intent: "GetForecast", values: [:], date: Self.at(day: 28, 15, 0), calendar: Self.calendar)
        let lamp = Donation(app: "home", intent: "ChangeLightState", values: Self.lamp, date: Self.at(day: 28, 15, 0), calendar: Self.calendar)
        let shortcut = PersonalShortcut(id: 1, phrase: "lamp on", steps: [ShortcutStep(app: "home", intent: "ChangeLightState",
                                                                                        values: ["name": "living room lamp", "state": "on"])])
        let ranked = SuggestionRanker(calendar: Self.calendar)
            .rank(donations: [gone, lamp], catalog: catalog, shortcuts: [shortcut], at: Self.at(day: 35, 15, 0))
        #expect(ranked.first?.app == "home")
        #expect(ranked.first?.phrase == "lamp on")
        #expect(!ranked.contains { $0.app == "weather" })
    }
}

/// When automations fire, on a fixed calendar.
@Suite struct AutomationScheduleTests {
    let schedule = AutomationSchedule(calendar: SuggestionRankerTests.calendar)
    let iso = ISO8601DateFormatter()

    @Test func nextFireOnChosenDays() throws {
        // Friday 2026-03-06 08:00 → next workday 07:30 is Monday 2026-03-09.
        let friday = try #require(iso.date(from: "2026-03-06T08:00:00Z"))
        #expect(schedule.nextFire(after: friday, time: TimeOfDay("07:30")!, days: .workdays) == iso.date(from: "2026-03-09T07:30:00Z"))
        // Later the same day.
        #expect(schedule.nextFire(after: friday, time: TimeOfDay("18:00")!, days: .workdays) == iso.date(from: "2026-03-06T18:00:00Z"))
        // Exactly at the time: the next one, not this one.
        let atTime = try #require(iso.date(from: "2026-03-06T18:00:00Z"))
        #expect(schedule.nextFire(after: atTime, time: TimeOfDay("18:00")!, days: .everyDay) == iso.date(from: "2026-03-07T18:00:00Z"))
        // Weekends only, from a Monday.
        let monday = try #require(iso.date(from: "2026-03-09T10:00:00Z"))
        #expect(schedule.nextFire(after: monday, time: TimeOfDay("09:00")!, days: .weekend) == iso.date(from: "2026-03-14T09:00:00Z"))
        #expect(schedule.nextFire(after: monday, time: TimeOfDay("09:00")!, days: Weekdays([])) == nil)
    }

    @Test func dueOncePerFiringAndNotLongAfter() throws {
        let created = try #require(iso.date(from: "2026-03-05T09:00:00Z"))
        var automation = Automation(id: 1, shortcutID: 1, phrase: "porch light", time: TimeOfDay("18:30")!, days: .workdays, created: created)
        let justAfter = try #require(iso.date(from: "2026-03-05T18:31:00Z"))
        #expect(schedule.due([automation], at: justAfter).count == 1)
        #expect(schedule.due([automation], at: try #require(iso.date(from: "2026-03-05T18:29:00Z"))).isEmpty)
        // The machine was off: an hour late it is skipped.
        #expect(schedule.due([automation], at: try #require(iso.date(from: "2026-03-05T19:31:00Z"))).isEmpty)
        automation.lastRun = justAfter
        #expect(schedule.due([automation], at: justAfter.addingTimeInterval(60)).isEmpty)
    }

    @Test func daysAndTimesAreReadAsPeopleWriteThem() throws {
        #expect(try Weekdays.parse("mon,wed, Friday").get() == Weekdays([2, 4, 6]))
        #expect(try Weekdays.parse("weekdays").get() == .workdays)
        #expect(Weekdays.workdays.description == "weekdays")
        #expect(Weekdays([2, 4, 6]).description == "mon,wed,fri")
        if case .success = Weekdays.parse("someday") { Issue.record("someday is not a day") }
        #expect(TimeOfDay("7:05")?.minutes == 425)
        #expect(TimeOfDay("24:00") == nil)
        #expect(TimeOfDay("23:50")!.distance(to: TimeOfDay("00:10")!) == 20)
    }
}
