import Foundation

/// Brings a voice the microphone barely caught up to a usual level before the wake-word spotter
/// hears it: a stream whose voice (`StreamVoiceLevel`: its loudest 100 ms of the last ten
/// seconds) is quieter than `quietestUsualVoice` is amplified so that the voice is at
/// `usualVoice`; any other stream is heard as it comes.
///
/// Why: the spotter's front end learns its cepstral mean only from audio well above the room
/// (`WakeWordSpotter.meanGate`), so it starts every phrase from the model's own mean, which is
/// that of speech at a usual level; and its noise floor (`NoiseFloor`, -60 dBFS) is louder than
/// such a voice (a sixth of the wake corpus's "athena" recordings are that faint). Keeping the
/// floor beneath the voice instead still left faint recordings unproposed; amplified, they are
/// proposed (`aFaintVoiceIsBroughtUpToBeHeard`).
///
/// Off by default (`WakeWordConfiguration.amplifiesFaintVoices`; `wake_faint_voice_gain: on` in
/// the settings turns it on), because a sound that steps up from a quiet room (a fan starting)
/// stands 12 dB above the room and is below -40 dBFS: it is taken for a faint voice and amplified
/// until the voice itself comes. Over hours of other speech it woke Hark no more often, but a
/// breath or a click before a usual voice in a quiet room is taken for a faint voice too, and
/// some usual "jarvis" and "hey chatterbox" were missed through it (figures: docs/benchmarks.md,
/// "The faint voice gain over hours of other speech" and "The settings' figures").
public enum FaintVoiceGain {
    /// A voice at or above this (dBFS, its loudest 100 ms) is heard as it comes.
    public static let quietestUsualVoice = -40.0
    /// The level (dBFS) a fainter voice is brought to: about the median of the wake corpus's
    /// recordings (-15 to -25 dBFS for each phrase).
    public static let usualVoice = -25.0
    /// The most it amplifies (dB): a voice must stand 12 dB above the room to be one, and the
    /// quietest room a piece measures is -90 dBFS.
    public static let largest = 53.0

    /// The gain (dB) for a stream whose voice is at `voiceLevel` dBFS; 0 for an unknown voice.
    public static func decibels(forVoiceAt voiceLevel: Double?) -> Double {
        guard let voiceLevel, voiceLevel < quietestUsualVoice else { return 0 }
        return min(largest, usualVoice - voiceLevel)
    }

    /// `samples` amplified by `decibels` (clipped to 16 bits); as they are for 0.
    public static func amplified(_ samples: [Int16], by decibels: Double) -> [Int16] {
        guard decibels > 0 else { return samples }
        let factor = pow(10, decibels / 20)
        return samples.map { Int16(max(-32_768, min(32_767, (Double($0) * factor).rounded()))) }
    }
}
