import HarkGrammar
public import HarkIntents

/// Why a phrase cannot be a personal shortcut, in words for the person.
public enum PhraseRefusal: Sendable, Equatable, CustomStringConvertible {
    case empty
    case notWords(String)
    case containsWakePhrase(String)
    case builtInCommand(String)
    case commandeers(String)
    case takenByShortcut(String)
    case takenByApp(app: String, phrase: String)

    public var description: String {
        switch self {
        case .empty:
            "the phrase has no words"
        case .notWords(let word):
            "\"\(word)\" is not a word; a phrase is words and numbers spelled as they are said"
        case .containsWakePhrase(let wake):
            "the phrase contains the wake phrase \"\(wake)\""
        case .builtInCommand(let command):
            "\"\(command)\" is one of Hark's own commands"
        case .commandeers(let command):
            "the phrase takes over \"\(command)\", which must always mean what it says"
        case .takenByShortcut(let other):
            "the phrase is already your shortcut \"\(other)\""
        case .takenByApp(let app, let phrase):
            "the phrase is already \(app)'s \"\(phrase)\""
        }
    }
}

/// Why the actions of a shortcut cannot run as written.
public struct StepProblem: Sendable, Equatable, CustomStringConvertible {
    public var step: Int
    public var reason: String
    public var description: String { "step \(step): \(reason)" }
}

/// The checks a personal shortcut passes before it is stored: the same rules
/// the apps' own phrases follow (no wake phrase, none of Hark's commands, no
/// phrase another app or shortcut already has), plus the guidance's "don't
/// commandeer core commands"; long phrases are warned about.
public struct PhraseCheck: Sendable {
    public var catalog: AppCatalog
    public var wakePhrase: String
    /// The person's other shortcuts.
    public var shortcuts: [PersonalShortcut]
    private let appGraph: WordGraph

    public init(catalog: AppCatalog, wakePhrase: String = AppCatalog.defaultWakePhrase, shortcuts: [PersonalShortcut]) {
        self.catalog = catalog
        self.wakePhrase = wakePhrase
        self.shortcuts = shortcuts
        self.appGraph = WordGraph(catalog.topLevelGrammar())
    }

    /// Whether `words` say the wake phrase, however they are split or joined: the letters are
    /// compared with spaces and apostrophes gone, because "jar vis time" and "jarvis's time"
    /// sound like the wake word to a listener that never sees the spelling.
    public static func saysWakePhrase(_ words: [String], wakePhrase: String) -> Bool {
        func letters(_ text: some Sequence<String>) -> String {
            String(text.joined().lowercased().filter { $0.isLetter || $0.isNumber })
        }
        let wake = letters(Grammar.words(of: wakePhrase))
        return !wake.isEmpty && letters(words).contains(wake)
    }

    /// Every reason the phrase is refused; empty when it may be used. `replacing` is
    /// the shortcut being edited, which may keep its own phrase.
    public func refusals(_ phrase: String, replacing: Int64? = nil) -> [PhraseRefusal] {
        let words = Grammar.words(ofTyped: phrase)
        guard !words.isEmpty else { return [.empty] }
        if let odd = words.first(where: { !$0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "'" } }) {
            return [.notWords(odd)]
        }
        var refusals: [PhraseRefusal] = []
        if Self.saysWakePhrase(words, wakePhrase: wakePhrase) { refusals.append(.containsWakePhrase(wakePhrase)) }
        let said = words.joined(separator: " ")
        if ReservedPhrases.all.contains(said) {
            refusals.append(.builtInCommand(said))
        } else if let command = (ReservedPhrases.cancel + ReservedPhrases.repeatThat + ReservedPhrases.help)
                    .first(where: { words.starts(with: Grammar.words(of: $0)) }) {
            // Inside a conversation only the commands are heard, so "stop the heating" would cancel.
            refusals.append(.commandeers(command))
        }
        if let core = ReservedPhrases.core.first(where: { words.containsRun(Grammar.words(of: $0)) }) {
            refusals.append(.commandeers(core))
        }
        if let other = shortcuts.first(where: { $0.id != replacing && $0.words == words }) {
            refusals.append(.takenByShortcut(other.phrase))
        }
        if let interpretation = appGraph.interpret(words) {
            let rule = appGraph.grammar.rules[interpretation.ruleIndex]
            let appID = String(rule.tag.prefix { $0 != "." })
            refusals.append(.takenByApp(app: catalog.app(appID)?.name ?? appID, phrase: rule.template.description))
        }
        return refusals
    }

    /// Things worth knowing that do not stop the phrase from working.
    public func warnings(_ phrase: String) -> [String] {
        let count = Grammar.words(ofTyped: phrase).count
        guard count > AppShortcut.longPhraseWords else { return [] }
        return ["the phrase is long (\(count) words); people remember two or three, and must say it exactly"]
    }

    /// What is wrong with the actions: unknown apps, intents or parameters, values
    /// the parameter does not take, outputs used by the first step.
    public func problems(_ steps: [ShortcutStep]) -> [StepProblem] {
        guard !steps.isEmpty else { return [StepProblem(step: 1, reason: "a shortcut runs at least one action")] }
        var problems: [StepProblem] = []
        for (index, step) in steps.enumerated() {
            let number = index + 1
            guard let app = catalog.app(step.app) else {
                problems.append(StepProblem(step: number, reason: "no app \"\(step.app)\" is installed (installed: " +
                                            catalog.apps.map(\.identifier).joined(separator: ", ") + ")"))
                continue
            }
            guard let intent = app.intent(named: step.intent) else {
                problems.append(StepProblem(step: number, reason: "\(app.name) has no intent \(step.intent) (it has " +
                                            app.intents.map(\.name).joined(separator: ", ") + ")"))
                continue
            }
            for (name, value) in step.values.sorted(by: { $0.key < $1.key }) {
                guard let parameter = intent.parameter(named: name) else {
                    problems.append(StepProblem(step: number, reason: "\(step.intent) has no parameter \"\(name)\" (it has " +
                                                intent.parameters.map(\.name).joined(separator: ", ") + ")"))
                    continue
                }
                let template: ResponseTemplate
                do {
                    template = try ResponseTemplate(value)
                } catch {
                    problems.append(StepProblem(step: number, reason: "\(name)=\(value): \(error.reason)"))
                    continue
                }
                if template.placeholders.contains(where: { $0.hasPrefix("result.") }) {
                    if index == 0 {
                        problems.append(StepProblem(step: number, reason: "\(name)=\(value) uses an output, but no step comes before it"))
                    }
                    continue
                }
                switch catalog.read(preset: value, for: parameter, in: app) {
                case .value:
                    break
                case .unsupported(let reason):
                    problems.append(StepProblem(step: number, reason: "\(name)=\(value): \(reason)"))
                case .notAValue:
                    // A handler supplies these at run time; an unknown one is asked for then.
                    if let type = parameter.enumerationName.flatMap({ app.types[$0] }), type.isDynamic { continue }
                    let options = catalog.enumeratedValues(of: parameter, in: app).map(\.identifier)
                    problems.append(StepProblem(step: number, reason: "\(name)=\(value) is not a value of \(parameter.type.name)" +
                                                (options.isEmpty ? "" : " (one of \(options.joined(separator: ", ")))")))
                }
            }
        }
        return problems
    }
}
