import Foundation
import HarkIntents

/// An app made from another assistant's sentences, before it is written as an app.yaml: its
/// intents, their phrases, and for each parameter the words it can be said with.
public struct ImportedApp: Sendable, Equatable {
    public struct Value: Sendable, Hashable {
        public var spoken: String
        /// What the value stands for in the intent (a substitute, or the words themselves).
        public var id: String
    }

    public struct Parameter: Sendable, Equatable {
        public var name: String
        public var values: [Value]
        /// The enumerated type written for it (see `assignTypes`), or "text" for free text.
        public var type: String = ""
        /// Any words (Home Assistant's wildcard lists): Hark's free text said inside a phrase.
        public var isFreeText = false
    }

    public struct Intent: Sendable, Equatable {
        public var name: String
        /// The name the other assistant gave it.
        public var title: String
        public var phrases: [String] = []
        /// By phrase index: the slots a phrase fixes without saying them.
        public var presets: [Int: [String: String]] = [:]
        /// By phrase index: the parameters a phrase takes from the room that heard it.
        public var fromRoom: [Int: [String]] = [:]
        /// By phrase index: the ids each parameter the phrase says can take in it, where fewer
        /// than all of the parameter's (see `limitPhrasesToTheirValues`).
        public var only: [Int: [String: [String]]] = [:]
        public var parameters: [Parameter] = []
        /// Parameter → the slot it is told to Wyoming clients as, where they differ (`slot:`).
        public var slots: [String: String] = [:]
        /// Phrases of Hark's own commands its sentences say ("never mind"), `ownCommandPhrases:`.
        public var ownCommandPhrases: [String] = []
        /// By phrase index, until `limitPhrasesToTheirValues`: the ids each parameter can take in it.
        private var saidValues: [Int: [String: [String]]] = [:]

        init(name: String, title: String) {
            self.name = name
            self.title = title
        }

        /// Adds a phrase, unless the same phrase with the same fixed slots is there already;
        /// `values` are the ids each parameter can take in it.
        ///
        /// The same phrase from two blocks is one phrase only where their values differ in one
        /// parameter at most: "is <name> <state>" for covers (closed) and for occupancy sensors
        /// (clear) as one would let a window sensor be asked whether it is "closed" as a cover.
        mutating func addPhrase(_ phrase: String, presets fixed: [String: String], fromRoom room: [String] = [],
                                values: [String: [String]] = [:]) {
            if let index = phrases.indices.first(where: {
                phrases[$0] == phrase && (presets[$0] ?? [:]) == fixed && (fromRoom[$0] ?? []) == room
                    && Self.differInOneAtMost(saidValues[$0] ?? [:], values)
            }) {
                saidValues[index, default: [:]].merge(values) { $0 + $1 }
                return
            }
            if !fixed.isEmpty { presets[phrases.count] = fixed }
            if !room.isEmpty { fromRoom[phrases.count] = room }
            saidValues[phrases.count] = values
            phrases.append(phrase)
        }

        /// Whether two phrases' values differ in no more than one parameter, so that the phrase
        /// taking the values of both allows no pairing of values neither allowed.
        static func differInOneAtMost(_ first: [String: [String]], _ second: [String: [String]]) -> Bool {
            Set(first.keys).union(second.keys).filter { name in
                first[name].map(Set.init) != second[name].map(Set.init)
            }.count <= 1
        }

        /// A phrase that says a parameter with fewer values than the parameter has everywhere
        /// ("open {cover:name}" beside "turn on {name}") keeps to its own: `only:` in the app.yaml.
        mutating func limitPhrasesToTheirValues() {
            for (index, values) in saidValues {
                for (name, ids) in values {
                    guard let every = parameters.first(where: { $0.name == name })?.values.map(\.id),
                          Set(ids) != Set(every) else { continue }
                    var seen = Set<String>()
                    only[index, default: [:]][name] = every.filter { Set(ids).contains($0) && seen.insert($0).inserted }
                }
            }
            saidValues = [:]
        }

        /// Adds a parameter that takes any words.
        mutating func addFreeText(parameter name: String) {
            guard !parameters.contains(where: { $0.name == name }) else { return }
            parameters.append(Parameter(name: name, values: [], isFreeText: true))
        }

        /// The name a slot's parameter takes in a sentence: `name`, unless the parameter of that
        /// name does not `fit` (other values for the same words, or any words against a list's);
        /// then the slot's name numbered ("state_2"), told to Wyoming clients by the slot's name.
        /// `taken`: the names the sentence's other parameters have.
        mutating func parameterName(for name: String, taken: [String], fits: (Parameter?) -> Bool) -> String {
            guard !fits(parameters.first { $0.name == name }) else { return name }
            let slot = slots[name] ?? name
            var number = 2
            while !fits(parameters.first { $0.name == "\(slot)_\(number)" }) || taken.contains("\(slot)_\(number)") {
                number += 1
            }
            let renamed = "\(slot)_\(number)"
            slots[renamed] = slot
            return renamed
        }

        /// Adds a parameter's values, merged with those it already has.
        mutating func add(parameter name: String, values: [Value]) {
            if let index = parameters.firstIndex(where: { $0.name == name }) {
                for value in values where !parameters[index].values.contains(where: { $0.spoken == value.spoken }) {
                    parameters[index].values.append(value)
                }
            } else {
                parameters.append(Parameter(name: name, values: values))
            }
        }
    }

    public var name: String
    public var description: String
    public var intents: [Intent] = []
    /// Intents named to Wyoming clients as they are (Home Assistant's own names).
    public var bareIntentNames = false

    /// Names each parameter's type: the parameter's name in UpperCamelCase ("light_name" is
    /// LightName), shared by parameters with the same values, and prefixed with the intent's
    /// name where two intents give the same name different values.
    mutating func assignTypes() {
        var taken: [String: [Value]] = [:]
        for intentIndex in intents.indices {
            for parameterIndex in intents[intentIndex].parameters.indices {
                let parameter = intents[intentIndex].parameters[parameterIndex]
                if parameter.isFreeText {
                    intents[intentIndex].parameters[parameterIndex].type = "text"
                    continue
                }
                var type = Self.camel(parameter.name)
                if let existing = taken[type], Set(existing) != Set(parameter.values) {
                    type = intents[intentIndex].name + type
                }
                taken[type] = parameter.values
                intents[intentIndex].parameters[parameterIndex].type = type
            }
        }
    }

    public var types: [(name: String, values: [Value])] {
        var seen = Set<String>()
        return intents.flatMap(\.parameters).filter { !$0.isFreeText }
            .compactMap { seen.insert($0.type).inserted ? ($0.type, $0.values) : nil }
    }

    static func camel(_ name: String) -> String {
        let camel = name.split(whereSeparator: { !$0.isLetter && !$0.isNumber }).map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
        return camel.isEmpty ? "Value" : camel
    }
}

/// Writes an imported app as app.yaml text, every string quoted.
public enum AppYAML {
    public static func text(of app: ImportedApp, header: [String]) -> String {
        var lines = header.map { "# " + $0 }
        lines.append("name: \(quoted(app.name))")
        lines.append("description: \(quoted(app.description))")
        if app.bareIntentNames {
            lines.append("# Intents are named to Wyoming clients as Home Assistant names them (HassTurnOn).")
            lines.append("wyomingIntentNames: bare")
        }
        let types = app.types
        if !types.isEmpty {
            lines.append("")
            lines.append("types:")
            for type in types {
                lines.append("  \(type.name):")
                lines.append("    values:")
                // Several ways of saying one value ("tv light", "telly light" → light.tv) are one
                // value with synonyms.
                var ids: [String] = []
                var forms: [String: [String]] = [:]
                for value in type.values {
                    if forms[value.id] == nil { ids.append(value.id) }
                    forms[value.id, default: []].append(value.spoken)
                }
                for id in ids {
                    let said = forms[id] ?? []
                    guard let first = said.first else { continue }
                    if said.count == 1 && first == id {
                        lines.append("      - \(quoted(first))")
                    } else {
                        let synonyms = said.dropFirst().map(quoted).joined(separator: ", ")
                        lines.append("      - {spoken: \(quoted(first)), id: \(quoted(id))"
                                     + (said.count > 1 ? ", synonyms: [\(synonyms)]}" : "}"))
                    }
                }
            }
        }
        lines.append("")
        lines.append("intents:")
        for intent in app.intents {
            // The parameters every phrase says: only those are asked for when missing (a slot some
            // phrases leave out, or only ever fix, is not, as the other assistant would not have
            // asked), and only those are said in the reply (a missing one would leave a gap).
            let saidByEvery = intent.parameters.map(\.name).filter { name in intent.phrases.allSatisfy { $0.contains("<\(name)>") } }
            lines.append("  \(intent.name):")
            lines.append("    title: \(quoted(intent.title))")
            if !intent.parameters.isEmpty {
                lines.append("    parameters:")
                for parameter in intent.parameters {
                    let slot = intent.slots[parameter.name]
                    let spokenName = (slot ?? parameter.name).replacingOccurrences(of: "_", with: " ")
                    lines.append("      \(parameter.name):")
                    lines.append("        type: \(parameter.type)")
                    if let slot { lines.append("        slot: \(quoted(slot))") }
                    if parameter.isFreeText { lines.append("        maxWords: \(Self.freeTextWords)") }
                    if saidByEvery.contains(parameter.name) {
                        lines.append("        required: true")
                        lines.append("        prompt: \(quoted("Which \(spokenName)?"))")
                    }
                }
            }
            if !intent.ownCommandPhrases.isEmpty {
                lines.append("    ownCommandPhrases: [\(intent.ownCommandPhrases.map(quoted).joined(separator: ", "))]")
            }
            if !intent.phrases.isEmpty { lines.append("    phrases:") }
            for (index, phrase) in intent.phrases.enumerated() {
                var options: [String] = []
                if let limits = intent.only[index] {
                    let only = limits.sorted { $0.key < $1.key }
                        .map { "\($0.key): [\($0.value.map(quoted).joined(separator: ", "))]" }.joined(separator: ", ")
                    options.append("only: {\(only)}")
                }
                if let fixed = intent.presets[index] {
                    let set = fixed.sorted { $0.key < $1.key }.map { "\($0.key): \(quoted($0.value))" }.joined(separator: ", ")
                    options.append("set: {\(set)}")
                }
                if let room = intent.fromRoom[index] {
                    options.append("room: [\(room.map(quoted).joined(separator: ", "))]")
                }
                lines.append(options.isEmpty ? "      - \(quoted(phrase))"
                                             : "      - {phrase: \(quoted(phrase)), \(options.joined(separator: ", "))}")
            }
            lines.append("    responses:")
            let said = saidByEvery.map { "${\($0)}" }.joined(separator: " ")
            lines.append("      success: \(quoted(said.isEmpty ? "OK." : "OK: \(said)."))")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

    /// Words a wildcard takes when said inside a phrase: as many as a Hark phrase allows, since
    /// Home Assistant's take any number ("play the artist miles davis on the kitchen speaker").
    static let freeTextWords = ParameterDefinition.maxWordsRange.upperBound

    /// A YAML double-quoted scalar.
    static func quoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
