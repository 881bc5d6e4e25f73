import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime

/// `hark listen`: the live loop on the microphone and speaker.
struct Listen: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Listen on the microphone and answer requests out loud.",
        discussion: """
        Hark listens on the default capture device, finds each utterance by its loudness, recognises it
        against the installed apps and answers on the default playback device. Stop it with Ctrl-C.
        On a machine without a sound card it says so and shows how to run Hark on a recording instead.
        """)

    @OptionGroup var apps: AppsOptions
    @OptionGroup var voice: VoiceOptions
    @OptionGroup var recognizer: RecognizerOptions

    @Option(help: ArgumentHelp("ALSA capture device.", valueName: "name"))
    var inputDevice = "default"

    @Option(help: ArgumentHelp("ALSA playback device.", valueName: "name"))
    var outputDevice = "default"

    func run() async throws {
        guard AudioDevices.hasSoundCard() || inputDevice != "default" else {
            let example = HarkPaths.appsDirectory().map { $0.deletingLastPathComponent()
                .appendingPathComponent("audio-fixtures/home-en/turn_on_the_garage_light.wav").path }
                ?? "request.wav"
            // The path this binary was started by, so the suggestion can be pasted as it is.
            let hark = CommandLine.arguments[0]
            printError("""
            hark: this machine has no sound card, so there is no microphone to listen on.
            Hark can answer a recording instead:
                \(hark) run \(example) --reply-out reply.wav
            or speak into a file:
                \(hark) say "Hello" --out hello.wav
            """)
            throw ExitCode(ExitStatus.unavailable)
        }
        do {
            let assistant = try await startAssistant(apps: apps, recognizer: recognizer, voice: voice.settings)
            try await LiveLoop(assistant: assistant,
                               input: PCMDeviceSpec(name: inputDevice),
                               output: PCMDeviceSpec(name: outputDevice)).run()
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
    }
}
