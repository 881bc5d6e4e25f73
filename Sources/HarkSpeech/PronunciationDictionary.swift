import Foundation

/// A pronunciation dictionary file ("word PH O N E S", alternates as "word(2)"), read a few
/// words at a time. pocketsphinx keeps whatever dictionary it is given in memory, some 20 MB
/// for Debian's 135,000 words, while the grammars of a turn use a few hundred; so decoders
/// start from a small file and are taught words from here as grammars need them.
struct PronunciationDictionary {
    let path: String

    /// The entries of `words`, alternates included, in the file's order. The file is streamed
    /// line by line: reading it whole would cost its size in memory at every lookup.
    func entries(for words: Set<String>) throws(RecognitionError) -> [(word: String, phones: String)] {
        guard !words.isEmpty else { return [] }
        return try entries { words.contains(String($0)) }
    }

    /// Every entry of the file (the general language model of dictation needs them all).
    func allEntries() throws(RecognitionError) -> [(word: String, phones: String)] {
        try entries { _ in true }
    }

    private func entries(where wanted: (Substring) -> Bool) throws(RecognitionError) -> [(word: String, phones: String)] {
        guard let file = fopen(path, "r") else {
            if errno == ENOENT {
                throw RecognitionError(.modelLoad, "the pronunciation dictionary \(path) is missing; install pocketsphinx-en-us (apt-get install pocketsphinx-en-us)")
            }
            throw RecognitionError(.modelLoad, "cannot read the pronunciation dictionary \(path): \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var found: [(word: String, phones: String)] = []
        var buffer: UnsafeMutablePointer<CChar>?
        var capacity = 0
        defer { free(buffer) }
        while getline(&buffer, &capacity, file) > 0, let buffer {
            let line = String(cString: buffer)
            guard let separator = line.firstIndex(where: { $0 == " " || $0 == "\t" }) else { continue }
            let entry = line[..<separator]
            guard wanted(entry.prefix { $0 != "(" }) else { continue }
            let phones = line[separator...].trimmingCharacters(in: .whitespacesAndNewlines)
            if !phones.isEmpty { found.append((String(entry), phones)) }
        }
        guard ferror(file) == 0 else {
            throw RecognitionError(.modelLoad, "reading the pronunciation dictionary \(path) failed")
        }
        return found
    }

    /// Writes `entries` to a temporary dictionary file for the length of `body`: pocketsphinx
    /// 5prealpha reads a decoder's first dictionary (and key-phrase lists) only from files.
    static func withTemporaryFile(_ text: String, extension suffix: String,
                                  _ body: (String) throws(RecognitionError) -> Void) throws(RecognitionError) {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hark-\(UUID().uuidString).\(suffix)")
        do {
            try text.write(to: url, atomically: false, encoding: .utf8)
        } catch {
            throw RecognitionError(.modelLoad, "cannot write \(url.path): \(error.localizedDescription)")
        }
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url.path)
    }

    /// Dictionary file text for `entries`.
    static func text(of entries: [(word: String, phones: String)]) -> String {
        entries.map { "\($0.word) \($0.phones)\n" }.joined()
    }
}
