import Foundation
import HarkGrammar
import Yams

/// The parameters of an intent: their types, conditions and summaries.
extension ManifestReader {
    mutating func parameter(_ name: String, _ node: Node, types: [String: EnumeratedType],
                                    earlier: [ParameterDefinition]) -> ParameterDefinition? {
        guard let body = mapping(node, what: "parameter \(name)") else { return nil }
        checkKeys(body, allowed: ["type", "required", "prompt", "shortPrompt", "default", "defaultQuestion", "askWhen",
                                  "range", "step", "maxWords", "slot"])
        let isRequired = flag(body["required"], default: false)
        let prompt = body["prompt"]?.string
        let defaultValue = body["default"]?.string
        if isRequired, prompt == nil, defaultValue == nil {
            problem(at: node, "required parameter \(name) needs a prompt: to ask for it")
        }
        guard let typeName = requiredString(body, "type", at: node) else { return nil }
        guard let type = parameterType(typeName, body, at: body["type"] ?? node, types: types, parameter: name) else { return nil }
        if let defaultValue, let enumeration = type.enumerationName, let values = types[enumeration],
           !values.isDynamic, values.value(identifier: defaultValue) == nil {
            problem(at: body["default"] ?? node, "default \"\(defaultValue)\" is not a value of \(enumeration)")
        }
        var defaultQuestion: ResponseTemplate?
        if let questionNode = body["defaultQuestion"] {
            defaultQuestion = responseTemplate(questionNode, parameters: earlier + [.init(name: name, type: type, isRequired: false, prompt: nil)])
            if defaultValue == nil { problem(at: questionNode, "defaultQuestion: offers the default: value, and there is none") }
        }
        var condition: ParameterCondition?
        if let whenNode = body["askWhen"] {
            condition = parameterCondition(whenNode, earlier: earlier, types: types)
        }
        var definition = ParameterDefinition(name: name, type: type, isRequired: isRequired, prompt: prompt,
                                             shortPrompt: body["shortPrompt"]?.string, defaultValue: defaultValue,
                                             defaultQuestion: defaultQuestion, condition: condition)
        definition.slotName = body["slot"]?.string
        if let wordsNode = body["maxWords"] {
            if type != .text {
                problem(at: wordsNode, "maxWords: applies to text parameters (free text said inside a phrase)")
            } else if let words = wordsNode.int, ParameterDefinition.maxWordsRange.contains(words) {
                definition.maxWords = words
            } else {
                problem(at: wordsNode, "maxWords: is a whole number from \(ParameterDefinition.maxWordsRange.lowerBound) to \(ParameterDefinition.maxWordsRange.upperBound)")
            }
        }
        return definition
    }

    mutating func parameterType(_ typeName: String, _ body: Node.Mapping, at node: Node,
                                        types: [String: EnumeratedType], parameter: String) -> ParameterType? {
        let range = body["range"]?.sequence?.compactMap { $0.float }
        if body["range"] != nil, range?.count != 2 || range.map({ $0[0] > $0[1] }) == true {
            problem(at: body["range"] ?? node, "range: is [lowest, highest]")
        }
        let bounds = range.flatMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]...$0[1] : nil }
        if body["range"] != nil, !["integer", "decimal", "currency"].contains(typeName) {
            problem(at: body["range"] ?? node, "range: applies to integer, decimal and currency parameters")
        }
        if let stepNode = body["step"], !["integer", "decimal"].contains(typeName) {
            problem(at: stepNode, "step: applies to integer and decimal parameters")
        }
        switch typeName {
        case "text": return .text
        case "boolean": return .boolean
        case "dateTime": return .dateTime
        case "duration": return .duration
        case "integer":
            var step = 1
            if let stepNode = body["step"] {
                if let whole = stepNode.int, whole > 0 {
                    step = whole
                } else {
                    problem(at: stepNode, "step: of an integer parameter is a whole number above 0")
                }
            }
            return .integer(bounds.map { Int($0.lowerBound)...Int($0.upperBound) }, step: step)
        case "decimal":
            guard let bounds else {
                problem(at: node, "decimal parameter \(parameter) needs a range: [lowest, highest]")
                return nil
            }
            return .decimal(bounds, step: body["step"]?.float ?? 0)
        case "currency": return .currency(bounds ?? 0...999.99)
        default:
            if types[typeName] == nil {
                let known = (ParameterType.systemTypeNames + types.keys.sorted()).joined(separator: ", ")
                problem(at: node, "parameter \(parameter) has unknown type \"\(typeName)\"; known types: \(known)")
            }
            // Kept (the manifest is refused anyway) so phrases naming the parameter are not reported too.
            return .enumeration(typeName)
        }
    }

    mutating func parameterCondition(_ node: Node, earlier: [ParameterDefinition],
                                             types: [String: EnumeratedType]) -> ParameterCondition? {
        guard let mapping = node.mapping, mapping.count == 1, let (key, value) = mapping.first.map({ ($0.key, $0.value) }),
              let parent = key.string else {
            problem(at: node, "askWhen: names one earlier parameter and its value(s), e.g. askWhen: {orderType: delivery}")
            return nil
        }
        guard let parentDefinition = earlier.first(where: { $0.name == parent }) else {
            problem(at: key, "askWhen: names \(parent), which is not a parameter declared before this one")
            return nil
        }
        let values = value.string.map { [$0] } ?? stringList(value) ?? []
        if let enumeration = parentDefinition.enumerationName, let type = types[enumeration], !type.isDynamic {
            for wanted in values where type.value(identifier: wanted) == nil {
                problem(at: value, "askWhen: \"\(wanted)\" is not a value of \(enumeration)")
            }
        }
        return ParameterCondition(parent: parent, values: values)
    }

    mutating func parameterSummary(_ node: Node, parameters: [ParameterDefinition],
                                           types: [String: EnumeratedType]) -> ParameterSummary? {
        if node.string != nil {
            return responseTemplate(node, parameters: parameters).map { ParameterSummary(template: $0) }
        }
        guard let body = mapping(node, what: "summary") else { return nil }
        checkKeys(body, allowed: ["default", "variants"])
        guard let defaultNode = body["default"], let template = responseTemplate(defaultNode, parameters: parameters) else {
            problem(at: node, "summary: needs default: (and may list variants:)")
            return nil
        }
        var variants: [(condition: ParameterCondition, template: ResponseTemplate)] = []
        for item in body["variants"]?.sequence ?? [] {
            guard let variant = item.mapping, let whenNode = variant["when"], let sayNode = variant["say"] else {
                problem(at: item, "a summary variant has when: {parameter: value} and say:")
                continue
            }
            if let condition = parameterCondition(whenNode, earlier: parameters, types: types),
               let said = responseTemplate(sayNode, parameters: parameters) {
                variants.append((condition, said))
            }
        }
        return ParameterSummary(template: template, variants: variants)
    }
}
