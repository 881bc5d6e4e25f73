import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime

/// `hark say`: speak text with Hark's voice.
struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak text with Hark's voice, on the sound card or into a WAV file.")

    @Argument(help: "The text to speak.")
    var text: String

    @Option(help: ArgumentHelp("Write the speech to this WAV file instead of playing it.", valueName: "file.wav"))
    var out: String?

    @OptionGroup var voice: VoiceOptions

    func validate() throws {
        guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError("there is nothing to say: the text is empty")
        }
    }

    func run() async throws {
        do {
            let speech = try SpeechService(settings: voice.settings)
            let clip = try await speech.speak(text)
            if try SpeechOutput.deliver(clip, to: out) {
                if let out { print(String(format: "wrote %.2f s of speech to %@", clip.duration, out)) }
            } else {
                printError("hark: there is no sound card to speak on; use --out FILE to write the speech to a WAV file")
                throw ExitCode(ExitStatus.unavailable)
            }
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }
}
