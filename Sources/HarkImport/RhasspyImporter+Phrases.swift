import HarkGrammar
import HarkIntents

/// How one sentence's phrases are checked and kept apart before they join the intent: Hark's own
/// commands left out, values that would mean something else under the same slot, free text.
extension RhasspyImporter {
    /// Most ways of saying a phrase that is written out one way a phrase when some of its ways
    /// are Hark's own commands.
    static let mostWaysWrittenOut = 100

    /// `phrase` without the ways of saying it that are Hark's own commands ("never mind" is
    /// Hark's cancel, "what can i say" its help), which an app may not claim: the phrase itself
    /// when none are, else its other ways one phrase each. Also the commands left out.
    static func leavingOutOwnCommands(_ phrase: String) -> (phrases: [String], ownCommands: [String]) {
        guard let template = try? PhraseTemplate(phrase), let sentences = PhraseExpansion.sentences(of: template) else {
            return ([phrase], [])
        }
        let reserved = Set(ReservedPhrases.all.map(Grammar.words(of:)))
        let own = sentences.filter(reserved.contains)
        guard !own.isEmpty else { return ([phrase], []) }
        let said = own.map { $0.joined(separator: " ") }
        let others = sentences.filter { !reserved.contains($0) }
        // Too many ways to write out one by one: the phrase goes, said so.
        guard others.count <= mostWaysWrittenOut else { return ([], said) }
        var seen = Set<[String]>()
        return (others.filter { seen.insert($0).inserted }.map { $0.joined(separator: " ") }, said)
    }

    /// Whether `values` give words another value than `earlier` gives them: a parameter has one
    /// value for each way it is said.
    static func conflicts(_ values: [ImportedApp.Value], with earlier: ImportedApp.Parameter?) -> Bool {
        guard let earlier else { return false }
        if earlier.isFreeText { return true }
        return values.contains { value in earlier.values.contains { $0.spoken == value.spoken && $0.id != value.id } }
    }

    /// Why Hark cannot hold `phrase` with its free text, if it cannot (see `ManifestReader`).
    static func freeTextProblem(in phrase: String, parameter: String, wildcards: [String]) -> String? {
        guard let template = try? PhraseTemplate(phrase) else { return "the sentence cannot be written as a phrase" }
        guard Set(wildcards).count == 1 else { return "a Hark phrase says at most one wildcard, or nothing tells where one ends" }
        let sentences = PhraseExpansion.sentences(of: template) ?? []
        guard !sentences.isEmpty, sentences.allSatisfy({ $0.contains { $0 != "<\(parameter)>" } }) else {
            return "a Hark phrase needs another word beside them, however it is said"
        }
        return nil
    }
}
