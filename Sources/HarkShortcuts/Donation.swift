public import Foundation
public import HarkIntents

/// An action the person carried out, told to Hark so it can suggest the
/// action again at the times it is usually wanted. Every handled intent is one.
public struct Donation: Sendable, Equatable {
    public var id: Int64?
    public var app: String
    public var intent: String
    public var values: [String: ParameterValue]
    public var date: Date
    /// 1 is Sunday, 7 is Saturday, on the clock of the place it was done.
    public var weekday: Int
    public var time: TimeOfDay

    public init(id: Int64? = nil, app: String, intent: String, values: [String: ParameterValue], date: Date,
                calendar: Calendar = .current) {
        self.id = id
        self.app = app
        self.intent = intent
        self.values = values
        self.date = date
        self.weekday = calendar.component(.weekday, from: date)
        self.time = TimeOfDay(of: date, calendar: calendar)
    }

    public init(id: Int64?, app: String, intent: String, values: [String: ParameterValue], date: Date,
                weekday: Int, time: TimeOfDay) {
        self.id = id
        self.app = app
        self.intent = intent
        self.values = values
        self.date = date
        self.weekday = weekday
        self.time = time
    }

    /// Donations of the same action: the same intent with the same values.
    public var actionKey: String {
        ([app + "." + intent] + values.map { "\($0.key)=\($0.value.identifier)" }.sorted()).joined(separator: " ")
    }
}

/// Which donations to delete: an app's, perhaps of one intent, perhaps only
/// those with certain values ("recipient=amy_jones" when Amy is no longer a contact).
public struct DonationFilter: Sendable, Equatable {
    public var app: String
    public var intent: String?
    /// Parameter → value identifier; every one must match.
    public var values: [String: String]

    public init(app: String, intent: String? = nil, values: [String: String] = [:]) {
        self.app = app
        self.intent = intent
        self.values = values
    }

    public func matches(_ donation: Donation) -> Bool {
        donation.app == app && (intent.map { $0 == donation.intent } ?? true)
            && values.allSatisfy { donation.values[$0.key]?.identifier == $0.value }
    }

    /// Reads "param=value" pairs.
    public static func pairs(_ items: [String]) -> Result<[String: String], PairError> {
        var values: [String: String] = [:]
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else { return .failure(PairError(item: item)) }
            values[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return .success(values)
    }

    public struct PairError: Error, Sendable, Equatable, CustomStringConvertible {
        public var item: String
        public var description: String { "\"\(item)\" is not parameter=value" }
    }
}
