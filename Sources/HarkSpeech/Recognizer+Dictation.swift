import Foundation

/// Free dictation: what a question wanting free text hears, with pocketsphinx's language model.
extension Recognizer {

    /// Recognises free text with the general language model: for answers that
    /// are not in any grammar (a message's content). Less accurate than a
    /// grammar, and nothing is rejected except silence.
    public func dictate(_ samples: [Int16], heardIn room: String? = nil) throws(RecognitionError) -> Recognition {
        if !hasLanguageModel {
            guard FileManager.default.fileExists(atPath: configuration.languageModel) else {
                throw RecognitionError(.modelLoad, "no language model for dictation at \(configuration.languageModel)")
            }
            // The general language model's words are the whole dictionary's.
            let all = try dictionary.allEntries()
            let known = Set(all.lazy.map(\.word).filter { self.decoder.pronunciation(of: $0) != nil })
            try decoder.addWords(all.filter { !known.contains($0.word) })
            try decoder.installLanguageModel(name: Self.dictationSearch, path: configuration.languageModel)
            hasLanguageModel = true
        }
        let started = Date()
        let cepstra = try self.cepstra(of: samples, heardIn: room)
        try decoder.activate(Self.dictationSearch)
        let hypothesis: Decoder.Hypothesis
        do {
            hypothesis = try decoder.decodeWhole(cepstra)
        } catch {
            if let inUse { try? decoder.activate(inUse.search) }
            throw error
        }
        if let inUse { try decoder.activate(inUse.search) }
        let words = hypothesis.words
        return Recognition(words: words, isRejected: words.isEmpty, confidence: words.isEmpty ? 0 : 1,
                           rejection: words.isEmpty ? "nothing was heard" : nil, margin: 0, interpretation: nil,
                           frames: hypothesis.frames, decodeSeconds: Date().timeIntervalSince(started))
    }

}
