public import Foundation

/// Maps espeak-ng's English phoneme mnemonics (as `espeak-ng -x --sep=_`
/// writes them) to the acoustic model's ARPAbet phones, so a word missing
/// from the dictionary can still be listened for.
public struct PhoneMap: Sendable {
    private let table: [String: [String]]

    public struct UnknownPhoneme: Error, Sendable, CustomStringConvertible {
        public var phoneme: String
        public var word: String
        public var description: String {
            "espeak-ng phoneme \"\(phoneme)\" in \"\(word)\" has no mapping in the phone map; add it to models/espeak2arpabet.tsv"
        }
    }

    /// Reads the tab-separated map: espeak mnemonic, then ARPAbet phones separated by spaces.
    public init(contentsOf url: URL) throws(RecognitionError) {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.pronunciation, "cannot read the phone map \(url.path): \(error.localizedDescription)")
        }
        var table: [String: [String]] = [:]
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.isEmpty || line.hasPrefix("#") { continue }
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            let phones = fields.count == 2 ? fields[1].split(separator: " ").map(String.init) : []
            guard fields.count == 2, !fields[0].isEmpty, !phones.isEmpty, phones.allSatisfy(Phones.all.contains) else {
                throw RecognitionError(.pronunciation, "\(url.path):\(number + 1): expected an espeak mnemonic, a tab, and ARPAbet phones")
            }
            table[String(fields[0])] = phones
        }
        self.table = table
    }

    /// ARPAbet phones for espeak-ng mnemonics such as "h_@_l_'oU" (words separated by spaces).
    ///
    /// Stress and syllable marks are dropped; a length mark or pause contributes nothing; an
    /// R straight after R or ER is dropped, because ARPAbet folds it into the vowel.
    public func phones(fromEspeak mnemonics: String, word: String) throws(UnknownPhoneme) -> [String] {
        var phones: [String] = []
        for token in mnemonics.split(whereSeparator: { $0 == "_" || $0 == " " }) {
            let bare = String(token.drop(while: { "',%=".contains($0) }))
            if bare.isEmpty || bare == ";" || bare == ":" { continue }
            guard let mapped = table[bare] else { throw UnknownPhoneme(phoneme: bare, word: word) }
            for phone in mapped {
                if phone == "R", let last = phones.last, last == "R" || last == "ER" { continue }
                phones.append(phone)
            }
        }
        return phones
    }
}
