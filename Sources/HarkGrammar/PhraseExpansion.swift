/// The sentences a template can produce, for checks that compare phrases
/// (clashes between apps, the wake word inside a phrase, phrase length).
/// Parameters stay as one "<name>" token each.
public enum PhraseExpansion {
    /// Every sentence of `template`, or nil when there are more than `limit`.
    public static func sentences(of template: PhraseTemplate, limit: Int = 2000) -> [[String]]? {
        expand(template.elements, limit: limit)
    }

    private static func expand(_ elements: [PhraseTemplate.Element], limit: Int) -> [[String]]? {
        var sentences: [[String]] = [[]]
        for element in elements {
            let tails: [[String]]
            switch element {
            case .word(let word): tails = [[word]]
            case .parameter(let name): tails = [["<\(name)>"]]
            case .choice(let alternatives):
                var collected: [[String]] = []
                for alternative in alternatives {
                    guard let expanded = expand(alternative, limit: limit) else { return nil }
                    collected += expanded
                }
                tails = collected
            }
            guard sentences.count * tails.count <= limit else { return nil }
            sentences = sentences.flatMap { head in tails.map { head + $0 } }
        }
        return sentences
    }
}

extension Array where Element == String {
    /// Whether `run` occurs in the array as consecutive elements.
    public func containsRun(_ run: [String]) -> Bool {
        guard !run.isEmpty, run.count <= count else { return run.isEmpty }
        return (0...(count - run.count)).contains { Array(self[$0..<($0 + run.count)]) == run }
    }
}
