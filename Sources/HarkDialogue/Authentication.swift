public import Foundation

/// What checking a spoken PIN found.
public enum PINCheck: Sendable, Equatable {
    case accepted
    case wrong
    /// Too many wrong PINs in a row: none is checked, right or wrong, for this many seconds.
    case lockedOut(seconds: Int)
    /// The PIN cannot be checked (its files cannot be read or written); nothing goes ahead.
    case unavailable(String)
}

/// What stands for the words of a spoken PIN wherever a turn is shown or logged: the same
/// whatever its length, so not even that is told.
public let hiddenPIN = "••••"

/// Checks the owner's spoken PIN before intents with a financial impact.
public protocol PINAuthenticator: Sendable {
    /// Whether the owner has set a PIN at all.
    func isSet() async -> Bool
    /// Checks `digits` ("1234") against the PIN, counting wrong ones (see `PINLockout`).
    func check(_ digits: String) async -> PINCheck
}

extension PINAuthenticator {
    /// Whether `digits` is the PIN and may be used now.
    public func verify(_ digits: String) async -> Bool { await check(digits) == .accepted }
}

/// A PIN held in memory: for scripted conversations and tests. nil means none is set. Wrong
/// PINs are not counted: nothing here outlives the process.
public struct FixedPIN: PINAuthenticator {
    public var pin: String?

    public init(_ pin: String?) {
        self.pin = pin
    }

    public func isSet() async -> Bool { pin != nil }
    public func check(_ digits: String) async -> PINCheck { pin != nil && digits == pin ? .accepted : .wrong }
}

/// How many wrong PINs in a row are allowed before checking stops for a while, and for how long.
///
/// A spoken PIN of four digits has 10,000 values; a dialogue allows two tries per order, so
/// without a limit anyone near the device could go through them order after order. After
/// `freeAttempts` wrong PINs in a row the PIN is not checked for `firstLockout` seconds, and
/// each further wrong one doubles the wait, up to a day: 10,000 guesses then take years. A right
/// PIN (once the wait is over) starts the count afresh.
public struct PINLockout: Sendable, Equatable, Codable {
    public static let freeAttempts = 3
    public static let firstLockout: TimeInterval = 30
    public static let longestLockout: TimeInterval = 24 * 3600

    /// Wrong PINs since the last right one.
    public var failures = 0
    /// No PIN is checked before this moment.
    public var lockedUntil: Date?

    public init(failures: Int = 0, lockedUntil: Date? = nil) {
        self.failures = failures
        self.lockedUntil = lockedUntil
    }

    /// Seconds left to wait at `now` (rounded up), or nil when a PIN may be checked.
    public func secondsLeft(at now: Date) -> Int? {
        guard let lockedUntil, lockedUntil > now else { return nil }
        return Int(lockedUntil.timeIntervalSince(now).rounded(.up))
    }

    /// Counts a wrong PIN at `now`; returns the lockout it starts, if it starts one.
    public mutating func recordFailure(at now: Date) -> Int? {
        failures += 1
        guard failures >= Self.freeAttempts else { return nil }
        let doublings = Double(min(failures - Self.freeAttempts, 30))
        let wait = min(Self.firstLockout * pow(2, doublings), Self.longestLockout)
        lockedUntil = now.addingTimeInterval(wait)
        return Int(wait.rounded(.up))
    }
}
