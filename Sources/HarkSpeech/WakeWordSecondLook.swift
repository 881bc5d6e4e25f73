import Foundation

/// A spotter's second look at its candidates: the verifier (`WakeWordVerifier`, a decoder with its
/// own copy of the acoustic model), the model that weighs its evidence, and the other words each
/// phrase is checked against. None of it depends on the stream heard, so spotters of one
/// configuration can share one (`WakeWordSpotter.init(configuration:sharing:)`): a server hearing
/// many wake-word streams then holds one verifier, not one per stream. Looks take turns under a
/// lock; candidates are rare and a look takes tens of milliseconds.
public final class WakeWordSecondLook: @unchecked Sendable {
    // @unchecked: the verifiers and their count are used only under `condition`'s lock, and a
    // verifier taken from `idle` by one look alone; everything else is immutable.
    let model: WakeWordVerifierModel
    /// The other words each phrase is checked against (those that may stand beside it), by phrase.
    let otherWordsBeside: [String: [String]]
    /// What it was made from; a spotter shares it only if its own configuration gives the same.
    let key: String
    /// Makes one more verifier, alike.
    private let makeVerifier: @Sendable () throws(RecognitionError) -> WakeWordVerifier
    private let condition = NSCondition()
    private var idle: [WakeWordVerifier]
    private var made: Int
    private var atOnce = 1

    init(verifier: WakeWordVerifier, model: WakeWordVerifierModel, otherWordsBeside: [String: [String]], key: String,
         makeVerifier: @escaping @Sendable () throws(RecognitionError) -> WakeWordVerifier) {
        idle = [verifier]
        made = 1
        self.model = model
        self.otherWordsBeside = otherWordsBeside
        self.key = key
        self.makeVerifier = makeVerifier
    }

    /// Lets up to `count` looks run at once, each with a verifier of its own, made when first
    /// needed: streams that hear the same words at the same moment (rooms hearing one person)
    /// are then not checked one after another. One by default.
    public func allowLooks(atOnce count: Int) {
        condition.lock()
        atOnce = max(1, count)
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` with a verifier no other look is using meanwhile.
    func look<T>(_ body: (WakeWordVerifier) throws(RecognitionError) -> T) throws(RecognitionError) -> T {
        let verifier = try take()
        defer { give(verifier) }
        return try body(verifier)
    }

    private func take() throws(RecognitionError) -> WakeWordVerifier {
        condition.lock()
        while idle.isEmpty && made >= atOnce { condition.wait() }
        if let verifier = idle.popLast() {
            condition.unlock()
            return verifier
        }
        made += 1
        condition.unlock()
        do {
            return try makeVerifier()
        } catch {
            condition.lock()
            made -= 1
            condition.signal()
            condition.unlock()
            throw error
        }
    }

    private func give(_ verifier: WakeWordVerifier) {
        condition.lock()
        idle.append(verifier)
        condition.signal()
        condition.unlock()
    }

    /// Everything the second look is made from: the model's files and adaptation, the phones of
    /// each spelling listened for, the other words and the weights.
    static func key(configuration: WakeWordConfiguration, adaptation: [String], spellings: [[String]],
                    model: WakeWordVerifierModel) -> String {
        [configuration.modelDirectory, configuration.dictionary, adaptation.joined(separator: " "),
         spellings.map { $0.joined(separator: " ") }.sorted().joined(separator: ","),
         configuration.otherWords.sorted().joined(separator: ","),
         "\(model.mean) \(model.scale) \(model.weights) \(model.bias)"].joined(separator: "|")
    }
}

extension WakeWordSpotter {
    /// Makes the second look for `configuration`: its verifier, and the other words that may stand
    /// beside each phrase (`OtherWords.beside`), their sounds from the dictionary or else from the
    /// search's own `decoder`.
    static func secondLook(configuration: WakeWordConfiguration, phrases: [[String]],
                           spellings: [String: (phrase: String, phones: [String])], decoder: Decoder,
                           adaptation: [String], model: WakeWordVerifierModel, key: String) throws(RecognitionError) -> WakeWordSecondLook {
        var otherEntries: [(word: String, phones: String)] = []
        var otherWordsBeside: [String: [String]] = [:]
        if !configuration.otherWords.isEmpty {
            otherEntries = try PronunciationDictionary(path: configuration.dictionary).entries(for: Set(configuration.otherWords))
            var sounds: [String: [String]] = [:]
            for entry in otherEntries { sounds[Decoder.baseWord(entry.word), default: []].append(entry.phones) }
            for (phrase, words) in zip(configuration.phrases, phrases) {
                otherWordsBeside[phrase] = OtherWords.beside(grammarWords: Set(words), configuration.otherWords) { word in
                    sounds[word] ?? alternates(of: word, in: decoder).map(\.phones)
                }
            }
        }
        let (modelDirectory, logFile, phones) = (configuration.modelDirectory, configuration.logFile, spellings.values.map(\.phones))
        let make: @Sendable () throws(RecognitionError) -> WakeWordVerifier = { [otherEntries] () throws(RecognitionError) in
            try WakeWordVerifier(modelDirectory: modelDirectory, logFile: logFile, extraArguments: adaptation,
                                 otherWords: otherEntries, phrases: phones)
        }
        return WakeWordSecondLook(verifier: try make(), model: model, otherWordsBeside: otherWordsBeside, key: key, makeVerifier: make)
    }
}
