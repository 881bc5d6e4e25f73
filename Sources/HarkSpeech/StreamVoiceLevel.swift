import Foundation

/// The level of the voice in a stream, for bringing a faint one up (`FaintVoiceGain`): the
/// loudest 100 ms piece of the last ten seconds that stood `voiceAboveRoom` dB or more above the
/// room (`RoomLevel`), the piece just heard included.
///
/// Why the piece just heard counts: the wake word is often the first thing said after a long
/// quiet, and a voice the microphone barely catches (67 of the Mycroft community's 482 "athena"
/// recordings are under -60 dBFS at their loudest tenth) must be brought up from its first
/// syllable on. Why ten seconds: the quieter pieces of a phrase, and the pause before the next
/// one, are heard with the gain its loud pieces set, rather than one that jumps with every
/// piece. A stream with no voice lately has no level (nil), and is heard as it comes.
struct StreamVoiceLevel {
    /// How far above the room a piece must be to count as voice (dB): the endpointer's
    /// `speechAboveBackground`, so that a room's steady noise is never taken for a voice.
    static let voiceAboveRoom = 12.0
    /// Pieces a voice piece is remembered for (100 ms each).
    static let heldPieces = 100

    private var room = RoomLevel()
    /// Voice pieces of the last `heldPieces`, by piece number, each louder than every later one
    /// (a piece quieter than a later one can never be the loudest again).
    private var loudest: [(piece: Int, level: Double)] = []
    private var pieces = 0

    /// The voice level of `samples` heard as a stream in 100 ms pieces, as of its end (for a
    /// window heard on its own, shorter than ten seconds: its loudest voice piece).
    static func of(_ samples: [Int16]) -> Double? {
        var voice = StreamVoiceLevel()
        var level: Double?
        for start in stride(from: 0, to: samples.count, by: RoomLevel.pieceSamples) {
            level = voice.observe(samples[start..<min(start + RoomLevel.pieceSamples, samples.count)])
        }
        return level
    }

    /// Hears the next piece of the stream (up to `RoomLevel.pieceSamples`) and returns the voice
    /// level with it, nil when no voice has been heard in the last ten seconds.
    mutating func observe(_ piece: some Collection<Int16>) -> Double? {
        let level = EnergyEndpointer.level(piece)
        if let roomLevel = room.level, level >= roomLevel + Self.voiceAboveRoom {
            while let last = loudest.last, last.level <= level { loudest.removeLast() }
            loudest.append((pieces, level))
        }
        room.observe(piece)
        while let first = loudest.first, first.piece <= pieces - Self.heldPieces { loudest.removeFirst() }
        pieces += 1
        return loudest.first?.level
    }
}
