import ArgumentParser
import Dispatch
import Foundation
import HarkAudio
import HarkRuntime
import HarkServer
import HarkSpeech
import Logging

/// `hark listen`: the device loop on the microphone and loudspeaker, or on a recording.
struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Wait for the wake word, then listen, answer out loud, and follow up.",
        discussion: """
        Hark waits for the wake word ("jarvis" unless configured), chimes, recognises the request against \
        the installed apps, answers on the loudspeaker, and when it has asked a question listens for the \
        answer without the wake word. While it speaks it keeps listening with its own voice cancelled, so \
        the wake word interrupts it (--while-speaking gate makes it deaf until it has spoken instead). \
        A missing or busy microphone is retried until it appears. Stop it with Ctrl-C or SIGTERM.

        --input RECORDING runs the same loop on a recording holding several requests, as a microphone \
        would hear it (time passes while Hark replies), prints each turn and a summary with the reply \
        latency, CPU and memory figures. Replies are played only when an output device is named.

        --hub tcp://HOST:10300 makes this device a satellite of a hub (`hark serve` in another room): it \
        keeps its microphone, wake word, endpointing and loudspeaker, and sends each request to the hub, \
        which understands it, holds the conversation (one for each wake word, across its follow-up \
        questions) and sends back the reply to play. When several rooms hear the same wake word, the hub \
        lets the one that heard it best answer and the others go back to waiting. A hub that cannot be \
        reached is reported once and tried again at each wake word and every few seconds; meanwhile \
        this device's own apps (loaded only then) answer what they can, and a short tone the rest.

        Settings come from --config FILE, else $XDG_CONFIG_HOME/hark/hark.yaml (~/.config/hark/hark.yaml), \
        else /etc/hark/hark.yaml; options given here win. The file holds `key: value` lines:
        \(HarkConfigFile.keys.map { "  \($0.key): \($0.meaning)" }.joined(separator: "\n"))
        """)

    @OptionGroup var apps: AppsOptions
    @OptionGroup var devices: DeviceOptions
    @OptionGroup var voice: VoiceOptions
    @OptionGroup var recognizer: RecognizerOptions
    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Settings file (YAML).", valueName: "file"))
    var config: String?

    @Option(help: ArgumentHelp("Listen to this recording (WAV) instead of the microphone.", valueName: "recording.wav"))
    var input: String?

    @Flag(help: "With --input, take as long as the recording lasts, as a microphone would (for CPU figures).")
    var realTime = false

    @Option(help: ArgumentHelp("Write everything Hark played (chimes and replies, one after another) to this WAV file.",
                               valueName: "file"))
    var replyOut: String?

    @Option(help: ArgumentHelp("Keep each turn's audio in this folder as turn-N.wav (for tuning, or to report a misheard request).",
                               valueName: "dir"))
    var saveUtterances: String?

    @Option(help: ArgumentHelp("The words that wake Hark; every word must be in the pronunciation dictionary (`hark wake-check PHRASE` says whether a phrase will wake it by mistake).",
                               valueName: "phrase"))
    var wakePhrase: String?

    @Option(help: ArgumentHelp("Wake-word sensitivity, 0–1: higher wakes more easily and more often by mistake.",
                               valueName: "0-1"))
    var sensitivity: Double?

    @Option(help: ArgumentHelp("How Hark shows it heard the wake word: chime, speech (\"Yes?\") or none.",
                               valueName: "kind"))
    var acknowledgement: String?

    @Option(help: ArgumentHelp("Seconds of quiet that end a request.", valueName: "s"))
    var endSilence: Double?

    @Option(help: ArgumentHelp("Seconds to wait for speech after the wake word or a question.", valueName: "s"))
    var noSpeechTimeout: Double?

    @Option(help: ArgumentHelp("Longest request, in seconds.", valueName: "s"))
    var maxUtterance: Double?

    @Option(help: ArgumentHelp("Log level: trace, debug, info, notice, warning, error, critical.", valueName: "level"))
    var logLevel: String?

    @Option(help: ArgumentHelp("Be a satellite of the hub at this address (tcp://HOST:PORT or unix://PATH): it understands and answers.",
                               valueName: "uri"))
    var hub: String?

    @Option(help: ArgumentHelp("With --hub, this room's name, which the hub tells rooms apart by (default: the host name).",
                               valueName: "name"))
    var room: String?

    @Option(help: ArgumentHelp("What to do with the microphone while Hark speaks: listen (its own voice is cancelled and the wake word interrupts it) or gate (deaf until it has spoken). Default: the settings file's while_speaking, else listen.",
                               valueName: "listen|gate"))
    var whileSpeaking: String?

    // Unconditional, so a negative level may follow as its own argument ("--simulate-echo -6").
    @Option(parsing: .unconditional,
            help: ArgumentHelp("With --input, play each reply back into the recording through a simulated room at this level (dB, e.g. -6), as a loudspeaker beside the microphone would: to try listening while speaking without a room.",
                               valueName: "dB"))
    var simulateEcho: Double?

    @Flag(help: "Print each event as one JSON object per line (kinds: started, wake, tentative_wake, dismissed, interrupted, turn, no_speech, yielded, microphone_silent, microphone_heard_again, problem, summary).")
    var json = false

    func validate() throws {
        if let acknowledgement, LiveSettings.Acknowledgement(rawValue: acknowledgement) == nil {
            throw ValidationError("--acknowledgement must be chime, speech or none, not \(acknowledgement)")
        }
        if let logLevel, Logger.Level(rawValue: logLevel) == nil {
            throw ValidationError("--log-level must be one of \(Logger.Level.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if realTime && input == nil { throw ValidationError("--real-time paces a recording: give --input too") }
        if let whileSpeaking, LiveSettings.WhileSpeaking(rawValue: whileSpeaking) == nil {
            throw ValidationError("--while-speaking must be listen or gate, not \(whileSpeaking)")
        }
        if simulateEcho != nil && input == nil { throw ValidationError("--simulate-echo plays replies into a recording: give --input too") }
        if let simulateEcho, !(-60...20).contains(simulateEcho) { throw ValidationError("--simulate-echo must be -60 to 20 dB, not \(simulateEcho)") }
        if let hub {
            do { _ = try WyomingEndpoint(uri: hub) } catch { throw ValidationError("--hub: \(error.message)") }
        }
        if room != nil && hub == nil { throw ValidationError("--room names a satellite: give --hub too") }
        if room?.allSatisfy(\.isWhitespace) == true { throw ValidationError("--room must not be empty") }
    }

    func run() async throws {
        let file = try settingsFile(config)
        let settings = try liveSettings(file)
        let level = logLevel.flatMap(Logger.Level.init(rawValue:)) ?? file.logLevel.flatMap(Logger.Level.init(rawValue:)) ?? .info
        let logger = LiveLog.start(level: level, toStandardError: json)
        if let source = file.source { logger.info("settings from \(source.path)") }
        for (word, phones) in settings.wakePronunciations.sorted(by: { $0.key < $1.key }) {
            logger.notice("the wake word \"\(word)\" is not in the dictionary: listening for \(phones) (models/lexicon.dict can say otherwise)")
        }

        let inputDevice = devices.inputDevice ?? file.inputDevice
        let outputDevice = devices.outputDevice ?? file.outputDevice
        if input == nil && inputDevice == nil && !AudioDevices.hasSoundCard() {
            explainNoSoundCard()
            throw ExitCode(ExitStatus.unavailable)
        }
        do {
            let brain = try await brain(file, settings: settings, logger: logger)
            // A loudspeaker 10 cm from the microphone (3 ms) in a small room.
            let room = simulateEcho.map { SimulatedRoom(delay: 48, gain: pow(10, $0 / 20), reverberation: 0.1) }
            let source: any LiveAudioSource = try input.map { try RecordingSource(contentsOf: URL(fileURLWithPath: $0), realTime: realTime, room: room,
                                                                                    report: { logger.warning("\($0)") }) }
                ?? CaptureSource(PCMDeviceSpec(name: inputDevice ?? PCMDeviceSpec.default.name), report: { logger.warning("\($0)") })
            // A recording is answered silently unless a device is named; the microphone is answered aloud.
            let device: (any LiveAudioSink)? = input == nil || outputDevice != nil
                ? PlaybackSink(PCMDeviceSpec(name: outputDevice ?? PCMDeviceSpec.default.name)) : nil
            let loop = LiveLoop(brain: brain, settings: settings, source: source, sink: device,
                                keepsPlayed: replyOut != nil)
            let printer = LiveEventPrinter(json: json, recording: input != nil, logger: logger)

            let task = Task { try await loop.run(onEvent: printer.print) }
            let stopper = try StopSignals { signal in
                logger.notice("\(signal), stopping")
                task.cancel()
            }
            let summary = try await task.value
            stopper.cancel()
            printer.print(summary: summary)
            if let replyOut, let played = try await loop.played() {
                try WAVFile.write(played, to: URL(fileURLWithPath: replyOut))
            }
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }

    /// The assistant on this device, or with --hub the hub in another room.
    private func brain(_ file: HarkConfigFile, settings: LiveSettings, logger: Logger) async throws -> any LiveBrain {
        let voiceSettings = voice.settings(voice: file.voice, rate: file.rate)
        if let hub {
            let endpoint = try WyomingEndpoint(uri: hub)
            let room = room ?? ProcessInfo.processInfo.hostName
            logger.info("a satellite of the hub at \(endpoint), as the room \"\(room)\"")
            // This room's own loudspeaker level, kept where a device of its own keeps it.
            let loudspeaker = LoudspeakerVolume(file: HarkPaths.dataDirectory().appendingPathComponent(LoudspeakerVolume.fileName))
            if let problem = loudspeaker.problem { logger.warning("\(problem)") }
            // While the hub is out of reach, this room's own apps answer what they can; started
            // only then, so a satellite whose hub is up holds no recogniser of its own.
            let command = self
            return HubBrain(hub: endpoint, room: room, voice: try SpeechService(settings: voiceSettings), loudspeaker: loudspeaker,
                            ownApps: { try await command.ownAssistant(file, settings: settings, logger: logger) },
                            report: { logger.warning("\($0)") })
        }
        return try await ownAssistant(file, settings: settings, logger: logger)
    }

    /// The assistant of this device's own apps.
    private func ownAssistant(_ file: HarkConfigFile, settings: LiveSettings, logger: Logger) async throws -> Assistant {
        let voiceSettings = voice.settings(voice: file.voice, rate: file.rate)
        // The settings file's `apps:` moves the bundled folder; the owner's folders still load.
        var appsOptions = apps
        if appsOptions.apps == nil { appsOptions.apps = file.appsDirectory }
        var configuration = try assistantConfiguration(apps: appsOptions, recognizer: recognizer, voice: voiceSettings)
        // --request-denoise-above wins over the settings file's request_denoise_above.
        if recognizer.requestDenoiseAbove == nil { configuration.recognizer.denoisesAbove = file.requestDenoiseAbove }
        // --request-denoise-below wins over the settings file's request_denoise_below.
        if recognizer.requestDenoiseBelow == nil, let setting = file.requestDenoiseBelow { configuration.recognizer.denoisesBelow = setting }
        // --hear-suppressed-requests-once wins over the settings file's request_second_hearing.
        if !recognizer.hearSuppressedRequestsOnce, let setting = file.requestSecondHearing {
            configuration.recognizer.hearsSuppressedRequestsAsTheyCameToo = setting
        }
        // --noise-compensation wins over the settings file's noise_compensation.
        if recognizer.noiseCompensation == nil, file.noiseCompensation == false { configuration.recognizer.noiseCompensation = nil }
        // --confirm-in-noise-below wins over the settings file's confirm_in_noise_below.
        if recognizer.confirmInNoiseBelow == nil, let setting = file.noisyConfirmation { configuration.recognizer.noisyConfirmation = setting }
        // --confirm-telephone-band wins over the settings file's confirm_telephone_band.
        if recognizer.confirmTelephoneBand == nil, let setting = file.telephoneBandReach { configuration.recognizer.telephoneBandReach = setting }
        // --other-words wins over the settings file's other_words.
        if recognizer.otherWords == nil, let words = file.otherWords {
            configuration.recognizer.otherWords = words
            configuration.readsInstalledOtherWords = !words.isEmpty
        }
        configuration.ownerAppsDirectories = apps.ownerAppsDirectories()
        configuration.wakePhrase = settings.wakePhrase
        configuration.database = database.url
        let assistant = try await Assistant.start(configuration)
        for problem in assistant.startupProblems { logger.warning("\(problem)") }
        return assistant
    }

    private func liveSettings(_ file: HarkConfigFile) throws -> LiveSettings {
        var settings = file.live
        if let wakePhrase { settings.wakePhrase = wakePhrase.lowercased() }
        if let sensitivity { settings.sensitivity = sensitivity }
        if let acknowledgement, let choice = LiveSettings.Acknowledgement(rawValue: acknowledgement) { settings.acknowledgement = choice }
        if let endSilence { settings.endSilence = endSilence }
        if let noSpeechTimeout { settings.noSpeechTimeout = noSpeechTimeout }
        if let maxUtterance { settings.maximumUtterance = maxUtterance }
        if let saveUtterances { settings.utteranceDirectory = URL(fileURLWithPath: saveUtterances) }
        if let whileSpeaking, let choice = LiveSettings.WhileSpeaking(rawValue: whileSpeaking) { settings.whileSpeaking = choice }
        // A hub weighs only sure wake words between rooms; a tentative one heard in two rooms
        // could be answered by both.
        if hub != nil { settings.tentativeWakeOdds = nil }
        if let problem = settings.problems().first { throw ValidationError(problem) }
        try settings.prepareWakeWord(recognizer: recognizer)
        return settings
    }

    private func explainNoSoundCard() {
        let example = HarkPaths.appsDirectory().map { $0.deletingLastPathComponent()
            .appendingPathComponent("audio-fixtures/live/session.wav").path } ?? "session.wav"
        // The path this binary was started by, so the suggestion can be pasted as it is.
        let hark = CommandLine.arguments[0]
        printError("""
        hark: this machine has no sound card, so there is no microphone to listen on.
        Hark can listen to a recording of several requests instead:
            \(hark) listen --input \(example)
        or answer a single recording:
            \(hark) run audio-fixtures/home-en/turn_on_the_garage_light.wav --reply-out reply.wav
        """)
    }
}
