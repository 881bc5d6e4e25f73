public import HarkAudio

/// How Hark sounds.
public struct VoiceSettings: Sendable, Equatable {
    /// An espeak-ng voice name, e.g. "en-us", "en-gb", "en-us+f3".
    public var voice: String
    /// Words per minute, 80–450.
    public var rate: Int
    /// 0–99; 50 is the voice's normal pitch.
    public var pitch: Int

    public init(voice: String = "en-us", rate: Int = 170, pitch: Int = 50) {
        self.voice = voice
        self.rate = rate
        self.pitch = pitch
    }

    public static let rateRange = 80...450
    public static let pitchRange = 0...99
}

/// Speaks text with espeak-ng, in process, into audio that Hark can play or write.
public struct SpeechSynthesizer: Sendable {
    public let settings: VoiceSettings
    /// Words said from the phones Hark listens for rather than from their spelling.
    public let lexicon: SpokenLexicon

    /// Checks the settings against espeak-ng now, so a bad voice fails at start-up, not mid-conversation.
    public init(settings: VoiceSettings = VoiceSettings(), lexicon: SpokenLexicon = SpokenLexicon()) throws(VoiceError) {
        guard VoiceSettings.rateRange.contains(settings.rate) else {
            throw VoiceError(.badSetting, "rate \(settings.rate) is outside \(VoiceSettings.rateRange) words per minute")
        }
        guard VoiceSettings.pitchRange.contains(settings.pitch) else {
            throw VoiceError(.badSetting, "pitch \(settings.pitch) is outside \(VoiceSettings.pitchRange)")
        }
        self.settings = settings
        self.lexicon = lexicon
        try Espeak.withEngine { () throws(VoiceError) in try Espeak.setVoice(settings.voice) }
    }

    /// The spoken text as mono audio at espeak-ng's own rate (22.05 kHz). Prices, times and
    /// the like are first spelt out as words (`SpeechText`), so every reply is heard as meant.
    /// `voice`: another espeak-ng voice or language for this text than the settings'.
    public func synthesize(_ text: String, voice: String? = nil) throws(VoiceError) -> AudioClip {
        let settings = settings
        let spoken = SpeechText.normalised(text)
        let markedUp = lexicon.markedUp(spoken)
        return try Espeak.withEngine { () throws(VoiceError) -> AudioClip in
            try Espeak.setVoice(voice ?? settings.voice)
            try Espeak.setRate(settings.rate)
            try Espeak.setPitch(settings.pitch)
            let samples = try Espeak.synthesize(markedUp ?? spoken, inlinePhonemes: markedUp != nil)
            return AudioClip(int16: samples, sampleRate: Espeak.outputRate, channels: 1)
        }
    }
}

/// A voice espeak-ng has installed.
public struct InstalledVoice: Sendable, Equatable {
    /// Its name ("English (America)") and file ("gmw/en-US"), and the languages it speaks, most
    /// fitting first ("en-us", "en").
    public var name: String
    public var file: String
    public var languages: [String]
}

extension SpeechSynthesizer {
    /// espeak-ng's installed voices.
    public static func installedVoices() throws(VoiceError) -> [InstalledVoice] {
        try Espeak.withEngine { () throws(VoiceError) -> [InstalledVoice] in Espeak.installedVoices() }
    }

    /// Throws `unknownVoice` unless espeak-ng can speak with `voice` (a voice or a language);
    /// leaves the engine's voice as it was for the next synthesis, which sets its own.
    public static func check(voice: String) throws(VoiceError) {
        try Espeak.withEngine { () throws(VoiceError) in try Espeak.setVoice(voice) }
    }
}

/// espeak-ng's phonemiser, for words the recogniser's dictionary lacks.
public enum Phonemizer {
    /// espeak-ng's English phoneme mnemonics for `text` ("h@l'oU" style, "_"-separated).
    public static func phonemes(of text: String, voice: String = "en-us") throws(VoiceError) -> String {
        try Espeak.withEngine { () throws(VoiceError) -> String in
            try Espeak.setVoice(voice)
            return Espeak.phonemes(text)
        }
    }
}
