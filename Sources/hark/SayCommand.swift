import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime
import HarkVoice

/// `hark say`: speak text with Hark's voice.
struct Say: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Speak text with Hark's voice, on the sound card or into a WAV file.")

    @Argument(help: "The text to speak.")
    var text: String?

    @Flag(help: "List the voices espeak-ng has installed (a name or language for --voice, or a Wyoming synthesize event's voice), and say nothing.")
    var listVoices = false

    @Option(help: ArgumentHelp("Write the speech to this WAV file instead of playing it.", valueName: "file.wav"))
    var out: String?

    @OptionGroup var voice: VoiceOptions

    func validate() throws {
        if listVoices {
            guard text == nil else { throw ValidationError("--list-voices says nothing: give it no text") }
            return
        }
        guard let text, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
            throw ValidationError("there is nothing to say: the text is empty")
        }
    }

    func run() async throws {
        if listVoices {
            do {
                // One line a voice: what to pass (its first language), its file, its name.
                for voice in try SpeechSynthesizer.installedVoices() {
                    print("\(voice.languages.first ?? voice.file)\t\(voice.file)\t\(voice.name)")
                }
            } catch {
                throw fail(error)
            }
            return
        }
        let text = text ?? ""
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
