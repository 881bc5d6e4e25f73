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
        return try entries(matching: WordFilter(words))
    }

    /// Every entry of the file (the general language model of dictation needs them all).
    func allEntries() throws(RecognitionError) -> [(word: String, phones: String)] {
        try entries(matching: nil)
    }

    /// Picks a dictionary's lines by their word without making a string of every line: the
    /// word's bytes are hashed where they lie, and only a line whose hash is one of the wanted
    /// words' becomes a string, checked against the words themselves (a hash may collide).
    /// Every grammar with a word the decoder lacks pays one lookup through Debian's 135,000
    /// lines; with a string made of each line, that was most of `hark pronounce`'s run.
    private struct WordFilter {
        let words: Set<String>
        private let hashes: Set<Int>

        init(_ words: Set<String>) {
            self.words = words
            hashes = Set(words.map { word in Array(word.utf8).withUnsafeBytes { Self.hash(of: $0) } })
        }

        static func hash(of bytes: UnsafeRawBufferPointer) -> Int {
            var hasher = Hasher()
            hasher.combine(bytes: bytes)
            return hasher.finalize()
        }

        /// Non-ASCII words are always checked as strings: a string equals another in a different
        /// Unicode normalisation, whose bytes (and hash) differ.
        func mayWant(_ bytes: UnsafeRawBufferPointer) -> Bool {
            bytes.contains { $0 >= 0x80 } || hashes.contains(Self.hash(of: bytes))
        }
    }

    /// The entries whose word (without its "(2)") `filter` wants, or all of them without one.
    private func entries(matching filter: WordFilter?) throws(RecognitionError) -> [(word: String, phones: String)] {
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
        while case let length = getline(&buffer, &capacity, file), length > 0, let buffer {
            let line = UnsafeRawBufferPointer(start: buffer, count: length)
            // The entry runs to the first space or tab; its word, to the "(" of an alternate.
            guard let separator = line.firstIndex(where: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { continue }
            let wordEnd = line[..<separator].firstIndex(of: UInt8(ascii: "(")) ?? separator
            if let filter {
                guard filter.mayWant(UnsafeRawBufferPointer(rebasing: line[..<wordEnd])),
                      filter.words.contains(String(decoding: line[..<wordEnd], as: UTF8.self)) else { continue }
            }
            let phones = String(decoding: line[separator...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            if !phones.isEmpty { found.append((String(decoding: line[..<separator], as: UTF8.self), phones)) }
        }
        guard ferror(file) == 0 else {
            throw RecognitionError(.modelLoad, "reading the pronunciation dictionary \(path) failed")
        }
        return found
    }

    /// Writes `entries` to a temporary dictionary file for the length of `body`: pocketsphinx
    /// 5prealpha reads a decoder's first dictionary (and key-phrase lists) only from files.
    static func withTemporaryFile<T>(_ text: String, extension suffix: String,
                                     _ body: (String) throws(RecognitionError) -> T) throws(RecognitionError) -> T {
        try withTemporaryFile(Data(text.utf8), extension: suffix, body)
    }

    /// The same for bytes (a model file). The file is made new (never through a name someone
    /// else made first) and removed afterwards; failing to remove it is an error too, unless
    /// `body` failed first, whose error says more.
    static func withTemporaryFile<T>(_ data: Data, extension suffix: String,
                                     _ body: (String) throws(RecognitionError) -> T) throws(RecognitionError) -> T {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hark-\(UUID().uuidString).\(suffix)")
        do {
            try data.write(to: url, options: .withoutOverwriting)
        } catch {
            throw RecognitionError(.modelLoad, "cannot write \(url.path): \(error.localizedDescription)")
        }
        let result = Result { () throws(RecognitionError) in try body(url.path) }
        do {
            try FileManager.default.removeItem(at: url)
        } catch {
            if case .failure(let failure) = result { throw failure }
            throw RecognitionError(.modelLoad, "cannot remove the temporary file \(url.path): \(error.localizedDescription)")
        }
        return try result.get()
    }

    /// Dictionary file text for `entries`.
    static func text(of entries: [(word: String, phones: String)]) -> String {
        entries.map { "\($0.word) \($0.phones)\n" }.joined()
    }
}
