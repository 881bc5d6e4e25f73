public import Foundation
import HarkGrammar
import HarkIntents
import HarkNumbers

/// Turns Rhasspy's sentences.ini (and its slots folder) into a Hark app: each section an intent,
/// each sentence a phrase, each tagged part a parameter whose values are the words it can be
/// said with, rules and slot lists written out in place. What cannot be carried over is
/// reported by line, never dropped in silence.
public struct RhasspyImporter {
    public struct Result: Sendable {
        /// The app, ready for `AppYAML.text`.
        public var app: ImportedApp
        /// "sentences.ini:12: …" lines: what was left out or changed, and why.
        public var report: [String]
    }

    /// Most values one tagged part may stand for, and most words a number range may be said with.
    static let maximumValues = 1_000

    let file: String
    let sentences: RhasspySentences
    /// Slot name → the lines of its file in the slots folder.
    let slots: [String: [String]]
    /// Lists that cannot be said in a phrase, and why.
    let unsayableLists: [String: String]
    /// Lists of any words (Home Assistant's wildcards): free text said inside a phrase.
    let freeTextLists: Set<String>
    /// Where the sentences came from, for the app's description.
    let origin: String
    /// What is said of a list the sentences name but do not give.
    let missingList: @Sendable (String) -> String
    private var report: [String] = []
    /// Words a request may begin or end with that change nothing (Home Assistant's
    /// `skip_words`): every phrase may be said with one of them before and after it.
    var skipWords: [String] = []
    /// What each `name` value is known by (`HomeEntities.contexts`), for sentences that require
    /// or exclude a context; nil when no home was given.
    var contexts: [String: [[String: String]]]?

    public init(file: String, text: String, slots: [String: [String]]) {
        self.init(file: file, sentences: RhasspySentences(text: text), slots: slots, origin: "Rhasspy's",
                  missingList: { "$\($0) has no file in the slots folder" })
    }

    /// Sentences already read (`HomeAssistantImporter` reads its YAML into the same form).
    init(file: String, sentences: RhasspySentences, slots: [String: [String]], unsayableLists: [String: String] = [:],
         freeTextLists: Set<String> = [], origin: String, missingList: @escaping @Sendable (String) -> String) {
        self.file = file
        self.sentences = sentences
        self.slots = slots
        self.unsayableLists = unsayableLists
        self.freeTextLists = freeTextLists
        self.origin = origin
        self.missingList = missingList
    }

    /// Reads a slots folder: each file is a list, one value (a template) a line. A file in a
    /// folder within it is named with its path, as sentences name it (`$home/colors`), so two
    /// files of one name in different folders stay two lists.
    public static func readSlots(in folder: URL, prefix: String = "") throws -> [String: [String]] {
        var slots: [String: [String]] = [:]
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        for name in names where !name.hasPrefix(".") {
            let url = folder.appendingPathComponent(name)
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder)
            if isFolder.boolValue {
                slots.merge(try readSlots(in: url, prefix: prefix + name + "/")) { first, _ in first }
                continue
            }
            let text = try String(contentsOf: url, encoding: .utf8)
            slots[prefix + name] = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
                .filter { !$0.isEmpty && !$0.hasPrefix("#") }
        }
        return slots
    }

    public mutating func makeApp(name: String) -> Result {
        report = sentences.notes.map { "\(file):\($0)" }
        var app = ImportedApp(name: name, description: "Imported from \(origin) \((file as NSString).lastPathComponent).")
        for section in sentences.sections {
            var intent = ImportedApp.Intent(name: Self.intentName(section.intent), title: section.intent)
            if intent.name != section.intent {
                note(section.line, in: section.file, "intent \(section.intent) is named \(intent.name) (Hark's intents are VerbNoun in UpperCamelCase)")
            }
            for sentence in section.sentences {
                var writer = PhraseWriter(section: section, all: sentences.sections, slots: slots, unsayable: unsayableLists,
                                          freeText: freeTextLists, missingList: missingList, line: sentence.line)
                let phrase = writer.phrase(sentence.expression)
                for message in writer.notes { note(sentence.line, in: sentence.file, message) }
                guard writer.isUsable else { continue }
                var parameters = writer.parameters
                if !sentence.requires.isEmpty || !sentence.excludes.isEmpty {
                    guard limit(&parameters, by: sentence) else { continue }
                }
                guard let fromRoom = roomSlots(of: sentence, saying: parameters, section: section) else { continue }
                let (written, ownCommands) = Self.leavingOutOwnCommands(phrase)
                var phrases = written
                if !ownCommands.isEmpty {
                    intent.ownCommandPhrases += ownCommands.filter { !intent.ownCommandPhrases.contains($0) }
                    let said = ownCommands.map { "\"\($0)\"" }.joined(separator: ", ")
                    let told = "which Hark answers itself (a Wyoming client's recognize is told \(intent.name))"
                    note(sentence.line, in: sentence.file, phrases.isEmpty
                         ? "\(said) is Hark's own command (cancel, help, repeat, …), \(told); the sentence is left out"
                         : "\(said) is Hark's own command (cancel, help, repeat, …), \(told); the sentence's other ways are kept")
                }
                if phrases.isEmpty { continue }
                // A list under a slot whose words stand for other values than an earlier list's
                // under it ("up by three" is 3, "down by three" -3) is a parameter of its own,
                // told to Wyoming clients by the slot's name.
                for index in parameters.indices {
                    let (name, values) = parameters[index]
                    let renamed = intent.parameterName(for: name, taken: parameters.map(\.0)) { !Self.conflicts(values, with: $0) }
                    guard renamed != name else { continue }
                    parameters[index].0 = renamed
                    phrases = phrases.map { $0.replacingOccurrences(of: "<\(name)>", with: "<\(renamed)>") }
                }
                if var wildcard = writer.freeTextParameters.first {
                    if let problem = Self.freeTextProblem(in: phrase, parameter: wildcard, wildcards: writer.freeTextParameters) {
                        note(sentence.line, in: sentence.file, "{\(wildcard)} is a wildcard (any words): \(problem); the sentence is left out")
                        continue
                    }
                    // A slot said as any words here and as a list's values elsewhere ("who is at
                    // {zone:state}", "is the door {state}") is two parameters, told by the slot's name.
                    let renamed = intent.parameterName(for: wildcard, taken: parameters.map(\.0)) { $0?.isFreeText ?? true }
                    phrases = phrases.map { $0.replacingOccurrences(of: "<\(wildcard)>", with: "<\(renamed)>") }
                    wildcard = renamed
                    intent.addFreeText(parameter: wildcard)
                }
                for (parameter, values) in parameters + fromRoom {
                    intent.add(parameter: parameter, values: values)
                }
                // A slot the sentence fixes is a parameter with that value, given by the phrase.
                for (parameter, value) in sentence.presets.sorted(by: { $0.key < $1.key }) {
                    intent.add(parameter: parameter, values: [ImportedApp.Value(spoken: value, id: value)])
                }
                // Not around free text: a Hark phrase must tell where any words start and end.
                let skippable = skipWords.isEmpty || !writer.freeTextParameters.isEmpty ? "" : "[" + skipWords.joined(separator: " | ") + "]"
                for kept in phrases {
                    let said = skippable.isEmpty ? kept : "\(skippable) \(kept) \(skippable)"
                    intent.addPhrase(said, presets: sentence.presets, fromRoom: fromRoom.map(\.0),
                                     values: Dictionary(parameters.map { ($0.0, $0.1.map(\.id)) }) { first, _ in first })
                }
            }
            if intent.phrases.isEmpty && intent.ownCommandPhrases.isEmpty {
                note(section.line, in: section.file, "intent \(section.intent) has no sentence that could be carried over, left out")
                continue
            }
            intent.limitPhrasesToTheirValues()
            app.intents.append(intent)
        }
        app.assignTypes()
        return Result(app: app, report: report)
    }

    /// The slots `sentence` takes from the room that heard it and does not say itself, each with
    /// every value of its list (the home's areas). Nil, with a note, when a list has no values:
    /// without the home's areas (--entities) no room can be told, and the sentence is left out.
    private mutating func roomSlots(of sentence: RhasspySentences.Line, saying said: [(String, [ImportedApp.Value])],
                                    section: RhasspySentences.Section) -> [(String, [ImportedApp.Value])]? {
        var slots: [(String, [ImportedApp.Value])] = []
        for slot in sentence.fromRoom where !said.contains(where: { $0.0 == slot }) {
            var writer = PhraseWriter(section: section, all: sentences.sections, slots: self.slots, unsayable: unsayableLists,
                                      freeText: freeTextLists, missingList: missingList, line: sentence.line)
            _ = writer.phrase(.tagged(.slotList(slot), name: slot, value: nil))
            guard writer.isUsable, let values = writer.parameters.first(where: { $0.0 == slot })?.1, !values.isEmpty else {
                note(sentence.line, in: sentence.file, "the \(slot) comes from the room that heard the request, "
                     + "but no \(slot) is known (give the home's --entities); the sentence is left out")
                return nil
            }
            slots.append((slot, values))
        }
        return slots
    }

    /// Keeps to the entities `sentence`'s context allows the values of its `name` slot: "is
    /// the front door locked" names locks, not every entity called a door. Nil, with a note,
    /// when no entity it may name is in the home: the sentence is left out. A context that
    /// cannot be checked (no home given, or no entity named) is noted and the sentence kept.
    private mutating func limit(_ parameters: inout [(String, [ImportedApp.Value])], by sentence: RhasspySentences.Line) -> Bool {
        let source = sentence.file
        let described = (sentence.requires.map { "\($0.key) \($0.value.joined(separator: "/"))" }
            + sentence.excludes.map { "not \($0.key) \($0.value.joined(separator: "/"))" }).sorted().joined(separator: ", ")
        guard let contexts else {
            note(sentence.line, in: source, "the context (\(described)) is not checked without the home's entities (--entities)")
            return true
        }
        guard let index = parameters.firstIndex(where: { $0.0 == "name" }) else {
            note(sentence.line, in: source, "the context (\(described)) is not checked: the sentence names no entity, "
                 + "and Hark knows no devices' state")
            return true
        }
        func fits(_ value: ImportedApp.Value) -> Bool {
            (contexts[value.id] ?? []).contains { known in
                sentence.requires.allSatisfy { known[$0.key].map($0.value.contains) ?? false }
                    && !sentence.excludes.contains { known[$0.key].map($0.value.contains) ?? false }
            }
        }
        let kept = parameters[index].1.filter(fits)
        guard !kept.isEmpty else {
            note(sentence.line, in: source, "no entity of the home is \(described); the sentence is left out")
            return false
        }
        parameters[index].1 = kept
        return true
    }

    /// A note at `line` of `source` (the file the line is in when sentences come from several),
    /// else of the file imported.
    private mutating func note(_ line: Int, in source: String? = nil, _ text: String) {
        report.append("\(source ?? file):\(line): \(text)")
    }

    /// "lights_on" → "LightsOn", "GetTime" kept; a one-word name gets a verb ("Timer" → "DoTimer").
    static func intentName(_ name: String) -> String {
        let words = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        var joined = words.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        if joined.first?.isNumber ?? true { joined = "Intent" + joined }
        if !joined.dropFirst().contains(where: \.isUppercase) { joined = "Do" + joined }
        return joined
    }
}

/// Writes one Rhasspy template as a Hark phrase, collecting its parameters' values.
struct PhraseWriter {
    let section: RhasspySentences.Section
    let all: [RhasspySentences.Section]
    let slots: [String: [String]]
    let unsayable: [String: String]
    let freeText: Set<String>
    let missingList: (String) -> String
    let line: Int
    private(set) var parameters: [(String, [ImportedApp.Value])] = []
    /// The parameters the sentence says as any words (a wildcard list).
    private(set) var freeTextParameters: [String] = []
    private(set) var notes: [String] = []
    private(set) var isUsable = true
    private var rulesInUse: [String] = []

    init(section: RhasspySentences.Section, all: [RhasspySentences.Section], slots: [String: [String]],
         unsayable: [String: String], freeText: Set<String> = [], missingList: @escaping (String) -> String, line: Int) {
        self.section = section
        self.all = all
        self.slots = slots
        self.unsayable = unsayable
        self.freeText = freeText
        self.missingList = missingList
        self.line = line
    }

    mutating func phrase(_ expression: RhasspySentences.Expression) -> String {
        write(expression)
    }

    private mutating func refuse(_ message: String) {
        notes.append(message)
        isUsable = false
    }

    private mutating func write(_ expression: RhasspySentences.Expression) -> String {
        switch expression {
        case .word(let word, _):
            return spoken(word)
        case .sequence(let parts):
            return parts.map { write($0) }.filter { !$0.isEmpty }.joined(separator: " ")
        case .alternatives(let options):
            // The same slot in every branch ("(lamp {name}) | (light {name})") is one parameter.
            var written: [String] = []
            // An option with nothing to say ("( | -)": a dash has no sound) makes the group optional.
            var mayBeSilent = false
            for option in options {
                let text = write(option)
                if text.isEmpty { mayBeSilent = true } else if !written.contains(text) { written.append(text) }
            }
            if written.isEmpty { return "" }
            if mayBeSilent { return "[" + written.joined(separator: " | ") + "]" }
            return written.count == 1 ? written[0] : "(" + written.joined(separator: " | ") + ")"
        case .optional(let inner):
            let text = write(inner)
            return text.isEmpty || Self.isOneOptionalPart(text) ? text : "[" + text + "]"
        case .substituted(let inner, _):
            return write(inner)
        case .rule(let name):
            guard let body = rule(named: name) else { return "" }
            defer { rulesInUse.removeLast() }
            return write(body)
        case .slotList(let name):
            guard let lines = slotLines(name) else { return "" }
            return "(" + lines.map { write($0) }.joined(separator: " | ") + ")"
        case .numberRange(let low, let high, let step):
            let words = numbers(low, high, step: step).map(\.said)
            guard words.count <= RhasspyImporter.maximumValues else {
                refuse("the range \(low)..\(high) has more than \(RhasspyImporter.maximumValues) numbers; the sentence is left out")
                return ""
            }
            return "(" + words.joined(separator: " | ") + ")"
        case .tagged(.slotList(let list), let name, nil) where freeText.contains(list):
            if !freeTextParameters.contains(name) { freeTextParameters.append(name) }
            return "<\(name)>"
        case .tagged(let inner, let name, let fixed):
            var values = enumerate(inner)
            if let fixed { values = values.map { ImportedApp.Value(spoken: $0.spoken, id: fixed) } }
            guard !values.isEmpty else {
                // A list refused already said why.
                if isUsable { refuse("{\(name)} can be said no way that could be carried over; the sentence is left out") }
                return ""
            }
            if let index = parameters.firstIndex(where: { $0.0 == name }) {
                parameters[index].1 += values.filter { value in !parameters[index].1.contains { $0.spoken == value.spoken } }
            } else {
                parameters.append((name, values))
            }
            return "<\(name)>"
        }
    }

    /// Whether `text` is one `[…]` part from its first character to its last.
    static func isOneOptionalPart(_ text: String) -> Bool {
        guard text.first == "[", text.last == "]" else { return false }
        var depth = 0
        for (index, character) in text.enumerated() {
            if character == "[" { depth += 1 } else if character == "]" { depth -= 1 }
            if depth == 0 { return index == text.count - 1 }
        }
        return false
    }

    /// The numbers of a range with the words they are said with, as Rhasspy says them: "minus
    /// five" for -5. Numbers past what Hark can say are left out with a note.
    private mutating func numbers(_ low: Int, _ high: Int, step: Int) -> [(number: Int, said: String)] {
        var result: [(number: Int, said: String)] = []
        var unsaid: [Int] = []
        for number in stride(from: low, through: high, by: step) {
            let size = number.magnitude
            if size <= UInt(NumberWords.largestSpoken), let words = NumberWords.spoken(Int(size)) {
                result.append((number, number < 0 ? "minus " + words : words))
            } else {
                unsaid.append(number)
            }
        }
        if let first = unsaid.first {
            notes.append("\(unsaid.count == 1 ? "\(first)" : "\(unsaid.count) numbers of \(low)..\(high) from \(first)") cannot be said as words; left out")
        }
        return result
    }

    /// A word as a Hark phrase can hold it: lower case, letters, digits, apostrophes, hyphens
    /// and dots only (the recogniser's dictionary spells words so).
    private mutating func spoken(_ word: String) -> String {
        // Signs said as words: "50%" is "50 percent", "21°" is "21 degrees".
        let said = word.lowercased().replacingOccurrences(of: "%", with: " percent ").replacingOccurrences(of: "°", with: " degrees ")
        let pieces = said.split(separator: " ").map(String.init)
        // A fraction Hark cannot say is no word: its digits run together ("1/2" as "12") would
        // be another number.
        if let fraction = pieces.first(where: { $0.contains("/") }), TypedNumbers.fractions[fraction] == nil {
            refuse("\"\(word)\": the fraction \(fraction) cannot be said as words; the sentence is left out")
            return ""
        }
        let kept = pieces.map { piece -> String in
            // Numbers and fractions as they are said: "2" is "two", "1/2" is "half".
            if let fraction = TypedNumbers.fractions[piece] { return fraction.joined(separator: " ") }
            if piece.allSatisfy(\.isNumber), piece.count <= 12, let number = Int(piece), let words = NumberWords.spoken(number) {
                return words
            }
            return String(piece.filter { $0.isLetter || $0.isNumber || "'-.".contains($0) })
        }.filter { piece in piece.contains { $0.isLetter || $0.isNumber } }.joined(separator: " ")
        if kept != word.lowercased() {
            // Punctuation alone ("-", "?") has nothing to say and means nothing said: no note.
            if kept.isEmpty, word.allSatisfy({ $0.isPunctuation }) { return "" }
            notes.append(kept.isEmpty ? "\"\(word)\" has no letters to say, left out" : "\"\(word)\" is said as \"\(kept)\"")
        }
        return kept
    }

    private mutating func rule(named name: String) -> RhasspySentences.Expression? {
        let parts = name.split(separator: ".", maxSplits: 1).map(String.init)
        let owner = parts.count == 2 ? all.first(where: { $0.intent == parts[0] }) : section
        let ruleName = parts.count == 2 ? parts[1] : name
        guard let body = owner?.rules[ruleName] else {
            refuse("<\(name)> names no rule; the sentence is left out")
            return nil
        }
        guard !rulesInUse.contains(name) else {
            refuse("<\(name)> refers to itself; the sentence is left out")
            return nil
        }
        rulesInUse.append(name)
        return body.expression
    }

    private mutating func slotLines(_ name: String) -> [RhasspySentences.Expression]? {
        if let reason = unsayable[name] {
            refuse("{\(name)} \(reason); the sentence is left out")
            return nil
        }
        guard let lines = slots[name] else {
            refuse("\(missingList(name)); the sentence is left out")
            return nil
        }
        var expressions: [RhasspySentences.Expression] = []
        for text in lines {
            do {
                expressions.append(try RhasspySentences.expression(text))
            } catch {
                notes.append("slot \(name)'s line \"\(text)\": \(error.reason), left out")
            }
        }
        return expressions
    }

    /// Every way a tagged part can be said: its words, and the value they stand for (the
    /// substitutes where the template gives them, else the words).
    private mutating func enumerate(_ expression: RhasspySentences.Expression) -> [ImportedApp.Value] {
        var ways: [(spoken: [String], value: [String])] = [([], [])]
        func join(_ next: [(spoken: [String], value: [String])], into current: inout [(spoken: [String], value: [String])]) {
            current = current.flatMap { head in next.map { (head.spoken + $0.spoken, head.value + $0.value) } }
        }
        func walk(_ expression: RhasspySentences.Expression) -> [(spoken: [String], value: [String])] {
            switch expression {
            case .word(let word, let substitute):
                let said = spoken(word)
                guard !said.isEmpty else { return [([], [])] }
                let value = substitute.map { $0.isEmpty ? [] : [RhasspySentences.value(ofSubstitute: $0)] } ?? [said]
                return [([said], value)]
            case .sequence(let parts):
                var current: [(spoken: [String], value: [String])] = [([], [])]
                for part in parts { join(walk(part), into: &current) }
                return current
            case .alternatives(let options):
                return options.flatMap { walk($0) }
            case .optional(let inner):
                return [([], [])] + walk(inner)
            case .substituted(let inner, let substitute):
                return walk(inner).map { ($0.spoken, substitute.isEmpty ? [] : [RhasspySentences.value(ofSubstitute: substitute)]) }
            case .rule(let name):
                guard let body = rule(named: name) else { return [] }
                defer { rulesInUse.removeLast() }
                return walk(body)
            case .slotList(let name):
                return (slotLines(name) ?? []).flatMap { walk($0) }
            case .numberRange(let low, let high, let step):
                return numbers(low, high, step: step).map { (Grammar.words(of: $0.said), [String($0.number)]) }
            case .tagged(let inner, let name, _):
                notes.append("{\(name)} inside another tagged part is not a parameter of its own: its words are kept in the outer value")
                return walk(inner)
            }
        }
        join(walk(expression), into: &ways)
        // A parameter has one value for each way it is said: a second value for the same words
        // ("red:ff0000" and "red:crimson" in one list) cannot be carried over, and is said so.
        var seen: [[String]: [String]] = [:]
        var values: [ImportedApp.Value] = []
        for way in ways where !way.spoken.isEmpty {
            if let first = seen[way.spoken] {
                if first != way.value {
                    notes.append("\"\(way.spoken.joined(separator: " "))\" stands for both \"\(first.joined(separator: " "))\" and \"\(way.value.joined(separator: " "))\"; only the first is kept")
                }
                continue
            }
            seen[way.spoken] = way.value
            values.append(ImportedApp.Value(spoken: way.spoken.joined(separator: " "), id: way.value.joined(separator: " ")))
        }
        if values.count > RhasspyImporter.maximumValues {
            notes.append("a tagged part can be said \(values.count) ways; the first \(RhasspyImporter.maximumValues) are kept")
            return Array(values.prefix(RhasspyImporter.maximumValues))
        }
        return values
    }
}
