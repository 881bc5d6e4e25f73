/// A request understood: the app, the intent and the parameter values heard.
public struct IntentMatch: Sendable, Equatable {
    public struct Value: Sendable, Equatable {
        public var value: ParameterValue
        /// What the person actually said for it (perhaps a synonym).
        public var heard: String

        public init(value: ParameterValue, heard: String) {
            self.value = value
            self.heard = heard
        }

        public var identifier: String { value.identifier }
        public var spoken: String { value.spoken }
    }

    public var app: AppManifest
    public var intent: IntentDefinition
    public var values: [String: Value]
    /// Parameters the phrase takes from the room that heard it (`PhraseOptions.fromRoom`).
    public var fromRoom: [String] = []
    /// Words that fit several values ("Amy" for Amy Smith and Amy Jones).
    public struct Ambiguity: Sendable, Equatable {
        public var heard: String
        public var candidates: [EnumeratedValue]

        public init(heard: String, candidates: [EnumeratedValue]) {
            self.heard = heard
            self.candidates = candidates
        }
    }

    /// Parameters whose words fit several values: the candidates, to ask which.
    public var ambiguous: [String: Ambiguity] = [:]
    /// Parameters whose words were understood but are not accepted, with the reason to speak.
    public var unsupported: [String: String] = [:]
    /// The App Shortcut that was said, by index, if it was one.
    public var shortcut: Int?

    public init(app: AppManifest, intent: IntentDefinition, values: [String: Value]) {
        self.app = app
        self.intent = intent
        self.values = values
    }
}
