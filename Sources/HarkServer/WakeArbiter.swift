import Foundation

/// Decides which room answers a wake word several satellites heard: each claim waits until
/// `window` after the first claim of its round, then the room that heard the words best answers
/// and the others stand down. Best is loudest above its own background (the person is nearest,
/// or facing it), to the whole dB; between rooms equal by that, the spotter's higher confidence,
/// then the earlier claim. A claim after the window starts a
/// round of its own, so one satellite alone waits the window and answers.
///
/// The wait costs the person nothing: a satellite claims as soon as it hears the wake word and
/// goes on listening to the request meanwhile, which lasts longer than the window.
public actor WakeArbiter {
    /// How far apart two rooms may hear the same words: the spotter ends a phrase within a few
    /// tens of milliseconds of its last sound, and loopback or a home network adds a few more.
    public static let defaultWindow = 0.5

    struct Decision: Equatable, Sendable {
        var answers: Bool
        /// The room that answers.
        var winner: String
    }

    private struct Claim {
        var room: String
        var signalToNoise: Double
        var confidence: Double

        /// Whether `other` heard the words better than this.
        func isWorse(than other: Claim) -> Bool {
            let (mine, theirs) = (signalToNoise.rounded(), other.signalToNoise.rounded())
            return mine != theirs ? mine < theirs : confidence < other.confidence
        }
    }

    private struct Round {
        var opened: ContinuousClock.Instant
        var claims: [Claim] = []
        /// Claims not yet told the outcome; the round is dropped when none are left.
        var waiting = 0
    }

    let window: Duration
    private var rounds: [Int: Round] = [:]
    private var openRound: Int?
    private var nextRound = 0

    /// Told each outcome once, by the claim of the room that answers.
    private let log: @Sendable (String) -> Void

    /// `log`: where each arbitration is told (the hub logs it at info).
    init(window: Double = WakeArbiter.defaultWindow, log: @escaping @Sendable (String) -> Void = { _ in }) {
        self.window = .milliseconds(Int(window * 1000))
        self.log = log
    }

    func claim(room: String, signalToNoise: Double, confidence: Double) async -> Decision {
        let now = ContinuousClock.now
        let number: Int
        if let open = openRound, let round = rounds[open], now - round.opened < window {
            number = open
        } else {
            number = nextRound
            nextRound += 1
            rounds[number] = Round(opened: now)
            openRound = number
        }
        rounds[number]?.claims.append(Claim(room: room, signalToNoise: signalToNoise, confidence: confidence))
        rounds[number]?.waiting += 1
        let deadline = rounds[number]!.opened + window
        // Cancelled (the connection went away): decide with what has come by now.
        try? await Task.sleep(until: deadline, clock: .continuous)
        let round = rounds[number]!
        rounds[number]?.waiting -= 1
        if round.waiting == 1 { rounds[number] = nil }
        // max(by:) keeps the last of equals; reversed, the earliest claim wins a tie.
        let best = round.claims.reversed().max { $0.isWorse(than: $1) }!
        if best.room == room { log(Self.outcome(round.claims, winner: best.room)) }
        return Decision(answers: best.room == room, winner: best.room)
    }

    /// "the wake word was heard in 2 rooms (hall 31 dB, odds 2.5; kitchen 18 dB, odds 6.0): hall answers".
    private static func outcome(_ claims: [Claim], winner: String) -> String {
        let heard = claims.map { "\($0.room) " + String(format: "%.0f dB, odds %.1f", $0.signalToNoise, $0.confidence) }
        return "the wake word was heard in \(claims.count) room\(claims.count == 1 ? "" : "s") (\(heard.joined(separator: "; "))): \(winner) answers"
    }
}
