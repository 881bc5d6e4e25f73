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

    /// Where a phrase left out for want of a pronunciation is reported; it never stops hearing.
    private let report: @Sendable (String) -> Void

    public init(report: @escaping @Sendable (String) -> Void = StoredShortcuts.warn) {
        self.report = report
    }

    /// Loads the model (once) and installs `grammar`. Words no dictionary knows are
    /// given a pronunciation by `pronounce` first (espeak-ng's phonemiser, mapped to
    /// the model's phones); without it they are refused by name.
    public func prepare(_ configuration: RecognizerConfiguration, grammar: Grammar,
                        pronounce: (@Sendable (String) throws -> [String])? = nil,
                        pronunciations: [(word: String, phones: String)] = []) throws {
        if recognizer == nil {
            let loaded = try Recognizer(configuration: configuration)
            loadSeconds = loaded.loadSeconds
            recognizer = loaded
        }
        self.pronounce = pronounce
        if !pronunciations.isEmpty { try addPronunciations(pronunciations) }
        try use(grammar)
    }

    private var pronounce: (@Sendable (String) throws -> [String])?

    /// Teaches the decoder pronunciations an app gives for its own words (the dictionary's
    /// own pronunciation wins for a word it has).
    public func addPronunciations(_ entries: [(word: String, phones: String)]) throws {
        let recognizer = try loadedRecognizer()
        let unknown = Set(try recognizer.learn(entries.map(\.word)))
        let missing = entries.filter { unknown.contains($0.word.lowercased()) }
        if !missing.isEmpty { try recognizer.addPronunciations(missing) }
        for entry in missing { givenPronunciations[entry.word.lowercased()] = entry.phones.uppercased() }
    }

    /// Words listened for with phones written by hand, from apps (`addPronunciations`).
    private var givenPronunciations: [String: String] = [:]

    /// Every word listened for with phones written by hand rather than from the dictionary
    /// or espeak-ng's guess: the project lexicon's, then the apps'. Hark says these words
    /// from the same phones.
    public func handWrittenPronunciations() throws -> [(word: String, phones: String)] {
        try loadedRecognizer().lexiconPronunciations
            + givenPronunciations.sorted { $0.key < $1.key }.map { (word: $0.key, phones: $0.value) }
    }

    /// Words that were given espeak-ng's pronunciation because no dictionary had them.
    public private(set) var guessedPronunciations: [String: String] = [:]

    /// Words `pronounce` could not give phones for, with why; their phrases are left out.
    public private(set) var unpronounceable: [String: String] = [:]

    /// Makes `grammar` the one utterances are decoded against, first giving
    /// espeak-ng's pronunciation to any of its words no dictionary knows. A word it
    /// cannot pronounce (a handler's contact in Greek letters) is reported once and its
    /// phrases are left out: the rest of the grammar is still heard.
    public func use(_ grammar: Grammar) throws {
        let recognizer = try loadedRecognizer()
        var usable = grammar
        if let pronounce {
            var entries: [(word: String, phones: String)] = []
            var leftOut = Set<String>()
            for word in try recognizer.unknownWords(in: grammar) {
                if unpronounceable[word] != nil {
                    leftOut.insert(word)
                    continue
                }
                do {
                    entries.append((word, try pronounce(word).joined(separator: " ")))
                } catch {
                    unpronounceable[word] = "\(error)"
                    report("phrases with \"\(word)\" are left out: \(error)")
                    leftOut.insert(word)
                }
            }
            if !entries.isEmpty { try recognizer.addPronunciations(entries) }
            for entry in entries where guessedPronunciations[entry.word] == nil {
                guessedPronunciations[entry.word] = entry.phones
            }
            usable = grammar.leavingOut(leftOut)
        }
        try recognizer.use(usable)
        try baseline?.use(usable, pronunciations: recognizer.pronunciations(of:))
    }

    /// Plain pocketsphinx beside the recogniser, for benchmarks; nil until `startBaseline`.
    private var baseline: BaselineRecognizer?

    /// Starts plain pocketsphinx (`BaselineRecognizer`) on the recogniser's model, with the
    /// grammar in use; from now on it follows every grammar the recogniser is given.
    public func startBaseline() throws {
        let recognizer = try loadedRecognizer()
        guard baseline == nil else { return }
        guard let grammar = recognizer.grammarInUse else {
            throw RecognitionError(.grammar, "the baseline needs a grammar in use: call prepare() first")
        }
        let made = try BaselineRecognizer(modelDirectory: recognizer.configuration.modelDirectory,
                                          dictionary: recognizer.configuration.dictionary,
                                          logFile: recognizer.configuration.logFile)
        try made.use(grammar, pronunciations: recognizer.pronunciations(of:))
        baseline = made
    }

    /// The baseline's hearing of `samples` against the grammar in use.
    public func recognizeBaseline(_ samples: [Int16]) throws -> Recognition {
        guard let baseline else { throw RecognitionError(.modelLoad, "the baseline was used before startBaseline()") }
        return try baseline.recognize(samples)
    }

    /// `room`: where the audio was heard (a satellite's room), nil for this device's own
    /// microphone and clients that name none; each room's background is learnt apart.
    public func dictate(_ samples: [Int16], heardIn room: String? = nil) throws(RecognitionError) -> Recognition {
        try loadedRecognizer().dictate(samples, heardIn: room)
    }

    public func recognize(_ samples: [Int16], heardIn room: String? = nil) throws(RecognitionError) -> (Recognition, Interpretation?) {
        let recognition = try loadedRecognizer().recognize(samples, heardIn: room)
        return (recognition, recognition.interpretation)
    }

    /// How loud `room` was before the request about to be recognised (`Recognizer.heardBeforeRequest`).
    public func heardBeforeRequest(roomPower: Double?, heardIn room: String? = nil) throws(RecognitionError) {
        try loadedRecognizer().heardBeforeRequest(roomPower: roomPower, heardIn: room)
    }

    /// The rooms whose backgrounds the recogniser remembers, the one heard last first ("" for
    /// this device's own microphone).
    public func roomsHeard() throws(RecognitionError) -> [String] {
        try loadedRecognizer().roomsHeard
    }

    /// `samples` heard against `grammar`, and whether the words are a whole phrase of it that
    /// nothing continues; the grammar in use is put back afterwards. For a network client's
    /// conversation, whose turn has a grammar of its own, while the device's turns keep theirs.
    public func recognize(_ samples: [Int16], against grammar: Grammar,
                          heardIn room: String? = nil) throws -> (recognition: Recognition, isWholePhrase: Bool) {
        let recognizer = try loadedRecognizer()
        let previous = recognizer.grammarInUse
        try use(grammar)
        let heard: Result<(Recognition, Bool), RecognitionError>
        do throws(RecognitionError) {
            let recognition = try recognizer.recognize(samples, heardIn: room)
            heard = .success((recognition, recognizer.isWholePhrase(recognition)))
        } catch {
            heard = .failure(error)
        }
        // Switching back to a grammar used a moment ago only activates its search again.
        if let previous { try use(previous) }
        let (recognition, whole) = try heard.get()
        return (recognition, whole)
    }

    /// Whether the words recognised are a whole phrase that nothing continues, however little quiet followed.
    public func isWholePhrase(_ recognition: Recognition) throws(RecognitionError) -> Bool {
        try loadedRecognizer().isWholePhrase(recognition)
    }

    public func pronunciations(of words: Set<String>) throws(RecognitionError) -> [String: [String]] {
        try loadedRecognizer().pronunciations(of: words)
    }

    public func pronunciation(of word: String) throws(RecognitionError) -> String? {
        try loadedRecognizer().pronunciation(of: word)
    }

    private func loadedRecognizer() throws(RecognitionError) -> Recognizer {
        guard let recognizer else { throw RecognitionError(.modelLoad, "the recogniser was used before prepare()") }
        return recognizer
    }
}
