import Foundation

/// A wake word said into a noisy room is sure from lower odds.
///
/// Noise takes more from a real phrase's odds than it gives to the speech that must not wake
/// Hark: the second look's evidence of every phrase falls, and the false candidates that come
/// near the threshold are mostly speech heard clearly over its room. So a candidate that stands
/// 10 to 15 dB above its room is judged against a threshold lowered by
/// `WakeWordConfiguration.noisyRoomAllowance`. Not below 10 dB: there the noise itself lends
/// other speech the phrase's odds ("athena" found as often in speech under a running tap at
/// 0 to 5 dB as in a quiet room). Tentative wake words keep their own odds
/// (`WakeWordConfiguration.tentativeOdds`).
extension WakeWordSpotter {
    /// A candidate from `noisyRoomFrom` up to (not including) `noisyRoomBelow` dB above its room
    /// was said in a noisy room. Real household noise at 10 dB measures 10 to 16 dB this way, a
    /// quiet room's phrases 40 dB and more. The figures behind both: docs/benchmarks.md.
    public static let noisyRoomFrom = 10.0
    public static let noisyRoomBelow = 15.0
    /// How far (log odds) the threshold is lowered for a candidate said in a noisy room.
    public static let noisyRoomAllowance = 1.0

    /// How far the threshold is lowered for a candidate `signalToNoise` dB above its room:
    /// `allowance` from `noisyRoomFrom` up to `noisyRoomBelow`, nothing outside it or when the
    /// level is not known.
    public static func allowance(signalToNoise: Double?, allowance: Double) -> Double {
        guard let signalToNoise, signalToNoise >= noisyRoomFrom, signalToNoise < noisyRoomBelow else { return 0 }
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
