import ArgumentParser
import Foundation
import HarkRuntime
import HarkSpeech
import HarkAudio
import HarkDialogue
import HarkExampleApps
import HarkVoice

/// Where the installed apps live.
struct AppsOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "Folder of apps (each a folder with an app.yaml), or one app's folder: only these apps are loaded.",
        discussion: "Defaults to $HARK_APPS (also only those), else the bundled apps/ folder installed beside the hark executable (never one in the working directory), together with the owner's apps in /etc/hark/apps and ~/.config/hark/apps.",
        valueName: "dir"))
    var apps: String?

    func appsDirectory() throws -> URL {
        if let apps { return URL(fileURLWithPath: apps) }
        guard let found = HarkPaths.appsDirectory() else {
            throw ValidationError("no apps folder found: pass --apps DIR or set HARK_APPS")
        }
        return found
    }

    /// The owner's app folders loaded beside the bundled ones: none when a folder was named with
    /// --apps or $HARK_APPS (a benchmark or an app author's check sees exactly that folder).
    func ownerAppsDirectories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        guard apps == nil, (environment["HARK_APPS"] ?? "").isEmpty else { return [] }
        return HarkPaths.ownerAppsDirectories(environment: environment)
    }
}

/// How Hark's voice sounds.
struct VoiceOptions: ParsableArguments {
    @Option(help: ArgumentHelp("espeak-ng voice, e.g. en-us, en-gb, en-us+f3 (default: \(VoiceSettings().voice)).",
                               valueName: "name"))
    var voice: String?

    @Option(help: ArgumentHelp("Speaking rate in words per minute, 80–450 (default: \(VoiceSettings().rate)).",
                               valueName: "wpm"))
    var rate: Int?

    func validate() throws {
        if let rate, !VoiceSettings.rateRange.contains(rate) {
            throw ValidationError("--rate \(rate) is outside \(VoiceSettings.rateRange.lowerBound)–\(VoiceSettings.rateRange.upperBound) words per minute")
        }
    }

    var settings: VoiceSettings { settings(voice: nil, rate: nil) }

    /// The options given, else the fallbacks (a settings file's), else the defaults.
    func settings(voice fallbackVoice: String?, rate fallbackRate: Int?) -> VoiceSettings {
        let defaults = VoiceSettings()
        return VoiceSettings(voice: voice ?? fallbackVoice ?? defaults.voice, rate: rate ?? fallbackRate ?? defaults.rate)
    }
}

/// Recogniser knobs people may need when tuning for their room.
struct RecognizerOptions: ParsableArguments {
    @Option(parsing: .unconditional,
            help: ArgumentHelp("How sure Hark must be to act on what it heard: a margin over free phone recognition (default \(String(format: "%g", Confidence.defaultThreshold)); closer to 0 rejects more). docs/how-hark-hears.md explains the margin.",
                               valueName: "margin"))
    var rejectionMargin: Double?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How far below --rejection-margin Hark still asks \"Did you say …?\" instead of rejecting (default \(String(format: "%g", Confidence.defaultAskBand)); 0 never asks).",
                               valueName: "width"))
    var askBand: Double?

    @Option(help: ArgumentHelp("Write pocketsphinx's own log to this file.", valueName: "file"))
    var decoderLog: String?

    @Option(help: ArgumentHelp("Listen through this adaptation of the acoustic model (an MLLR transform, as `make adapt` estimates), or \"none\" for Debian's model as it is.",
                               discussion: "Defaults to models/en-us.mllr when the models folder has one. The wake word listens through the same.",
                               valueName: "file"))
    var acousticAdaptation: String?

    @Option(help: ArgumentHelp("Compensate a noisy room's requests with this noise compensation (as `make adapt` estimates), or \"none\" to hear them as they come.",
                               discussion: "Defaults to models/en-us.noise-network when the models folder has one. Used on requests heard through a full-band microphone in rooms under \(String(format: "%g", RecognizerConfiguration.standardCompensatesBelow)) dB of signal over noise (telephone-band audio is heard as it came); the wake word does not use it.",
                               valueName: "file|none"))
    var noiseCompensation: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Faint hiss (dBFS) added to each request before it is decoded, so a near-silent room does not throw the recogniser off (default -60), or \"none\".",
                               valueName: "dB|none"))
    var noiseFloor: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Keep that hiss at least this many dB below the voice, so a voice the microphone barely caught is not drowned (default \(String(format: "%g", NoiseFloor.headroomBelowVoice))), or \"none\".",
                               valueName: "dB|none"))
    var noiseFloorHeadroom: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Hear a request through noise suppression when its room is louder than this (dBFS, e.g. \(String(format: "%g", Recognizer.denoisingRoomLevel)) for a room loud all the time), or \"none\" never to (the default).",
                               valueName: "dBFS|none"))
    var requestDenoiseAbove: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Hear a request through noise suppression when it stands less than this many dB above its room (default \(String(format: "%g", RequestDenoising.standardBelow))); such a request is asked about up to \(String(format: "%g", NoisyConfirmation.standardDenoisedReach)) above the rejection margin (\(String(format: "%g", NoisyConfirmation.standardAgreedReach)) when it is heard the same through the suppression and as it came). Or \"none\" never to.",
                               valueName: "dB|none"))
    var requestDenoiseBelow: String?

    @Flag(help: "Hear a request the noise suppression is used on only through it, not also as it came with the surer hearing kept and two hearings of the same words asked about less often (about half the CPU for such a request; fewer of them acted on).")
    var hearSuppressedRequestsOnce = false

    @Option(help: ArgumentHelp("Common words (one a line) searched beside a short phrase heard in a quiet room: speech they explain better is not taken for the phrase. Without it, the installed models/other-words.txt; \"none\" never searches.",
                               valueName: "file|none"))
    var otherWords: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How clearly the words that decide an action (on or off, a colour, a number) must beat the others the apps allow in their place before Hark acts; below it Hark asks or rejects (default \(String(format: "%g", Confidence.defaultRivalClearance))), or \"none\" not to judge by it.",
                               valueName: "margin|none"))
    var rivalClearance: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("In a room noisier than this (dB of signal over noise), ask \"Did you say …?\" before acting on a request heard only just well enough (up to \(String(format: "%g", NoisyConfirmation.standardReach)) above the rejection margin; default \(String(format: "%g", NoisyConfirmation.standardBelow))), or \"none\" to act on it as in a quiet room.",
                               valueName: "dB|none"))
    var confirmInNoiseBelow: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("Through a telephone-band microphone (8 kHz on its way: a Bluetooth headset's hands-free mode, a phone line), ask \"Did you say …?\" before acting on a request heard up to this far above the rejection margin, in any room (default \(String(format: "%g", RecognizerConfiguration.standardTelephoneBandReach))), or \"none\" to judge it as full-band audio.",
                               valueName: "margin|none"))
    var confirmTelephoneBand: String?

    @Option(parsing: .unconditional,
            help: ArgumentHelp("How readily a stretch between words is heard as noise or a breath rather than forced into words: a probability at each word's end (default \(String(format: "%g", RecognizerConfiguration.standardFillerProbability))), or \"default\" for pocketsphinx's own (1e-8).",
                               valueName: "probability|default"))
    var fillerProbability: String?

    func validate() throws {
        if let confirmInNoiseBelow { _ = try Self.noisyConfirmation(confirmInNoiseBelow) }
        if let confirmTelephoneBand { _ = try Self.telephoneBandReach(confirmTelephoneBand) }
        if let fillerProbability { _ = try Self.fillers(fillerProbability) }
        if let rivalClearance { _ = try Self.clearance(rivalClearance) }
        if let otherWords { _ = try Self.otherWordsList(otherWords) }
        if let noiseFloor { _ = try noiseFloorLevel(noiseFloor) }
        if let noiseFloorHeadroom { _ = try Self.headroom(noiseFloorHeadroom) }
        if let requestDenoiseAbove { _ = try Self.requestDenoisingLevel(requestDenoiseAbove) }
        if let requestDenoiseBelow { _ = try Self.requestDenoisingRatio(requestDenoiseBelow) }
        if let acousticAdaptation, acousticAdaptation != "none" {
            try Self.requireReadableAdaptation(acousticAdaptation, alternative: ", or \"none\"")
        }
        if let noiseCompensation, noiseCompensation != "none" {
            do {
                _ = try NoiseCompensation(contentsOf: URL(fileURLWithPath: noiseCompensation))
            } catch {
                throw ValidationError("--noise-compensation: \(error.message)")
            }
        }
        if let askBand, !(askBand >= 0 && askBand.isFinite) {
            throw ValidationError("--ask-band must be a width of 0 or more (how far below the rejection margin to ask), not \(askBand)")
        }
    }

    var configuration: RecognizerConfiguration {
        var configuration = RecognizerConfiguration()
        if let rejectionMargin { configuration.rejectionMargin = rejectionMargin }
        if let askBand { configuration.askBand = askBand }
        if let decoderLog { configuration.logFile = decoderLog }
        // validate() has read it: "none" or a level.
        if let noiseFloor { configuration.noiseFloor = noiseFloor == "none" ? nil : Double(noiseFloor) }
        // validate() has read it: "none" or a headroom.
        if let noiseFloorHeadroom { configuration.noiseFloorHeadroom = try? Self.headroom(noiseFloorHeadroom) }
        // validate() has read it: "none" or a level.
        if let requestDenoiseAbove { configuration.denoisesAbove = try? Self.requestDenoisingLevel(requestDenoiseAbove) }
        // validate() has read it: "none" or a ratio.
        if let requestDenoiseBelow { configuration.denoisesBelow = try? Self.requestDenoisingRatio(requestDenoiseBelow) }
        if hearSuppressedRequestsOnce { configuration.hearsSuppressedRequestsAsTheyCameToo = false }
        // validate() has read it: "none" or a margin.
        if let rivalClearance { configuration.rivalClearance = try? Self.clearance(rivalClearance) }
        // validate() has read it: "none" or a level.
        if let confirmInNoiseBelow { configuration.noisyConfirmation = try? Self.noisyConfirmation(confirmInNoiseBelow) }
        // validate() has read it: "none" or a reach.
        if let confirmTelephoneBand { configuration.telephoneBandReach = try? Self.telephoneBandReach(confirmTelephoneBand) }
        // validate() has read it: "default" or a probability.
        if let fillerProbability { configuration.fillerProbability = try? Self.fillers(fillerProbability) }
        // validate() has read it: "none" or a list.
        if let otherWords { configuration.otherWords = (try? Self.otherWordsList(otherWords)) ?? [] }
        return configuration
    }

    /// A --rival-clearance value: a finite margin, or nil for "none".
    static func clearance(_ text: String) throws -> Double? {
        if text == "none" { return nil }
        guard let clearance = Double(text), clearance.isFinite, abs(clearance) <= 50 else {
            throw ValidationError("--rival-clearance is a margin from -50 to 50 (e.g. 0.5) or none, not \(text)")
        }
        return clearance
    }

    /// A --confirm-in-noise-below value: dB from -20 to 80, or nil for "none".
    static func noisyConfirmation(_ text: String) throws -> NoisyConfirmation? {
        try signalToNoiseRatio(text, option: "--confirm-in-noise-below", example: 20)
            .map { NoisyConfirmation(below: $0, reach: NoisyConfirmation.standardReach) }
    }

    /// A --confirm-telephone-band value: a reach from 0 to 5, or nil for "none".
    static func telephoneBandReach(_ text: String) throws -> Double? {
        if text == "none" { return nil }
        let reaches = RecognizerConfiguration.telephoneBandReaches
        guard let reach = Double(text), reaches.contains(reach) else {
            throw ValidationError("--confirm-telephone-band is how far above the rejection margin to ask (\(String(format: "%g", reaches.lowerBound)) to \(String(format: "%g", reaches.upperBound)), e.g. 0.6) or none, not \(text)")
        }
        return reach
    }

    /// A --filler-probability value: a probability, or nil for "default" (pocketsphinx's own).
    static func fillers(_ text: String) throws -> Double? {
        if text == "default" { return nil }
        let probabilities = RecognizerConfiguration.fillerProbabilities
        guard let probability = Double(text), probabilities.contains(probability) else {
            throw ValidationError("--filler-probability is a probability from \(String(format: "%g", probabilities.lowerBound)) to \(String(format: "%g", probabilities.upperBound)) (e.g. \(String(format: "%g", RecognizerConfiguration.standardFillerProbability))) or default, not \(text)")
        }
        return probability
    }

    /// A --noise-floor-headroom value: dB from 0 to 60, or nil for "none".
    static func headroom(_ text: String) throws -> Double? {
        if text == "none" { return nil }
        guard let headroom = Double(text), headroom >= 0, headroom <= 60 else {
            throw ValidationError("--noise-floor-headroom is how many dB below the voice to keep the noise floor (0 to 60, e.g. 20) or none, not \(text)")
        }
        return headroom
    }

    /// An --other-words value: the words of the list it names, or none for "none".
    static func otherWordsList(_ text: String) throws -> [String] {
        if text == "none" { return [] }
        do {
            return try OtherWords.read(URL(fileURLWithPath: text))
        } catch {
            throw ValidationError("--other-words: \(error.message) (a list as models/other-words.txt, or none)")
        }
    }

    /// An optional --other-words value: the list it names (none for "none"), or without one the
    /// installed models/other-words.txt, as hark listen reads it.
    static func otherWordsListOrInstalled(_ text: String?) throws -> [String] {
        guard let text else { return try HarkPaths.installedOtherWords(in: HarkPaths.modelsDirectory()) }
        return try otherWordsList(text)
    }

    /// A --request-denoise-above value: a room level in dBFS, or nil for "none".
    static func requestDenoisingLevel(_ text: String) throws -> Double? {
        try denoisingLevel(text, option: "--request-denoise-above", example: Recognizer.denoisingRoomLevel)
    }

    /// A --request-denoise-below value: a signal-to-noise ratio in dB, or nil for "none".
    static func requestDenoisingRatio(_ text: String) throws -> Double? {
        try signalToNoiseRatio(text, option: "--request-denoise-below", example: RequestDenoising.standardBelow)
    }

    /// A signal-to-noise ratio from -20 to 80 dB for `option`, or nil for "none".
    static func signalToNoiseRatio(_ text: String, option: String, example: Double) throws -> Double? {
        if text == "none" { return nil }
        guard let ratio = Double(text), ratio.isFinite, (-20...80).contains(ratio) else {
            throw ValidationError("\(option) is a signal-to-noise ratio from -20 to 80 dB (e.g. \(String(format: "%g", example))) or none, not \(text)")
        }
        return ratio
    }

    /// Refuses an --acoustic-adaptation file that cannot be read before any model loads (its
    /// contents are judged by `AcousticTransform.check` when a decoder is made). `alternative`
    /// ends the hint with what else the option takes.
    static func requireReadableAdaptation(_ path: String, alternative: String = "") throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw ValidationError("--acoustic-adaptation: cannot read \(path) (a file from make adapt\(alternative))")
        }
    }

    /// A wake-word benchmark's --acoustic-adaptation: what `adaptationOrInstalled` reads.
    static let wakeAdaptationHelp = ArgumentHelp("Listen through this adaptation of the acoustic model (an MLLR transform, as make adapt estimates), or none for Debian's model as it is. Without it, the installed models/en-us.mllr, as hark listen does.", valueName: "file|none")

    /// Refuses a wake-word benchmark's --acoustic-adaptation file that cannot be read (none and
    /// no option at all need nothing).
    static func requireReadableWakeAdaptation(_ option: String?) throws {
        if let option, option != "none" { try requireReadableAdaptation(option, alternative: ", or none") }
    }

    /// What a wake-word benchmark's --acoustic-adaptation (`option`) chose: a file, none (nil:
    /// Debian's model as it is), or, without the option, the installed models/en-us.mllr, as
    /// `hark listen` hears through.
    static func adaptationOrInstalled(_ option: String?) -> URL? {
        switch option {
        case nil: HarkPaths.acousticTransform(in: HarkPaths.modelsDirectory())
        case "none": nil
        case let file?: URL(fileURLWithPath: file)
        }
    }

    /// The adaptation chosen with --acoustic-adaptation, and the compensation chosen with
    /// --noise-compensation, over what the models folder ships.
    func chooseAdaptation(_ configuration: inout RecognizerConfiguration) {
        switch acousticAdaptation {
        case nil: break
        case "none": configuration.acousticTransform = nil
        case let file?: configuration.acousticTransform = URL(fileURLWithPath: file)
        }
        switch noiseCompensation {
        case nil: break
        case "none": configuration.noiseCompensation = nil
        case let file?: configuration.noiseCompensation = URL(fileURLWithPath: file)
        }
    }
}

/// A --noise-floor value: a level in dBFS below 0, or nil for "none".
func noiseFloorLevel(_ text: String) throws -> Double? {
    if text == "none" { return nil }
    guard let level = Double(text), level < 0, level >= -120 else {
        throw ValidationError("--noise-floor is a level in dBFS below 0 (e.g. -60) or none, not \(text)")
    }
    return level
}

/// `--mean-gate`: dB above the room's level (within `WakeWordSpotter.meanGateRange`), or none.
func meanGateLevel(_ text: String) throws -> Double? {
    if text == "none" { return nil }
    guard let gate = Double(text), WakeWordSpotter.meanGateRange.contains(gate) else {
        throw ValidationError("--mean-gate is how many dB above the room's level (between \(WakeWordSpotter.meanGateRangeText), e.g. 6) or none, not \(text)")
    }
    return gate
}

/// `--denoise-above`: the room level in dBFS (within `WakeWordSpotter.denoisingRange`), or none.
/// "never", as the settings file's `wake_denoise_above` spells it, is taken too. `option` and
/// `example` name the option and a level for the message.
func denoisingLevel(_ text: String, option: String = "--denoise-above",
                    example: Double = WakeWordSpotter.denoisingRoomLevel) throws -> Double? {
    if text == "none" || text == "never" { return nil }
    guard let level = Double(text), WakeWordSpotter.denoisingRange.contains(level) else {
        throw ValidationError("\(option) is the room level in dBFS (between \(WakeWordSpotter.denoisingRangeText), e.g. \(String(format: "%g", example))) or none, not \(text)")
    }
    return level
}

/// Starts the assistant the way every command that answers requests does.
/// The person's shortcuts come from $HARK_DATABASE or the default database, unless `database` is nil.
func startAssistant(apps: AppsOptions, recognizer: RecognizerOptions, voice: VoiceSettings = VoiceSettings(),
                    database: URL? = HarkPaths.shortcutsDatabase(), donates: Bool = true) async throws -> Assistant {
    var configuration = try assistantConfiguration(apps: apps, recognizer: recognizer, voice: voice)
    configuration.database = database
    configuration.donates = donates
    return try await Assistant.start(configuration)
}

/// The configuration every command shares: the apps, the example apps' Swift handlers, the owner's PIN,
/// and the wake phrase of the settings file (phrases that contain it are refused: they would wake Hark).
func assistantConfiguration(apps: AppsOptions, recognizer: RecognizerOptions? = nil,
                            voice: VoiceSettings = VoiceSettings()) throws -> AssistantConfiguration {
    var configuration = AssistantConfiguration(
        appsDirectory: try apps.appsDirectory(), modelsDirectory: HarkPaths.modelsDirectory(),
        recognizer: recognizer?.configuration ?? RecognizerConfiguration(), voice: voice,
        inProcessHandlers: ExampleApps.handlers)
    recognizer?.chooseAdaptation(&configuration.recognizer)
    if recognizer?.otherWords == "none" { configuration.readsInstalledOtherWords = false }
    configuration.ownerAppsDirectories = apps.ownerAppsDirectories()
    configuration.wakePhrase = try HarkConfigFile.load().live.wakePhrase
    return configuration
}

/// The settings file `--config` names, else the first on the search path (`HarkConfigFile.load`);
/// one that cannot be read or makes no sense ends the command, saying why (exit 65).
func settingsFile(_ config: String?) throws -> HarkConfigFile {
    do {
        return try HarkConfigFile.load(config.map { URL(fileURLWithPath: $0) })
    } catch {
        printError("hark: \(error)")
        throw ExitCode(ExitStatus.dataError)
    }
}

extension LiveSettings {
    /// The wake word hears through the recogniser's adaptation: the installed models/en-us.mllr,
    /// or what `--acoustic-adaptation` chose (a file, or none for Debian's model as it is).
    mutating func chooseWakeAdaptation(_ recognizer: RecognizerOptions?) {
        var chosen = RecognizerConfiguration()
        chosen.acousticTransform = HarkPaths.acousticTransform(in: HarkPaths.modelsDirectory())
        recognizer?.chooseAdaptation(&chosen)
        wakeAcousticTransform = chosen.acousticTransform
    }

    /// Makes the wake word ready to listen for: gives the phrase's words the dictionary lacks a
    /// pronunciation (the project's lexicon, else espeak-ng), or refuses a phrase that cannot be
    /// pronounced; reads the installed other words unless the settings named a list; and listens
    /// through the adaptation `recognizer` chose (`chooseWakeAdaptation`).
    mutating func prepareWakeWord(recognizer: RecognizerOptions? = nil) throws {
        let models = HarkPaths.modelsDirectory()
        chooseWakeAdaptation(recognizer)
        do {
            try pronounceWakePhrase(models: models)
        } catch {
            throw ValidationError("the wake phrase \"\(wakePhrase)\" cannot be pronounced: \(error)")
        }
        do {
            try readWakeOtherWords(models: models)
        } catch {
            throw ValidationError("the wake word's other words cannot be read: \(error.message)")
        }
    }
}

/// Where speech goes: a WAV file when one is named, else the sound card.
enum SpeechOutput {
    /// Returns false when there was neither a file nor a sound card.
    static func deliver(_ clip: AudioClip, to path: String?) throws -> Bool {
        if let path {
            try WAVFile.write(clip, to: URL(fileURLWithPath: path))
            return true
        }
        guard AudioDevices.hasSoundCard() else { return false }
        try PlaybackDevice(PCMDeviceSpec(name: "default")).play(clip)
        return true
    }
}
