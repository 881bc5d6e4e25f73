public import HarkAudio
public import HarkVoice

/// Speech synthesis on its own queue: espeak-ng blocks while it speaks.
public actor SpeechService {
    private let executor = DedicatedExecutor(label: "hark.speech")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let synthesizer: SpeechSynthesizer

    public init(settings: VoiceSettings) throws(VoiceError) {
        synthesizer = try SpeechSynthesizer(settings: settings)
    }

    public func speak(_ text: String) throws(VoiceError) -> AudioClip {
        try synthesizer.synthesize(text)
    }
}
