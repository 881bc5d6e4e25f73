extension Grammar {
    /// The grammar without any way of saying one of `words`: alternatives and values that use
    /// them are dropped, and a rule that can no longer be said at all is left out. A word the
    /// recogniser cannot pronounce then costs only its own phrases, never the whole grammar.
    public func leavingOut(_ words: Set<String>) -> Grammar {
        guard !words.isEmpty else { return self }
        var kept = Grammar()
        for (key, spokenValues) in values {
            kept.values[key] = spokenValues.compactMap { value in
                guard !value.words.contains(where: words.contains) else { return nil }
                guard let pattern = value.pattern else { return value }
                return pattern.leavingOut(words).map(SpokenValue.init(pattern:))
            }
        }
        for rule in rules {
            guard let template = rule.template.leavingOut(words),
                  // A parameter whose every value went leaves its rule unsayable.
                  template.parameterNames.allSatisfy({ !kept.values[rule.parameterValues[$0] ?? "", default: []].isEmpty })
            else { continue }
            var pruned = rule
            pruned.template = template
            kept.rules.append(pruned)
        }
        return kept
    }
}

extension PhraseTemplate {
    /// The template without the alternatives that say one of `words`; nil if nothing is left
    /// to say (a required word is one of them, or every alternative of a choice is).
    public func leavingOut(_ words: Set<String>) -> PhraseTemplate? {
        func prune(_ elements: [Element]) -> [Element]? {
            var kept: [Element] = []
            for element in elements {
                switch element {
                case .word(let word):
                    if words.contains(word) { return nil }
                    kept.append(element)
                case .parameter:
                    kept.append(element)
                case .choice(let alternatives):
                    let left = alternatives.compactMap(prune)
                    if left.isEmpty { return nil }
                    kept.append(.choice(left))
                }
            }
            return kept
        }
        guard let elements = prune(elements) else { return nil }
        var pruned = self
        pruned.elements = elements
        return pruned
    }
}
