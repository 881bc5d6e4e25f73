import Foundation

/// How far the loudest stretches of an utterance stand above its quietest: a rough
/// signal-to-noise ratio of the audio as heard, for judging the recogniser's confidence by the
/// room it was heard in.
///
/// The audio is cut into 25 ms pieces, and the ratio is of the 90th percentile of their mean
/// power to the 10th, in dB. An utterance comes with some of the room around its words (the
/// endpointer's lead-in and the quiet that ended it; a file or a stream as it was recorded), so
/// the 10th percentile is the room and the 90th the voice. It reads a little above the SNR a
/// corpus mixes its noise in at (figures: docs/benchmarks.md, "The settings' figures"). Speech
/// cut tight, with no quiet in it, measures low, and is judged as if heard in noise: the
/// stricter way.
public enum SignalToNoise {
    /// 25 ms at 16 kHz.
    static let pieceSamples = 400
    /// The percentiles taken as the room and as the voice.
    static let roomShare = 0.1
    static let voiceShare = 0.9
    /// Added to every piece's power (in squared sample units), so digital silence measures as
    /// very quiet rather than as nothing.
    static let powerFloor = 1e-3

    /// The room's and the voice's levels of one utterance, measured once for both figures.
    public struct Levels: Sendable, Equatable {
        /// Mean power of the pieces at `roomShare` and at `voiceShare`, in squared sample units.
        let room: Double
        let voice: Double

        /// The signal-to-noise estimate in dB.
        public var signalToNoise: Double { 10 * log10(voice / room) }

        /// The voice's level in dBFS: its power against a full-scale square wave's. About -25 for
        /// a request said at arm's length into a usual microphone, -70 for one a device barely caught.
        public var voiceLevel: Double { 10 * log10(voice / (32_768.0 * 32_768.0)) }

        /// The same voice against the louder of this room and `roomBefore` (a mean power in squared
        /// sample units, `RoomBeforeRequest`): a noise that went quiet for the request still counts.
        func against(roomBefore: Double?) -> Levels {
            guard let roomBefore else { return self }
            return Levels(room: max(room, roomBefore), voice: voice)
        }
    }

    /// Both levels; nil for audio shorter than two pieces.
    public static func levels(_ samples: [Int16]) -> Levels? {
        guard let powers = sortedPiecePowers(samples) else { return nil }
        func percentile(_ share: Double) -> Double { powers[Int(share * Double(powers.count - 1))] }
        return Levels(room: percentile(roomShare), voice: percentile(voiceShare))
    }

    /// The estimate in dB; nil for audio shorter than two pieces.
    public static func estimate(_ samples: [Int16]) -> Double? { levels(samples)?.signalToNoise }

    /// The voice's level in dBFS (`Levels.voiceLevel`: the 90th percentile of the pieces' power);
    /// nil for audio shorter than two pieces.
    public static func voiceLevel(_ samples: [Int16]) -> Double? { levels(samples)?.voiceLevel }

    /// Each whole piece's mean power (plus `powerFloor`), sorted; nil for fewer than two pieces.
    private static func sortedPiecePowers(_ samples: [Int16]) -> [Double]? {
        let pieces = samples.count / pieceSamples
        guard pieces >= 2 else { return nil }
        var powers = [Double](repeating: 0, count: pieces)
        samples.withUnsafeBufferPointer { buffer in
            for piece in 0..<pieces {
                var sum = 0.0
                for sample in buffer[(piece * pieceSamples)..<((piece + 1) * pieceSamples)] {
                    let value = Double(sample)
                    sum += value * value
                }
                powers[piece] = sum / Double(pieceSamples) + powerFloor
            }
        }
        return powers.sorted()
    }
}
