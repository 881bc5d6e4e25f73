/// A grammar compiled to a word-level finite-state graph: what the recogniser
/// searches, and what parses its hypothesis back into a meaning.
///
/// Arcs either emit a word or are silent; silent arcs may carry a `Mark`
/// saying where a rule, a parameter or a value was entered. Marks never reach
/// the recogniser as words (pocketsphinx drops tags from hypotheses), so the
/// meaning is recovered by walking the same graph with the words it heard.
/// The graph is linear in the size of the templates, not in the number of
/// sentences they expand to.
public struct WordGraph: Sendable {
    public enum Mark: Hashable, Sendable {
        case rule(Int)
        case parameter(String)
        case value(String)
    }

    public enum Label: Hashable, Sendable {
        case word(String)
        case silent(Mark?)
    }

    public struct Arc: Hashable, Sendable {
        public var from: Int
        public var to: Int
        public var label: Label
    }

    public let start = 0
    public let final = 1
    public private(set) var stateCount = 2
    public private(set) var arcs: [Arc] = []
    public let grammar: Grammar
    /// Arcs by the state they leave, built once: every interpretation walks it.
    private(set) var outgoing: [Int: [Arc]] = [:]
    /// Arcs by the state they enter, built once: finding rival words walks it backwards.
    private(set) var incoming: [Int: [Arc]] = [:]
    /// Where every interpretation starts: the states silent arcs reach from the start, built once
    /// (a big home's grammar has thousands, and finding rivals interprets dozens of sentences).
    private(set) var interpretationStart: [Int: Path] = [:]

    /// A way through the graph while interpreting: the marks passed, and the index of the word
    /// each came before.
    struct Path: Sendable {
        var marks: [Mark] = []
        var wordIndices: [Int] = []
    }

    public init(_ grammar: Grammar) {
        self.grammar = grammar
        for (index, rule) in grammar.rules.enumerated() {
            let entered = newState()
            add(start, entered, .silent(.rule(index)))
            let end = compile(rule.template.elements, from: entered, rule: rule)
            add(end, final, .silent(nil))
        }
        outgoing = Dictionary(grouping: arcs, by: \.from)
        incoming = Dictionary(grouping: arcs, by: \.to)
        interpretationStart = silentPaths(from: [start: Path()], wordIndex: 0)
    }

    private mutating func newState() -> Int {
        stateCount += 1
        return stateCount - 1
    }

    private mutating func add(_ from: Int, _ to: Int, _ label: Label) {
        arcs.append(Arc(from: from, to: to, label: label))
    }

    private mutating func compile(_ elements: [PhraseTemplate.Element], from: Int, rule: Grammar.Rule) -> Int {
        var current = from
        for element in elements {
            switch element {
            case .word(let word):
                let next = newState()
                add(current, next, .word(word))
                current = next
            case .parameter(let name):
                let entered = newState()
                add(current, entered, .silent(.parameter(name)))
                let end = newState()
                let key = rule.parameterValues[name] ?? name
                for value in grammar.values[key] ?? [] {
                    var position = entered
                    if let pattern = value.pattern {
                        position = compile(pattern.elements, from: entered, rule: rule)
                    }
                    for word in value.words {
                        let next = newState()
                        add(position, next, .word(word))
                        position = next
                    }
                    add(position, end, .silent(.value(value.identifier)))
                }
                current = end
            case .choice(let alternatives):
                let end = newState()
                for alternative in alternatives {
                    let alternativeEnd = compile(alternative, from: current, rule: rule)
                    add(alternativeEnd, end, .silent(nil))
                }
                current = end
            }
        }
        return current
    }
}
