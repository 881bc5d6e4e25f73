import Foundation
import HarkGrammar
import HarkIntents
public import HarkShortcuts

/// Personal shortcuts (one step after another) and "any suggestions?".
extension DialogueEngine {
    // MARK: Personal shortcuts

    /// Runs a person's shortcut: its first step now, each next one when the one before succeeds.
    mutating func run(_ shortcut: PersonalShortcut) async -> DialogueReply {
        guard !shortcut.steps.isEmpty else { return end("Your shortcut \"\(shortcut.phrase)\" has nothing to do yet.") }
        return await runStep(Chain(shortcut: shortcut), results: [:])
    }

    /// Starts the chain's current step with its values; `${result.NAME}` in a value is an output of the step before.
    mutating func runStep(_ chain: Chain, results: [String: String]) async -> DialogueReply {
        let step = chain.shortcut.steps[chain.step]
        guard let app = catalog.app(step.app), let intent = app.intent(named: step.intent) else {
            return stopChain(chain, "Your shortcut \"\(chain.shortcut.phrase)\" uses \(step.app) to \(step.intent), " +
                             "which isn't installed any more.")
        }
        var pending = Pending(app: app, intent: intent)
        // Named once in a row: a step of the same app as the one before goes unnamed.
        pending.attributed = memory.isFamiliar(pending.key) || (chain.step > 0 && chain.shortcut.steps[chain.step - 1].app == step.app)
        pending.chain = chain
        var fill: [String: String] = [:]
        for (name, value) in results { fill["result.\(name)"] = value }
        for (name, source) in step.values.sorted(by: { $0.key < $1.key }) {
            guard let parameter = intent.parameter(named: name) else { continue }
            var text = source
            if let template = try? ResponseTemplate(source), !template.placeholders.isEmpty {
                if let missing = template.placeholders.first(where: { $0.hasPrefix("result.") && fill[$0] == nil }) {
                    let output = missing.dropFirst("result.".count)
                    return stopChain(chain, "Step \(chain.step + 1) needs the \(output) from step \(chain.step), " +
                                     "and \(chain.step > 0 ? catalog.app(chain.shortcut.steps[chain.step - 1].app)?.name ?? "that app" : "nothing") didn't give one.")
                }
                text = template.render(fill)
            }
            switch catalog.read(preset: text, for: parameter, in: app, reader: reader) {
            case .value(let value):
                pending.values[name] = value
                pending.unresolved.insert(name)
            case .unsupported(let reason):
                var failing = pending
                return end(reason, pending: &failing)
            case .notAValue:
                continue   // asked for, as if it had not been set
            }
        }
        return await advance(pending)
    }

    /// Ends a shortcut that cannot go on, keeping what the earlier steps said.
    mutating func stopChain(_ chain: Chain, _ reason: String) -> DialogueReply {
        let stop = chain.shortcut.isMultistep
            ? " So your shortcut \"\(chain.shortcut.phrase)\" stopped at step \(chain.step + 1) of \(chain.shortcut.steps.count)." : ""
        state = .idle
        return DialogueReply(speech: (chain.said + [reason + stop]).joined(separator: " "), expectsAnswer: false,
                             handledIntents: chain.handled)
    }

    // MARK: Suggestions

    /// "Any suggestions?": the shortcut most likely wanted now, offered to run.
    mutating func suggest() async -> DialogueReply {
        guard let service = shortcutsService, let top = await service.suggestions(at: clock()).first,
              let app = catalog.app(top.app), let intent = app.intent(named: top.intent) else {
            return end(Self.noSuggestions)
        }
        var pending = Pending(app: app, intent: intent)
        pending.values = top.values
        pending.unresolved = Set(top.values.keys)
        // Hark is speaking for itself here; the app is named when it answers.
        pending.attributed = true
        let title = top.title.prefix(1).lowercased() + top.title.dropFirst()
        return ask(.suggestion, "Here's a suggestion: \(title). Shall I do that?", short: "Shall I \(title)?", pending: pending)
    }


    /// Runs a personal shortcut as if its phrase had been said (an automation, a test),
    /// dropping any conversation under way first.
    public mutating func runShortcut(_ shortcut: PersonalShortcut) async -> DialogueReply {
        reset()
        let reply = await run(shortcut)
        if !reply.speech.isEmpty { lastSpoken = reply.speech }
        if reply.endsConversation {
            state = .idle
            expectTopLevel()
        }
        return reply
    }
}
