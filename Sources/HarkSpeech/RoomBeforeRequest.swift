import HarkAudio

/// How loud the room was, on average, in the seconds before someone spoke to Hark: what the
/// microphone heard between requests, up to where the wake word began.
///
/// An utterance's own estimate (`SignalToNoise`) takes its quietest pieces as the room. A noise
/// that comes and goes (a cat, a dog, clattering dishes) is quiet between its bursts, so a request
/// said in a lull reads as from a quiet room and is never asked about first. The mean power of
/// the seconds before counts the bursts as the room's (docs/how-hark-hears.md).
public struct RoomBeforeRequest: Sendable {
    /// The room is judged over this long before the wake word (s).
    public static let seconds = 5.0
    /// At least this much of it must have been heard (s): a shorter stretch says little.
    public static let leastSeconds = 1.0
    /// The wake word may have begun this long before the spotter was sure of it (s): so much is
    /// kept beyond `seconds`, to leave the wake word out.
    static let keptBeyond = 3.0
    static let pieceSamples = PieceMeanSquares.pieceSamples

    private struct Piece {
        /// Where the piece ends, in samples of the stream.
        let end: Int
        /// Its mean square (squared sample units).
        let power: Double
    }

    private var pieces: [Piece] = []
    private var pieceMeanSquares = PieceMeanSquares()

    public init() {}

    /// Takes the next audio of the stream (16 kHz mono), in any chunk size; `end` is the stream's
    /// position just after it.
    public mutating func observe(_ samples: some Collection<Int16>, endingAt end: Int) {
        var position = end - samples.count
        for sample in samples {
            position += 1
            if let meanSquare = pieceMeanSquares.add(sample) { pieces.append(Piece(end: position, power: meanSquare)) }
        }
        let kept = Int((Self.seconds + Self.keptBeyond) * 10)
        if pieces.count > kept { pieces.removeFirst(pieces.count - kept) }
    }

    /// The mean power (squared sample units) of the `seconds` of whole pieces heard before
    /// `position` (where the wake word began); nil for less than `leastSeconds` of them.
    public func meanPower(before position: Int) -> Double? {
        let earliest = position - Int(Self.seconds * Double(PipelineAudio.sampleRate))
        let heard = pieces.filter { $0.end <= position && $0.end - Self.pieceSamples >= earliest }
        guard Double(heard.count * Self.pieceSamples) >= Self.leastSeconds * Double(PipelineAudio.sampleRate) else { return nil }
        return heard.reduce(0) { $0 + $1.power } / Double(heard.count)
    }

    /// The same for a whole recording: the mean power of the last `seconds` of `samples`.
    public static func meanPower(of samples: some Collection<Int16>) -> Double? {
        var room = RoomBeforeRequest()
        room.observe(samples, endingAt: samples.count)
        return room.meanPower(before: samples.count)
    }
}
