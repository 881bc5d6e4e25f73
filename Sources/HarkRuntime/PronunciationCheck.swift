public import Foundation
import HarkGrammar
public import HarkIntents
import HarkSpeech

/// Words Hark could not listen for, found before they are used: what `hark apps check` and
/// `hark shortcuts add` refuse, because a running Hark would leave their phrases out.
public struct PronunciationCheck: Sendable {
    public let pronouncer: Pronouncer?
    public let dictionaries: [URL]

    /// The check of the recogniser in `models`: its dictionaries, and espeak-ng through its phone map.
    public init(models: URL?) throws {
        pronouncer = try Pronouncer.inModels(models)
        dictionaries = [URL(fileURLWithPath: RecognizerConfiguration.debianDictionary)]
            + (HarkPaths.lexicon(in: models).map { [$0] } ?? [])
    }

    /// Why each of `words` that no dictionary knows cannot be pronounced, in the order given;
    /// empty when all can. Without a phone map nothing is guessed, and nothing is refused here.
    public func unpronounceable(_ words: [String]) -> [(word: String, reason: String)] {
        guard let pronouncer else { return [] }
        var found: [(word: String, reason: String)] = []
        for word in DictionaryWords.unknown(words, dictionaries: dictionaries) where !found.contains(where: { $0.word == word }) {
            do {
                _ = try pronouncer.phones(of: word)
            } catch {
                found.append((word, "\(error)"))
            }
        }
        return found
    }

    /// Each app's words (phrases, App Shortcuts, values) Hark could not pronounce, at the
    /// first line of the app's file that has the word. Words the app gives phones for are fine.
    public func problems(in catalog: AppCatalog) -> [ManifestError.Problem] {
        var problems: [ManifestError.Problem] = []
        for app in catalog.apps {
            let given = Set(app.vocabulary.filter { $0.pronunciation != nil }.map { $0.word.lowercased() })
            let words = catalog.topLevelGrammar(only: [app]).vocabulary.subtracting(given).sorted()
            for (word, reason) in unpronounceable(words) {
                problems.append(.init(file: app.file, line: Self.line(of: word, in: app.file),
                                      reason: "\(reason); a running Hark leaves out the phrases that use it"))
            }
        }
        return problems
    }

    /// The number of the first line of `file` that has `word` (any case); nil if none does.
    static func line(of word: String, in file: String) -> Int? {
        // The catalog has just read the file; should it now be unreadable, the problem is
        // still reported, by file alone.
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        return lines.firstIndex { $0.lowercased().contains(word) }.map { $0 + 1 }
    }
}
