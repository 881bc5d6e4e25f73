public import HarkGrammar
internal import HarkIntents
internal import HarkNumbers

/// The grammars of the turns of a conversation: what each question accepts,
/// plus the commands that work everywhere (cancel, repeat, help). Rule tags
/// say what a match means.
public enum TurnGrammar {
    public enum Tag {
        public static let cancel = "hark.cancel"
        public static let repeatThat = "hark.repeat"
        public static let help = "hark.help"
        public static let suggest = "hark.suggest"
        public static let louder = "hark.louder"
        public static let quieter = "hark.quieter"
        public static let volume = "hark.volume"
        /// What every tag above begins with: the commands Hark carries out itself.
        public static let ownPrefix = "hark."
        public static let yes = "answer.yes"
        public static let no = "answer.no"
        public static let value = "answer.value"
        public static let pin = "answer.pin"
        public static let ordinalPrefix = "answer.ordinal."
    }

    /// Whether `tag` is one of Hark's own commands (cancel, repeat, help, suggestions, the
    /// loudspeaker's volume) rather than an app's intent or an answer to a question.
    public static func isOwnCommand(_ tag: String) -> Bool {
        tag.hasPrefix(Tag.ownPrefix)
    }

    /// The parameter name values appear under in answer rules.
    public static let valueParameter = "value"
    static let valuesKey = "answer.values"
    static let digitsKey = "answer.digits"
    /// How many positions of a spoken list can be picked by their ordinal ("the sixth one");
    /// the last one is also "last".
    static let ordinalCount = 6
    public static let pinLengths = 4...8

    /// How much surer the recogniser must be of one of Hark's own commands than of an app's
    /// phrase (`Grammar.Rule.strictness`) at the top level, where nothing is going on
    /// (`hearingOwnCommandsStrictly`). Short, everyday and in every grammar, they catch speech
    /// never meant as a request ("jarvis" heard as "turn it up" or "help"), and each is acted on:
    /// the loudspeaker turned up, "OK.", the help spoken. Chosen on the tune half of `make
    /// bench-real` as the least strictness keeping its false acceptances within 1 %; what it costs
    /// real voices saying these commands is not measured (figures: docs/benchmarks.md, "The
    /// settings' figures"). Inside a question (an answer, "cancel", "repeat", "help") they are
    /// judged as before: the person has just been asked something, and `make bench-real`
    /// measures no speech to reject there.
    public static let ownCommandStrictness = 0.8

    /// The commands of every turn, to add to any grammar.
    public static func commands() -> [Grammar.Rule] {
        rules(ReservedPhrases.cancel, tag: Tag.cancel) + rules(ReservedPhrases.repeatThat, tag: Tag.repeatThat)
            + rules(ReservedPhrases.help, tag: Tag.help)
    }

    /// `grammar` with Hark's own commands in it heard `ownCommandStrictness` more strictly: for the
    /// top level, where nothing is going on and any speech may be forced onto one.
    public static func hearingOwnCommandsStrictly(_ grammar: Grammar) -> Grammar {
        var strict = grammar
        for index in strict.rules.indices where isOwnCommand(strict.rules[index].tag) {
            strict.rules[index].strictness = ownCommandStrictness
        }
        return strict
    }

    /// "Any suggestions?": heard only when no conversation is under way.
    public static func suggestionCommands() -> [Grammar.Rule] {
        rules(ReservedPhrases.suggestions, tag: Tag.suggest)
    }

    /// "Louder", "quieter", "volume seven": heard only when no conversation is under way.
    public static func addVolumeCommands(to grammar: inout Grammar) {
        grammar.values[levelsKey] = (0...LoudnessLevels.highest).compactMap { level in
            NumberWords.spoken(level).map { Grammar.SpokenValue(words: [$0], identifier: "\(level)") }
        }
        grammar.rules += rules(ReservedPhrases.louder, tag: Tag.louder) + rules(ReservedPhrases.quieter, tag: Tag.quieter)
            + ReservedPhrases.volume.map { Grammar.Rule(tag: Tag.volume, template: template($0), parameterValues: ["level": levelsKey]) }
    }

    static let levelsKey = "hark.levels"

    public static func yesNo() -> [Grammar.Rule] {
        rules(ReservedPhrases.yes, tag: Tag.yes) + rules(ReservedPhrases.no, tag: Tag.no)
    }

    /// An answer that is one of `values`, said alone or after "the".
    public static func answer(values: [Grammar.SpokenValue]) -> Grammar {
        var grammar = Grammar(rules: [], values: [valuesKey: values])
        if !values.isEmpty {
            grammar.rules.append(Grammar.Rule(tag: Tag.value, template: template("[the] <\(valueParameter)>"),
                                              parameterValues: [valueParameter: valuesKey]))
        }
        return grammar
    }

    /// "The second one", "the last one", "number two": picking from a list of `count`.
    public static func ordinalRules(count: Int) -> [Grammar.Rule] {
        var rules: [Grammar.Rule] = []
        for index in 0..<min(count, ordinalCount) {
            guard let word = NumberWords.ordinal(index + 1), let number = NumberWords.spoken(index + 1) else { continue }
            rules.append(Grammar.Rule(tag: Tag.ordinalPrefix + "\(index)",
                                      template: template("([the] \(word) [one] | number \(number))")))
        }
        rules.append(Grammar.Rule(tag: Tag.ordinalPrefix + "\(count - 1)", template: template("[the] last [one]")))
        return rules
    }

    /// A spoken PIN: four to eight digits.
    public static func pin() -> Grammar {
        let digits = NumberWords.units[0...9].enumerated().map { Grammar.SpokenValue(spoken: $0.element, identifier: "\($0.offset)") }
            + [Grammar.SpokenValue(spoken: "oh", identifier: "0")]
        var source = (1...pinLengths.lowerBound).map { "<d\($0)>" }.joined(separator: " ")
        for extra in (pinLengths.lowerBound + 1)...pinLengths.upperBound { source += " [<d\(extra)>" }
        source += String(repeating: "]", count: pinLengths.count - 1)
        let names = pinLengths.upperBound
        return Grammar(rules: [Grammar.Rule(tag: Tag.pin, template: template(source),
                                            parameterValues: Dictionary(uniqueKeysWithValues: (1...names).map { ("d\($0)", digitsKey) }))],
                       values: [digitsKey: digits])
    }

    /// The digits of a PIN interpretation, in order.
    public static func pinDigits(_ interpretation: Interpretation) -> String {
        (1...pinLengths.upperBound).compactMap { interpretation.values["d\($0)"]?.identifier }.joined()
    }

    static func rules(_ phrases: [String], tag: String) -> [Grammar.Rule] {
        phrases.map { Grammar.Rule(tag: tag, template: template($0)) }
    }

    static func template(_ source: String) -> PhraseTemplate {
        do {
            return try PhraseTemplate(source)
        } catch {
            preconditionFailure("built-in phrase does not parse: \(error)")
        }
    }
}
