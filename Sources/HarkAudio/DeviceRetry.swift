/// How to keep trying a device that is missing or busy (a USB microphone unplugged, another
/// program holding the card) instead of giving up: wait, try again, wait longer, up to a cap.
///
/// The delays double from `initialDelay` and stop growing at `maximumDelay`, so a device that
/// comes back is found again within a few seconds however long it was gone. Only errors
/// `isRetryable` accepts are retried (by default ALSA device errors); any other is thrown at once.
public struct DeviceRetry: Sendable {
    /// One failed attempt, as reported to the `onFailure` callback.
    public struct Failure: Sendable {
        /// 1 for the first attempt.
        public var attempt: Int
        public var error: AudioError
        /// Seconds until the next attempt, or nil when this was the last one.
        public var nextDelay: Double?
    }

    /// Attempts in all, including the first; nil keeps trying until the task is cancelled.
    public var maximumAttempts: Int?
    /// Seconds before the second attempt.
    public var initialDelay: Double
    /// Seconds the wait never grows beyond.
    public var maximumDelay: Double
    /// Which failures are worth another attempt.
    public var isRetryable: @Sendable (AudioError) -> Bool

    public init(maximumAttempts: Int? = nil, initialDelay: Double = 0.25, maximumDelay: Double = 4,
                isRetryable: @escaping @Sendable (AudioError) -> Bool = { $0.code == .device }) {
        precondition(maximumAttempts.map { $0 >= 1 } ?? true, "DeviceRetry needs at least one attempt")
        precondition(initialDelay >= 0 && maximumDelay >= initialDelay,
                     "DeviceRetry needs 0 ≤ initialDelay ≤ maximumDelay, got \(initialDelay) and \(maximumDelay)")
        self.maximumAttempts = maximumAttempts
        self.initialDelay = initialDelay
        self.maximumDelay = maximumDelay
        self.isRetryable = isRetryable
    }

    /// Seconds to wait after failed attempt number `attempt` (1-based): 0.25, 0.5, 1, 2, 4, 4, …
    /// with the defaults; nil when no attempt follows.
    public func delay(afterAttempt attempt: Int) -> Double? {
        precondition(attempt >= 1, "attempts are numbered from 1")
        if let maximumAttempts, attempt >= maximumAttempts { return nil }
        // Doubling stops once it passes the cap, so a long outage cannot overflow the exponent.
        var delay = initialDelay
        for _ in 1..<min(attempt, 64) where delay < maximumDelay { delay *= 2 }
        return min(delay, maximumDelay)
    }

    /// Runs `operation` until it succeeds, waiting between attempts with `sleep` (Task.sleep
    /// unless a test passes its own clock). Calls `onFailure` for each failed attempt, the last
    /// one included, before waiting. Throws the last error when attempts run out, the first
    /// error `isRetryable` refuses, or CancellationError when the task is cancelled while waiting.
    public func run<Result>(
        isolation: isolated (any Actor)? = #isolation,
        _ operation: () throws(AudioError) -> Result,
        onFailure: (Failure) -> Void = { _ in },
        sleep: (Double) async throws -> Void = { seconds in try await Task.sleep(for: .seconds(seconds)) }
    ) async throws -> Result {
        var attempt = 1
        while true {
            do {
                return try operation()
            } catch {
                let next = isRetryable(error) ? delay(afterAttempt: attempt) : nil
                onFailure(Failure(attempt: attempt, error: error, nextDelay: next))
                guard let next else { throw error }
                try await sleep(next)
                attempt += 1
            }
        }
    }
}
