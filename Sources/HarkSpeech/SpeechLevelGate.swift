import Foundation

/// Tells pieces of audio with someone speaking from the room's background, by level alone: a
/// piece is speech when it is `margin` dB above the quietest the room has lately been.
///
/// For the wake-word spotter's cepstral mean (`WakeWordSpotter`): pocketsphinx's live mean
/// follows every frame it hears, so after some quiet it is the mean of the room's hiss, and the
/// first phones said after it are heard through a mean that is no speech at all. Fed only the
/// pieces this calls speech, the mean stays the mean of speech in this room through this
/// microphone, which is what the model was trained to have subtracted.
struct SpeechLevelGate {
    /// dB above the background that makes a piece speech. Speech in the household noise of the
    /// wake corpus at 10 dB SNR stands about that far above it at its loud parts.
    static let margin = 6.0
    /// How fast the background estimate rises when the room gets louder (dB per second): slow,
    /// so a minute of talking does not become the background; a step in the noise (a fan turned
    /// on) is learnt within about half a minute at 15 dB, counted as speech meanwhile.
    static let risePerSecond = 0.5

    /// The background level (dBFS), nil before the first piece.
    private(set) var background: Double?

    /// Whether `samples` (16 kHz) are speech; updates the background.
    mutating func isSpeech(_ samples: ArraySlice<Int16>) -> Bool {
        guard !samples.isEmpty else { return false }
        let level = Self.level(samples)
        guard let floor = background else {
            background = level
            return false
        }
        background = level < floor ? level : floor + Self.risePerSecond * Double(samples.count) / 16_000
        return level > floor + Self.margin
    }

    /// RMS level in dB relative to full scale (−120 for digital silence).
    static func level(_ samples: ArraySlice<Int16>) -> Double {
        let power = samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count)
        return 10 * log10(max(power, 1e-12 * 32_768 * 32_768) / (32_768 * 32_768))
    }
}
