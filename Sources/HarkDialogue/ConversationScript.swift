public import Foundation
import HarkIntents

/// A conversation written down, to replay and check:
///
///     # comments and blank lines are ignored
///     pin: 1234                  (the owner's PIN for this script; none by default)
///     you: order a large coffee
///     hark: What milk?
///     you:                       (nothing said: silence)
///     hark: Whole milk, oat milk or cream?
///     handled: coffee.OrderCoffee milk=cream size=large
///
/// Each `you:` line is one turn; the `hark:` line after it is what Hark must
/// say, exactly. A `handled:` line checks the intent carried out in that turn
/// and its values (identifiers), in any order.
public struct ConversationScript: Sendable, Equatable {
    public struct Turn: Sendable, Equatable {
        public var line: Int
        public var said: String
        public var expected: String?
        public var handled: String?
    }

    public var turns: [Turn]
    public var pin: String?

    public struct SyntaxError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public init(_ text: String) throws(SyntaxError) {
        var turns: [Turn] = []
        var pin: String?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw SyntaxError(line: number, reason: "expected \"you:\", \"hark:\", \"handled:\" or \"pin:\"")
            }
            let key = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch key {
            case "you":
                turns.append(Turn(line: number, said: value))
            case "hark":
                guard let last = turns.indices.last, turns[last].expected == nil else {
                    throw SyntaxError(line: number, reason: "\"hark:\" must follow a \"you:\" line")
                }
                turns[last].expected = value
            case "handled":
                guard let last = turns.indices.last, turns[last].handled == nil else {
                    throw SyntaxError(line: number, reason: "\"handled:\" must follow a turn")
                }
                turns[last].handled = Self.normalisedHandled(value)
            case "pin":
                guard !value.isEmpty, value.allSatisfy(\.isNumber) else {
                    throw SyntaxError(line: number, reason: "pin: is digits")
                }
                pin = value
            default:
                throw SyntaxError(line: number, reason: "unknown line kind \"\(key):\"")
            }
        }
        self.turns = turns
        self.pin = pin
    }

    static func normalisedHandled(_ text: String) -> String {
        let parts = text.split(separator: " ").map(String.init)
        guard let head = parts.first else { return "" }
        return ([head] + parts.dropFirst().sorted()).joined(separator: " ")
    }

    static func describe(_ handled: HandledIntent?) -> String {
        guard let handled else { return "nothing" }
        let values = handled.request.values.map { "\($0.key)=\($0.value.identifier)" }.sorted()
        return ([handled.request.app + "." + handled.request.intent] + values).joined(separator: " ")
    }

    /// One line of a replayed script where Hark did not do what it says.
    public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
        public var line: Int
        public var expected: String
        public var actual: String
        public var description: String { "line \(line): expected \"\(expected)\", got \"\(actual)\"" }
    }

    /// Plays every turn into `engine`, calling `transcript` with each exchange,
    /// and returns where the replies differ from the script.
    public func run(_ engine: inout DialogueEngine,
                    transcript: (_ said: String, _ reply: DialogueReply) -> Void = { _, _ in }) async -> [Mismatch] {
        var mismatches: [Mismatch] = []
        for turn in turns {
            let reply = await engine.respond(to: turn.said.isEmpty ? .silence : .text(turn.said))
            transcript(turn.said, reply)
            if let expected = turn.expected, expected != reply.speech {
                mismatches.append(Mismatch(line: turn.line, expected: expected, actual: reply.speech))
            }
            if let handled = turn.handled, handled != Self.normalisedHandled(Self.describe(reply.handled)) {
                mismatches.append(Mismatch(line: turn.line, expected: "handled: \(handled)",
                                           actual: "handled: \(Self.describe(reply.handled))"))
            }
        }
        return mismatches
    }
}
