public import HarkAudio
public import HarkVoice

/// Speech synthesis on its own queue: espeak-ng blocks while it speaks.
public actor SpeechService {
    private let executor = DedicatedExecutor(label: "hark.speech")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let synthesizer: SpeechSynthesizer
    /// How it sounds, and the words it says from their phones: what a speech worker needs to
    /// sound the same (`SpeechPool`).
    public nonisolated let settings: VoiceSettings
    public nonisolated let lexicon: SpokenLexicon

    /// `lexicon`: words said from the phones Hark listens for (see `SpokenLexicon`).
    public init(settings: VoiceSettings, lexicon: SpokenLexicon = SpokenLexicon()) throws(VoiceError) {
        synthesizer = try SpeechSynthesizer(settings: settings, lexicon: lexicon)
        self.settings = settings
        self.lexicon = lexicon
    }

    /// `voice`: another espeak-ng voice or language than the settings', for this text only.
    public func speak(_ text: String, voice: String? = nil) throws(VoiceError) -> AudioClip {
        try synthesizer.synthesize(text, voice: voice)
    }
}
