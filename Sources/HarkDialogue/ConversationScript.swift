public import Foundation
import HarkIntents
public import HarkShortcuts

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
/// and its values (identifiers), in any order; a turn that runs several steps
/// of a shortcut has one `handled:` line per step, in order.
///
/// A `shortcut:` line gives the person a shortcut for the whole script: its
/// phrase in quotes, then each step as APP.INTENT and name=value pairs (quote a
/// value with spaces), steps joined by `then`:
///
///     shortcut: "lunch run" soup.OrderSoup soup=minestrone then messages.SendMessage content="Ready in ${result.minutes}"
public struct ConversationScript: Sendable, Equatable {
    public struct Turn: Sendable, Equatable {
        public var line: Int
        public var said: String
        public var expected: String?
        public var handled: [String] = []
    }

    public var turns: [Turn]
    public var pin: String?
    public var shortcuts: [PersonalShortcut] = []
    /// The time the conversation happens at (`clock: 2026-03-06T12:30:00Z`); now when not given.
    public var clock: Date?

    public struct SyntaxError: Error, CustomStringConvertible, Sendable {
        public var line: Int
        public var reason: String
        public var description: String { "line \(line): \(reason)" }
    }

    public init(_ text: String) throws(SyntaxError) {
        var turns: [Turn] = []
        var pin: String?
        var shortcuts: [PersonalShortcut] = []
        var clock: Date?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let number = index + 1
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") { continue }
            guard let colon = line.firstIndex(of: ":") else {
                throw SyntaxError(line: number, reason: "expected \"you:\", \"hark:\", \"handled:\", \"pin:\", \"shortcut:\" or \"clock:\"")
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
                guard let last = turns.indices.last else {
                    throw SyntaxError(line: number, reason: "\"handled:\" must follow a turn")
                }
                turns[last].handled.append(Self.normalisedHandled(value))
            case "clock":
                guard let date = ISO8601DateFormatter().date(from: value) else {
                    throw SyntaxError(line: number, reason: "clock: is an ISO date and time, e.g. 2026-03-06T12:30:00Z")
                }
                clock = date
            case "shortcut":
                shortcuts.append(try Self.shortcut(value, id: Int64(shortcuts.count + 1), line: number))
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
        self.shortcuts = shortcuts
        self.clock = clock
    }

    /// `"phrase" app.Intent name=value … then app.Intent …`.
    static func shortcut(_ text: String, id: Int64, line: Int) throws(SyntaxError) -> PersonalShortcut {
        let tokens = words(text)
        guard let phrase = tokens.first, tokens.count > 1 else {
            throw SyntaxError(line: line, reason: "shortcut: is \"phrase\" APP.INTENT name=value … [then APP.INTENT …]")
        }
        var steps: [ShortcutStep] = []
        for token in tokens.dropFirst() {
            if token == "then" { continue }
            if let equals = token.firstIndex(of: "="), let last = steps.indices.last {
                steps[last].values[String(token[..<equals])] = String(token[token.index(after: equals)...])
            } else if let target = ShortcutStep.target(token) {
                steps.append(ShortcutStep(app: target.app, intent: target.intent))
            } else {
                throw SyntaxError(line: line, reason: "\"\(token)\" is neither APP.INTENT nor name=value")
            }
        }
        return PersonalShortcut(id: id, phrase: phrase, steps: steps)
    }

    /// Splits on spaces, keeping "quoted text" (quotes removed) together.
    static func words(_ text: String) -> [String] {
        var words: [String] = []
        var current = ""
        var quoted = false
        var started = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if character == " " && !quoted {
                if started { words.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        if started { words.append(current) }
        return words
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
        if !shortcuts.isEmpty { engine.setPersonalShortcuts(engine.personalShortcuts + shortcuts) }
        if let clock { engine.clock = { clock } }
        for turn in turns {
            let answersPIN = engine.isAskingForPIN
            let reply = await engine.respond(to: turn.said.isEmpty ? .silence : .text(turn.said))
            transcript(answersPIN ? hiddenPIN : turn.said, reply)
            if let expected = turn.expected, expected != reply.speech {
                mismatches.append(Mismatch(line: turn.line, expected: expected, actual: reply.speech))
            }
            let done = reply.handledIntents.map { Self.normalisedHandled(Self.describe($0)) }
            let expected = turn.handled == ["nothing"] ? [] : turn.handled
            if !turn.handled.isEmpty, expected != done {
                mismatches.append(Mismatch(line: turn.line, expected: "handled: " + turn.handled.joined(separator: "; "),
                                           actual: "handled: " + (done.isEmpty ? "nothing" : done.joined(separator: "; "))))
            }
        }
        return mismatches
    }
}
