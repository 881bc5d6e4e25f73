public import Foundation
import HarkIntents
import Yams

/// The steps of a multistep shortcut, written in YAML:
///
///     - intent: soup.OrderSoup
///       set: {soup: minestrone, orderType: pickup, storeLocation: harbor}
///     - intent: messages.SendMessage
///       set: {recipient: amy_jones, content: "Soup's ready in ${result.minutes} minutes."}
///
/// `${result.NAME}` in a value is an output of the step before.
public enum StepsFile {
    public struct SyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    public static func steps(yaml: String) throws(SyntaxError) -> [ShortcutStep] {
        if let line = YAMLNesting.lineTooDeep(yaml) {
            throw SyntaxError(reason: "line \(line) nests more than \(YAMLNesting.limit) levels deep")
        }
        let loaded: Any?
        do {
            loaded = try Yams.load(yaml: yaml)
        } catch {
            throw SyntaxError(reason: "not valid YAML: \(error)")
        }
        guard let list = loaded as? [Any], !list.isEmpty else {
            throw SyntaxError(reason: "expected a list of steps, each {intent: APP.INTENT, set: {name: value}}")
        }
        var steps: [ShortcutStep] = []
        for (index, item) in list.enumerated() {
            guard let entry = item as? [String: Any], let target = (entry["intent"] as? String).flatMap(ShortcutStep.target) else {
                throw SyntaxError(reason: "step \(index + 1): needs intent: APP.INTENT (e.g. soup.OrderSoup)")
            }
            if let unknown = entry.keys.first(where: { !["intent", "set"].contains($0) }) {
                throw SyntaxError(reason: "step \(index + 1): unknown key \"\(unknown)\"; a step has intent: and set:")
            }
            var values: [String: String] = [:]
            if let set = entry["set"] {
                guard let mapping = set as? [String: Any] else {
                    throw SyntaxError(reason: "step \(index + 1): set: is a mapping of parameter: value")
                }
                for (name, value) in mapping { values[name] = "\(value)" }
            }
            steps.append(ShortcutStep(app: target.app, intent: target.intent, values: values))
        }
        return steps
    }

    public static func steps(contentsOf url: URL) throws -> [ShortcutStep] {
        try steps(yaml: String(contentsOf: url, encoding: .utf8))
    }
}
