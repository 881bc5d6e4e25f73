import Foundation

/// Brings a voice the microphone barely caught up to a usual level before the wake-word spotter
/// hears it: a stream whose voice (`StreamVoiceLevel`: its loudest 100 ms of the last ten
/// seconds) is quieter than `quietestUsualVoice` is amplified so that the voice is at
/// `usualVoice`; any other stream is heard as it comes.
///
/// Why: the spotter's front end learns its cepstral mean only from audio well above the room
/// (`WakeWordSpotter.meanGate`), so it starts every phrase from the model's own mean, which is
/// that of speech at a usual level; and its noise floor (`NoiseFloor`, -60 dBFS) is louder than
/// such a voice. 66 of the 366 "athena" test recordings of `make bench-wake` have their loudest
/// 100 ms below -40 dBFS (most of them below -60), against a median of -15 to -25 dBFS for each
/// phrase. Keeping the floor 20 dB beneath the voice instead still left both faint recordings of
/// `audio-fixtures/faint` unproposed (search scores -2.2 to -3.8 a frame); amplified, both are
/// proposed, with odds of 3.4 and 6.3 (3.5 wakes at the default; `aFaintVoiceIsBroughtUpToBeHeard`).
///
/// Off by default (`WakeWordConfiguration.amplifiesFaintVoices`; `wake_faint_voice_gain: on` in
/// the settings turns it on), because a sound that steps up from a quiet room (a fan starting)
/// stands 12 dB above the room and is below -40 dBFS: it is taken for a faint voice and amplified
/// until the voice itself comes. Over hours of other speech it woke Hark no more often, but a
/// breath or a click before a usual voice in a quiet room is taken for a faint voice too, and
/// some usual "jarvis" and "hey chatterbox" were missed through it (docs/benchmarks.md, "The
/// faint voice gain over hours of other speech"). Measured with `hark bench-wake --split test
/// --faint-voice-gain` on the test recordings whose loudest tenth of 25 ms pieces is below
/// -40 dBFS and 40 others of each phrase, each heard after its own room, missed at the default
/// clean / at 10 dB, as they come → brought up: "athena" 72 / 80 → 32 / 52 of 112 (never
/// proposed 51 → 5 clean), "jarvis" 6 / 17 → 6 / 17 of 41, "amelia" 24 / 31 → 25 / 32 of 44.
/// (When the corpus laid a second of near silence before each recording, its own background
/// stepped up from it and usual "jarvis" and "amelia" recordings were missed more through the
/// gain, 6 → 8 and 25 → 29 clean.)
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
