/// In a noisy room Hark asks before it acts on a request it heard only just well enough.
///
/// In household noise a wrong action ("turn off" done as "turn on", a name heard as a digit) is
/// heard with margins just above the threshold, mixed with requests heard right: no threshold
/// tells them apart without rejecting both. A question ("Did you say turn off the lamp?") costs
/// the person a "yes" and never does the wrong thing. So below `NoisyConfirmation.standardBelow`
/// dB (the utterance's `SignalToNoise` estimate), margins from the bottom of the ask band up to
/// `reach` above the threshold are squeezed into the ask band, in order; margins above that, and
/// every margin in a quieter room, are left as they are. Margins keep their order: a better
/// hearing is never judged worse. The figures, chosen
/// on the tune half of `make bench-real` and judged on bench-noise, are in docs/benchmarks.md.
public struct NoisyConfirmation: Sendable, Equatable {
    /// Rooms whose signal-to-noise estimate is below this (dB) are noisy. Audio too short to
    /// estimate counts as noisy, as for `Confidence.noisePenalty`.
    public var below: Double
    /// How far above the rejection margin a request in a noisy room is still asked about.
    public var reach: Double
    /// The same for a request heard through noise suppression (`RequestDenoising`): what the
    /// suppression leaves fits the grammar's words better than the audio did, wrong words too,
    /// so its margin says less and is asked about further up.
    public var denoisedReach: Double
    /// The same for such a request heard the same both ways, through the suppression and as it
    /// came (`SecondHearing`): two hearings of one phrase are more often right than one.
    public var agreedReach: Double
    /// The same for a request through a telephone-band microphone (`TelephoneBand`), whatever
    /// else: the band's own confusions ("zero" heard as "two") come on top of the room's. Used
    /// only where the telephone band is asked about at all (`RecognizerConfiguration.telephoneBandReach`).
    public var telephoneBandReach: Double

    /// Up to 30 dB: below 20 the tune half of `make bench-real` still took wrong actions in its
    /// 20 dB rooms and after a click, each among about six requests heard right and now asked
    /// about, the trade the `reach` was chosen at (figures: docs/benchmarks.md, "Asking first up to 30 dB").
    public static let standardBelow = 30.0
    /// Rooms below this (or below `below`, when that is lower) are called noisy in what Hark
    /// says: a request not made out there was lost "over the noise" and is asked for again. A
    /// room of 20 to 30 dB is asked about first, but a miss there is not the noise's doing.
    public static let noisyRoomBelow = 20.0
    public static let standardReach = 0.5
    /// Chosen with `RequestDenoising.standardBelow` on the tune half of `make bench-real`, as
    /// the most requests done or asked about right, a wrong action counted as six of them
    /// (docs/benchmarks.md): at 0.5 the suppressed requests took more wrong actions than before.
    public static let standardDenoisedReach = 1.0
    /// Chosen on the tune half of `make bench-real` as the most requests done right, a wrong
    /// action counted as six of them (docs/benchmarks.md): of the suppressed requests asked
    /// about and heard right, those heard the same both ways were 85 % of them.
    public static let standardAgreedReach = 0.65
    /// Chosen on the tune half of `make bench-real` as the shortest with no wrong action there
    /// (every one left was a telephone-band digit, "zero" done as "two", heard through its band
    /// with its room); quiet rooms keep `RecognizerConfiguration.standardTelephoneBandReach`
    /// (figures: docs/benchmarks.md, "1.0 since make bench-real's corpus version 3").
    public static let standardTelephoneBandReach = 1.0
    public static let standard = NoisyConfirmation(below: standardBelow, reach: standardReach)

    public init(below: Double, reach: Double, denoisedReach: Double = NoisyConfirmation.standardDenoisedReach,
                agreedReach: Double = NoisyConfirmation.standardAgreedReach,
                telephoneBandReach: Double = NoisyConfirmation.standardTelephoneBandReach) {
        self.below = below
        self.reach = reach
        self.denoisedReach = denoisedReach
        self.agreedReach = agreedReach
        self.telephoneBandReach = telephoneBandReach
    }

    /// How far above the threshold a request is asked about in a noisy room. `agreed`: a
    /// suppressed request whose two hearings formed the same phrase (`SecondHearing`).
    public func reach(denoised: Bool, agreed: Bool = false) -> Double {
        denoised ? (agreed ? agreedReach : denoisedReach) : reach
    }

    /// `margin` as judged in a room whose estimate is `signalToNoise`: in a noisy room, a margin
    /// from `threshold - askBand` to `threshold + reach` is moved, in proportion, into the ask band
    /// (`threshold - askBand` up to, not reaching, `threshold`). `denoised`: heard through noise
    /// suppression (`denoisedReach`).
    public func judged(_ margin: Double, signalToNoise: Double?, threshold: Double, askBand: Double,
                       denoised: Bool = false, agreed: Bool = false) -> Double {
        guard let reach = Self.askingReach(self, signalToNoise: signalToNoise, denoised: denoised, agreed: agreed,
                                           telephoneBandReach: nil) else {
            return margin
        }
        return Self.squeezed(margin, threshold: threshold, askBand: askBand, reach: reach)
    }

    /// How far above the threshold a request is asked about first: the longest of the noisy room's
    /// reach (`confirmation`, when the room is below its limit; its telephone-band reach too for
    /// telephone-band audio) and `telephoneBandReach` (pass it only for telephone-band audio); nil
    /// when neither asks.
    public static func askingReach(_ confirmation: NoisyConfirmation?, signalToNoise: Double?, denoised: Bool,
                                   agreed: Bool = false, telephoneBandReach: Double?) -> Double? {
        let room = noisyRoom(confirmation, signalToNoise: signalToNoise)?.reach(denoised: denoised, agreed: agreed)
        let band = bandReach(confirmation, signalToNoise: signalToNoise, telephoneBandReach: telephoneBandReach)
        return [room, band].compactMap { $0 }.max()
    }

    /// How far above the threshold telephone-band audio is asked about in a room whose estimate
    /// is `signalToNoise`: `telephoneBandReach`, or a noisy room's own when that is longer; nil
    /// when the telephone band is not asked about.
    public static func bandReach(_ confirmation: NoisyConfirmation?, signalToNoise: Double?,
                                 telephoneBandReach: Double?) -> Double? {
        telephoneBandReach.map { max($0, noisyRoom(confirmation, signalToNoise: signalToNoise)?.telephoneBandReach ?? 0) }
    }

    /// `confirmation`, when the room is below its limit.
    private static func noisyRoom(_ confirmation: NoisyConfirmation?, signalToNoise: Double?) -> NoisyConfirmation? {
        confirmation.flatMap { (signalToNoise ?? -.infinity) < $0.below ? $0 : nil }
    }

    /// How far above the threshold a request must be heard to count as clear, whatever the room:
    /// the noisy room's reach (the standard one when the room never asks first), or
    /// `telephoneBandReach` (pass it only for telephone-band audio) when that is longer. (A
    /// telephone-band request a noisy room asks about up to its own `telephoneBandReach` is not
    /// acted on there, so not clear either.)
    public static func clearReach(_ confirmation: NoisyConfirmation?, denoised: Bool, agreed: Bool = false,
                                  telephoneBandReach: Double?) -> Double {
        max((confirmation ?? .standard).reach(denoised: denoised, agreed: agreed), telephoneBandReach ?? 0)
    }

    /// `margin` with the stretch from `threshold - askBand` up to `threshold + reach` moved, in
    /// proportion, into the ask band (`threshold - askBand` up to, not reaching, `threshold`): a
    /// margin there is asked about; others are left as they are. Margins keep their order, and
    /// a longer reach never judges a margin higher.
    public static func squeezed(_ margin: Double, threshold: Double, askBand: Double, reach: Double) -> Double {
        guard reach > 0, askBand > 0 else { return margin }
        let floor = threshold - askBand, top = threshold + reach
        guard margin >= floor, margin < top else { return margin }
        return floor + (margin - floor) * askBand / (top - floor)
    }

    /// Whether `margin` was heard well enough to act on only in a quieter room.
    public func asksAbout(_ margin: Double, signalToNoise: Double?, threshold: Double, askBand: Double,
                          denoised: Bool = false) -> Bool {
        margin >= threshold
            && judged(margin, signalToNoise: signalToNoise, threshold: threshold, askBand: askBand, denoised: denoised) < threshold
    }
}
