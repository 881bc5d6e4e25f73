import Foundation

/// A wake word said into a noisy room is sure from lower odds.
///
/// Noise takes more from a real phrase's odds than it gives to the speech that must not wake
/// Hark: the second look's evidence of every phrase falls, and the false candidates that come
/// near the threshold are speech heard clearly over its room. So a candidate that stands little
/// above its room is judged against a threshold lowered by `WakeWordConfiguration.noisyRoomAllowance`.
/// Tentative wake words keep their own odds (`WakeWordConfiguration.tentativeOdds`).
extension WakeWordSpotter {
    /// Below this many dB above its room, a candidate was said in a noisy room. Chosen with the
    /// allowance on the tune half of make bench-wake (docs/benchmarks.md): real household noise
    /// at 10 dB measures 10 to 16 dB this way, a quiet room's phrases 40 dB and more.
    public static let noisyRoomBelow = 15.0
    /// How far (log odds) the threshold is lowered for a candidate said in a noisy room.
    public static let noisyRoomAllowance = 1.0

    /// How far the threshold is lowered for a candidate `signalToNoise` dB above its room:
    /// `allowance` below `noisyRoomBelow`, nothing above it or when the level is not known.
    public static func allowance(signalToNoise: Double?, allowance: Double) -> Double {
        guard let signalToNoise, signalToNoise < noisyRoomBelow else { return 0 }
        return allowance
    }

    /// The threshold a candidate standing `signalToNoise` dB above its room must reach. While
    /// the mean is held (`holdsMean`: what is heard is what is left of Hark's own reply), the
    /// audio is not a room's and only a wake word sure in any room stops the reply.
    func threshold(signalToNoise: Double?) -> Double {
        if holdsMean { return threshold }
        return threshold - Self.allowance(signalToNoise: signalToNoise, allowance: configuration.noisyRoomAllowance)
    }

    /// How far (dB) a phrase stands above its room, from `audio` as it came (before any noise
    /// suppression, gain or hiss): the level of its last `phraseSamples`, over the room's level
    /// (`RoomLevel`: the quietest fifth of the 100 ms pieces) of the five seconds up to its end.
    /// nil for a phrase shorter than 10 ms or less than 100 ms of audio.
    static func signalToNoise(endingAudio audio: ArraySlice<Int16>, phraseSamples: Int) -> Double? {
        guard phraseSamples >= frameSamples, audio.count >= phraseSamples,
              let room = RoomLevel.of(audio.suffix(RoomLevel.pieces * RoomLevel.pieceSamples)) else { return nil }
        return EnergyEndpointer.level(audio.suffix(phraseSamples)) - room
    }
}
