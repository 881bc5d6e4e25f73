import Foundation
import HarkIntents
import HarkNumbers
import Yams

/// Turns Home Assistant's sentence files (the intents repository's YAML, or `custom_sentences`)
/// into a Hark app, through the same writer as Rhasspy's: `intents:` → intents and their
/// `data:` blocks' sentences, `{list}` and `{list:slot}` → parameters with the list's values,
/// `lists:` (`values:` with `in:`/`out:`, `range:`), `expansion_rules:` → rules written in
/// place, a block's `slots:` → values its phrases set without saying, wildcard lists → free
/// text said inside a phrase where Hark can hold it. What Hark cannot hold (`requires_context:`,
/// `excludes_context:`, `response:`, a wildcard beside another slot) is reported by line.
public enum HomeAssistantImporter {
    /// The app made of `text`, a sentence file's YAML; `file` is the name notes are reported by.
    public static func makeApp(name: String, file: String, text: String) -> RhasspyImporter.Result {
        makeApp(name: name, files: [(file, text)])
    }

    /// The app made of several sentence files merged as Home Assistant merges a language's
    /// folder: the intents of all of them (an intent in two files has the data blocks of both),
    /// and their lists, expansion rules and skip words shared by every sentence. The compiled
    /// JSON of the home-assistant-intents package (`data/en.json`) reads the same.
    ///
    /// `home`'s areas, floors and entities fill `{area}`, `{floor}` and `{name}`, and decide which
    /// entities a sentence with `requires_context:` or `excludes_context:` may name.
    public static func makeApp(name: String, files: [(name: String, text: String)], home: HomeEntities? = nil) -> RhasspyImporter.Result {
        var reader = SourceReader(file: files.first?.name ?? "")
        for (file, text) in files {
            reader.file = file
            reader.read(text)
        }
        if let home {
            reader.lists.merge(home.lists) { _, fromHome in fromHome }
        }
        let file = files.count == 1 ? files[0].name : "\(files.count) files"
        // Expansion rules are shared by every intent, as Home Assistant shares them. Sentences
        // that name an entity come first: where the same words also read as an area and a kind
        // of device ("turn off my kitchen fan": the entity, or the kitchen's fans), Hark takes
        // the first phrase that fits, and Home Assistant the entity.
        let sections = reader.intents.map { intent in
            let naming = intent.sentences.filter { SourceReader.namesEntity($0.expression) }
            let others = intent.sentences.filter { !SourceReader.namesEntity($0.expression) }
            return RhasspySentences.Section(intent: intent.name, line: intent.line, rules: reader.rules,
                                            sentences: naming + others, file: intent.file)
        }
        var importer = RhasspyImporter(file: file, sentences: RhasspySentences(sections: sections, notes: []),
                                       slots: reader.lists, unsayableLists: reader.unsayable, freeTextLists: reader.wildcards,
                                       origin: "Home Assistant's",
                                       missingList: { "{\($0)} is not in lists: (Home Assistant fills such lists from its devices; list their names there)" })
        importer.skipWords = reader.skipWords
        importer.contexts = home?.contexts
        var result = importer.makeApp(name: name)
        result.app.bareIntentNames = true
        result.report = reader.notes + result.report
        return result
    }
}

/// Reads one Home Assistant sentence file.
private struct SourceReader {
    /// The file being read, which notes name.
    var file: String
    var intents: [(name: String, line: Int, file: String, sentences: [RhasspySentences.Line])] = []
    var rules: [String: RhasspySentences.Line] = [:]
    /// List name → its values as lines of the template language (a slot file's form).
    var lists: [String: [String]] = [:]
    var unsayable: [String: String] = [:]
    /// Lists of any words.
    var wildcards: Set<String> = []
    /// Words a request may begin or end with that change nothing ("please", "could you").
    var skipWords: [String] = []
    var notes: [String] = []

    init(file: String) {
        self.file = file
    }

    private mutating func note(_ node: Node?, _ text: String) {
        notes.append("\(file):\((node?.mark?.line).map(String.init) ?? "?"): \(text)")
    }

    mutating func read(_ text: String) {
        if let line = YAMLNesting.lineTooDeep(text) {
            notes.append("\(file):\(line): nests more than \(YAMLNesting.limit) levels deep")
            return
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            notes.append("\(file): not valid YAML: \(error)")
            return
        }
        guard let top = root?.mapping else {
            note(root, "expected a mapping with intents:, lists: and expansion_rules:")
            return
        }
        for (key, value) in top {
            switch key.string {
            case "language":
                if let language = value.string, !language.lowercased().hasPrefix("en") {
                    note(key, "the sentences are in \"\(language)\"; Hark understands English, so they may not be heard")
                }
            case "intents": readIntents(value)
            case "lists": readLists(value)
            case "expansion_rules": readRules(value)
            case "skip_words":
                readSkipWords(value)
                if !skipWords.isEmpty {
                    note(key, "skip_words: heard before and after each sentence but one with a wildcard (Home Assistant ignores them anywhere)")
                }
            default:
                note(key, "\(key.string ?? "this key") is not carried over")
            }
        }
    }

    private mutating func readSkipWords(_ node: Node) {
        guard let items = node.sequence else { return note(node, "skip_words: is a list of words") }
        for item in items {
            guard let text = item.string else { continue }
            // Said as phrases say words: lower case, letters and apostrophes.
            let words = text.lowercased().split(separator: " ").map { $0.filter { $0.isLetter || $0.isNumber || $0 == "'" } }
                .filter { !$0.isEmpty }.joined(separator: " ")
            if words.isEmpty {
                note(item, "skip word \"\(text)\" has no letters to say, left out")
            } else if !skipWords.contains(words) {
                skipWords.append(words)
            }
        }
    }

    private mutating func readIntents(_ node: Node) {
        guard let mapping = node.mapping else { return note(node, "intents: is a mapping of intent names") }
        for (key, value) in mapping {
            guard let name = key.string else { continue }
            var sentences: [RhasspySentences.Line] = []
            for block in value.mapping?["data"]?.sequence ?? [] {
                guard let data = block.mapping else {
                    note(block, "a data: entry is a mapping with sentences:")
                    continue
                }
                var presets: [String: String] = [:]
                for (slotKey, slotValue) in data["slots"]?.mapping ?? Node.Mapping([]) {
                    guard let slot = slotKey.string else { continue }
                    if let fixed = slotValue.string {
                        presets[slot] = fixed
                    } else {
                        note(slotKey, "slot \(slot) is fixed to something other than one value; not carried over")
                    }
                }
                var requires: [String: [String]] = [:]
                var excludes: [String: [String]] = [:]
                var fromRoom: [String] = []
                for (dataKey, dataValue) in data {
                    switch dataKey.string {
                    case "sentences", "slots": break
                    case "requires_context":
                        (requires, fromRoom) = readContext(dataValue, key: "requires_context")
                    case "excludes_context":
                        excludes = readContext(dataValue, key: "excludes_context").context
                    case "metadata":
                        // Home Assistant's own bookkeeping (which slots a block combines): no meaning to carry.
                        break
                    case "response":
                        note(dataKey, "response: is not carried over: write the reply in responses: of the app.yaml")
                    default:
                        note(dataKey, "\(dataKey.string ?? "this key") is not carried over")
                    }
                }
                for sentenceNode in data["sentences"]?.sequence ?? [] {
                    guard let text = sentenceNode.string else { continue }
                    let line = sentenceNode.mark?.line ?? 0
                    do {
                        sentences.append(.init(expression: try RhasspySentences.expression(text, listsInBraces: true),
                                               line: line, presets: presets, file: file, requires: requires, excludes: excludes,
                                               fromRoom: fromRoom))
                    } catch {
                        note(sentenceNode, "\(error.reason), left out: \(text)")
                    }
                }
            }
            if value.mapping?["data"] == nil { note(key, "intent \(name) has no data: with sentences") }
            for (other, _) in value.mapping ?? Node.Mapping([]) where other.string != "data" {
                note(other, "\(other.string ?? "this key") of intent \(name) is not carried over")
            }
            // An intent in several files (a language folder's) has the data blocks of each.
            if let index = intents.firstIndex(where: { $0.name == name }) {
                intents[index].sentences += sentences
            } else {
                intents.append((name, key.mark?.line ?? 0, file, sentences))
            }
        }
    }

    /// Whether a sentence says the `name` slot (an entity).
    static func namesEntity(_ expression: RhasspySentences.Expression) -> Bool {
        switch expression {
        case .tagged(_, let name, _): name == "name"
        case .sequence(let parts), .alternatives(let parts): parts.contains(where: namesEntity)
        case .optional(let inner), .substituted(let inner, _): namesEntity(inner)
        case .word, .rule, .slotList, .numberRange: false
        }
    }

    /// A value as Home Assistant gives it: 0.5, -3, 20 (no ".0").
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    /// A block's `requires_context:` or `excludes_context:`: the entity's domain and device
    /// class are what a home's entities tell (`HomeEntities`), and `area: {slot: true}` the room
    /// that heard the request (`fromRoom`, required context only); anything else is noted.
    private mutating func readContext(_ node: Node, key: String) -> (context: [String: [String]], fromRoom: [String]) {
        var context: [String: [String]] = [:]
        var fromRoom: [String] = []
        for (name, value) in node.mapping ?? Node.Mapping([]) {
            guard let field = name.string else { continue }
            let values = value.string.map { [$0] } ?? value.sequence?.compactMap(\.string)
            if ["domain", "device_class"].contains(field), let values {
                context[field] = values
            } else if field == "area", value.mapping?["slot"]?.bool == true, key == "requires_context" {
                fromRoom.append("area")
            } else {
                note(name, "\(key): \(field) is not carried over: Hark knows no devices' state")
            }
        }
        return (context, fromRoom)
    }

    /// A range's `fractions:` (halves or tenths): "twenty one point five" and "twenty one and a
    /// half" for 21.5, beside the whole numbers.
    private mutating func readFractions(_ node: Node, list name: String, low: Int, high: Int, step: Int) {
        let tenths: [Int]
        switch node.string {
        case "halves": tenths = [5]
        case "tenths": tenths = Array(1...9)
        default:
            note(node, "list \(name): fractions: is halves or tenths; only the whole numbers are carried over")
            return
        }
        let wholes = Array(stride(from: max(low, 0), to: high, by: max(step, 1)))
        guard wholes.count * tenths.count <= RhasspyImporter.maximumValues else {
            note(node, "list \(name): more than \(RhasspyImporter.maximumValues) fractions; only the whole numbers are carried over")
            return
        }
        for whole in wholes {
            guard let words = NumberWords.spoken(whole) else { continue }
            for tenth in tenths {
                var ways = ["\(words) point \(NumberWords.units[tenth])"]
                if tenth == 5 { ways.append("\(words) and a half") }
                lists[name, default: []].append("(\(ways.joined(separator: " | "))):\(whole).\(tenth)")
            }
        }
    }

    private mutating func readLists(_ node: Node) {
        guard let mapping = node.mapping else { return note(node, "lists: is a mapping of list names") }
        for (key, value) in mapping {
            guard let name = key.string, let body = value.mapping else { continue }
            if let values = body["values"]?.sequence {
                lists[name] = values.compactMap { item -> String? in
                    if let plain = item.string { return plain }
                    guard let pair = item.mapping, let said = pair["in"]?.string, let meant = pair["out"]?.string else {
                        note(item, "a value of list \(name) is a string or {in:, out:}; left out")
                        return nil
                    }
                    // "in" is said, "out" is what the slot gets: a group substitution.
                    return "(\(said)):\(RhasspySentences.substitute(meant))"
                }
            } else if let range = body["range"]?.mapping, let low = range["from"]?.int, let high = range["to"]?.int {
                let step = range["step"]?.int ?? 1
                if let multiplier = range["multiplier"]?.float, multiplier != 1 {
                    // The number said is not the value ("down by three percent" is -3): each
                    // number stands for itself times the multiplier.
                    guard step > 0, (high - low) / step < RhasspyImporter.maximumValues else {
                        note(key, "list \(name): a range of more than \(RhasspyImporter.maximumValues) numbers with a multiplier; sentences that use it are left out")
                        unsayable[name] = "is a range too long to write out with its multiplier"
                        continue
                    }
                    lists[name] = stride(from: low, through: high, by: step).map { number in
                        "(\(number)..\(number)):\(Self.number(Double(number) * multiplier))"
                    }
                } else {
                    lists[name] = ["(\(low)..\(high),\(step))"]
                }
                if let fractions = range["fractions"] {
                    readFractions(fractions, list: name, low: low, high: high, step: step)
                }
            } else if body["wildcard"]?.bool == true {
                wildcards.insert(name)
                note(key, "list \(name) is a wildcard: free text of up to \(AppYAML.freeTextWords) words, heard by dictation "
                     + "(a Hark phrase says one, with another word or slot beside it)")
            } else {
                note(key, "list \(name) has no values:, range: or wildcard:; sentences that use it are left out")
            }
        }
    }

    private mutating func readRules(_ node: Node) {
        guard let mapping = node.mapping else { return note(node, "expansion_rules: is a mapping of rule names") }
        for (key, value) in mapping {
            guard let name = key.string, let text = value.string else { continue }
            do {
                rules[name] = .init(expression: try RhasspySentences.expression(text, listsInBraces: true), line: key.mark?.line ?? 0)
            } catch {
                note(key, "expansion rule \(name): \(error.reason), left out")
            }
        }
    }
}
