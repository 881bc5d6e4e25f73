/// Who made an artifact and where it comes from, as `info` names it.
public struct WyomingAttribution: Sendable, Equatable {
    public var name: String
    public var url: String

    public init(name: String, url: String) {
        self.name = name
        self.url = url
    }
}

/// What `info` says of every program, model and voice: wyoming's `Artifact`.
public struct WyomingArtifact: Sendable, Equatable {
    public var name: String
    public var description: String
    public var attribution: WyomingAttribution
    public var version: String?

    public init(name: String, description: String, attribution: WyomingAttribution, version: String? = nil) {
        self.name = name
        self.description = description
        self.attribution = attribution
        self.version = version
    }

    var fields: [String: JSONValue] {
        [
            "name": .string(name),
            "description": .string(description),
            "attribution": ["name": .string(attribution.name), "url": .string(attribution.url)],
            "installed": true,
            "version": version.map(JSONValue.string) ?? .null,
        ]
    }
}

/// A model or voice of a program, with its languages.
public struct WyomingModel: Sendable, Equatable {
    public var artifact: WyomingArtifact
    public var languages: [String]
    /// A wake model's phrase (wyoming's `WakeModel.phrase`); nil for other kinds.
    public var phrase: String?

    public init(_ artifact: WyomingArtifact, languages: [String], phrase: String? = nil) {
        self.artifact = artifact
        self.languages = languages
        self.phrase = phrase
    }

    var json: JSONValue {
        var fields = artifact.fields
        fields["languages"] = .array(languages.map(JSONValue.string))
        if let phrase { fields["phrase"] = .string(phrase) }
        return .object(fields)
    }
}

/// One program of an `info` answer (a speech recogniser, a voice, an intent handler…):
/// wyoming's `AsrProgram`, `TtsProgram`, `IntentProgram`, `HandleProgram` field for field.
public struct WyomingProgram: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case asr, tts, intent, handle, wake

        /// TTS programs list `voices`; the others `models`.
        var modelsKey: String { self == .tts ? "voices" : "models" }
    }

    public var kind: Kind
    public var artifact: WyomingArtifact
    public var models: [WyomingModel]
    /// The kind's own flags (`supports_transcript_streaming`, `requires_external_vad`, …).
    public var flags: [String: JSONValue]

    public init(_ kind: Kind, _ artifact: WyomingArtifact, models: [WyomingModel], flags: [String: JSONValue] = [:]) {
        self.kind = kind
        self.artifact = artifact
        self.models = models
        self.flags = flags
    }

    public var name: String { artifact.name }

    var json: JSONValue {
        var fields = artifact.fields
        fields[kind.modelsKey] = .array(models.map(\.json))
        fields.merge(flags) { _, flag in flag }
        return .object(fields)
    }
}

/// The `info` event answering `describe`: every kind of program listed, empty where Hark offers none.
public func wyomingInfoEvent(_ programs: [WyomingProgram]) -> WyomingEvent {
    var data: [String: JSONValue] = ["mic": [], "snd": []]
    for kind in WyomingProgram.Kind.allCases {
        data[kind.rawValue] = .array(programs.filter { $0.kind == kind }.map(\.json))
    }
    return WyomingEvent(WyomingEventType.info, data: data)
}
