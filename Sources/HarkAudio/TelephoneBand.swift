import Foundation

/// Whether a recording came through a telephone-band microphone: audio sampled at 8 kHz on its way
/// (a Bluetooth headset in hands-free mode, a phone line, an intercom), which carries nothing
/// above 4 kHz however it was resampled since.
///
/// Up there lie what tells "s" from "f", "z" from "th": a recogniser hearing such audio confuses
/// words full-band audio keeps apart ("zero" heard as "two", "nine" as "five"), and is as sure of
/// them as of words heard right. So the recogniser asks before acting on what it heard only just
/// well enough (`RecognizerConfiguration.telephoneBandReach`).
///
/// The measure: over the loud pieces of the utterance (32 ms, within `loudWithin` dB of the
/// loudest), how far the energy from 4.4 to 7.8 kHz falls below the energy from 0.3 to 3.8 kHz.
/// On `make bench-real`'s quiet room nearly every telephone-band digit measures 45 dB or more
/// and nearly no full-band voice does (figures: docs/benchmarks.md, "Asking first through a
/// telephone-band microphone"). Noise over the whole band
/// fills the high band too, so in a noisy room the measure says full band; there the noisy
/// room's own asking first applies (`NoisyConfirmation`).
public enum TelephoneBand {
    /// The shortfall (dB) at and above which audio counts as telephone-band.
    public static let limit = 45.0
    /// Pieces as loud as the loudest, less this (dB), are measured: the voice, not the room.
    static let loudWithin = 15.0
    static let sampleRate = 16_000.0
    static let pieceSamples = 512
    static let lowBand = 300.0..<3_800.0
    static let highBand = 4_400.0..<7_800.0

    /// How far (dB) the high band's energy falls below the low band's over the loud pieces of
    /// `samples` (16 kHz mono); nil for audio shorter than two pieces, or digital silence.
    public static func highBandShortfall(_ samples: [Int16]) -> Double? {
        let pieces = samples.count / pieceSamples
        guard pieces >= 2 else { return nil }
        var spectrum = PowerSpectrum(size: pieceSamples)
        let binWidth = sampleRate / Double(pieceSamples)
        let lowBins = Int((lowBand.lowerBound / binWidth).rounded(.up))..<Int((lowBand.upperBound / binWidth).rounded(.up))
        let highBins = Int((highBand.lowerBound / binWidth).rounded(.up))..<Int((highBand.upperBound / binWidth).rounded(.up))
        var bands: [(low: Double, high: Double)] = []
        bands.reserveCapacity(pieces)
        for piece in 0..<pieces {
            let power = spectrum.power(of: samples[(piece * pieceSamples)..<((piece + 1) * pieceSamples)])
            bands.append((power[lowBins].reduce(0, +), power[highBins].reduce(0, +)))
        }
        guard let loudest = bands.map({ $0.low + $0.high }).max(), loudest > 0 else { return nil }
        let floor = loudest * pow(10, -loudWithin / 10)
        var low = 0.0, high = 0.0
        for band in bands where band.low + band.high >= floor {
            low += band.low
            high += band.high
        }
        // A band with nothing in it at all (synthetic audio) falls as far as can be told.
        return 10 * log10(low / max(high, low * 1e-12))
    }

    /// Whether `samples` sound telephone-band (`highBandShortfall` at least `limit`).
    public static func isTelephoneBand(_ samples: [Int16]) -> Bool {
        (highBandShortfall(samples) ?? 0) >= limit
    }
}
