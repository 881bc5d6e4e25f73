public import HarkAudio
public import HarkVoice

/// Speech synthesis on its own queue: espeak-ng blocks while it speaks.
public actor SpeechService {
    private let executor = DedicatedExecutor(label: "hark.speech")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let synthesizer: SpeechSynthesizer

    /// `lexicon`: words said from the phones Hark listens for (see `SpokenLexicon`).
    public init(settings: VoiceSettings, lexicon: SpokenLexicon = SpokenLexicon()) throws(VoiceError) {
        synthesizer = try SpeechSynthesizer(settings: settings, lexicon: lexicon)
    }

    public func speak(_ text: String) throws(VoiceError) -> AudioClip {
        try synthesizer.synthesize(text)
    }
}
