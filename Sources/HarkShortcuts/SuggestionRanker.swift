public import Foundation
public import HarkIntents

/// A shortcut worth offering now, with why.
public struct Suggestion: Sendable, Equatable {
    public enum Kind: String, Sendable, Equatable, Codable {
        /// Done before, around this time or often.
        case donated
        /// An app says it is relevant at this time of day.
        case relevant
        /// An app offers it, and the person has never run it.
        case suggested
    }

    public var kind: Kind
    public var app: String
    public var intent: String
    public var values: [String: ParameterValue]
    /// What it does, beginning with a verb ("Order a large house blend coffee with cream").
    public var title: String
    public var score: Double
    /// How many times it was done (donated suggestions).
    public var count: Int
    /// A personal shortcut that does exactly this, to mention its phrase.
    public var phrase: String?

    public init(kind: Kind, app: String, intent: String, values: [String: ParameterValue], title: String,
                score: Double, count: Int = 0, phrase: String? = nil) {
        self.kind = kind
        self.app = app
        self.intent = intent
        self.values = values
        self.title = title
        self.score = score
        self.count = count
        self.phrase = phrase
    }

    public var actionKey: String {
        Donation(app: app, intent: intent, values: values, date: Date(timeIntervalSince1970: 0)).actionKey
    }
}

/// Ranks what a person is likely to want now from what they have done before.
/// Pure: the same donations, clock and calendar always give the same list.
///
/// Each past action scores the sum, over the times it was done, of
///
///     recency × time of day × day of week
///
/// recency     halves every `halfLifeDays` (14) days;
/// time of day a bell around the time it was done (σ = `timeSigmaMinutes`, 60),
///             never below `timeFloor` (0.05), so a frequent action still shows off-hours;
/// day of week 1 on the same weekday, 0.6 on the same kind of day (workday or
///             weekend), 0.1 otherwise (a workday habit is no weekend one).
///
/// So frequency counts through the sum. An app's relevant shortcut scores
/// `relevantScore` inside its window; a shortcut an app suggests that the
/// person has never run scores `suggestedScore`, enough to show after what they do.
public struct SuggestionRanker: Sendable {
    public var calendar: Calendar
    public var halfLifeDays = 14.0
    public var timeSigmaMinutes = 60.0
    public var timeFloor = 0.05
    public var relevantScore = 1.0
    public var suggestedScore = 0.1
    /// Donated actions scoring less than this are not offered.
    public var threshold = 0.02

    public init(calendar: Calendar = .current) {
        self.calendar = calendar
    }

    /// The suggestions for `now`, best first, at most `limit`.
    public func rank(donations: [Donation], catalog: AppCatalog, shortcuts: [PersonalShortcut] = [],
                     at now: Date, limit: Int = 5) -> [Suggestion] {
        let weekday = calendar.component(.weekday, from: now)
        let time = TimeOfDay(of: now, calendar: calendar)
        var byAction: [String: Suggestion] = [:]
        var order: [String] = []

        for donation in donations {
            guard let app = catalog.app(donation.app), let intent = app.intent(named: donation.intent) else { continue }
            let key = donation.actionKey
            let weight = score(donation, now: now, weekday: weekday, time: time)
            if var existing = byAction[key] {
                existing.score += weight
                existing.count += 1
                byAction[key] = existing
            } else {
                order.append(key)
                byAction[key] = Suggestion(kind: .donated, app: donation.app, intent: donation.intent, values: donation.values,
                                           title: catalog.describe(app: app, intent: intent, values: donation.values),
                                           score: weight, count: 1)
            }
        }
        for key in order where byAction[key].map({ $0.score < threshold }) ?? false { byAction[key] = nil }

        let done = Set(donations.map { "\($0.app).\($0.intent)" })
        for app in catalog.apps {
            for offered in app.suggestions {
                guard let intent = app.intent(named: offered.intent) else { continue }
                var values: [String: ParameterValue] = [:]
                for (name, preset) in offered.presets {
                    guard let parameter = intent.parameter(named: name),
                          case .value(let value) = catalog.read(preset: preset, for: parameter, in: app) else { continue }
                    values[name] = value
                }
                let kind: Suggestion.Kind
                if let window = offered.window {
                    guard window.contains(time, weekday: weekday) else { continue }
                    kind = .relevant
                } else {
                    guard !done.contains("\(app.identifier).\(intent.name)") else { continue }
                    kind = .suggested
                }
                var suggestion = Suggestion(kind: kind, app: app.identifier, intent: intent.name, values: values,
                                            title: catalog.describe(app: app, intent: intent, values: values),
                                            score: kind == .relevant ? relevantScore : suggestedScore)
                let key = suggestion.actionKey
                if let existing = byAction[key] {
                    // Done before and relevant now: keep what the person did, with the better score.
                    suggestion = existing
                    suggestion.score = max(existing.score, kind == .relevant ? relevantScore : suggestedScore)
                } else {
                    order.append(key)
                }
                byAction[key] = suggestion
            }
        }

        var ranked = order.compactMap { byAction[$0] }
        for index in ranked.indices {
            let words = ranked[index]
            ranked[index].phrase = shortcuts.first { shortcut in
                shortcut.steps.count == 1 && shortcut.steps[0].app == words.app && shortcut.steps[0].intent == words.intent
                    && shortcut.steps[0].values.allSatisfy { words.values[$0.key]?.identifier == $0.value }
            }?.phrase
        }
        // Stable: equal scores keep the order first seen.
        ranked = ranked.enumerated().sorted { lhs, rhs in
            lhs.element.score != rhs.element.score ? lhs.element.score > rhs.element.score : lhs.offset < rhs.offset
        }.map(\.element)
        return Array(ranked.prefix(limit))
    }

    /// What one past action adds to the score of doing it again now.
    public func score(_ donation: Donation, now: Date, weekday: Int, time: TimeOfDay) -> Double {
        let ageDays = max(0, now.timeIntervalSince(donation.date) / 86_400)
        let recency = pow(0.5, ageDays / halfLifeDays)
        let distance = Double(donation.time.distance(to: time))
        let timeOfDay = max(timeFloor, exp(-(distance * distance) / (2 * timeSigmaMinutes * timeSigmaMinutes)))
        let day: Double
        if donation.weekday == weekday {
            day = 1
        } else if Weekdays.workdays.contains(donation.weekday) == Weekdays.workdays.contains(weekday) {
            day = 0.6
        } else {
            day = 0.1
        }
        return recency * timeOfDay * day
    }
}
