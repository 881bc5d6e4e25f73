import Foundation
import HarkGrammar
import Yams

/// Reads one `app.yaml` into an `AppManifest`, collecting every problem with
/// its line instead of stopping at the first, so an app author fixes them in
/// one go.
struct ManifestReader {
    private let file: String
    private var problems: [ManifestError.Problem] = []

    init(file: String) {
        self.file = file
    }

    static func read(yaml: String, identifier: String, file: String) throws(ManifestError) -> AppManifest {
        var reader = ManifestReader(file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw ManifestError(problems: [.init(file: file, line: Self.line(of: error), reason: "not valid YAML: \(error)")])
        }
        guard let root, let top = root.mapping else {
            throw ManifestError(problems: [.init(file: file, line: root?.mark?.line, reason: "expected a mapping with name: and intents:")])
        }
        let manifest = reader.manifest(top, identifier: identifier, at: root)
        if !reader.problems.isEmpty { throw ManifestError(problems: reader.problems) }
        return manifest
    }

    private static func line(of error: any Error) -> Int? {
        guard let yamlError = error as? YamlError else { return nil }
        switch yamlError {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default:
            return nil
        }
    }

    // MARK: Sections

    private mutating func manifest(_ top: Node.Mapping, identifier: String, at root: Node) -> AppManifest {
        checkKeys(top, allowed: ["name", "alternativeNames", "description", "types", "intents"])
        let name = requiredString(top, "name", at: root) ?? identifier
        let alternativeNames = stringList(top["alternativeNames"]) ?? []
        var types: [String: EnumeratedType] = [:]
        if let typesNode = top["types"] {
            if let mapping = mapping(typesNode, what: "types") {
                for (key, value) in mapping {
                    guard let typeName = key.string else { continue }
                    if let type = enumeratedType(typeName, value) { types[typeName] = type }
                }
            }
        }
        var intents: [IntentDefinition] = []
        if let intentsNode = top["intents"] {
            if let mapping = mapping(intentsNode, what: "intents") {
                for (key, value) in mapping {
                    guard let intentName = key.string else { continue }
                    if let intent = intent(intentName, value, at: key, types: types) { intents.append(intent) }
                }
            }
        } else {
            problem(at: root, "missing \"intents:\"; an app declares at least one intent")
        }
        return AppManifest(identifier: identifier, name: name, alternativeNames: alternativeNames,
                           description: top["description"]?.string, types: types, intents: intents, file: file)
    }

    private mutating func enumeratedType(_ name: String, _ node: Node) -> EnumeratedType? {
        guard let body = mapping(node, what: "type \(name)") else { return nil }
        checkKeys(body, allowed: ["values"])
        guard let valuesNode = body["values"], let list = valuesNode.sequence, !list.isEmpty else {
            problem(at: node, "type \(name) needs a non-empty list of values:")
            return nil
        }
        var values: [EnumeratedValue] = []
        for item in list {
            if let spoken = item.string {
                values.append(EnumeratedValue(identifier: spoken, spoken: spoken, synonyms: []))
            } else if let entry = item.mapping {
                checkKeys(entry, allowed: ["id", "spoken", "synonyms"])
                guard let spoken = requiredString(entry, "spoken", at: item) else { continue }
                let identifier = entry["id"]?.string ?? spoken
                values.append(EnumeratedValue(identifier: identifier, spoken: spoken,
                                              synonyms: stringList(entry["synonyms"]) ?? []))
            } else {
                problem(at: item, "a value is a string, or a mapping with spoken:, id: and synonyms:")
            }
        }
        var seen = Set<String>()
        for value in values where !seen.insert(value.identifier).inserted {
            problem(at: valuesNode, "type \(name) lists the value \"\(value.identifier)\" twice")
        }
        return EnumeratedType(name: name, values: values)
    }

    private mutating func intent(_ name: String, _ node: Node, at key: Node, types: [String: EnumeratedType]) -> IntentDefinition? {
        guard let body = mapping(node, what: "intent \(name)") else { return nil }
        checkKeys(body, allowed: ["title", "description", "category", "parameters", "phrases", "responses"])
        if !Self.isVerbNoun(name) {
            problem(at: key, "intent name \"\(name)\" should be VerbNoun in UpperCamelCase, like ChangeLightState")
        }
        var category = IntentCategory.generic
        if let categoryNode = body["category"] {
            if let parsed = categoryNode.string.flatMap(IntentCategory.init(rawValue:)) {
                category = parsed
            } else {
                let known = IntentCategory.allCases.map(\.rawValue).joined(separator: ", ")
                problem(at: categoryNode, "unknown category \"\(categoryNode.string ?? "")\"; use one of \(known)")
            }
        }

        var parameters: [ParameterDefinition] = []
        if let parametersNode = body["parameters"], let mapping = mapping(parametersNode, what: "parameters") {
            for (parameterKey, parameterNode) in mapping {
                guard let parameterName = parameterKey.string else { continue }
                if let parameter = parameter(parameterName, parameterNode, types: types) { parameters.append(parameter) }
            }
        }

        var phrases: [PhraseTemplate] = []
        if let phrasesNode = body["phrases"], let list = phrasesNode.sequence, !list.isEmpty {
            for item in list {
                guard let source = item.string else {
                    problem(at: item, "a phrase is a string")
                    continue
                }
                do {
                    let template = try PhraseTemplate(source)
                    for reference in template.parameterNames where !parameters.contains(where: { $0.name == reference }) {
                        problem(at: item, "phrase \"\(source)\" names <\(reference)>, which is not a parameter of \(name)")
                    }
                    phrases.append(template)
                } catch {
                    problem(at: item, error.description)
                }
            }
        } else {
            problem(at: node, "intent \(name) needs a non-empty list of phrases:")
        }

        var success: ResponseTemplate?
        if let responsesNode = body["responses"], let responses = mapping(responsesNode, what: "responses") {
            checkKeys(responses, allowed: ["success"])
            if let successNode = responses["success"] {
                success = responseTemplate(successNode, parameters: parameters)
            }
        }
        if success == nil, body["responses"]?.mapping?["success"] == nil {
            problem(at: node, "intent \(name) needs responses: with a success: reply")
        }

        let title = body["title"]?.string ?? name
        guard let success else { return nil }
        return IntentDefinition(name: name, title: title, description: body["description"]?.string,
                                category: category, parameters: parameters, phrases: phrases,
                                responses: ResponseTemplates(success: success))
    }

    private mutating func parameter(_ name: String, _ node: Node, types: [String: EnumeratedType]) -> ParameterDefinition? {
        guard let body = mapping(node, what: "parameter \(name)") else { return nil }
        checkKeys(body, allowed: ["type", "required", "prompt"])
        guard let typeName = requiredString(body, "type", at: node) else { return nil }
        if types[typeName] == nil {
            let known = types.keys.sorted().joined(separator: ", ")
            problem(at: body["type"] ?? node, "parameter \(name) has unknown type \"\(typeName)\"" +
                    (known.isEmpty ? "; declare it under types:" : "; declared types: \(known)"))
        }
        var isRequired = false
        if let requiredNode = body["required"] {
            if let flag = requiredNode.bool { isRequired = flag } else { problem(at: requiredNode, "required: is true or false") }
        }
        let prompt = body["prompt"]?.string
        if isRequired, prompt == nil {
            problem(at: node, "required parameter \(name) needs a prompt: to ask for it")
        }
        return ParameterDefinition(name: name, typeName: typeName, isRequired: isRequired, prompt: prompt)
    }

    private mutating func responseTemplate(_ node: Node, parameters: [ParameterDefinition]) -> ResponseTemplate? {
        guard let source = node.string else {
            problem(at: node, "a response is a string")
            return nil
        }
        do {
            let template = try ResponseTemplate(source)
            for name in template.placeholders
            where !ResponseTemplate.systemPlaceholders.contains(name) && !parameters.contains(where: { $0.name == name }) {
                problem(at: node, "response \"\(source)\" names ${\(name)}, which is not a parameter")
            }
            return template
        } catch {
            problem(at: node, "response \"\(source)\": \(error.reason)")
            return nil
        }
    }

    // MARK: Helpers

    static func isVerbNoun(_ name: String) -> Bool {
        guard let first = name.first, first.isUppercase else { return false }
        return name.allSatisfy { $0.isLetter || $0.isNumber } && name.dropFirst().contains(where: \.isUppercase)
    }

    private mutating func problem(at node: Node, _ reason: String) {
        problems.append(.init(file: file, line: node.mark?.line, reason: reason))
    }

    private mutating func mapping(_ node: Node, what: String) -> Node.Mapping? {
        guard let mapping = node.mapping else {
            problem(at: node, "\(what) should be a mapping")
            return nil
        }
        return mapping
    }

    private mutating func requiredString(_ mapping: Node.Mapping, _ key: String, at node: Node) -> String? {
        guard let value = mapping[key] else {
            problem(at: node, "missing \"\(key):\"")
            return nil
        }
        guard let string = value.string, !string.isEmpty else {
            problem(at: value, "\"\(key):\" should be a non-empty string")
            return nil
        }
        return string
    }

    private mutating func stringList(_ node: Node?) -> [String]? {
        guard let node else { return nil }
        guard let list = node.sequence else {
            problem(at: node, "expected a list of strings")
            return nil
        }
        return list.compactMap { item in
            if let string = item.string { return string }
            problem(at: item, "expected a string")
            return nil
        }
    }

    private mutating func checkKeys(_ mapping: Node.Mapping, allowed: Set<String>) {
        for (key, _) in mapping {
            guard let name = key.string else { continue }
            if !allowed.contains(name) {
                problem(at: key, "unknown key \"\(name)\"; expected one of \(allowed.sorted().joined(separator: ", "))")
            }
        }
    }
}
