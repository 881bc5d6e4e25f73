import Foundation
public import HarkGrammar

/// The recogniser's pronunciations: words learnt from the dictionary, the project's lexicon
/// and espeak-ng, for grammars and wake phrases.
extension Recognizer {

    /// "word" of a dictionary entry "word(2)".
    static func baseWord(_ entry: String) -> String {
        String(entry.prefix { $0 != "(" })
    }

    /// Teaches the decoder the dictionary's pronunciations (alternates included) of those of
    /// `words` it does not know yet, in one pass over the dictionary file. Returns the words
    /// no dictionary knows, sorted.
    @discardableResult
    public func learn(_ words: some Sequence<String>) throws(RecognitionError) -> [String] {
        try Self.teach(words, from: dictionary, to: decoder)
    }

    /// `learn(_:)`'s work, also for the initialiser before `self` is whole.
    @discardableResult
    static func teach(_ words: some Sequence<String>, from dictionary: PronunciationDictionary,
                              to decoder: Decoder) throws(RecognitionError) -> [String] {
        let missing = Set(words.map { $0.lowercased() }.filter { decoder.pronunciation(of: $0) == nil })
        guard !missing.isEmpty else { return [] }
        let entries = try dictionary.entries(for: missing)
        if !entries.isEmpty { try decoder.addWords(entries) }
        return missing.subtracting(entries.map { baseWord($0.word) }).sorted()
    }

    /// Every pronunciation the dictionary gives each word, alternates included ("and": AH N D
    /// and AE N D); a word it lacks is left out.
    public func pronunciations(of words: Set<String>) throws(RecognitionError) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for (entry, phones) in try dictionary.entries(for: Set(words.map { $0.lowercased() })) {
            found[String(entry.prefix { $0 != "(" }), default: []].append(phones)
        }
        return found
    }

    /// The phones Hark listens for when it hears `word`, or nil if no dictionary knows it.
    public func pronunciation(of word: String) throws(RecognitionError) -> String? {
        try learn([word])
        return decoder.pronunciation(of: word.lowercased())
    }

    /// Words of `grammar` that no dictionary knows, sorted; the others are taught to the decoder.
    public func unknownWords(in grammar: Grammar) throws(RecognitionError) -> [String] {
        try learn(grammar.vocabulary)
    }

    /// Teaches the decoder pronunciations (ARPAbet phones separated by spaces).
    public func addPronunciations(_ entries: [(word: String, phones: String)]) throws(RecognitionError) {
        try decoder.addWords(entries.map { ($0.word.lowercased(), $0.phones.uppercased()) })
    }

    static func readLexicon(_ url: URL) throws(RecognitionError) -> [(word: String, phones: String)] {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.pronunciation, "cannot read lexicon \(url.path): \(error.localizedDescription)")
        }
        var entries: [(word: String, phones: String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count >= 2 else {
                throw RecognitionError(.pronunciation, "\(url.path):\(number + 1): expected a word and its phones")
            }
            let unknown = fields.dropFirst().filter { !Phones.all.contains($0.uppercased()) }
            guard unknown.isEmpty else {
                throw RecognitionError(.pronunciation, "\(url.path):\(number + 1): unknown phones \(unknown.joined(separator: " ")); use the model's ARPAbet set")
            }
            entries.append((fields[0].lowercased(), fields.dropFirst().joined(separator: " ").uppercased()))
        }
        return entries
    }
}
