import Foundation
import HarkGrammar
import HarkIntents
import HarkShortcuts

// MARK: State

extension DialogueEngine {
    enum QuestionKind: Sendable, Equatable {
        case value(String)
        case choice(String, [EnumeratedValue])
        case defaultValue(String, ParameterValue)
        case confirmValue(String, ParameterValue)
        case confirmation
        case pin
        /// "Shall I do that?" after a suggestion.
        case suggestion
    }

    struct Question: Sendable {
        var kind: QuestionKind
        var speech: String
        /// Said when the first answer was not understood: shorter.
        var short: String
    }

    /// A personal shortcut on its way through its steps.
    struct Chain: Sendable {
        var shortcut: PersonalShortcut
        /// The step running now, from 0.
        var step = 0
        /// What earlier steps said in this turn, still to be spoken.
        var said: [String] = []
        /// What earlier steps carried out in this turn, still to be reported.
        var handled: [HandledIntent] = []
    }

    indirect enum State: Sendable {
        case idle
        case asking(Question, Pending, attempts: Int)
        /// "Did you say …?" was asked about `heard`; `before` is where the conversation was;
        /// `otherwise` is asked about after a "no" (`DialogueInput.unsure`).
        case checking([String], before: State, otherwise: [String]?)
        /// "Which app …?": the request's words mean something in each of these apps.
        case choosingApp([IntentMatch], attempts: Int)
    }

    /// A request on its way through resolve, confirm and handle.
    struct Pending: Sendable {
        var app: AppManifest
        var intent: IntentDefinition
        var values: [String: ParameterValue] = [:]
        /// What was said for each value, to name it in questions ("Which Amy?").
        var heard: [String: String] = [:]
        var ambiguous: [String: [EnumeratedValue]] = [:]
        /// Parameters asked for even if optional: the phrase takes them from a room not known.
        var needed: Set<String> = []
        var resolved: Set<String> = []
        /// Values given or changed since the handler last resolved them.
        var unresolved: Set<String> = []
        var declinedDefaults: Set<String> = []
        var confirmed = false
        var authenticated = false
        /// Values the handler returned for `${result.…}` placeholders.
        var results: [String: String] = [:]
        /// Said before the next question (a specific error about the last answer).
        var preface: String?
        /// Whether the app has been named in this conversation (or needs no naming).
        var attributed = false
        /// The shortcut this request is a step of, if any.
        var chain: Chain?

        init(app: AppManifest, intent: IntentDefinition) {
            self.app = app
            self.intent = intent
        }

        var key: String { "\(app.identifier).\(intent.name)" }

        var request: IntentRequest {
            IntentRequest(app: app.identifier, intent: intent.name, values: values)
        }
    }
}
