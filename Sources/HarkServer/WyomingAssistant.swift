public import HarkAudio
public import HarkRuntime
public import HarkVoice
import HarkDialogue
import HarkGrammar
import HarkNumbers
public import HarkSpeech
public import HarkIntents
public import HarkWyoming

/// The assistant as Wyoming clients see it: a speech recogniser for the installed apps'
/// phrases, a voice, an intent recogniser and a conversation, each described in `info`.
public final class WyomingAssistant: Sendable {
    public let assistant: Assistant
    /// The wake phrases served to `detect`, nil when Hark serves no wake word.
    public let wake: WakeWordConfiguration?
    /// What `describe` answers.
    public let programs: [WyomingProgram]
    private let catalog: AppCatalog
    /// The apps' phrases as a graph, for reading typed text (`recognize`) as the dialogue does.
    private let topLevel: WordGraph

    public static let languages = ["en"]
    /// The longest text `synthesize` speaks (characters); longer is refused with an error event.
    public let spokenTextLimit: Int
    public static let standardSpokenTextLimit = 5_000

    /// `version`: Hark's own, named in `info`. `voice`: the voice the assistant speaks with.
    /// `wake`: the phrases `detect` listens for (the settings file's), nil to serve none.
    /// `roomsWindow`: how long (s) after a satellite claims a wake word other rooms may claim the same words.
    /// `spokenTextLimit`: the longest text `synthesize` speaks.
    /// `arbitrations`: told which room answered each wake word several satellites claimed.
    /// `speechPool`: speaks several texts at once (the assistant's voice and speech workers);
    /// nil speaks one at a time with the assistant's voice.
    public init(_ assistant: Assistant, version: String, voice: VoiceSettings, wake: WakeWordConfiguration? = nil,
                roomsWindow: Double = WakeArbiter.defaultWindow, spokenTextLimit: Int = WyomingAssistant.standardSpokenTextLimit,
                arbitrations: @escaping @Sendable (String) -> Void = { _ in }, speechPool: SpeechPool? = nil) async {
        self.assistant = assistant
        self.speechPool = speechPool
        self.spokenTextLimit = spokenTextLimit
        self.wake = wake
        arbiter = WakeArbiter(window: roomsWindow, log: arbitrations)
        let catalog = await assistant.catalog
        self.catalog = catalog
        topLevel = WordGraph(catalog.topLevelGrammar())
        programs = Self.programs(catalog: catalog, version: version, voice: voice, wake: wake)
    }

    /// What a client is told was said: the words, or "" when Hark rejected them.
    static func transcript(of heard: HeardUtterance) -> String {
        heard.recognition.isRejected ? "" : heard.recognition.text
    }

    /// Hark's voice (or `voice`, an espeak-ng voice or language) saying `text`, with names said
    /// as Hark hears them.
    public func synthesize(_ text: String, voice: String? = nil) async throws(VoiceError) -> AudioClip {
        if let speechPool { return try await speechPool.speak(text, voice: voice) }
        return try await assistant.speech.speak(text, voice: voice)
    }

    /// Speaks several texts at once, when given.
    public let speechPool: SpeechPool?

    /// The intent typed text asks for at the start of a request, nil when no app's phrase says
    /// it. Numbers typed as digits ("a 5-minute timer") are read as the phrases say them. `room`:
    /// the satellite's, for phrases that take a value from it ("turn on the lights").
    public func recognize(_ text: String, room: String? = nil) -> IntentMatch? {
        let words = Grammar.words(ofTyped: text)
        // "6000k" is a number and its unit where no phrase says "6000k" itself.
        let spelled = TypedNumbers.spellingOut(words), parted = TypedNumbers.spellingOut(words, splittingUnits: true)
        let interpretation = topLevel.interpret(spelled) ?? topLevel.interpret(parted)
        // Free text beside a phrase's words ("play miles davis in the kitchen") is no grammar's.
        // The text itself as typed: "remind me dinner at 5" is "dinner at 5", not "dinner at five".
        let match = interpretation.flatMap { catalog.match($0) }
            ?? catalog.freeTextMatch(spelled, written: { TypedNumbers.written($0, of: words) })
            ?? catalog.freeTextMatch(parted, written: { TypedNumbers.written($0, of: words, splittingUnits: true) })
            ?? ownCommand(words)
        return match.map { catalog.fillingFromRoom($0, room: room) }
    }

    /// One of Hark's own commands ("never mind") as the intent of an app that says it in its own
    /// words (`ownCommandPhrases:`; Home Assistant's HassNevermind), so the client can do what it
    /// means there; nil when no app says it.
    private func ownCommand(_ words: [String]) -> IntentMatch? {
        let said = words.joined(separator: " ")
        for app in catalog.apps {
            if let intent = app.intents.first(where: { $0.ownCommandPhrases.contains(said) }) {
                return IntentMatch(app: app, intent: intent, values: [:])
            }
        }
        return nil
    }

    /// A conversation for one client, apart from every other.
    public func newConversation() async -> ConversationService {
        await assistant.conversation.separateConversation()
    }

    /// The conversation a client names (`context.conversation_id`), shared by its connections.
    func conversation(named name: String) async -> ConversationService {
        await conversations.conversation(named: name) { await self.newConversation() }
    }

    private let conversations = ConversationDirectory()
    /// The wake-word spotters of every client's `detect`, sharing one verifier.
    let wakeSpotters = WakeSpotters()

    /// Decides which satellite answers a wake word several heard.
    let arbiter: WakeArbiter

    private static func programs(catalog: AppCatalog, version: String, voice: VoiceSettings,
                                 wake: WakeWordConfiguration?) -> [WyomingProgram] {
        let hark = WyomingAttribution(name: "Hark", url: "")
        let pocketsphinx = WyomingAttribution(name: "CMU Sphinx (pocketsphinx)", url: "https://github.com/cmusphinx/pocketsphinx")
        let espeak = WyomingAttribution(name: "eSpeak NG", url: "https://github.com/espeak-ng/espeak-ng")
        func program(_ description: String) -> WyomingArtifact {
            WyomingArtifact(name: "hark", description: description, attribution: hark, version: version)
        }
        // One model per installed app: its phrases are what the recogniser can hear.
        let apps = catalog.apps.map { app in
            WyomingModel(WyomingArtifact(name: app.identifier, description: app.description.map { "\(app.name): \($0)" } ?? app.name,
                                         attribution: pocketsphinx, version: version), languages: languages)
        }
        let dialogue = [WyomingModel(WyomingArtifact(name: "hark-apps", description: "the installed apps: " + catalog.apps.map(\.name).joined(separator: ", "),
                                                     attribution: hark, version: version), languages: languages)]
        let voices = [WyomingModel(WyomingArtifact(name: voice.voice, description: "espeak-ng \(voice.voice)", attribution: espeak),
                                   languages: languages)]
        // One wake model per phrase, named by the phrase: `detect` asks for phrases by these names.
        let phrases = (wake?.phrases ?? []).map { phrase in
            WyomingModel(WyomingArtifact(name: phrase, description: "\"\(phrase)\" (keyword search with a second look at each candidate)",
                                         attribution: pocketsphinx, version: version), languages: languages, phrase: phrase)
        }
        let wakePrograms = phrases.isEmpty ? [] : [
            WyomingProgram(.wake, program("Offline wake-word spotting of the configured phrases"), models: phrases),
        ]
        return wakePrograms + [
            WyomingProgram(.asr, program("Offline speech recognition of the installed apps' phrases; anything else is rejected (empty transcript)"),
                           models: apps,
                           flags: ["supports_transcript_streaming": false, "requires_external_vad": true,
                                   "prefers_auto_gain_enabled": true, "prefers_noise_reduction_enabled": true]),
            WyomingProgram(.tts, program("Hark's voice (espeak-ng \(voice.voice), \(voice.rate) words a minute)"), models: voices,
                           flags: ["supports_synthesize_streaming": false]),
            WyomingProgram(.intent, program("The installed apps' intents, read from text"), models: dialogue),
            WyomingProgram(.handle, program("Hark's conversation: resolves, confirms and carries out the installed apps' intents, asking follow-up questions"),
                           models: dialogue, flags: ["supports_handled_streaming": false, "supports_home_control": false]),
        ]
    }
}
