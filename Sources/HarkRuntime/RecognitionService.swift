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

    /// Loads the model (once) and installs `grammar`. Words no dictionary knows are
    /// given a pronunciation by `pronounce` first (espeak-ng's phonemiser, mapped to
    /// the model's phones); without it they are refused by name.
    public func prepare(_ configuration: RecognizerConfiguration, grammar: Grammar,
                        pronounce: (@Sendable (String) throws -> [String])? = nil) throws {
        if recognizer == nil {
            let loaded = try Recognizer(configuration: configuration)
            loadSeconds = loaded.loadSeconds
            recognizer = loaded
        }
        let recognizer = try loadedRecognizer()
        if let pronounce {
            let unknown = recognizer.unknownWords(in: grammar)
            var entries: [(word: String, phones: String)] = []
            for word in unknown {
                entries.append((word, try pronounce(word).joined(separator: " ")))
            }
            if !entries.isEmpty { try recognizer.addPronunciations(entries) }
            guessedPronunciations = Dictionary(entries.map { ($0.word, $0.phones) }, uniquingKeysWith: { first, _ in first })
        }
        try recognizer.use(grammar)
    }

    /// Words that were given espeak-ng's pronunciation because no dictionary had them.
    public private(set) var guessedPronunciations: [String: String] = [:]

    public func use(_ grammar: Grammar) throws(RecognitionError) {
        try loadedRecognizer().use(grammar)
    }

    public func recognize(_ samples: [Int16]) throws(RecognitionError) -> (Recognition, Interpretation?) {
        let recognition = try loadedRecognizer().recognize(samples)
        return (recognition, recognition.interpretation)
    }

    public func pronunciation(of word: String) throws(RecognitionError) -> String? {
        try loadedRecognizer().pronunciation(of: word)
    }

    private func loadedRecognizer() throws(RecognitionError) -> Recognizer {
        guard let recognizer else { throw RecognitionError(.modelLoad, "the recogniser was used before prepare()") }
        return recognizer
    }
}
