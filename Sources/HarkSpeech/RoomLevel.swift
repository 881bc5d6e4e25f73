/// The level of the room a stream is heard in: of the last five seconds, cut into 100 ms pieces,
/// the level (dBFS, as `EnergyEndpointer.level` measures it) that a fifth of them are quieter
/// than. People speak in bursts, so a fifth of any few seconds is the room between their words;
/// and a steady noise (a tap, a fan) is the room.
///
/// `EnergyEndpointer.background` is not this: it falls fast and rises slowly to keep speech out
/// of it, so in a clattering kitchen it settles on the quietest 10 ms, some 10 dB under the noise.
struct RoomLevel {
    static let pieces = 50
    static let pieceSamples = PieceMeanSquares.pieceSamples
    static let quietShare = 0.2
    private var levels: [Double] = []
    private var next = 0
    private var pieceMeanSquares = PieceMeanSquares()

    /// Takes the next audio (16 kHz mono), in any chunk size.
    mutating func observe(_ samples: some Collection<Int16>) {
        for sample in samples {
            if let meanSquare = pieceMeanSquares.add(sample) { add(EnergyEndpointer.level(meanSquare: meanSquare)) }
        }
    }

    private mutating func add(_ level: Double) {
        if levels.count < Self.pieces {
            levels.append(level)
        } else {
            levels[next] = level
            next = (next + 1) % Self.pieces
        }
    }

    /// The room level of the last five seconds of `samples`; nil for less than 100 ms.
    static func of(_ samples: some Collection<Int16>) -> Double? {
        var room = RoomLevel()
        room.observe(samples)
        return room.level
    }

    /// nil until a piece has been heard.
    var level: Double? {
        guard !levels.isEmpty else { return nil }
        let sorted = levels.sorted()
        return sorted[Int(Self.quietShare * Double(sorted.count - 1))]
    }
}
