import Foundation
import HarkGrammar

/// Intents Hark itself defines, in the spirit of SiriKit's domains: an app
/// adopts them (`systemIntents: [SendMessage]`) instead of inventing its own,
/// and people get the same phrases and questions whichever app answers.
///
/// Their enumerated types (Contact, Media, ...) are the app's to fill: declare
/// a type of the same name in the manifest, usually `dynamic: true` so the
/// handler supplies the values at run time.
public enum SystemIntents {
    public struct Definition: Sendable {
        public var domain: String
        public var name: String
        public var title: String
        public var category: IntentCategory
        public var parameters: [ParameterDefinition]
        /// Templates; "{app}" stands for the app's names.
        public var phrases: [String]
        public var confirmation: String?
        public var success: String
        public var needsConfirmation: Bool
        /// Types the parameters use when the app does not declare them.
        public var defaultTypes: [String: [String]]
        /// One of the category's verbs, when not its default.
        public var verb: String? = nil
    }

    /// The types whose values are people: a long list of them is offered with "or someone else".
    public static let personTypes: Set<String> = ["Contact"]

    public static let all: [Definition] = [
        Definition(domain: "messaging", name: "SendMessage", title: "Send a message", category: .share,
                   parameters: [
                       .init(name: "recipient", type: .enumeration("Contact"), isRequired: true,
                             prompt: "Who do you want to send it to?", shortPrompt: "To whom?"),
                       .init(name: "content", type: .text, isRequired: true,
                             prompt: "What do you want to say?", shortPrompt: "Saying what?"),
                   ],
                   phrases: ["send a message [to <recipient>] [(with | on | using) {app}]",
                             "(message | text) <recipient> [(with | on | using) {app}]"],
                   confirmation: "To ${recipient}: ${content}.", success: "OK. Sent.", needsConfirmation: true,
                   defaultTypes: [:], verb: "send"),
        Definition(domain: "media", name: "PlayMedia", title: "Play something", category: .start,
                   parameters: [
                       .init(name: "mediaType", type: .enumeration("MediaType"), isRequired: false, prompt: nil),
                       .init(name: "mediaName", type: .enumeration("Media"), isRequired: true,
                             prompt: "What do you want to hear?", shortPrompt: "What should I play?"),
                   ],
                   phrases: ["play [the] [<mediaType>] <mediaName> [(on | with | in) {app}]",
                             "play something [(on | with | in) {app}]"],
                   confirmation: nil, success: "Playing ${mediaName}.", needsConfirmation: false,
                   defaultTypes: ["MediaType": ["song", "album", "playlist", "podcast", "station"]]),
        Definition(domain: "workouts", name: "StartWorkout", title: "Start a workout", category: .start,
                   parameters: [
                       .init(name: "workout", type: .enumeration("Workout"), isRequired: true,
                             prompt: "What kind of workout?", shortPrompt: "Which workout?"),
                   ],
                   phrases: ["start [a] [<workout>] workout [(with | in | on) {app}]", "start [a] <workout> [(with | in | on) {app}]"],
                   confirmation: nil, success: "Starting your ${workout} workout.", needsConfirmation: false,
                   defaultTypes: ["Workout": ["run", "walk", "bike ride", "swim", "yoga"]]),
        Definition(domain: "workouts", name: "PauseWorkout", title: "Pause the workout", category: .other,
                   parameters: [], phrases: ["pause [my] [the] workout [(with | in | on) {app}]"],
                   confirmation: nil, success: "Workout paused.", needsConfirmation: false, defaultTypes: [:]),
        Definition(domain: "workouts", name: "ResumeWorkout", title: "Resume the workout", category: .other,
                   parameters: [], phrases: ["resume [my] [the] workout [(with | in | on) {app}]"],
                   confirmation: nil, success: "Workout resumed.", needsConfirmation: false, defaultTypes: [:]),
        Definition(domain: "workouts", name: "EndWorkout", title: "End the workout", category: .other,
                   parameters: [], phrases: ["(end | stop) [my] [the] workout [(with | in | on) {app}]"],
                   confirmation: nil, success: "Workout ended.", needsConfirmation: false, defaultTypes: [:]),
        Definition(domain: "notes", name: "CreateNote", title: "Make a note", category: .create,
                   parameters: [
                       .init(name: "content", type: .text, isRequired: true,
                             prompt: "What should the note say?", shortPrompt: "Saying what?"),
                   ],
                   phrases: ["(make | create | take) a note [(with | in | on) {app}]"],
                   confirmation: nil, success: "Noted.", needsConfirmation: false, defaultTypes: [:]),
        Definition(domain: "lists", name: "AddToList", title: "Add to a list", category: .create,
                   parameters: [
                       .init(name: "list", type: .enumeration("List"), isRequired: true,
                             prompt: "Which list?"),
                       .init(name: "item", type: .text, isRequired: true,
                             prompt: "What do you want to add?", shortPrompt: "Add what?"),
                   ],
                   phrases: ["add to [my] <list> list [(with | in | on) {app}]", "add something to [my] <list> list"],
                   confirmation: nil, success: "Added ${item} to your ${list} list.", needsConfirmation: false,
                   defaultTypes: [:]),
    ]

    public static func definition(named name: String) -> Definition? {
        all.first { $0.name == name }
    }

    /// The names of the domains and their intents, for messages.
    public static var catalogue: String {
        Dictionary(grouping: all, by: \.domain).sorted { $0.key < $1.key }
            .map { "\($0.key): \($0.value.map(\.name).joined(separator: ", "))" }.joined(separator: "; ")
    }

    /// The intent as an app adopting it sees it, with its names in the phrases.
    static func intent(_ definition: Definition, appNames: [String]) throws -> IntentDefinition {
        let names = "(" + appNames.map { $0.lowercased() }.joined(separator: " | ") + ")"
        let phrases = try definition.phrases.map { try PhraseTemplate($0.replacingOccurrences(of: "{app}", with: names)) }
        return IntentDefinition(
            name: definition.name, title: definition.title, description: nil, category: definition.category,
            verb: definition.verb ?? CategoryDialogue.of(definition.category).defaultVerb, parameters: definition.parameters,
            phrases: phrases,
            responses: ResponseTemplates(confirmation: try definition.confirmation.map { try ResponseTemplate($0) },
                                         success: try ResponseTemplate(definition.success)),
            summary: nil, needsConfirmation: definition.needsConfirmation, needsAuthentication: false,
            systemDomain: definition.domain)
    }
}
