import Foundation

/// What kind of value a parameter takes. The system types are understood by
/// Hark itself; `enumeration` names a type the app declares (with values and
/// synonyms, or options its handler supplies at run time).
public enum ParameterType: Sendable, Equatable {
    /// Free text: typed in a chat, taken by dictation when spoken.
    case text
    /// A whole number, optionally within a range, in steps from its lowest (5–100 in steps of
    /// 5 takes 5, 10, … 100; without a range, multiples of the step).
    case integer(ClosedRange<Int>?, step: Int = 1)
    /// A number with a fractional part, within a range, in steps.
    case decimal(ClosedRange<Double>, step: Double)
    case boolean
    /// A day and a time of day, relative to now ("tomorrow at seven thirty p m").
    case dateTime
    /// A length of time ("twenty minutes", "an hour and a half").
    case duration
    /// An amount of money in dollars and cents, within a range.
    case currency(ClosedRange<Double>)
    /// A type the app declares by this name.
    case enumeration(String)

    /// The names a manifest may use for the system types.
    public static let systemTypeNames = ["text", "integer", "decimal", "boolean", "dateTime", "duration", "currency"]

    /// The name of an app-declared type, nil for the system types.
    public var enumerationName: String? {
        if case .enumeration(let name) = self { name } else { nil }
    }

    public var name: String {
        switch self {
        case .text: "text"
        case .integer: "integer"
        case .decimal: "decimal"
        case .boolean: "boolean"
        case .dateTime: "dateTime"
        case .duration: "duration"
        case .currency: "currency"
        case .enumeration(let name): name
        }
    }
}

/// A parameter's value as the app receives it and as Hark says it back.
public struct ParameterValue: Sendable, Equatable, Hashable, Codable {
    /// What the app receives: an enumerated value's id, "3", "2.5", "true",
    /// "2026-11-24T19:30", a duration in seconds ("300"), an amount ("2.50"), or text.
    public var identifier: String
    /// How Hark says it in replies ("bowl", "3", "tomorrow at 7:30 PM", "5 minutes", "$2.50").
    public var spoken: String

    public init(identifier: String, spoken: String) {
        self.identifier = identifier
        self.spoken = spoken
    }
}
