/// A stream's 100 ms pieces (1,600 samples at 16 kHz), each told as its mean square once whole,
/// whatever the chunk sizes the stream comes in: what `RoomLevel` and `RoomBeforeRequest` keep.
struct PieceMeanSquares {
    static let pieceSamples = 1_600
    /// The sum of squares and count of the samples of the piece not complete yet.
    private var energy = 0.0, counted = 0

    /// Takes the next sample; the piece's mean square when it completes one, else nil.
    mutating func add(_ sample: Int16) -> Double? {
        energy += Double(sample) * Double(sample)
        counted += 1
        guard counted == Self.pieceSamples else { return nil }
        defer { energy = 0; counted = 0 }
        return energy / Double(counted)
    }
}
