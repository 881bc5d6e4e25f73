import Foundation
import HarkIntents
import Yams

/// Turns Picovoice Rhino's context YAML into a Hark app, through the same writer as Rhasspy's:
/// `context: expressions:` → intents and their phrases, `$type:slot` → a parameter with the
/// type's values from `slots:`, `[a, b]` → a choice, `(words)` → optional words. What Hark
/// cannot hold (`@macros`, anything else under `context:`) is reported by line.
public enum RhinoImporter {
    /// The app made of `text`, a context's YAML; `file` is the name notes are reported by.
    public static func makeApp(name: String, file: String, text: String) -> RhasspyImporter.Result {
        var notes: [String] = []
        var sections: [RhasspySentences.Section] = []
        var slots: [String: [String]] = [:]
        func note(_ node: Node?, _ text: String) {
            notes.append("\(file):\((node?.mark?.line).map(String.init) ?? "?"): \(text)")
        }
        let root: Node?
        if let line = YAMLNesting.lineTooDeep(text) {
            notes.append("\(file):\(line): nests more than \(YAMLNesting.limit) levels deep")
            root = nil
        } else {
            do {
                root = try Yams.compose(yaml: text)
            } catch {
                notes.append("\(file): not valid YAML: \(error)")
                root = nil
            }
        }
        guard let context = root?.mapping?["context"]?.mapping else {
            if root != nil { note(root, "expected context: with expressions: and slots:") }
            return RhasspyImporter.Result(app: ImportedApp(name: name, description: ""), report: notes)
        }
        for (key, value) in context {
            switch key.string {
            case "expressions":
                for (intentKey, list) in value.mapping ?? Node.Mapping([]) {
                    guard let intent = intentKey.string else { continue }
                    var sentences: [RhasspySentences.Line] = []
                    for item in list.sequence ?? [] {
                        guard let expression = item.string else { continue }
                        if expression.contains("@") {
                            note(item, "macros (@name) are not carried over, left out: \(expression)")
                            continue
                        }
                        do {
                            sentences.append(.init(expression: try RhasspySentences.expression(Self.rhasspyTemplate(expression)),
                                                   line: item.mark?.line ?? 0))
                        } catch {
                            note(item, "\(error.reason), left out: \(expression)")
                        }
                    }
                    sections.append(.init(intent: intent, line: intentKey.mark?.line ?? 0, sentences: sentences))
                }
            case "slots":
                for (typeKey, values) in value.mapping ?? Node.Mapping([]) {
                    guard let type = typeKey.string else { continue }
                    slots[type] = (values.sequence ?? []).compactMap(\.string)
                }
            default:
                note(key, "\(key.string ?? "this key") is not carried over")
            }
        }
        var importer = RhasspyImporter(file: file, sentences: RhasspySentences(sections: sections, notes: []), slots: slots,
                                       origin: "Rhino's", missingList: { "$\($0) is not in slots:" })
        var result = importer.makeApp(name: name)
        result.report = notes + result.report
        return result
    }

    /// Rhino's expression in Rhasspy's template language: `[a, b]` is a choice, `(words)` is
    /// optional, `$type:slot` is a slot of that type's values.
    static func rhasspyTemplate(_ expression: String) -> String {
        var out = ""
        var rest = Substring(expression)
        while let character = rest.first {
            rest = rest.dropFirst()
            switch character {
            case "[": out += "("
            case "]": out += ")"
            case ",": out += " |"
            case "(": out += "["
            case ")": out += "]"
            case "$":
                let reference = rest.prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == ":" }
                rest = rest.dropFirst(reference.count)
                let parts = reference.split(separator: ":", maxSplits: 1).map(String.init)
                let type = parts.first ?? ""
                out += "($\(type)){\(parts.count == 2 ? parts[1] : type)}"
            default: out.append(character)
            }
        }
        return out
    }
}
