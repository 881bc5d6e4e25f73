public import Foundation
public import HarkAudio
public import HarkDialogue
import HarkGrammar
public import HarkIntents
public import HarkShortcuts
public import HarkSpeech
public import HarkStore
public import HarkVoice

/// Everything Hark needs to answer requests: the installed apps and their
/// handlers, the recogniser, the PIN, and a voice.
public struct AssistantConfiguration: Sendable {
    public var appsDirectory: URL
    /// The owner's apps, loaded beside `appsDirectory`'s (see `HarkPaths.ownerAppsDirectories`);
    /// folders that do not exist are skipped.
    public var ownerAppsDirectories: [URL] = []
    public var modelsDirectory: URL?
    public var recognizer: RecognizerConfiguration
    public var voice: VoiceSettings
    /// Handlers linked into Hark, by app folder name; other apps use their
    /// manifest's program handler, or their templates alone.
    public var inProcessHandlers: [String: any IntentHandler]
    public var authenticator: any PINAuthenticator
    /// Where apps' program handlers may keep data (HARK_APP_DATA is a folder per app under it).
    public var dataDirectory: URL
    public var wakePhrase: String
    /// Whether the recogniser searches the installed common words (models/other-words.txt,
    /// `RecognizerConfiguration.otherWords`) when `recognizer` names none: false never to.
    public var readsInstalledOtherWords = true
    /// The time replies are given against ("It's 9:30 AM."); tests fix it.
    public var clock: @Sendable () -> Date = { Date() }
    /// The shortcuts database (personal shortcuts, donations, automations); nil for none.
    public var database: URL?
    /// Whether handled requests are donated to the owner's history (see `StoredShortcuts.donates`).
    public var donates = true

    public init(appsDirectory: URL, modelsDirectory: URL?, recognizer: RecognizerConfiguration = .init(),
                voice: VoiceSettings = .init(), inProcessHandlers: [String: any IntentHandler] = [:],
                authenticator: any PINAuthenticator = PINFile(), dataDirectory: URL = HarkPaths.dataDirectory(),
                wakePhrase: String = AppCatalog.defaultWakePhrase, database: URL? = nil) {
        self.appsDirectory = appsDirectory
        self.modelsDirectory = modelsDirectory
        self.recognizer = recognizer
        self.voice = voice
        self.inProcessHandlers = inProcessHandlers
        self.authenticator = authenticator
        self.dataDirectory = dataDirectory
        self.wakePhrase = wakePhrase
        self.database = database
        if let lexicon = HarkPaths.lexicon(in: modelsDirectory), !self.recognizer.lexicons.contains(lexicon) {
            self.recognizer.lexicons.append(lexicon)
        }
        if self.recognizer.acousticTransform == nil {
            self.recognizer.acousticTransform = HarkPaths.acousticTransform(in: modelsDirectory)
        }
        if self.recognizer.noiseCompensation == nil {
            self.recognizer.noiseCompensation = HarkPaths.noiseCompensation(in: modelsDirectory)
        }
    }
}

extension AssistantConfiguration {
    /// `recognizer` as the assistant listens with it: with the installed list of other words
    /// read when it names none (and `readsInstalledOtherWords`).
    public func recognizerConfiguration() throws(RecognitionError) -> RecognizerConfiguration {
        var configuration = recognizer
        if configuration.otherWords.isEmpty, readsInstalledOtherWords {
            configuration.otherWords = try HarkPaths.installedOtherWords(in: modelsDirectory)
        }
        return configuration
    }
}

/// One turn in, one spoken answer out: recognise against the grammar of the
/// turn, let the dialogue engine resolve, confirm and handle, and say the reply.
public final class Assistant: Sendable {
    public static let didNotUnderstand = DialogueEngine.didNotUnderstand

    public let recognition: RecognitionService
    public let speech: SpeechService
    public let conversation: ConversationService
    /// How loud this device plays (kept in the data directory).
    public let loudspeaker: LoudspeakerVolume
    public let loadSeconds: Double
    /// What went wrong while asking handlers for their options at start (the apps still work).
    public let startupProblems: [String]

    public static func start(_ configuration: AssistantConfiguration) async throws -> Assistant {
        let (engine, store, problems) = try await prepareDialogue(configuration)
        let catalog = engine.catalog
        let conversation = ConversationService(engine)
        // A shortcut added or changed from the command line is heard from the next request on.
        let watcher = store.map { store in
            ShortcutsReloader.watch(store) { [weak conversation] shortcuts in await conversation?.setPersonalShortcuts(shortcuts) }
        }

        let recognition = RecognitionService()
        var pronounce: (@Sendable (String) throws -> [String])?
        if let pronouncer = try Pronouncer.inModels(configuration.modelsDirectory) {
            pronounce = { word in try pronouncer.phones(of: word) }
        }
        let given = catalog.apps.flatMap(\.vocabulary).compactMap { term in term.pronunciation.map { (term.word, $0) } }
        let (expectation, _) = await conversation.expectation()
        try await recognition.prepare(try configuration.recognizerConfiguration(), grammar: expectation.grammar, pronounce: pronounce,
                                      pronunciations: given)
        // Names are said as they are heard: what an app or the lexicon spells out for listening
        // is what espeak-ng says.
        let lexicon = try SpokenLexicon(arpabet: await recognition.handWrittenPronunciations())
        let speech = try SpeechService(settings: configuration.voice, lexicon: lexicon)
        let loudspeaker = LoudspeakerVolume(file: configuration.dataDirectory.appendingPathComponent(LoudspeakerVolume.fileName))
        return Assistant(recognition: recognition, speech: speech, conversation: conversation, loudspeaker: loudspeaker,
                         loadSeconds: await recognition.loadSeconds, startupProblems: problems + [loudspeaker.problem].compactMap { $0 },
                         store: store, watcher: watcher)
    }

    /// The apps, their handlers and the conversation engine, without the
    /// recogniser or the voice: all that a typed conversation needs.
    /// Also returns what went wrong asking handlers for their options.
    public static func dialogueEngine(_ configuration: AssistantConfiguration) async throws -> (DialogueEngine, [String]) {
        let (engine, _, problems) = try await prepareDialogue(configuration)
        return (engine, problems)
    }

    /// The engine, with the person's shortcuts and donations from the database when one is configured.
    static func prepareDialogue(_ configuration: AssistantConfiguration) async throws -> (DialogueEngine, ShortcutStore?, [String]) {
        // One bad app.yaml must not silence the others: it is left out and reported.
        let (catalog, refused) = try AppCatalog.loadGoodApps(from: configuration.appsDirectory,
                                                                ownerFolders: configuration.ownerAppsDirectories,
                                                                wakePhrase: configuration.wakePhrase)
        let store = try configuration.database.map { url throws(StoreError) in try ShortcutStore(url: url) }
        var engine = DialogueEngine(catalog: catalog, handlers: handlers(for: catalog, configuration, store: store),
                                    authenticator: configuration.authenticator, clock: configuration.clock)
        var problems = refused.map { "app left out: \($0)" } + (await engine.refreshDynamicOptions())
        if let store {
            if let reason = store.readOnlyReason {
                problems.append("\(reason); until it can be written, shortcuts cannot change, automations wait and what is done is not remembered")
            }
            // A shortcut made before the wake phrase changed may now say it: heard, it would wake Hark.
            var kept: [PersonalShortcut] = [], saysWake: [PersonalShortcut] = []
            for shortcut in try store.shortcuts() {
                if PhraseCheck.saysWakePhrase(shortcut.words, wakePhrase: configuration.wakePhrase) {
                    saysWake.append(shortcut)
                } else {
                    kept.append(shortcut)
                }
            }
            problems += saysWake.map {
                "shortcut left out: \"\($0.phrase)\" says the wake phrase \"\(configuration.wakePhrase)\"; give it another phrase with hark shortcuts"
            }
            engine.setPersonalShortcuts(kept)
            // What was familiar before a restart stays familiar: the donations are the history of use.
            engine.memory = UsageMemory(replaying: try store.donations(), familiarAfter: engine.memory.familiarAfter)
            var shortcuts = StoredShortcuts(store: store, catalog: engine.catalog)
            shortcuts.donates = configuration.donates
            engine.shortcutsService = shortcuts
        }
        return (engine, store, problems)
    }

    /// In-process handlers first, then each app's program handler.
    static func handlers(for catalog: AppCatalog, _ configuration: AssistantConfiguration, store: ShortcutStore? = nil) -> HandlerDirectory {
        var directory = HandlerDirectory()
        for app in catalog.apps {
            switch app.handler {
            case .inProcess:
                if let handler = configuration.inProcessHandlers[app.identifier] { directory[app.identifier] = handler }
            case .program(let command, let timeout):
                let eraser = store.map { store in
                    { @Sendable (filters: [DonationFilter]) async in
                        await StoredShortcuts(store: store, catalog: catalog).deleteDonations(filters)
                    }
                }
                directory[app.identifier] = ProgramHandler(
                    app: app, command: command, timeoutSeconds: timeout,
                    dataDirectory: configuration.dataDirectory.appendingPathComponent("apps").appendingPathComponent(app.identifier),
                    deleteDonations: eraser)
            }
        }
        return directory
    }

    private init(recognition: RecognitionService, speech: SpeechService, conversation: ConversationService,
                 loudspeaker: LoudspeakerVolume, loadSeconds: Double, startupProblems: [String], store: ShortcutStore?,
                 watcher: Task<Void, Never>?) {
        self.loudspeaker = loudspeaker
        self.recognition = recognition
        self.speech = speech
        self.conversation = conversation
        self.loadSeconds = loadSeconds
        self.startupProblems = startupProblems
        self.store = store
        self.watcher = watcher
    }

    deinit {
        watcher?.cancel()
    }

    /// The shortcuts database, when one is configured.
    public let store: ShortcutStore?
    private let watcher: Task<Void, Never>?

    /// Runs the automations due now and prepares each spoken result, for a loop to play
    /// between requests. Empty without a database.
    public func runDueAutomations(at now: Date = Date()) async throws -> [(automation: Automation, reply: DialogueReply, clip: AudioClip)] {
        guard let store else { return [] }
        var results: [(automation: Automation, reply: DialogueReply, clip: AudioClip)] = []
        for (automation, reply) in try await AutomationRunner(store: store).runDue(at: now, in: conversation) {
            let clip = reply.speech.isEmpty ? AudioClip(samples: [], sampleRate: 22_050, channels: 1) : try await speech.speak(reply.speech)
            results.append((automation, reply, clip))
        }
        return results
    }

    /// The installed apps, with the options their handlers supplied.
    public var catalog: AppCatalog {
        get async { await conversation.catalog }
    }

    /// Understands a recording and prepares the spoken reply. `continuing`
    /// treats it as the answer to the question Hark asked last; otherwise it
    /// starts a new request.
    public func answer(recordingAt url: URL, continuing: Bool = false) async throws -> (report: TurnReport, reply: AudioClip) {
        let started = Date()
        let (clip, cutShort) = try WAVFile.readNotingDamage(contentsOf: url)
        let samples = try clip.pipelineSamples()
        let audioSeconds = Date().timeIntervalSince(started)
        var (report, reply) = try await answer(samples: samples, name: url.lastPathComponent, audioSeconds: audioSeconds,
                                               continuing: continuing)
        if let cutShort { report.warnings.append("\(url.lastPathComponent): \(cutShort)") }
        return (report, reply)
    }

    /// Understands 16 kHz mono audio and prepares the spoken reply. Empty `samples` tell the
    /// conversation that nothing was said.
    /// `speaks: false` skips synthesis (for benchmarks of understanding alone); the reply clip is then empty.
    public func answer(samples: [Int16], name: String, audioSeconds: Double = 0, speaks: Bool = true,
                       continuing: Bool = false) async throws -> (report: TurnReport, reply: AudioClip) {
        let heard = try await hear(samples, continuing: continuing)
        return try await answer(heard, name: name, audioSeconds: audioSeconds, speaks: speaks)
    }

    /// Recognises an utterance with the grammar of the turn (starting a new request unless
    /// `continuing`), without answering yet: the live loop uses it to tell whether someone
    /// pausing has finished a phrase. `room`: where it was heard (a satellite's room), nil for
    /// this device's own microphone and clients that name none.
    public func hear(_ samples: [Int16], continuing: Bool, heardIn room: String? = nil) async throws -> HeardUtterance {
        let expectation = try await expectTurn(continuing: continuing)
        // What follows "say it again?" (no question open) is a request, which may say free text.
        let answering = continuing ? await conversation.isInConversation : false
        var heard = try await hear(samples, expecting: expectation, continuing: answering, heardIn: room) { samples in
            let recognized = try await recognition.recognize(samples, heardIn: room).0
            return (recognized, try await recognition.isWholePhrase(recognized))
        }
        heard.room = room
        return heard
    }

    /// Recognises an utterance as the next turn of `conversation` (a network client's own, from
    /// `ConversationService.separateConversation`): the answer to its question when it asked one,
    /// else a new request. The device's own turn grammar stays as it was.
    public func hear(_ samples: [Int16], in conversation: ConversationService,
                     heardIn room: String? = nil) async throws -> HeardUtterance {
        let (expectation, _) = await conversation.expectation()
        let continuing = await conversation.isInConversation
        var heard = try await hear(samples, expecting: expectation, continuing: continuing, heardIn: room) { samples in
            try await recognition.recognize(samples, against: expectation.grammar, heardIn: room)
        }
        heard.room = room
        return heard
    }

    /// How every utterance is heard: no audio is silence (nobody spoke before listening timed
    /// out), a question wanting free text is dictated, anything else goes to `recognize` (the
    /// words, and whether they are a whole phrase nothing continues).
    private func hear(_ samples: [Int16], expecting expectation: TurnExpectation, continuing: Bool, heardIn room: String?,
                      recognize: ([Int16]) async throws -> (Recognition, Bool)) async throws -> HeardUtterance {
        guard !samples.isEmpty else {
            return HeardUtterance(recognition: .nothingHeard, sampleCount: 0, continuing: continuing, endsPhrase: false, isWholePhrase: false)
        }
        guard !expectation.wantsFreeText else {
            return HeardUtterance(recognition: try await recognition.dictate(samples, heardIn: room), sampleCount: samples.count,
                                  continuing: continuing, endsPhrase: false, isWholePhrase: false)
        }
        let (recognized, whole) = try await recognize(samples)
        // A new request no grammar phrase fits may be one that says free text ("add oat milk to
        // my shopping list"): dictation hears it, and its other words must be the phrase's own.
        // Dictation costs about a tenth of the audio's length, so longer speech (not a request
        // of a few words) is not dictated.
        if !continuing, recognized.isRejected, samples.count <= Self.longestFreeTextRequest * PipelineAudio.sampleRate,
           case let catalog = await catalog, catalog.saysFreeText {
            let dictated = try await recognition.dictate(samples, heardIn: room)
            func askedAbout(_ request: [String], because reason: String) -> HeardUtterance {
                var unsure = Recognition(heardElsewhere: "", frames: dictated.frames, framesAfterLastWord: nil)
                unsure.guess = request
                unsure.rejection = "dictation heard \"\(dictated.text)\", \(reason)"
                return HeardUtterance(recognition: unsure, sampleCount: samples.count, continuing: continuing,
                                      endsPhrase: false, isWholePhrase: false)
            }
            if let match = catalog.freeTextMatch(dictated.words) {
                // One word beside the text ("announce <message>"): anything said after that word
                // would do, so it is asked about first.
                let text = match.values.first { match.intent.parameter(named: $0.key)?.type == .text }?.value.heard ?? ""
                if dictated.words.count - Grammar.words(of: text).count < 2 {
                    return askedAbout(dictated.words, because: "a phrase that says free text beside one word")
                }
                return HeardUtterance(recognition: dictated, sampleCount: samples.count, continuing: continuing,
                                      endsPhrase: false, isWholePhrase: false)
            }
            // One of the phrase's own words heard as a word that sounds almost the same: asked about.
            // The dictionary is read only when some phrase comes that near.
            let near = catalog.freeTextNearMatches(dictated.words)
            let phones = near.isEmpty ? [:] : try await phonesOf(near.flatMap { [$0.said, $0.heard] })
            if let said = near.first(where: { Self.soundAlike(phones[$0.said], phones[$0.heard]) })?.request {
                return askedAbout(said, because: "nearly a phrase that says free text")
            }
        }
        return HeardUtterance(recognition: recognized, sampleCount: samples.count, continuing: continuing,
                              endsPhrase: whole && Recognizer.saidInFull(recognized), isWholePhrase: whole)
    }

    /// Seconds: the longest utterance dictated as a request that says free text.
    static let longestFreeTextRequest = 5

    /// Each word's pronunciations in the recogniser's dictionary (words it lacks are left out).
    private func phonesOf(_ words: [String]) async throws -> [String: [[Substring]]] {
        try await recognition.pronunciations(of: Set(words.filter { !$0.hasPrefix("<") }))
            .mapValues { $0.map { $0.split(separator: " ") } }
    }

    /// Two words with pronunciations one phone apart (a phone more, less or changed): "add"
    /// (AE D) and "and" (AE N D).
    static func soundAlike(_ first: [[Substring]]?, _ second: [[Substring]]?) -> Bool {
        guard let first, let second else { return false }
        return first.contains { one in second.contains { other in phonesApart(one, other) <= 1 } }
    }

    /// The phone edit distance between two pronunciations.
    static func phonesApart(_ first: [Substring], _ second: [Substring]) -> Int {
        guard abs(first.count - second.count) <= 1 else { return 2 }
        var previous = Array(0...second.count)
        for (i, a) in first.enumerated() {
            var current = [i + 1] + [Int](repeating: 0, count: second.count)
            for (j, b) in second.enumerated() {
                current[j + 1] = min(previous[j] + (a == b ? 0 : 1), previous[j + 1] + 1, current[j] + 1)
            }
            previous = current
        }
        return previous[second.count]
    }

    /// Starts a new request unless `continuing`, and has the recogniser use that turn's grammar.
    private func expectTurn(continuing: Bool) async throws -> TurnExpectation {
        if !continuing { await conversation.reset() }
        let (expectation, version) = await conversation.expectation()
        if version != installedVersion.value {
            try await recognition.use(expectation.grammar)
            installedVersion.value = version
        }
        return expectation
    }

    /// What plain pocketsphinx (`BaselineRecognizer`, started with
    /// `recognition.startBaseline()`) hears in a new request, ready for `answer` as the
    /// recogniser's own hearing would be: the yardstick benchmarks set beside Hark.
    public func hearWithBaseline(_ samples: [Int16]) async throws -> HeardUtterance {
        _ = try await expectTurn(continuing: false)
        let recognized = samples.isEmpty ? Recognition.nothingHeard : try await recognition.recognizeBaseline(samples)
        return HeardUtterance(recognition: recognized, sampleCount: samples.count, continuing: false,
                              endsPhrase: false, isWholePhrase: false)
    }

    /// Answers what `hear` recognised: the dialogue's reply, spoken. `conversation`: a network
    /// client's own (what `hear(_:in:)` heard), nil for the device's.
    /// A client's "louder" is left to the client (`TurnReport.volumeChange`): its loudspeaker,
    /// not this one.
    public func answer(_ heard: HeardUtterance, name: String, audioSeconds: Double = 0, speaks: Bool = true,
                       in clientConversation: ConversationService? = nil) async throws -> (report: TurnReport, reply: AudioClip) {
        let conversation = clientConversation ?? self.conversation
        let recognized = heard.recognition, continuing = heard.continuing
        let input: DialogueInput
        if !recognized.isRejected {
            input = .words(recognized.words)
        } else if recognized.frames == 0 || recognized.rejection == "nothing was heard" {
            input = .silence
        } else if !recognized.guess.isEmpty {
            input = .unsure(recognized.guess, otherwise: recognized.otherwise)
        } else {
            input = recognized.isInNoisyRoom ? .notHeardOverNoise : .notUnderstood
        }
        let answersPIN = await conversation.isAskingForPIN
        var (reply, match) = await conversation.respond(to: input, interpretation: recognized.interpretation, heardIn: heard.room)
        // "Louder": this device's loudspeaker, said at the new level.
        if let change = reply.volume, clientConversation == nil {
            (reply.speech, reply.problem) = loudspeaker.change(change)
        }
        let intent = Self.intent(of: reply, match: match)
        // "Louder", "cancel", "help": carried out by Hark itself, so no app's intent, yet acted on.
        let builtIn = recognized.isRejected ? nil
            : recognized.interpretation.flatMap { TurnGrammar.isOwnCommand($0.tag) ? $0.tag : nil }

        let speechStarted = Date()
        let clip = speaks && !reply.speech.isEmpty
            ? try await speech.speak(reply.speech) : AudioClip(samples: [], sampleRate: 22_050, channels: 1)
        let speechSeconds = Date().timeIntervalSince(speechStarted)

        var report = TurnReport(
            recording: name,
            text: recognized.text,
            intent: intent?.name,
            app: intent?.app,
            slots: intent?.slots ?? [:],
            reply: reply.speech,
            builtIn: builtIn,
            confidence: recognized.confidence,
            margin: recognized.margin,
            utteranceMargin: recognized.utteranceMargin,
            wordFits: recognized.wordFits,
            features: recognized.features,
            guess: recognized.guess.isEmpty ? nil : recognized.guess.joined(separator: " "),
            rejected: intent == nil && recognized.isRejected,
            rejection: recognized.isRejected ? (recognized.rejection ?? "not understood")
                : (intent == nil && builtIn == nil && !continuing ? "no intent matched the words heard" : nil),
            expectsAnswer: reply.expectsAnswer,
            handled: reply.handled != nil,
            problem: reply.problem,
            volumeChange: clientConversation == nil ? nil : reply.volume?.wireValue,
            timings: .init(audioSeconds: audioSeconds, decodeSeconds: recognized.decodeSeconds,
                           speechSeconds: speechSeconds,
                           recordingSeconds: Double(heard.sampleCount) / Double(PipelineAudio.sampleRate),
                           decodeCPU: recognized.decodeCPU))
        report.otherMeaning = recognized.otherwise?.joined(separator: " ")
        if answersPIN { report.hideSpokenPIN() }
        return (report, clip)
    }

    /// The intent a turn carried out, else the one it began (`match`): its app, name and the
    /// identifiers of its values.
    public static func intent(of reply: DialogueReply, match: IntentMatch?) -> (app: String, name: String, slots: [String: String])? {
        reply.handled.map { ($0.request.app, $0.request.intent, $0.request.values.mapValues(\.identifier)) }
            ?? match.map { ($0.app.identifier, $0.intent.name, $0.values.mapValues(\.identifier)) }
    }

    /// The grammar version the recogniser holds; only the recognition path touches it.
    private let installedVersion = VersionBox()
}

/// One utterance recognised with the grammar of its turn, not yet answered.
public struct HeardUtterance: Sendable {
    public var recognition: Recognition
    public var sampleCount: Int
    /// The answer to the question asked last, not a new request.
    public var continuing: Bool
    /// The words are a whole phrase of the turn's grammar that nothing continues, and the
    /// recording shows them said in full (quiet after the last sound).
    public var endsPhrase: Bool
    /// The words are a whole phrase that nothing continues, however little quiet followed.
    public var isWholePhrase: Bool
    /// Where it was heard (a satellite's room); nil for this device's own microphone.
    public var room: String?

    public init(recognition: Recognition, sampleCount: Int, continuing: Bool, endsPhrase: Bool, isWholePhrase: Bool) {
        self.recognition = recognition
        self.sampleCount = sampleCount
        self.continuing = continuing
        self.endsPhrase = endsPhrase
        self.isWholePhrase = isWholePhrase
    }
}

/// A counter shared by the turns of one assistant; turns never overlap.
final class VersionBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored = -1
    var value: Int {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
