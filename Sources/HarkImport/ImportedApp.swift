import Foundation

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
        /// The enumerated type written for it (see `assignTypes`).
        public var type: String = ""
    }

    public struct Intent: Sendable, Equatable {
        public var name: String
        /// The name the other assistant gave it.
        public var title: String
        public var phrases: [String] = []
        public var parameters: [Parameter] = []

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

    /// Names each parameter's type: the parameter's name in UpperCamelCase ("light_name" is
    /// LightName), shared by parameters with the same values, and prefixed with the intent's
    /// name where two intents give the same name different values.
    mutating func assignTypes() {
        var taken: [String: [Value]] = [:]
        for intentIndex in intents.indices {
            for parameterIndex in intents[intentIndex].parameters.indices {
                let parameter = intents[intentIndex].parameters[parameterIndex]
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
        return intents.flatMap(\.parameters).compactMap { seen.insert($0.type).inserted ? ($0.type, $0.values) : nil }
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
        let types = app.types
        if !types.isEmpty {
            lines.append("")
            lines.append("types:")
            for type in types {
                lines.append("  \(type.name):")
                lines.append("    values:")
                for value in type.values {
                    if value.id == value.spoken {
                        lines.append("      - \(quoted(value.spoken))")
                    } else {
                        lines.append("      - {spoken: \(quoted(value.spoken)), id: \(quoted(value.id))}")
                    }
                }
            }
        }
        lines.append("")
        lines.append("intents:")
        for intent in app.intents {
            lines.append("  \(intent.name):")
            lines.append("    title: \(quoted(intent.title))")
            if !intent.parameters.isEmpty {
                lines.append("    parameters:")
                for parameter in intent.parameters {
                    let spokenName = parameter.name.replacingOccurrences(of: "_", with: " ")
                    lines.append("      \(parameter.name):")
                    lines.append("        type: \(parameter.type)")
                    lines.append("        required: true")
                    lines.append("        prompt: \(quoted("Which \(spokenName)?"))")
                }
            }
            lines.append("    phrases:")
            for phrase in intent.phrases { lines.append("      - \(quoted(phrase))") }
            lines.append("    responses:")
            let said = intent.parameters.map { "${\($0.name)}" }.joined(separator: " ")
            lines.append("      success: \(quoted(said.isEmpty ? "OK." : "OK: \(said)."))")
            lines.append("")
        }
        return lines.joined(separator: "\n")
    }

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
