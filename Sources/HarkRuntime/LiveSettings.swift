public import HarkAudio
public import Foundation
public import HarkSpeech

/// How the live loop listens and answers.
public struct LiveSettings: Sendable, Equatable {
    /// How Hark shows it heard the wake word.
    public enum Acknowledgement: String, Sendable, CaseIterable {
        /// A short rising two-note chime.
        case chime
        /// "Yes?" in Hark's voice.
        case speech
        /// Nothing: Hark just listens.
        case none
    }

    /// What Hark does with the microphone while it speaks.
    public enum WhileSpeaking: String, Sendable, CaseIterable {
        /// Listens on: its own voice is taken out of what the microphone hears (echo
        /// cancellation), and the wake word stops the reply and starts a new request.
        case listen
        /// Ignores the microphone until it has finished (and `echoTail` after): for hardware
        /// too slow for the canceller, or a loudspeaker too loud for it.
        case gate
    }

    public var wakePhrase = "jarvis"
    /// Phones for the wake phrase's words the dictionary lacks (see `WakeWordConfiguration.pronunciations`).
    public var wakePronunciations: [String: String] = [:]
    /// 0…1: higher catches more wake words and fires more often on other speech.
    public var sensitivity = WakeWordSpotter.defaultSensitivity
    /// The room level (dBFS) above which the wake word is listened for through noise
    /// suppression, nil never to (see `WakeWordSpotter.denoisingRoomLevel`).
    public var wakeDenoisesAbove: Double? = WakeWordSpotter.denoisingRoomLevel
    /// Common words a likely wake word is checked against (`WakeWordConfiguration.otherWords`):
    /// nil for the installed list, models/other-words.txt, which `readWakeOtherWords(models:)`
    /// reads; empty never to check.
    public var wakeOtherWords: [String]?
    /// Brings a voice the microphone barely catches up to a usual level before the wake word is
    /// listened for (`WakeWordConfiguration.amplifiesFaintVoices`, `FaintVoiceGain`).
    public var wakeAmplifiesFaintVoices = false
    /// The adaptation of the acoustic model the wake word is listened for through
    /// (`WakeWordConfiguration.acousticTransform`), nil for Debian's model as it is. The commands
    /// that listen give it the recogniser's: models/en-us.mllr, unless `--acoustic-adaptation`
    /// names another or none.
    public var wakeAcousticTransform: URL?
    /// Log odds from which a wake word below the sensitivity's threshold is listened on from
    /// without a sound: a request that follows within `tentativeSpeechWithin` s is acted on or
    /// asked about as `TentativeWakeFollowUp` says, and Hark stays silent otherwise. nil: such
    /// wake words are missed.
    /// See docs/how-hark-hears.md.
    public var tentativeWakeOdds: Double? = LiveSettings.standardTentativeWakeOdds
    public static let standardTentativeWakeOdds = 1.0
    /// Log odds a wake word said only 10 to 15 dB above a noisy room is let off the sensitivity's
    /// threshold (`WakeWordConfiguration.noisyRoomAllowance`); 0: one threshold in every room.
    public var wakeNoisyRoomAllowance = WakeWordSpotter.noisyRoomAllowance
    /// The allowances a configuration may set.
    public static let wakeNoisyRoomAllowances = 0.0...3.0
    /// After a tentative wake word the request must start within this long (s): a person who
    /// waits for the chime gets none, and says the wake word again.
    public var tentativeSpeechWithin = 1.0
    /// A request after a tentative wake word must have at least this many words: a lone word
    /// ("five", "stop") turns up in any speech, and after a false candidate it would be acted on.
    public static let tentativeRequestWords = 2
    public var acknowledgement = Acknowledgement.chime
    /// Quiet (s) that ends what someone says.
    public var endSilence = 0.6
    /// A pause this long (s) ends what someone says when the words so far are a whole phrase
    /// of the turn's grammar that no phrase continues.
    public var earlyEndSilence = 0.2
    /// Recognition of a pause starts after this much quiet (s; at most `earlyEndSilence`), so
    /// that its result is ready about when `earlyEndSilence` has passed; the reply still waits
    /// for that much quiet. 0.07 s: long enough to skip most gaps between words, short enough
    /// that two decoding passes (about 0.12 s for a 2 s request) end near 0.2 s.
    public var speculativeSilence = 0.07
    /// Seconds to wait for speech after the wake word or a question before giving up.
    public var noSpeechTimeout = 6.0
    /// An utterance is cut at this length (s).
    public var maximumUtterance = 10.0
    /// Seconds after Hark stops speaking still treated as its own voice (room echo, the
    /// device's buffer): thrown away with the rest when gated, still cancelled when listening.
    public var echoTail = 0.2
    public var whileSpeaking = WhileSpeaking.listen
    /// Where to keep each turn's audio as turn-N.wav; nil keeps nothing.
    public var utteranceDirectory: URL?

    public init() {}

    /// Audio is read in pieces of this many 16 kHz samples (30 ms): small enough that the end of
    /// speech is seen without delay, large enough to keep the loop's overhead low.
    public static let chunkSamples = 480

    public var endpointer: EnergyEndpointer.Settings {
        EnergyEndpointer.Settings(endSilence: endSilence, maximumUtterance: maximumUtterance)
    }

    public var wakeWord: WakeWordConfiguration {
        var configuration = WakeWordConfiguration(keyPhrase: wakePhrase, sensitivity: sensitivity)
        configuration.pronunciations = wakePronunciations
        configuration.denoisesAbove = wakeDenoisesAbove
        configuration.otherWords = wakeOtherWords ?? []
        configuration.amplifiesFaintVoices = wakeAmplifiesFaintVoices
        configuration.acousticTransform = wakeAcousticTransform
        configuration.tentativeOdds = tentativeWakeOdds
        configuration.noisyRoomAllowance = wakeNoisyRoomAllowance
        return configuration
    }

    /// Reads the installed list of other words (`HarkPaths.otherWords(in:)`) for the wake word
    /// when the settings named none; without one installed, the wake word is not checked so.
    public mutating func readWakeOtherWords(models: URL?) throws(RecognitionError) {
        guard wakeOtherWords == nil else { return }
        wakeOtherWords = try HarkPaths.installedOtherWords(in: models)
    }

    /// Gives the wake phrase's words the dictionary lacks a pronunciation from the project's
    /// lexicon or espeak-ng (through `models`' phone map).
    public mutating func pronounceWakePhrase(models: URL?) throws {
        var configuration = wakeWord
        try Pronouncer.pronounceMissingWords(of: &configuration, models: models)
        wakePronunciations = configuration.pronunciations
    }

    /// Checks the ranges; returns what is wrong, one line per setting.
    public func problems() -> [String] {
        var problems: [String] = []
        if !(0...1).contains(sensitivity) { problems.append("sensitivity must be between 0 and 1, not \(sensitivity)") }
        if let line = wakeDenoisesAbove, !WakeWordSpotter.denoisingRange.contains(line) {
            problems.append("wake_denoise_above must be a level between \(WakeWordSpotter.denoisingRangeText) dBFS or never, not \(line)")
        }
        if let odds = tentativeWakeOdds, !odds.isFinite { problems.append("tentative_wake_odds must be a number or never, not \(odds)") }
        if !Self.wakeNoisyRoomAllowances.contains(wakeNoisyRoomAllowance) {
            problems.append("wake_noisy_room_allowance must be 0 to 3 log odds or never, not \(wakeNoisyRoomAllowance)")
        }
        if !(0.2...5).contains(tentativeSpeechWithin) {
            problems.append("tentative_speech_within must be 0.2 to 5 seconds, not \(tentativeSpeechWithin)")
        }
        if !(0.1...5).contains(endSilence) { problems.append("end_silence must be 0.1 to 5 seconds, not \(endSilence)") }
        if !(0.05...endSilence).contains(earlyEndSilence) {
            problems.append("early_end_silence must be 0.05 seconds to end_silence, not \(earlyEndSilence)")
        }
        if !(1...60).contains(noSpeechTimeout) { problems.append("no_speech_timeout must be 1 to 60 seconds, not \(noSpeechTimeout)") }
        if !(1...60).contains(maximumUtterance) { problems.append("max_utterance must be 1 to 60 seconds, not \(maximumUtterance)") }
        if !(0...2).contains(echoTail) { problems.append("echo_tail must be 0 to 2 seconds, not \(echoTail)") }
        if wakePhrase.split(separator: " ").isEmpty { problems.append("wake_phrase must have at least one word") }
        return problems
    }
}

/// The wake-word chime: two short notes a fifth apart, rising, quiet enough not to startle and
/// short enough that someone who says the command without pausing is not drowned out.
public enum Chime {
    public static func clip(sampleRate: Int = 16_000) -> AudioClip {
        notes([880.0, 1318.5], sampleRate: sampleRate)
    }

    /// The same two notes falling: "I can't do that now", where saying why every time would be
    /// noise (a satellite whose hub is still out of reach).
    public static func falling(sampleRate: Int = 16_000) -> AudioClip {
        notes([1318.5, 880.0], sampleRate: sampleRate)
    }

    private static func notes(_ frequencies: [Double], sampleRate: Int) -> AudioClip {
        var samples: [Float] = []
        for frequency in frequencies {
            let count = Int(0.07 * Double(sampleRate))
            for index in 0..<count {
                let time = Double(index) / Double(sampleRate)
                // A 10 ms fade in and out keeps each note from clicking.
                let fade = min(1, Double(index) / (0.01 * Double(sampleRate)), Double(count - index) / (0.01 * Double(sampleRate)))
                samples.append(Float(0.2 * fade * sin(2 * Double.pi * frequency * time)))
            }
        }
        return AudioClip(samples: samples, sampleRate: sampleRate, channels: 1)
    }
}
