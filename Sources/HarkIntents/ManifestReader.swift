import Foundation
import HarkGrammar
import Yams

/// Reads one `app.yaml` into an `AppManifest`, collecting every problem with
/// its line instead of stopping at the first, so an app author fixes them in
/// one go.
struct ManifestReader {
    let file: String
    var problems: [ManifestError.Problem] = []
    var warnings: [ManifestError.Problem] = []
    /// The app's names, what `<app>` in a phrase stands for (see `phrase`).
    var appNames: [String] = []

    init(file: String) {
        self.file = file
    }

    static func read(yaml: String, identifier: String, file: String) throws(ManifestError) -> AppManifest {
        var reader = ManifestReader(file: file)
        // Before the parser, which recurses once a level and would overflow the stack.
        try YAMLNesting.check(yaml, file: file)
        let root: Node?
        do {
            root = try Yams.compose(yaml: yaml)
        } catch {
            throw ManifestError(problems: [.init(file: file, line: Self.line(of: error), reason: "not valid YAML: \(error)")])
        }
        guard let root, let top = root.mapping else {
            throw ManifestError(problems: [.init(file: file, line: root?.mark?.line, reason: "expected a mapping with name: and intents:")])
        }
        try ManifestSize.check(top, file: file)
        let manifest = reader.manifest(top, identifier: identifier, at: root)
        if !reader.problems.isEmpty { throw ManifestError(problems: reader.problems) }
        return manifest
    }

    static func line(of error: any Error) -> Int? {
        guard let yamlError = error as? YamlError else { return nil }
        switch yamlError {
        case .scanner(_, _, let mark, _), .parser(_, _, let mark, _), .composer(_, _, let mark, _):
            return mark.line
        default:
            return nil
        }
    }

    // MARK: Sections

    mutating func manifest(_ top: Node.Mapping, identifier: String, at root: Node) -> AppManifest {
        checkKeys(top, allowed: ["name", "alternativeNames", "description", "types", "intents", "systemIntents",
                                 "shortcuts", "suggestions", "vocabulary", "handler", "wyomingIntentNames"])
        let name = requiredString(top, "name", at: root) ?? identifier
        let alternativeNames = stringList(top["alternativeNames"]) ?? []
        appNames = [name] + alternativeNames
        var types: [String: EnumeratedType] = [:]
        if let typesNode = top["types"], let mapping = mapping(typesNode, what: "types") {
            for (key, value) in mapping {
                guard let typeName = key.string else { continue }
                if ParameterType.systemTypeNames.contains(typeName) {
                    problem(at: key, "type \(typeName) is one of Hark's own types; give yours another name")
                } else if let type = enumeratedType(typeName, value) {
                    types[typeName] = type
                }
            }
        }
        var intents: [IntentDefinition] = []
        if let intentsNode = top["intents"], let mapping = mapping(intentsNode, what: "intents") {
            for (key, value) in mapping {
                guard let intentName = key.string else { continue }
                if let intent = intent(intentName, value, at: key, types: types) { intents.append(intent) }
            }
        }
        if let systemNode = top["systemIntents"] {
            for item in systemNode.sequence ?? [] {
                guard let intentName = item.string, let definition = SystemIntents.definition(named: intentName) else {
                    problem(at: item, "unknown system intent \"\(item.string ?? "")\"; Hark offers \(SystemIntents.catalogue)")
                    continue
                }
                for (typeName, defaults) in definition.defaultTypes where types[typeName] == nil {
                    types[typeName] = EnumeratedType(name: typeName, values: defaults.map { EnumeratedValue(identifier: $0, spoken: $0) })
                }
                for parameter in definition.parameters {
                    if let typeName = parameter.enumerationName, types[typeName] == nil {
                        problem(at: item, "\(intentName) needs a type \(typeName) under types: (usually dynamic: true, filled by the handler)")
                    }
                }
                do {
                    intents.append(try SystemIntents.intent(definition, appNames: [name] + alternativeNames))
                } catch {
                    problem(at: item, "\(intentName): \(error)")
                }
            }
            if systemNode.sequence == nil { problem(at: systemNode, "systemIntents: is a list of intent names") }
        }
        var seenIntents = Set<String>()
        for intent in intents where !seenIntents.insert(intent.name).inserted {
            problem(at: root, "intent \(intent.name) is declared twice")
        }
        if intents.isEmpty {
            problem(at: root, "no intents: an app declares at least one under intents: or systemIntents:")
        }
        let shortcuts = appShortcuts(top["shortcuts"], intents: intents, names: [name] + alternativeNames)
        let vocabulary = vocabularyTerms(top["vocabulary"])
        let handler = handlerSpec(top["handler"])
        var manifest = AppManifest(identifier: identifier, name: name, alternativeNames: alternativeNames,
                                   description: top["description"]?.string, types: types, intents: intents,
                                   shortcuts: shortcuts, vocabulary: vocabulary, handler: handler, file: file)
        manifest.suggestions = suggestedShortcuts(top["suggestions"], intents: intents)
        if let naming = top["wyomingIntentNames"] {
            switch naming.string {
            case "app": manifest.bareIntentNames = false
            case "bare": manifest.bareIntentNames = true
            default: problem(at: naming, "wyomingIntentNames: is app (the default: \"\(identifier).Intent\") or bare (\"Intent\", as Home Assistant names its own)")
            }
        }
        manifest.warnings = warnings
        return manifest
    }

    mutating func enumeratedType(_ name: String, _ node: Node) -> EnumeratedType? {
        guard let body = mapping(node, what: "type \(name)") else { return nil }
        checkKeys(body, allowed: ["values", "dynamic"])
        let isDynamic = flag(body["dynamic"], default: false)
        let list = body["values"]?.sequence ?? []
        if list.isEmpty && !isDynamic {
            problem(at: node, "type \(name) needs a non-empty list of values: (or dynamic: true, when the handler supplies them)")
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
            problem(at: body["values"] ?? node, "type \(name) lists the value \"\(value.identifier)\" twice")
        }
        return EnumeratedType(name: name, values: values, isDynamic: isDynamic)
    }

    mutating func intent(_ name: String, _ node: Node, at key: Node, types: [String: EnumeratedType]) -> IntentDefinition? {
        guard let body = mapping(node, what: "intent \(name)") else { return nil }
        checkKeys(body, allowed: ["title", "description", "category", "verb", "parameters", "phrases", "responses",
                                  "summary", "confirm", "authenticate", "ownCommandPhrases"])
        let ownCommandPhrases = body["ownCommandPhrases"].map { phrasesOfOwnCommands($0) } ?? []
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
        let dialogue = CategoryDialogue.of(category)
        var verb = dialogue.defaultVerb
        if let verbNode = body["verb"] {
            if let chosen = verbNode.string?.lowercased(), dialogue.verbs.contains(chosen) {
                verb = chosen
            } else {
                problem(at: verbNode, "verb \"\(verbNode.string ?? "")\" is not one of the \(category.rawValue) category's verbs: " +
                        dialogue.verbs.joined(separator: ", "))
            }
        }

        var parameters: [ParameterDefinition] = []
        if let parametersNode = body["parameters"], let mapping = mapping(parametersNode, what: "parameters") {
            for (parameterKey, parameterNode) in mapping {
                guard let parameterName = parameterKey.string else { continue }
                if let parameter = parameter(parameterName, parameterNode, types: types, earlier: parameters) {
                    parameters.append(parameter)
                }
            }
        }

        var phrases: [PhraseTemplate] = []
        // Phrases written as {phrase:, only:, set:}, by index: read once the intent exists.
        var optioned: [(index: Int, entry: Node.Mapping, template: PhraseTemplate)] = []
        if let phrasesNode = body["phrases"], let list = phrasesNode.sequence, !list.isEmpty {
            for item in list {
                if let entry = item.mapping {
                    checkKeys(entry, allowed: ["phrase", "only", "set", "room"])
                    guard let phraseNode = entry["phrase"] else {
                        problem(at: item, "a phrase written as a mapping needs phrase: (and only: or set:)")
                        continue
                    }
                    if let template = phrase(phraseNode, parameters: parameters, owner: name) {
                        optioned.append((phrases.count, entry, template))
                        phrases.append(template)
                    }
                } else if let template = phrase(item, parameters: parameters, owner: name) {
                    phrases.append(template)
                }
            }
        } else if ownCommandPhrases.isEmpty {
            problem(at: node, "intent \(name) needs a non-empty list of phrases: (example requests that run it)")
        }

        var responses = ResponseTemplates()
        if let responsesNode = body["responses"], let mapping = mapping(responsesNode, what: "responses") {
            checkKeys(mapping, allowed: ["confirmation", "success", "inProgress", "failures"])
            responses.confirmation = mapping["confirmation"].flatMap { responseTemplate($0, parameters: parameters) }
            responses.success = mapping["success"].flatMap { responseTemplate($0, parameters: parameters) }
            responses.inProgress = mapping["inProgress"].flatMap { responseTemplate($0, parameters: parameters) }
            if let failuresNode = mapping["failures"], let failures = self.mapping(failuresNode, what: "failures") {
                for (failureKey, failureNode) in failures {
                    guard let failureName = failureKey.string else { continue }
                    if let template = responseTemplate(failureNode, parameters: parameters) {
                        responses.failures[failureName] = template
                    }
                }
            }
        }

        let summary = body["summary"].flatMap { parameterSummary($0, parameters: parameters, types: types) }
        let needsConfirmation = flag(body["confirm"], default: category == .order)
        let needsAuthentication = flag(body["authenticate"], default: category == .order)
        if category == .order, !needsConfirmation || !needsAuthentication, let node = body["confirm"] ?? body["authenticate"] {
            problem(at: node, "intents of the order category have a financial impact: they are always confirmed and authenticated")
        }
        var intent = IntentDefinition(name: name, title: body["title"]?.string ?? name, description: body["description"]?.string,
                                      category: category, verb: verb, parameters: parameters, phrases: phrases,
                                      responses: responses, summary: summary,
                                      needsConfirmation: category == .order || needsConfirmation,
                                      needsAuthentication: category == .order || needsAuthentication, systemDomain: nil)
        intent.ownCommandPhrases = ownCommandPhrases
        for (index, entry, template) in optioned {
            let options = phraseOptions(entry, template: template, of: intent, types: types)
            if options != PhraseOptions() { intent.phraseOptions[index] = options }
        }
        return intent
    }

    /// `only:` and `set:` of one phrase: `only:` limits parameters the phrase says to some of
    /// their values (by id), `set:` gives parameters it does not say a value.
    mutating func phraseOptions(_ entry: Node.Mapping, template: PhraseTemplate, of intent: IntentDefinition,
                                        types: [String: EnumeratedType]) -> PhraseOptions {
        var options = PhraseOptions()
        if let onlyNode = entry["only"], let only = mapping(onlyNode, what: "only") {
            for (key, value) in only {
                guard let parameterName = key.string else { continue }
                guard let parameter = intent.parameter(named: parameterName) else {
                    problem(at: key, "only: names \(parameterName), which is not a parameter of \(intent.name)")
                    continue
                }
                guard template.parameterNames.contains(parameterName) else {
                    problem(at: key, "only: names <\(parameterName)>, which the phrase \"\(template)\" does not say")
                    continue
                }
                guard let typeName = parameter.enumerationName, let type = types[typeName] else {
                    problem(at: key, "only: limits parameters of an app's own types; \(parameterName) is \(parameter.type.name)")
                    continue
                }
                let ids = value.string.map { [$0] } ?? stringList(value) ?? []
                guard !ids.isEmpty else {
                    problem(at: value, "only: \(parameterName) is a list of its values' ids")
                    continue
                }
                let known = Set(type.values.map(\.identifier))
                for id in ids where !known.contains(id) {
                    problem(at: value, "only: \(parameterName) names \"\(id)\", which is not a value of \(typeName) " +
                            "(its ids: \(type.values.map(\.identifier).joined(separator: ", ")))")
                }
                options.only[parameterName] = ids.filter(known.contains)
            }
        }
        options.presets = presets(entry["set"], of: intent)
        for name in options.presets.keys.sorted() where template.parameterNames.contains(name) {
            problem(at: entry["set"] ?? entry["phrase"]!, "set: gives <\(name)> a value, but the phrase \"\(template)\" says it")
        }
        if let room = entry["room"] {
            let names = room.string.map { [$0] } ?? stringList(room) ?? []
            if names.isEmpty { problem(at: room, "room: names the parameters the room that heard the phrase gives") }
            for name in names {
                if intent.parameter(named: name)?.enumerationName == nil {
                    problem(at: room, "room: names \(name), which is not a parameter of \(intent.name) with a list of values (areas)")
                } else if template.parameterNames.contains(name) {
                    problem(at: room, "room: gives <\(name)> the room's value, but the phrase \"\(template)\" says it")
                } else {
                    options.fromRoom.append(name)
                }
            }
        }
        return options
    }

    mutating func phrase(_ item: Node, parameters: [ParameterDefinition], owner: String) -> PhraseTemplate? {
        guard let source = item.string else {
            problem(at: item, "a phrase is a string")
            return nil
        }
        do {
            let template = try PhraseTemplate(withAppNames(source, parameters: parameters))
            for reference in template.parameterNames {
                guard let parameter = parameters.first(where: { $0.name == reference }) else {
                    problem(at: item, "phrase \"\(source)\" names <\(reference)>, which is not a parameter of \(owner)")
                    continue
                }
                if parameter.type == .text { checkFreeText(in: template, named: reference, parameters: parameters, at: item) }
            }
            return template
        } catch {
            problem(at: item, error.description)
            return nil
        }
    }

    /// `<app>` in a phrase is any of the app's names, as Siri's App Shortcuts say
    /// `\(.applicationName)`: "order my usual from <app>" is also "order my usual from the cafe"
    /// when the cafe is one of its names. An intent's own parameter called `app` keeps the name.
    func withAppNames(_ source: String, parameters: [ParameterDefinition]) -> String {
        guard source.contains(Self.appPlaceholder), !parameters.contains(where: { $0.name == "app" }) else { return source }
        let spoken = appNames.map { Grammar.words(of: $0).joined(separator: " ") }.filter { !$0.isEmpty }
        return source.replacingOccurrences(of: Self.appPlaceholder, with: "(" + spoken.joined(separator: " | ") + ")")
    }

    static let appPlaceholder = "<app>"

    /// Free text said inside a phrase ("add <item> to my shopping list") is found between the
    /// phrase's other words and parameters, so a phrase says at most one, with at least one
    /// other word beside it (a parameter's words count), however the phrase is said. Heard by
    /// dictation with only one ("announce <message>"), it is asked about before it is acted on.
    mutating func checkFreeText(in template: PhraseTemplate, named name: String, parameters: [ParameterDefinition], at item: Node) {
        let texts = template.parameterNames.filter { said in parameters.contains { $0.name == said && $0.type == .text } }
        guard texts.count == 1 else {
            if texts.first == name {
                problem(at: item, "phrase \"\(template)\" says free text twice (<\(texts.joined(separator: ">, <"))>): "
                        + "nothing would tell where one ends and the next begins; ask for one of them instead")
            }
            return
        }
        let sentences = PhraseExpansion.sentences(of: template) ?? []
        if sentences.isEmpty || sentences.contains(where: { $0.filter { $0 != "<\(name)>" }.isEmpty }) {
            problem(at: item, "phrase \"\(template)\": <\(name)> is free text; said inside a phrase it needs another word "
                    + "beside it, however the phrase is said, to tell it from anything else said (or ask for it instead)")
        }
    }

    /// `ownCommandPhrases:`: phrases of Hark's own commands ("never mind"), words as said.
    mutating func phrasesOfOwnCommands(_ node: Node) -> [String] {
        guard let list = stringList(node) else {
            problem(at: node, "ownCommandPhrases: is a list of phrases of Hark's own commands")
            return []
        }
        let own = Set(ReservedPhrases.all.map { Grammar.words(of: $0).joined(separator: " ") })
        return list.compactMap { phrase in
            let said = Grammar.words(of: phrase).joined(separator: " ")
            guard own.contains(said) else {
                problem(at: node, "ownCommandPhrases: \"\(phrase)\" is none of Hark's own commands (hark chat's \"help\" lists them)")
                return nil
            }
            return said
        }
    }

    mutating func handlerSpec(_ node: Node?) -> HandlerSpec {
        guard let node else { return .inProcess }
        guard let body = mapping(node, what: "handler") else { return .inProcess }
        checkKeys(body, allowed: ["command", "timeout"])
        guard let commandNode = body["command"], let command = stringList(commandNode), !command.isEmpty else {
            problem(at: node, "handler: needs command: [program, arguments…] (run directly, never through a shell)")
            return .inProcess
        }
        let timeout = body["timeout"]?.float ?? 5
        if timeout <= 0 || timeout > 60 { problem(at: body["timeout"] ?? node, "timeout: is seconds between 0 and 60") }
        return .program(command: command, timeoutSeconds: timeout)
    }

    mutating func responseTemplate(_ node: Node, parameters: [ParameterDefinition]) -> ResponseTemplate? {
        guard let source = node.string else {
            problem(at: node, "a response is a string")
            return nil
        }
        do {
            let template = try ResponseTemplate(source)
            for name in template.placeholders
            where !ResponseTemplate.systemPlaceholders.contains(name) && !name.hasPrefix("result.")
                && !parameters.contains(where: { $0.name == name }) {
                problem(at: node, "response \"\(source)\" names ${\(name)}, which is not a parameter " +
                        "(values the handler returns are ${result.name})")
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

    mutating func problem(at node: Node, _ reason: String) {
        problems.append(.init(file: file, line: node.mark?.line, reason: reason))
    }

    mutating func warn(at node: Node, _ reason: String) {
        warnings.append(.init(file: file, line: node.mark?.line, reason: reason))
    }

    mutating func flag(_ node: Node?, default value: Bool) -> Bool {
        guard let node else { return value }
        if let flag = node.bool { return flag }
        problem(at: node, "expected true or false")
        return value
    }

    mutating func mapping(_ node: Node, what: String) -> Node.Mapping? {
        guard let mapping = node.mapping else {
            problem(at: node, "\(what) should be a mapping")
            return nil
        }
        return mapping
    }

    mutating func requiredString(_ mapping: Node.Mapping, _ key: String, at node: Node) -> String? {
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

    mutating func stringList(_ node: Node?) -> [String]? {
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

    mutating func checkKeys(_ mapping: Node.Mapping, allowed: Set<String>) {
        for (key, _) in mapping {
            guard let name = key.string else { continue }
            if !allowed.contains(name) {
                problem(at: key, "unknown key \"\(name)\"; expected one of \(allowed.sorted().joined(separator: ", "))")
            }
        }
    }
}
