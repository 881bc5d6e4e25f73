import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime
import HarkSpeech

/// `hark mic-check`: how the microphone hears its room and a voice in it.
struct MicCheck: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mic-check",
        abstract: "Check the microphone in its room: how loud the room is, how far a voice stands above it, whether it clips.",
        discussion: """
        First stay quiet while Hark listens to the room (--room-seconds, 5 by default), with the \
        room as it usually is: the tap, the fridge, the television. Then, when asked, say the \
        wake word and a request from where you usually stand (--speech-seconds, 5). Prints the \
        room's level, the voice's, how far the voice stands above the room, whether the wake \
        word was heard (by the spotter as `hark listen` sets it up), and what Hark does at that \
        distance: listening for the wake word through noise suppression, asking "Did you say …?" \
        first, asking for a request again.

        A voice twice as close to the microphone stands about 6 dB further above a steady room. \
        Try places for the microphone, away from the tap and the fridge and towards where \
        people speak, and keep the one where the voice stands highest above the room without \
        clipping.

        --input checks a recording instead (WAV): its first --room-seconds are the room, the \
        rest someone speaking. The device and the settings (confirm_in_noise_below, \
        wake_denoise_above) come from the settings file, as for `hark listen`.

        Exits 0 when a voice was heard and judged, 1 when none stood above the room, 65 when \
        the audio is too short to judge, 66 when the device or the recording cannot be read.
        """)

    @Option(help: ArgumentHelp("ALSA capture device, e.g. default, plughw:1, or a name from `hark devices`.", valueName: "name"))
    var inputDevice: String?

    @Option(help: ArgumentHelp("Check a WAV recording (the room first, then speech) instead of the microphone.", valueName: "file"))
    var input: String?

    @Option(help: ArgumentHelp("Seconds of the room, nobody speaking (at least 1).", valueName: "s"))
    var roomSeconds = 5.0

    @Option(help: ArgumentHelp("Seconds to listen for the voice from the microphone (at least 0.5).", valueName: "s"))
    var speechSeconds = 5.0

    @Option(help: ArgumentHelp("Settings file (YAML) to take the device and the noise settings from.", valueName: "file"))
    var config: String?

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func validate() throws {
        if !(roomSeconds >= MicrophoneCheck.leastRoomSeconds && roomSeconds <= 60) {
            throw ValidationError("--room-seconds must be 1 to 60, not \(roomSeconds)")
        }
        if !(speechSeconds >= MicrophoneCheck.leastSpeechSeconds && speechSeconds <= 60) {
            throw ValidationError("--speech-seconds must be 0.5 to 60, not \(speechSeconds)")
        }
        try DeviceOptions.check(inputDevice, given: "--input-device")
        if input != nil && inputDevice != nil { throw ValidationError("give --input or --input-device, not both") }
    }

    func run() throws {
        let file = try settingsFile(config)
        var live = file.live
        try live.prepareWakeWord()
        var settings = MicrophoneCheck.Settings(wakeDenoisesAbove: file.live.wakeDenoisesAbove)
        if let noisy = file.noisyConfirmation { settings.confirmsBelow = noisy?.below }
        let check: MicrophoneCheck
        do {
            let (room, speech) = try input.map(recording) ?? listen(to: inputDevice ?? file.inputDevice)
            check = try MicrophoneCheck(room: room, speech: speech, settings: settings, wakeWord: live.wakeWord)
        } catch let problem as MicrophoneCheck.Problem {
            // A recording's parts are cut by --room-seconds: say so, for a file too short for them.
            let hint = input.map { String(format: " (%@: its first %g s are the room, the rest the speech)", $0, roomSeconds) } ?? ""
            printError("hark: \(problem)\(hint)")
            throw ExitCode(ExitStatus.dataError)
        } catch let exit as ExitCode {
            throw exit  // said already (no sound card)
        } catch {
            throw fail(error)
        }
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(check), as: UTF8.self))
        } else {
            print(MicCheckReport.text(check, settings: settings))
        }
        if check.voiceLevel == nil { throw ExitCode(1) }
    }

    /// The room and the speech of a recording: its first `roomSeconds`, and the rest.
    private func recording(_ path: String) throws -> (room: [Int16], speech: [Int16]) {
        let samples = try WAVFile.read(contentsOf: URL(fileURLWithPath: path)).pipelineSamples()
        let split = min(samples.count, Int(roomSeconds * Double(PipelineAudio.sampleRate)))
        return (Array(samples[..<split]), Array(samples[split...]))
    }

    /// The room, then the speech, from the capture device `name` (nil: ALSA's default).
    private func listen(to name: String?) throws -> (room: [Int16], speech: [Int16]) {
        if name == nil && !AudioDevices.hasSoundCard() {
            printError("hark: this machine has no sound card; check a recording with --input FILE.wav")
            throw ExitCode(ExitStatus.unavailable)
        }
        let capture = try CaptureDevice(PCMDeviceSpec(name: name ?? PCMDeviceSpec.default.name))
        let rate = Double(PipelineAudio.sampleRate)
        printError(String(format: "Stay quiet for %g s: listening to the room…", roomSeconds))
        let room = try capture.read(frames: Int(roomSeconds * rate))
        printError("Now say the wake word and a request, as you usually would…")
        let speech = try capture.read(frames: Int(speechSeconds * rate))
        return (room, speech)
    }
}

/// What `hark mic-check` prints: the figures, then each finding with what to do about it.
enum MicCheckReport {
    static func text(_ check: MicrophoneCheck, settings: MicrophoneCheck.Settings) -> String {
        var lines = [
            String(format: "room:  %.0f dBFS (its quiet moments), %.0f dBFS on average, %.0f dBFS at its loudest",
                   check.roomLevel, check.roomMeanLevel, check.roomLoudestLevel),
        ]
        if let voice = check.voiceLevel, let above = check.voiceAboveRoom {
            lines.append(String(format: "voice: %.0f dBFS, %.0f dB above the room", voice, above))
            if check.clippedShare > 0 { lines.append(String(format: "       %.2f %% of its samples at full scale", 100 * check.clippedShare)) }
            if let wake = check.wakeWord {
                let odds = wake.odds.map { String(format: " (odds %.1f)", $0) } ?? ""
                let how = wake.sure ? "heard" : wake.tentative ? "heard faintly" : "not heard"
                lines.append("wake word \"\(wake.phrase)\": \(how)\(odds)")
            }
        } else {
            lines.append("voice: none heard above the room")
        }
        lines += check.findings.map { "* " + advice($0, check, settings) }
        if check.voiceLevel != nil, check.findings.allSatisfy({ $0 == .wakeWordHeardThroughSuppression }) {
            lines.append("* Good: the voice stands well clear of the room; Hark acts on what it hears clearly without asking first.")
        }
        return lines.joined(separator: "\n")
    }

    static func advice(_ finding: MicrophoneCheck.Finding, _ check: MicrophoneCheck, _ settings: MicrophoneCheck.Settings) -> String {
        switch finding {
        case .digitalSilence:
            "The microphone gave nothing but digital silence: is its capture switched off (alsamixer, F4), or is it the wrong device (hark devices)?"
        case .wakeWordHeardThroughSuppression:
            String(format: "The room is louder than %g dBFS, so the wake word is listened for through noise suppression (wake_denoise_above).",
                   settings.wakeDenoisesAbove ?? 0)
        case .noiseComesAndGoes:
            "A noise comes and goes (dishes, a pet, talk): Hark judges a request by the room's average over the seconds before the wake word, bursts included."
        case .noVoice:
            "Nothing stood above the room: speak after \"Now say\", closer to the microphone, or check that it is the one Hark records from (hark devices)."
        case .faintVoice:
            "The voice is faint: raise the microphone's capture level (alsamixer), bring it closer, or set wake_faint_voice_gain: on."
        case .clipped:
            "The voice clips: its peaks are cut flat, which Hark hears worse. Lower the capture level (alsamixer) until this goes."
        case .telephoneBand:
            "The voice has no sound above 4 kHz, as through a Bluetooth headset or a phone line: Hark asks about digits it heard only just well enough. A headset's wideband mode (mSBC) avoids it."
        case .voiceBarelyAboveRoom:
            "The voice is barely above the room: many wake words will be missed. Bring the microphone closer to where people speak, or quieten the room."
        case .noisyRoom:
            "With the voice this little above the room, Hark calls the room noisy: a request it does not make out is asked for again (\"Say it again?\")."
        case .wakeWordFaint:
            "The wake word was heard only faintly: no chime, and Hark answers only a request said straight after it. Speak closer, or raise sensitivity."
        case .wakeWordMissed:
            "The wake word was not heard: say it after \"Now say\", closer to the microphone; or raise sensitivity, or check the phrase with hark wake-check."
        case .asksFirst:
            String(format: "Below %g dB (confirm_in_noise_below), Hark asks \"Did you say …?\" before acting on a request it heard only just well enough.",
                   settings.confirmsBelow ?? 0)
        }
    }
}
