public import HarkIntents

/// What Hark remembers of how a person uses each intent: how often, and the
/// values chosen last. Familiar intents get shorter prompts and less
/// attribution; the last value is offered as the default next time.
public struct UsageMemory: Sendable, Equatable {
    /// Uses after which an intent counts as familiar.
    public var familiarAfter: Int
    public private(set) var uses: [String: Int] = [:]
    public private(set) var lastValues: [String: [String: ParameterValue]] = [:]

    public init(familiarAfter: Int = 2) {
        self.familiarAfter = familiarAfter
    }

    public func isFamiliar(_ key: String) -> Bool { uses[key, default: 0] >= familiarAfter }

    public mutating func recordUse(_ key: String, values: [String: ParameterValue]) {
        uses[key, default: 0] += 1
        lastValues[key, default: [:]].merge(values) { _, new in new }
    }

    public func lastValue(_ key: String, parameter: String) -> ParameterValue? {
        lastValues[key]?[parameter]
    }
}
