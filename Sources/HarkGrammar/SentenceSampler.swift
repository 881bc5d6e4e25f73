/// Random sentences of a grammar, each with the meaning it was built to have.
/// Development corpora are spoken from them, so the benchmark covers every
/// phrase an app registers rather than the few someone thought to record.
public struct SentenceSampler: Sendable {
    public let grammar: Grammar

    public init(_ grammar: Grammar) {
        self.grammar = grammar
    }

    /// One sentence of the rule at `ruleIndex`: at every choice an alternative is
    /// drawn, and every parameter takes a value drawn from its list (a pattern
    /// value is itself expanded at random).
    public func sentence(ofRule ruleIndex: Int, using generator: inout some RandomNumberGenerator)
        -> (words: [String], interpretation: Interpretation) {
        let rule = grammar.rules[ruleIndex]
        var words: [String] = []
        var values: [String: Interpretation.Value] = [:]
        func walk(_ elements: [PhraseTemplate.Element]) {
            for element in elements {
                switch element {
                case .word(let word):
                    words.append(word)
                case .choice(let alternatives):
                    walk(alternatives.randomElement(using: &generator) ?? [])
                case .parameter(let name):
                    let choices = rule.parameterValues[name].flatMap { grammar.values[$0] } ?? []
                    guard let value = choices.randomElement(using: &generator) else { continue }
                    let spoken: [String]
                    if let pattern = value.pattern {
                        let before = words.count
                        walk(pattern.elements)
                        spoken = Array(words[before...])
                    } else {
                        spoken = value.words
                        words += spoken
                    }
                    values[name] = Interpretation.Value(identifier: value.identifier, spoken: spoken)
                }
            }
        }
        walk(rule.template.elements)
        return (words, Interpretation(tag: rule.tag, ruleIndex: ruleIndex, values: values))
    }

    /// Up to `count` different sentences of the rule (fewer when it has fewer).
    public func sentences(ofRule ruleIndex: Int, count: Int, using generator: inout some RandomNumberGenerator)
        -> [(words: [String], interpretation: Interpretation)] {
        var seen = Set<[String]>()
        var drawn: [(words: [String], interpretation: Interpretation)] = []
        // A rule with fewer sentences than asked for repeats itself; stop drawing after a fair number of tries.
        for _ in 0..<(count * 8) where drawn.count < count {
            let sentence = sentence(ofRule: ruleIndex, using: &generator)
            if seen.insert(sentence.words).inserted { drawn.append(sentence) }
        }
        return drawn
    }
}

/// A small, fast generator whose sequence depends only on its seed (SplitMix64),
/// so a corpus drawn from a grammar is the same on every machine and every run.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    public init(seed: UInt64) {
        state = seed
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
