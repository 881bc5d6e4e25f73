public import HarkGrammar

/// One installed app, as its `app.yaml` declares it.
public struct AppManifest: Sendable, Equatable {
    /// The app's folder name: stable, and how the app is addressed in tags and logs.
    public var identifier: String
    /// The name people say and hear ("Home").
    public var name: String
    public var alternativeNames: [String]
    public var description: String?
    /// App-defined enumerations, by type name.
    public var types: [String: EnumeratedType]
    /// In the order the manifest lists them: the order breaks ties in recognition.
    public var intents: [IntentDefinition]
    /// Where the manifest came from, for messages.
    public var file: String

    public func intent(named name: String) -> IntentDefinition? {
        intents.first { $0.name == name }
    }
}

/// An enumeration of values with their spoken names, e.g. the lights in a house.
public struct EnumeratedType: Sendable, Equatable {
    public var name: String
    public var values: [EnumeratedValue]

    public func value(identifier: String) -> EnumeratedValue? {
        values.first { $0.identifier == identifier }
    }
}

public struct EnumeratedValue: Sendable, Equatable {
    /// What the app receives.
    public var identifier: String
    /// How Hark says it, and the first way it listens for it.
    public var spoken: String
    /// Other ways people say it ("bowl" for large).
    public var synonyms: [String]

    public var spokenForms: [String] { [spoken] + synonyms }
}

/// The categories of the custom-intents guidance; each implies a verb and default dialogue.
public enum IntentCategory: String, Sendable, CaseIterable {
    case generic, information, order, start, share, create, search, download, other
}

public struct IntentDefinition: Sendable, Equatable {
    /// VerbNoun, e.g. "ChangeLightState".
    public var name: String
    public var title: String
    public var description: String?
    public var category: IntentCategory
    public var parameters: [ParameterDefinition]
    public var phrases: [PhraseTemplate]
    public var responses: ResponseTemplates

    public func parameter(named name: String) -> ParameterDefinition? {
        parameters.first { $0.name == name }
    }
}

public struct ParameterDefinition: Sendable, Equatable {
    public var name: String
    /// The name of an enumerated type in the same manifest.
    public var typeName: String
    public var isRequired: Bool
    /// What Hark asks when a required value is missing.
    public var prompt: String?

    public init(name: String, typeName: String, isRequired: Bool, prompt: String?) {
        self.name = name
        self.typeName = typeName
        self.isRequired = isRequired
        self.prompt = prompt
    }
}

public struct ResponseTemplates: Sendable, Equatable {
    /// Spoken when the intent has been carried out.
    public var success: ResponseTemplate
}
