public import HarkGrammar
public import HarkSpeech

/// The recogniser behind an actor whose jobs run on their own queue: the
/// decoder is loaded once and stays warm, and decoding never blocks the
/// cooperative pool.
public actor RecognitionService {
    private let executor = DedicatedExecutor(label: "hark.recognition")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private var recognizer: Recognizer?
    public private(set) var loadSeconds: Double = 0

    public init() {}

    /// Loads the model (once) and installs `grammar`.
    public func prepare(_ configuration: RecognizerConfiguration, grammar: Grammar) throws(RecognitionError) {
        if recognizer == nil {
            let loaded = try Recognizer(configuration: configuration)
            loadSeconds = loaded.loadSeconds
            recognizer = loaded
        }
        try loadedRecognizer().use(grammar)
    }

    public func use(_ grammar: Grammar) throws(RecognitionError) {
        try loadedRecognizer().use(grammar)
    }

    public func recognize(_ samples: [Int16]) throws(RecognitionError) -> (Recognition, Interpretation?) {
        let recognizer = try loadedRecognizer()
        let recognition = try recognizer.recognize(samples)
        return (recognition, recognizer.interpret(recognition))
    }

    public func pronunciation(of word: String) throws(RecognitionError) -> String? {
        try loadedRecognizer().pronunciation(of: word)
    }

    private func loadedRecognizer() throws(RecognitionError) -> Recognizer {
        guard let recognizer else { throw RecognitionError(.modelLoad, "the recogniser was used before prepare()") }
        return recognizer
    }
}
