/// Stops the wake-word search while nobody speaks, and starts it again with the moments before
/// the first sound.
///
/// Most of a speaker's day passes in a room where nobody speaks, and the keyword search scores
/// every 10 ms of it all the same. Once the room has been quiet for `closesAfterSamples` (every
/// piece quiet as the spotter judges it: within `WakeWordSpotter.quietAboveRoom` dB of the
/// room's level) the gate closes: what is heard is kept, the last `backlogSamples` of it, but
/// not searched. The first piece that is not quiet opens the gate, and the search hears the
/// kept moments first, so a phrase's soft first phone and the pause before it reach the search
/// as they would have. The verifier's window comes from the spotter's own record of the stream,
/// which the gate leaves alone.
struct SearchQuietGate {
    /// A quiet room this long (samples) closes the gate: by then the front end has learned the
    /// room (its estimate of the background noise, and a mean not gated by the room's level,
    /// settle over a few seconds; the benchmarks let a spotter hear 5 s of its room for that), so
    /// in a room that stays as it was the search hears a phrase as it would have without the gate.
    /// Closing after 2 s instead changed what three spotter tests heard after 5 s of their rooms.
    static let closesAfterSamples = 80_000
    /// What the search hears of the quiet before a sound when the gate opens (samples).
    static let backlogSamples = 8_000
    /// What to search after a piece: the quiet kept while the gate was closed (empty if it was
    /// open), the piece itself, and how many samples before them were never searched.
    struct Admitted {
        var backlog: [Int16]
        var skipped: Int
    }

    private(set) var isClosed = false
    private var quietSamples = 0
    private var backlog: [Int16] = []
    /// Samples heard while closed, the backlog's included.
    private var heldSamples = 0

    /// Judges a piece, `quiet` or not. nil: not searched (the gate is closed). `mayClose`:
    /// nothing is waiting on what follows (a tentative candidate held to see whether a sure one
    /// comes), so the gate may close after this piece. Quiet is the spotter's own 6 dB above the
    /// room: at 3 dB the gate never closed over a running tap, whose pieces rise that far above
    /// the room's level (which follows the quieter pieces) all the time.
    mutating func admit(_ piece: [Int16], quiet: Bool, mayClose: Bool) -> Admitted? {
        quietSamples = quiet ? quietSamples + piece.count : 0
        if isClosed {
            guard !quiet else {
                hold(piece)
                return nil
            }
            let kept = Array(backlog.suffix(Self.backlogSamples))
            let admitted = Admitted(backlog: kept, skipped: heldSamples - kept.count)
            open()
            return admitted
        }
        if mayClose && quietSamples >= Self.closesAfterSamples { isClosed = true }
        return Admitted(backlog: [], skipped: 0)
    }

    /// Opens the gate and forgets what it held: for a spotter starting afresh.
    mutating func open() {
        isClosed = false
        quietSamples = 0
        backlog.removeAll(keepingCapacity: true)
        heldSamples = 0
    }

    private mutating func hold(_ piece: [Int16]) {
        heldSamples += piece.count
        backlog.append(contentsOf: piece)
        // Trimmed in steps, not every piece: removing from the front moves the whole array.
        if backlog.count > 2 * Self.backlogSamples { backlog.removeFirst(backlog.count - Self.backlogSamples) }
    }
}
