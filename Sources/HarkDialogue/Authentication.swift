/// Checks the owner's spoken PIN before intents with a financial impact.
public protocol PINAuthenticator: Sendable {
    /// Whether the owner has set a PIN at all.
    func isSet() async -> Bool
    /// Whether `digits` ("1234") is the PIN.
    func verify(_ digits: String) async -> Bool
}

/// A PIN held in memory: for scripted conversations and tests. nil means none is set.
public struct FixedPIN: PINAuthenticator {
    public var pin: String?

    public init(_ pin: String?) {
        self.pin = pin
    }

    public func isSet() async -> Bool { pin != nil }
    public func verify(_ digits: String) async -> Bool { pin != nil && digits == pin }
}
