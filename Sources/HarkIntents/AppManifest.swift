public import Foundation
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
    /// System intents the app adopts are here too, with Hark's own phrases and prompts.
    public var intents: [IntentDefinition]
    /// Phrases that work as soon as the app is installed (at most ten).
    public var shortcuts: [AppShortcut]
    /// Shortcuts the app offers for suggestions: some the person has not run yet,
    /// some worth offering at certain times of day.
    public var suggestions: [SuggestedShortcut] = []
    /// Words the app uses that the recogniser should know, with pronunciations where given.
    public var vocabulary: [VocabularyTerm]
    /// Who carries out the app's intents.
    public var handler: HandlerSpec
    /// Where the manifest came from, for messages.
    public var file: String
    /// The app's folder, where its handler program and data live; nil for manifests read from text.
    public var folder: URL?
    /// Things worth fixing that do not stop the app from working.
    public var warnings: [ManifestError.Problem] = []
    /// Whether a Wyoming client is told this app's intents by their own names ("HassTurnOn", as
    /// Home Assistant's are) rather than with the app's identifier ("home.ChangeLightState").
    public var bareIntentNames = false

    public func intent(named name: String) -> IntentDefinition? {
        intents.first { $0.name == name }
    }

    /// Every name the app answers to, its own first.
    public var names: [String] { [name] + alternativeNames }
}

/// An enumeration of values with their spoken names, e.g. the lights in a house.
public struct EnumeratedType: Sendable, Equatable {
    public var name: String
    public var values: [EnumeratedValue]
    /// The app's handler supplies the values at run time (store locations, contacts);
    /// `values` then holds only what the manifest lists to start with.
    public var isDynamic: Bool

    public init(name: String, values: [EnumeratedValue], isDynamic: Bool = false) {
        self.name = name
        self.values = values
        self.isDynamic = isDynamic
    }

    public func value(identifier: String) -> EnumeratedValue? {
        values.first { $0.identifier == identifier }
    }
}

public struct EnumeratedValue: Sendable, Equatable, Codable, Hashable {
    /// What the app receives.
    public var identifier: String
    /// How Hark says it, and the first way it listens for it.
    public var spoken: String
    /// Other ways people say it ("bowl" for large).
    public var synonyms: [String]

    public init(identifier: String, spoken: String, synonyms: [String] = []) {
        self.identifier = identifier
        self.spoken = spoken
        self.synonyms = synonyms
    }

    public var spokenForms: [String] { [spoken] + synonyms }
}

/// The categories of the custom-intents guidance; each implies verbs and default dialogue.
public enum IntentCategory: String, Sendable, CaseIterable {
    case generic, information, order, start, share, create, search, download, other
}

public struct IntentDefinition: Sendable, Equatable {
    /// VerbNoun, e.g. "ChangeLightState".
    public var name: String
    public var title: String
    public var description: String?
    public var category: IntentCategory
    /// The verb Hark uses for it: the category's default verb unless the manifest picks another of its verbs.
    public var verb: String
    /// In the order they are asked about.
    public var parameters: [ParameterDefinition]
    public var phrases: [PhraseTemplate]
    public var responses: ResponseTemplates
    /// "Order ${quantity} ${soup}", perhaps varying with a parent parameter.
    public var summary: ParameterSummary?
    /// Asked "Ready to order?" before it is handled. Always for the order category.
    public var needsConfirmation: Bool
    /// Confirmed with the owner's spoken PIN. Always for the order category.
    public var needsAuthentication: Bool
    /// Set for the system intents Hark defines (e.g. "messaging"), nil for an app's own.
    public var systemDomain: String?
    /// What some phrases add, by the phrase's index in `phrases` (see `PhraseOptions`).
    public var phraseOptions: [Int: PhraseOptions] = [:]
    /// Phrases of Hark's own commands this intent says in the app's words (`ownCommandPhrases:`,
    /// Home Assistant's "never mind"): Hark answers them itself, and a Wyoming client asking to
    /// `recognize` one is told this intent.
    public var ownCommandPhrases: [String] = []

    public func parameter(named name: String) -> ParameterDefinition? {
        parameters.first { $0.name == name }
    }
}

/// What one phrase of an intent says beyond its words, as Home Assistant's sentences do:
/// `{phrase: "lock [the] <name>", only: {name: [front_door, back_door]}, set: {action: lock}}`.
public struct PhraseOptions: Sendable, Equatable {
    /// Parameter → the ids of its values this phrase can be said with: "lock the garage door"
    /// is not a phrase when only the doors with locks are listed.
    public var only: [String: [String]] = [:]
    /// Parameter → the value this phrase gives it without saying it (like a shortcut's `set:`).
    public var presets: [String: String] = [:]
    /// Parameters this phrase takes from the room that heard it (`room: area`), as Home
    /// Assistant's "turn on the lights" means the satellite's own area.
    public var fromRoom: [String] = []

    public init(only: [String: [String]] = [:], presets: [String: String] = [:], fromRoom: [String] = []) {
        self.only = only
        self.presets = presets
        self.fromRoom = fromRoom
    }
}

public struct ParameterDefinition: Sendable, Equatable {
    public var name: String
    public var type: ParameterType
    public var isRequired: Bool
    /// What Hark asks when the value is missing ("Which soup?").
    public var prompt: String?
    /// A shorter question for people who have heard the prompt many times.
    public var shortPrompt: String?
    /// The value used when none is said: an enumerated value's id, or a value of a system type ("1").
    public var defaultValue: String?
    /// When set, the default is offered as a question ("Do you want ${grind}-ground coffee?")
    /// instead of being used silently; "no" leads to the full list.
    public var defaultQuestion: ResponseTemplate?
    /// Asked only when another parameter has one of these values (deliveryLocation when orderType is delivery).
    public var condition: ParameterCondition?
    /// Free text said inside a phrase ("add <item> to my shopping list") takes at most this
    /// many words (`maxWords:`); nil: `defaultMaxWords`.
    public var maxWords: Int?
    /// The name a Wyoming client is told for this parameter (`slot:`), where it differs from
    /// the parameter's own: two of an intent's parameters may stand for one slot of another
    /// assistant, each with its own values ("up by three" is 3, "down by three" -3).
    public var slotName: String?
    public static let defaultMaxWords = 4
    public static let maxWordsRange = 1...8

    public init(name: String, type: ParameterType, isRequired: Bool, prompt: String?, shortPrompt: String? = nil,
                defaultValue: String? = nil, defaultQuestion: ResponseTemplate? = nil, condition: ParameterCondition? = nil) {
        self.name = name
        self.type = type
        self.isRequired = isRequired
        self.prompt = prompt
        self.shortPrompt = shortPrompt
        self.defaultValue = defaultValue
        self.defaultQuestion = defaultQuestion
        self.condition = condition
    }

    /// The name of an app-declared type, nil for the system types.
    public var enumerationName: String? { type.enumerationName }
}

/// A parent parameter and the values of it that make a child parameter relevant.
public struct ParameterCondition: Sendable, Equatable {
    public var parent: String
    public var values: [String]

    public init(parent: String, values: [String]) {
        self.parent = parent
        self.values = values
    }
}

/// A sentence that begins with a verb and describes the action with its parameters.
public struct ParameterSummary: Sendable, Equatable {
    public var template: ResponseTemplate
    /// Variants by a parent parameter's value, checked in order before `template`.
    public var variants: [(condition: ParameterCondition, template: ResponseTemplate)]

    public init(template: ResponseTemplate, variants: [(condition: ParameterCondition, template: ResponseTemplate)] = []) {
        self.template = template
        self.variants = variants
    }

    public static func == (lhs: ParameterSummary, rhs: ParameterSummary) -> Bool {
        lhs.template == rhs.template && lhs.variants.map(\.template) == rhs.variants.map(\.template)
            && lhs.variants.map(\.condition) == rhs.variants.map(\.condition)
    }

    /// The template that fits the values chosen so far.
    public func template(for values: [String: String]) -> ResponseTemplate {
        variants.first { variant in
            values[variant.condition.parent].map(variant.condition.values.contains) ?? false
        }?.template ?? template
    }
}

public struct ResponseTemplates: Sendable, Equatable {
    /// Spoken before the category's own question ("Your large coffee comes to ${total}." + "Ready to order?").
    public var confirmation: ResponseTemplate?
    /// Spoken when the intent has been carried out; the category's default when nil.
    public var success: ResponseTemplate?
    /// Spoken when the app has started but not finished.
    public var inProgress: ResponseTemplate?
    /// Named failures an app's handler may report ("outOfStock": "Sorry, we're out of ${soup}.").
    public var failures: [String: ResponseTemplate]

    public init(confirmation: ResponseTemplate? = nil, success: ResponseTemplate? = nil,
                inProgress: ResponseTemplate? = nil, failures: [String: ResponseTemplate] = [:]) {
        self.confirmation = confirmation
        self.success = success
        self.inProgress = inProgress
        self.failures = failures
    }
}

/// A phrase that runs an intent from the moment the app is installed; it names
/// the app and may carry one parameter ("start [<type>] meditation in Serene").
public struct AppShortcut: Sendable, Equatable {
    public var phrase: PhraseTemplate
    public var intent: String
    /// Values the shortcut sets without asking.
    public var presets: [String: String]

    /// Words beyond which a shortcut phrase is warned about: people remember two or three.
    public static let longPhraseWords = 3

    public init(phrase: PhraseTemplate, intent: String, presets: [String: String] = [:]) {
        self.phrase = phrase
        self.intent = intent
        self.presets = presets
    }
}

/// A word an app needs recognised, with its phones when the app knows them best.
public struct VocabularyTerm: Sendable, Equatable {
    public var word: String
    /// ARPAbet phones of the recogniser's model, e.g. "Y UW N IH K AO R N CH AE T"; nil to guess.
    public var pronunciation: String?

    public init(word: String, pronunciation: String? = nil) {
        self.word = word
        self.pronunciation = pronunciation
    }
}

/// How an app's intents are carried out.
public enum HandlerSpec: Sendable, Equatable {
    /// By Swift code linked into Hark and registered under the app's identifier,
    /// or, when none is registered, by replying from the templates alone.
    case inProcess
    /// By a program of the app's that reads requests and writes replies as JSON lines.
    /// `command[0]` is a path relative to the app's folder, or a program found on PATH.
    case program(command: [String], timeoutSeconds: Double)
}
