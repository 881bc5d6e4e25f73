import Foundation
import HarkRuntime
import HarkSpeech
import HarkTestSupport
import Testing

/// The settings file `hark listen` reads.
struct HarkConfigFileTests {
    @Test func readsEverySetting() throws {
        let config = try HarkConfigFile.parse("""
            # the kitchen speaker
            input_device: plughw:1
            output_device: hw:0,0
            apps: /opt/hark/apps
            wake_phrase: Computer
            sensitivity: 0.5
            wake_denoise_above: -48
            request_denoise_above: -50
            acknowledgement: speech
            end_silence: 0.8
            early_end_silence: 0.3
            no_speech_timeout: 5
            max_utterance: 12
            echo_tail: 0.3
            while_speaking: gate
            voice: en-gb
            rate: 150
            log_level: debug
            """, file: "hark.yaml")
        #expect(config.inputDevice == "plughw:1" && config.outputDevice == "hw:0,0")
        #expect(config.appsDirectory == "/opt/hark/apps" && config.voice == "en-gb" && config.rate == 150)
        #expect(config.logLevel == "debug")
        #expect(config.live.wakePhrase == "computer" && config.live.sensitivity == 0.5)
        #expect(config.live.acknowledgement == .speech)
        #expect(config.live.wakeDenoisesAbove == -48 && config.live.wakeWord.denoisesAbove == -48)
        #expect(try HarkConfigFile.parse("wake_denoise_above: never", file: "hark.yaml").live.wakeWord.denoisesAbove == nil)
        #expect(try HarkConfigFile.parse("wake_denoise_above: none", file: "hark.yaml").live.wakeWord.denoisesAbove == nil)
        #expect(config.requestDenoiseAbove == -50)
        #expect(try HarkConfigFile.parse("request_denoise_above: never", file: "hark.yaml").requestDenoiseAbove == nil)
        // Suppressing a noisy request's noise: a ratio, never, or (unsaid) the default.
        #expect(try HarkConfigFile.parse("request_denoise_below: 8", file: "hark.yaml").requestDenoiseBelow == .some(8))
        #expect(try HarkConfigFile.parse("request_denoise_below: never", file: "hark.yaml").requestDenoiseBelow == .some(nil))
        #expect(try HarkConfigFile.parse("voice: en-us", file: "hark.yaml").requestDenoiseBelow == nil)
        #expect(RecognizerConfiguration().denoisesBelow == RequestDenoising.standardBelow)
        #expect(throws: ConfigFileError.self) { try HarkConfigFile.parse("request_denoise_below: 90", file: "hark.yaml") }
        // Hearing a suppressed request as it came too: on, off, or (unsaid) the default, on.
        #expect(try HarkConfigFile.parse("request_second_hearing: off", file: "hark.yaml").requestSecondHearing == false)
        #expect(try HarkConfigFile.parse("request_second_hearing: on", file: "hark.yaml").requestSecondHearing == true)
        #expect(try HarkConfigFile.parse("noise_compensation: off", file: "hark.yaml").noiseCompensation == false)
        #expect(try HarkConfigFile.parse("noise_compensation: on", file: "hark.yaml").noiseCompensation == true)
        #expect(try HarkConfigFile.parse("apps: apps", file: "hark.yaml").noiseCompensation == nil)
        #expect(throws: ConfigFileError.self) { try HarkConfigFile.parse("noise_compensation: loud", file: "hark.yaml") }
        #expect(try HarkConfigFile.parse("voice: en-us", file: "hark.yaml").requestSecondHearing == nil)
        #expect(RecognizerConfiguration().hearsSuppressedRequestsAsTheyCameToo)
        #expect(throws: ConfigFileError.self) { try HarkConfigFile.parse("request_second_hearing: twice", file: "hark.yaml") }
        // Asking first in a noisy room: a level, never, or (unsaid) the default.
        #expect(try HarkConfigFile.parse("confirm_in_noise_below: 10", file: "hark.yaml").noisyConfirmation
                == .some(NoisyConfirmation(below: 10, reach: NoisyConfirmation.standardReach)))
        #expect(try HarkConfigFile.parse("confirm_in_noise_below: never", file: "hark.yaml").noisyConfirmation == .some(nil))
        #expect(try HarkConfigFile.parse("voice: en-us", file: "hark.yaml").noisyConfirmation == nil)
        // Asking first through a telephone-band microphone: a reach, never, or (unsaid) the default.
        #expect(try HarkConfigFile.parse("confirm_telephone_band: 1.5", file: "hark.yaml").telephoneBandReach == .some(1.5))
        #expect(try HarkConfigFile.parse("confirm_telephone_band: never", file: "hark.yaml").telephoneBandReach == .some(nil))
        #expect(try HarkConfigFile.parse("voice: en-us", file: "hark.yaml").telephoneBandReach == nil)
        #expect(RecognizerConfiguration().telephoneBandReach == RecognizerConfiguration.standardTelephoneBandReach)
        // Tentative wake words: odds, never, or (unsaid) the default.
        #expect(try HarkConfigFile.parse("tentative_wake: 2", file: "hark.yaml").live.wakeWord.tentativeOdds == 2)
        #expect(try HarkConfigFile.parse("tentative_wake: never", file: "hark.yaml").live.wakeWord.tentativeOdds == nil)
        #expect(try HarkConfigFile.parse("wake_noisy_room_allowance: 0.5", file: "hark.yaml").live.wakeWord.noisyRoomAllowance == 0.5)
        #expect(try HarkConfigFile.parse("wake_noisy_room_allowance: never", file: "hark.yaml").live.wakeWord.noisyRoomAllowance == 0)
        #expect(try HarkConfigFile.parse("", file: "hark.yaml").live.wakeWord.noisyRoomAllowance == WakeWordSpotter.noisyRoomAllowance)
        #expect(HarkConfigFile().live.wakeWord.tentativeOdds == LiveSettings.standardTentativeWakeOdds)
        #expect(HarkConfigFile().requestDenoiseAbove == nil)
        let list = Fixtures.root.appendingPathComponent("models/other-words.txt").path
        #expect(try HarkConfigFile.parse("other_words: \(list)", file: "hark.yaml").otherWords
                == OtherWords.read(URL(fileURLWithPath: list)))
        #expect(try HarkConfigFile.parse("other_words: never", file: "hark.yaml").otherWords == [])
        #expect(HarkConfigFile().otherWords == nil)
        #expect(try HarkConfigFile.parse("wake_other_words: \(list)", file: "hark.yaml").live.wakeOtherWords
                == OtherWords.read(URL(fileURLWithPath: list)))
        #expect(try HarkConfigFile.parse("wake_other_words: never", file: "hark.yaml").live.wakeOtherWords == [])
        #expect(HarkConfigFile().live.wakeOtherWords == nil)
        #expect(LiveSettings().wakeWord.denoisesAbove == WakeWordSpotter.denoisingRoomLevel)
        #expect(try HarkConfigFile.parse("wake_faint_voice_gain: on", file: "hark.yaml").live.wakeWord.amplifiesFaintVoices)
        #expect(try !HarkConfigFile.parse("wake_faint_voice_gain: off", file: "hark.yaml").live.wakeWord.amplifiesFaintVoices)
        #expect(!LiveSettings().wakeWord.amplifiesFaintVoices)
        #expect(config.live.whileSpeaking == .gate && LiveSettings().whileSpeaking == .listen)
        #expect(config.live.endSilence == 0.8 && config.live.noSpeechTimeout == 5 && config.live.maximumUtterance == 12)
        #expect(config.live.echoTail == 0.3 && config.live.earlyEndSilence == 0.3)
    }

    @Test func theWakeWordIsCheckedAgainstTheInstalledOtherWordsUnlessToldNever() throws {
        let models = Fixtures.root.appendingPathComponent("models")
        let installed = try OtherWords.read(models.appendingPathComponent("other-words.txt"))
        var settings = LiveSettings()
        try settings.readWakeOtherWords(models: models)
        #expect(settings.wakeWord.otherWords == installed)
        var never = try HarkConfigFile.parse("wake_other_words: never", file: "hark.yaml").live
        try never.readWakeOtherWords(models: models)
        #expect(never.wakeWord.otherWords.isEmpty)
        var uninstalled = LiveSettings()
        try uninstalled.readWakeOtherWords(models: try temporaryDirectory())
        #expect(uninstalled.wakeWord.otherWords.isEmpty)
    }

    @Test func theWakeWordListensThroughTheAdaptationItIsGiven() {
        var settings = LiveSettings()
        #expect(settings.wakeWord.acousticTransform == nil)
        let adaptation = Fixtures.root.appendingPathComponent("models/en-us.mllr")
        settings.wakeAcousticTransform = adaptation
        #expect(settings.wakeWord.acousticTransform == adaptation)
    }

    @Test func theRecogniserSearchesTheInstalledOtherWordsUnlessToldNever() throws {
        let models = Fixtures.root.appendingPathComponent("models")
        let installed = try OtherWords.read(models.appendingPathComponent("other-words.txt"))
        var configuration = AssistantConfiguration(appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: models)
        #expect(try configuration.recognizerConfiguration().otherWords == installed)
        configuration.recognizer.otherWords = ["flooring"]
        #expect(try configuration.recognizerConfiguration().otherWords == ["flooring"])
        configuration.recognizer.otherWords = []
        configuration.readsInstalledOtherWords = false
        #expect(try configuration.recognizerConfiguration().otherWords.isEmpty)
        let uninstalled = AssistantConfiguration(appsDirectory: Fixtures.root.appendingPathComponent("apps"), modelsDirectory: try temporaryDirectory())
        #expect(try uninstalled.recognizerConfiguration().otherWords.isEmpty)
    }

    @Test func anEmptyFileMeansTheDefaults() throws {
        #expect(try HarkConfigFile.parse("", file: "hark.yaml") == HarkConfigFile())
        #expect(try HarkConfigFile.parse("# nothing set\n", file: "hark.yaml") == HarkConfigFile())
    }

    @Test func refusesUnknownKeysAndBadValuesSayingWhere() {
        func problem(_ text: String) -> ConfigFileError? {
            do {
                _ = try HarkConfigFile.parse(text, file: "hark.yaml")
                return nil
            } catch {
                return error as? ConfigFileError
            }
        }
        let unknown = problem("wake_phrase: jarvis\nwake_word: computer\n")
        #expect(unknown?.line == 2)
        #expect(unknown?.reason.contains("unknown setting \"wake_word\"") == true)
        #expect(unknown?.description.hasPrefix("hark.yaml:2: ") == true)
        #expect(problem("sensitivity: loud")?.reason == "sensitivity: expected a number")
        #expect(problem("sensitivity: 3")?.reason.contains("between 0 and 1") == true)
        #expect(problem("wake_denoise_above: loud")?.reason == "wake_denoise_above: expected a room level in dBFS, or never")
        #expect(problem("wake_denoise_above: 3")?.reason.contains("never") == true)
        #expect(problem("request_denoise_above: 3")?.reason == "request_denoise_above: expected a room level between -90 and 0 dBFS, or never")
        #expect(problem("request_denoise_above: loud")?.reason == "request_denoise_above: expected a room level in dBFS, or never")
        #expect(problem("tentative_wake: sometimes")?.reason == "tentative_wake: expected log odds from -5 to 6, or never")
        #expect(problem("tentative_wake: 9")?.reason == "tentative_wake: expected log odds from -5 to 6, or never")
        #expect(problem("wake_noisy_room_allowance: 4")?.reason == "wake_noisy_room_allowance: expected log odds from 0 to 3, or never")
        #expect(problem("wake_noisy_room_allowance: loud")?.reason == "wake_noisy_room_allowance: expected log odds from 0 to 3, or never")
        #expect(problem("confirm_in_noise_below: 90")?.reason == "confirm_in_noise_below: expected a signal-to-noise ratio from -20 to 80 dB, or never")
        #expect(problem("confirm_telephone_band: 9")?.reason == "confirm_telephone_band: expected a reach above the rejection margin from 0 to 5, or never")
        #expect(problem("confirm_telephone_band: often")?.reason == "confirm_telephone_band: expected a number")
        #expect(problem("other_words: /nonexistent/words.txt")?.reason
                .hasPrefix("other_words: cannot read the list of other words /nonexistent/words.txt") == true)
        #expect(problem("wake_other_words: /nonexistent/words.txt")?.reason
                .hasPrefix("wake_other_words: cannot read the list of other words /nonexistent/words.txt") == true)
        #expect(problem("wake_faint_voice_gain: loud")?.reason == "wake_faint_voice_gain: expected on or off")
        #expect(problem("acknowledgement: bell")?.reason.contains("chime, speech, none") == true)
        #expect(problem("while_speaking: mute")?.reason.contains("listen, gate") == true)
        #expect(problem("rate: fast")?.reason.contains("words per minute") == true)
        #expect(problem("- a list")?.reason.contains("key: value") == true)
        #expect(problem("input_device: [unclosed")?.reason.contains("not valid YAML") == true)
    }

    @Test func theOwnersFileComesBeforeTheMachines() throws {
        let home = try temporaryDirectory()
        let environment = ["XDG_CONFIG_HOME": home.path, "HOME": "/nonexistent"]
        let path = HarkConfigFile.searchPath(environment: environment)
        #expect(path.map(\.path) == [home.appendingPathComponent("hark/hark.yaml").path, "/etc/hark/hark.yaml"])

        try FileManager.default.createDirectory(at: home.appendingPathComponent("hark"), withIntermediateDirectories: true)
        try "sensitivity: 0.4\n".write(to: path[0], atomically: true, encoding: .utf8)
        let loaded = try HarkConfigFile.load(environment: environment)
        #expect(loaded.live.sensitivity == 0.4)
        #expect(loaded.source == path[0])
    }

    @Test func aNamedFileMustExist() throws {
        let missing = try temporaryDirectory().appendingPathComponent("nope.yaml")
        #expect(throws: ConfigFileError.self) { try HarkConfigFile.load(missing) }
    }
}
