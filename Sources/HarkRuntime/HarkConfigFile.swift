public import Foundation
public import HarkSpeech
import HarkVoice
import HarkIntents
import Yams

/// The owner's settings for `hark listen`, from a YAML file: the devices, the apps, the wake
/// word, endpointing and the voice. Options on the command line win over the file.
///
/// ```yaml
/// input_device: plughw:1
/// wake_phrase: jarvis
/// sensitivity: 0.5
/// ```
public struct HarkConfigFile: Sendable, Equatable {
    public var inputDevice: String?
    public var outputDevice: String?
    public var appsDirectory: String?
    public var voice: String?
    public var rate: Int?
    public var logLevel: String?
    /// `request_denoise_above`: the recogniser's `RecognizerConfiguration.denoisesAbove`; nil: never.
    public var requestDenoiseAbove: Double?
    /// `request_denoise_below`: the recogniser's `RecognizerConfiguration.denoisesBelow`
    /// (.some(nil): never); nil when the file does not say.
    public var requestDenoiseBelow: Double??
    /// `request_second_hearing`: the recogniser's
    /// `RecognizerConfiguration.hearsSuppressedRequestsAsTheyCameToo`; nil when the file does not say.
    public var requestSecondHearing: Bool?
    /// `noise_compensation`: off hears a noisy room's requests without the installed
    /// `RecognizerConfiguration.noiseCompensation`; nil when the file does not say.
    public var noiseCompensation: Bool?
    /// `confirm_in_noise_below`: the recogniser's `RecognizerConfiguration.noisyConfirmation`
    /// (.some(nil): never); nil when the file does not say.
    public var noisyConfirmation: NoisyConfirmation??
    /// `confirm_telephone_band`: the recogniser's `RecognizerConfiguration.telephoneBandReach`
    /// (.some(nil): never); nil when the file does not say.
    public var telephoneBandReach: Double??
    /// `other_words`: the words of the list it names, for the recogniser's
    /// `RecognizerConfiguration.otherWords` (read when the file is, so a bad list is refused with
    /// the key named); empty for never; nil when the file does not say (the installed list).
    public var otherWords: [String]?
    public var live = LiveSettings()
    /// The file the settings came from; nil when none was found.
    public var source: URL?

    public init() {}

    /// The keys a file may hold, with what each means, for `hark listen --help` and errors.
    public static let keys: [(key: String, meaning: String)] = [
        ("input_device", "ALSA capture device (default: default)"),
        ("output_device", "ALSA playback device (default: default)"),
        ("apps", "folder of bundled apps (the owner's in /etc/hark/apps and ~/.config/hark/apps load too)"),
        ("wake_phrase", "words that wake Hark (default: jarvis; check one with hark wake-check)"),
        ("sensitivity", "0–1, higher wakes more easily (default: \(LiveSettings().sensitivity))"),
        ("tentative_wake", "odds from which a wake word too faint to be sure of is listened on from without a sound, answered only when a request follows at once (acted on when heard clearly, asked about in a noisy room when less sure), or never (default: \(String(format: "%g", LiveSettings.standardTentativeWakeOdds)); the sensitivity's own threshold is 3.5)"),
        ("wake_noisy_room_allowance", "log odds a wake word only 10 to 15 dB above a noisy room is let off the sensitivity's threshold, or never for one threshold in every room (default: \(String(format: "%g", WakeWordSpotter.noisyRoomAllowance)))"),
        ("wake_denoise_above", "room level in dBFS above which the wake word is listened for through noise suppression, or never (default: \(String(format: "%g", WakeWordSpotter.denoisingRoomLevel)))"),
        ("request_denoise_above", "room level in dBFS above which a request is heard through noise suppression, or never (default: never; \(String(format: "%g", Recognizer.denoisingRoomLevel)) suits a room loud all the time)"),
        ("request_denoise_below", "a request standing less than this many dB of signal over its room's noise is heard through noise suppression, and asked about further above the rejection margin, or never (default: \(String(format: "%g", RequestDenoising.standardBelow)))"),
        ("request_second_hearing", "on or off: a request heard through noise suppression is also heard as it came, and the surer hearing kept (about twice the CPU for such a request; default: on)"),
        ("noise_compensation", "on or off: a full-band request in a room under \(String(format: "%g", RecognizerConfiguration.standardCompensatesBelow)) dB of signal over noise is compensated for the noise before it is heard (the installed models/en-us.noise-network; telephone-band audio is heard as it came; default: on)"),
        ("confirm_in_noise_below", "in a room noisier than this (dB of signal over noise), ask \"Did you say …?\" before acting on a request heard only just well enough, or never (default: \(String(format: "%g", NoisyConfirmation.standardBelow)))"),
        ("confirm_telephone_band", "through a telephone-band microphone (8 kHz on its way: a Bluetooth headset's hands-free mode, a phone line), ask \"Did you say …?\" before acting on a request heard up to this far above the rejection margin, in any room, or never (default: \(String(format: "%g", RecognizerConfiguration.standardTelephoneBandReach)))"),
        ("wake_other_words", "a list of common words a likely wake word is checked against, so that speech they explain better does not wake Hark, or never (default: the installed models/other-words.txt)"),
        ("wake_faint_voice_gain", "on or off: bring a voice quieter than \(String(format: "%g", FaintVoiceGain.quietestUsualVoice)) dBFS up to \(String(format: "%g", FaintVoiceGain.usualVoice)) dBFS before the wake word is listened for, for a microphone that barely catches its room (default: off)"),
        ("other_words", "a list of common words searched beside a one-word phrase heard in a quiet room, so that other speech is not taken for it, or never (default: the installed models/other-words.txt)"),
        ("acknowledgement", "chime, speech or none (default: chime)"),
        ("end_silence", "seconds of quiet that end a request (default: \(LiveSettings().endSilence))"),
        ("early_end_silence", "seconds of pause that end a finished phrase nothing continues (default: \(LiveSettings().earlyEndSilence))"),
        ("no_speech_timeout", "seconds to wait for speech (default: \(LiveSettings().noSpeechTimeout))"),
        ("max_utterance", "longest request in seconds (default: \(LiveSettings().maximumUtterance))"),
        ("echo_tail", "seconds after a reply still treated as Hark's own voice (default: \(LiveSettings().echoTail))"),
        ("while_speaking", "listen (its own voice cancelled, the wake word interrupts it) or gate (deaf until it has spoken) (default: listen)"),
        ("voice", "espeak-ng voice (default: en-us)"),
        ("rate", "speaking rate in words per minute (default: 170)"),
        ("log_level", "trace, debug, info, notice, warning, error or critical (default: info)"),
    ]

    /// Where Hark looks when no file is named: the owner's ($XDG_CONFIG_HOME/hark/hark.yaml),
    /// then the machine's (/etc/hark/hark.yaml). The first that exists is used.
    public static func searchPath(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        [HarkPaths.configDirectory(environment: environment).appendingPathComponent("hark.yaml"),
         URL(fileURLWithPath: "/etc/hark/hark.yaml")]
    }

    /// Reads `explicit` if given (it must exist), else the first file on the search path, else
    /// returns the defaults.
    public static func load(_ explicit: URL? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws -> HarkConfigFile {
        let candidates = explicit.map { [$0] } ?? searchPath(environment: environment)
        for file in candidates {
            guard FileManager.default.fileExists(atPath: file.path) else { continue }
            let text: String
            do {
                text = try String(contentsOf: file, encoding: .utf8)
            } catch {
                throw ConfigFileError(file: file.path, line: nil, reason: "cannot be read: \(error.localizedDescription)")
            }
            var config = try parse(text, file: file.path)
            config.source = file
            return config
        }
        if let explicit {
            throw ConfigFileError(file: explicit.path, line: nil, reason: "no such file")
        }
        return HarkConfigFile()
    }

    /// Parses the text of a settings file; `file` names it in errors.
    public static func parse(_ text: String, file: String) throws -> HarkConfigFile {
        if let line = YAMLNesting.lineTooDeep(text) {
            throw ConfigFileError(file: file, line: line, reason: "nests more than \(YAMLNesting.limit) levels deep")
        }
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw ConfigFileError(file: file, line: nil, reason: "is not valid YAML: \(error)")
        }
        var config = HarkConfigFile()
        guard let root else { return config } // an empty file: all defaults
        guard let mapping = root.mapping else {
            throw ConfigFileError(file: file, line: root.mark?.line, reason: "expected settings as key: value lines")
        }
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? ""
            let line = keyNode.mark?.line
            func fail(_ reason: String) -> ConfigFileError { ConfigFileError(file: file, line: line, reason: "\(key): \(reason)") }
            func text() throws -> String {
                guard let string = value.string, !string.isEmpty else { throw fail("expected text") }
                return string
            }
            /// A level in dBFS, or nil for "never" ("none", as the command line spells it).
            func roomLevelOrNever() throws -> Double? {
                if let word = value.string, ["never", "none"].contains(word) { return nil }
                guard let level = value.string.flatMap(Double.init) else { throw fail("expected a room level in dBFS, or never") }
                return level
            }
            /// A signal-to-noise ratio from -20 to 80 dB, or nil for "never" ("none").
            func signalToNoiseOrNever() throws -> Double? {
                let ratio = try roomLevelOrNever()
                if let ratio, !(-20...80).contains(ratio) { throw fail("expected a signal-to-noise ratio from -20 to 80 dB, or never") }
                return ratio
            }
            /// Log odds within `range`, or nil for "never" ("none").
            func oddsOrNever(_ range: ClosedRange<Double>) throws -> Double? {
                if let word = value.string, ["never", "none"].contains(word) { return nil }
                guard let odds = value.string.flatMap(Double.init), range.contains(odds) else {
                    throw fail("expected log odds from \(String(format: "%g", range.lowerBound)) to \(String(format: "%g", range.upperBound)), or never")
                }
                return odds
            }
            /// YAML's own booleans (on, off, true, false, yes, no) as its scalar spells them.
            func onOrOff() throws -> Bool {
                switch value.string?.lowercased() {
                case "on", "true", "yes": return true
                case "off", "false", "no": return false
                default: throw fail("expected on or off")
                }
            }
            /// The words of the list a path names, or none for "never" ("none").
            func wordListOrNever() throws -> [String] {
                let path = try text()
                if ["never", "none"].contains(path) { return [] }
                do {
                    return try OtherWords.read(URL(fileURLWithPath: path))
                } catch {
                    throw fail(error.message)
                }
            }
            func number() throws -> Double {
                guard let string = value.string, let number = Double(string) else { throw fail("expected a number") }
                return number
            }
            switch key {
            case "input_device": config.inputDevice = try text()
            case "output_device": config.outputDevice = try text()
            case "apps": config.appsDirectory = try text()
            case "voice": config.voice = try text()
            case "rate":
                guard let rate = Int(try text()), VoiceSettings.rateRange.contains(rate) else {
                    throw fail("expected whole words per minute, \(VoiceSettings.rateRange.lowerBound)–\(VoiceSettings.rateRange.upperBound)")
                }
                config.rate = rate
            case "log_level": config.logLevel = try text()
            case "wake_phrase": config.live.wakePhrase = try text().lowercased()
            case "sensitivity": config.live.sensitivity = try number()
            case "wake_denoise_above": config.live.wakeDenoisesAbove = try roomLevelOrNever()
            case "wake_noisy_room_allowance": config.live.wakeNoisyRoomAllowance = try oddsOrNever(LiveSettings.wakeNoisyRoomAllowances) ?? 0
            case "tentative_wake": config.live.tentativeWakeOdds = try oddsOrNever(-5...6)
            case "request_denoise_above":
                let line = try roomLevelOrNever()
                if let line, !WakeWordSpotter.denoisingRange.contains(line) {
                    throw fail("expected a room level between \(WakeWordSpotter.denoisingRangeText) dBFS, or never")
                }
                config.requestDenoiseAbove = line
            case "request_denoise_below": config.requestDenoiseBelow = .some(try signalToNoiseOrNever())
            case "request_second_hearing": config.requestSecondHearing = try onOrOff()
            case "noise_compensation": config.noiseCompensation = try onOrOff()
            case "confirm_in_noise_below":
                let below = try signalToNoiseOrNever()
                config.noisyConfirmation = .some(below.map { NoisyConfirmation(below: $0, reach: NoisyConfirmation.standardReach) })
            case "confirm_telephone_band":
                if let word = value.string, ["never", "none"].contains(word) {
                    config.telephoneBandReach = .some(nil)
                } else {
                    let reach = try number()
                    let reaches = RecognizerConfiguration.telephoneBandReaches
                    guard reaches.contains(reach) else {
                        throw fail("expected a reach above the rejection margin from \(String(format: "%g", reaches.lowerBound)) to \(String(format: "%g", reaches.upperBound)), or never")
                    }
                    config.telephoneBandReach = .some(reach)
                }
            case "other_words": config.otherWords = try wordListOrNever()
            case "wake_other_words": config.live.wakeOtherWords = try wordListOrNever()
            case "wake_faint_voice_gain": config.live.wakeAmplifiesFaintVoices = try onOrOff()
            case "end_silence": config.live.endSilence = try number()
            case "early_end_silence": config.live.earlyEndSilence = try number()
            case "no_speech_timeout": config.live.noSpeechTimeout = try number()
            case "max_utterance": config.live.maximumUtterance = try number()
            case "echo_tail": config.live.echoTail = try number()
            case "while_speaking":
                guard let choice = LiveSettings.WhileSpeaking(rawValue: try text()) else {
                    throw fail("expected one of \(LiveSettings.WhileSpeaking.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                config.live.whileSpeaking = choice
            case "acknowledgement":
                guard let choice = LiveSettings.Acknowledgement(rawValue: try text()) else {
                    throw fail("expected one of \(LiveSettings.Acknowledgement.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                config.live.acknowledgement = choice
            default:
                throw ConfigFileError(file: file, line: line,
                                      reason: "unknown setting \"\(key)\"; known: \(keys.map(\.key).joined(separator: ", "))")
            }
        }
        if let problem = config.live.problems().first {
            throw ConfigFileError(file: file, line: nil, reason: problem)
        }
        return config
    }
}

/// A settings file that cannot be used, with where and why.
public struct ConfigFileError: Error, CustomStringConvertible, Equatable {
    public var file: String
    /// 1-based, when the problem has a place.
    public var line: Int?
    public var reason: String

    public var description: String {
        "\(file)\(line.map { ":\($0)" } ?? ""): \(reason)"
    }
}
