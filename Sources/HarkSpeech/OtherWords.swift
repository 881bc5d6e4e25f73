public import Foundation

/// Common English words searched beside a grammar, so that speech the grammar does not hold can
/// be heard as what it is instead of being forced onto the nearest phrase.
///
/// The phone loop's margin cannot tell a real lone "two" from "jarvis" forced onto "two": both
/// fit free phones about as badly. Five hundred common words in a loop beside the grammar, in
/// the same search, explain "jarvis" or "a cheddar block" better than any digit does, while a
/// real digit still beats every one of them. The loop is searched only for a short phrase heard
/// in a quiet room (see `RecognizerConfiguration.otherWords`): in noise it explained too little
/// of the speech to reject, and it costs a second grammar search.
public enum OtherWords {
    /// The list `bench/make-other-words.sh` writes (models/other-words.txt): one word a line,
    /// lowercased; blank lines and lines starting with "#" are skipped.
    public static func read(_ url: URL) throws(RecognitionError) -> [String] {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.modelLoad, "cannot read the list of other words \(url.path): \(error.localizedDescription)")
        }
        var words: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard !trimmed.contains(where: \.isWhitespace) else {
                throw RecognitionError(.modelLoad, "\(url.path):\(number + 1): expected one word a line, not \"\(trimmed)\"")
            }
            words.append(trimmed.lowercased())
        }
        guard !words.isEmpty else { throw RecognitionError(.modelLoad, "\(url.path) lists no words") }
        return words
    }

    /// The chance of leaving the grammar's start for the loop, and of each word in it, as the
    /// grammar's own arcs have chance 1 (both are raised to the decoder's language weight): a
    /// dearer entry never let the loop win, dearer words let it win less often against speech to
    /// reject (figures: docs/benchmarks.md, "The settings' figures").
    static let entryProbability: Float = 1e-3
    static let wordProbability: Float = 1e-2

    typealias Arc = (from: Int, to: Int, word: String?, probability: Float)

    /// The arcs that put `words` in a loop beside a graph entered at `start` and left at `final`,
    /// on two new states numbered from `firstFreeState`: start → loop, loop -word→ after,
    /// after → loop, after → final.
    static func loopArcs(words: [String], start: Int, final: Int, firstFreeState: Int) -> [Arc] {
        let loop = firstFreeState, after = firstFreeState + 1
        return [(start, loop, nil, entryProbability)]
            + words.map { (loop, after, $0, wordProbability) }
            + [(after, loop, nil, 1), (after, final, nil, 1)]
    }

    /// States `loopArcs` adds.
    static let addedStates = 2

    /// Those of `words` that may stand beside a grammar: neither one of its words nor said like
    /// one (`pronunciations` gives a word's; a word it cannot pronounce is left out too).
    static func beside(grammarWords: Set<String>, _ words: [String], pronunciations: (String) -> [String]) -> [String] {
        let grammarSounds = Set(grammarWords.flatMap(pronunciations))
        return words.filter { word in
            guard !grammarWords.contains(word) else { return false }
            let sounds = pronunciations(word)
            return !sounds.isEmpty && sounds.allSatisfy { !grammarSounds.contains($0) }
        }
    }
}
