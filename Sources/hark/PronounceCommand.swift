import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime
import HarkSpeech

/// `hark pronounce`: what Hark listens for when a word is said, and how it says it.
struct Pronounce: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the phones Hark listens for in a word, and speak it.",
        discussion: """
        A word in the dictionary (Debian's cmudict-en-us, or models/lexicon.dict) is listened for \
        as written there; any other word gets espeak-ng's pronunciation mapped to the recogniser's \
        phones, which is also how Hark says it.
        """)

    @Argument(help: "Words to pronounce.")
    var words: [String]

    @Option(help: ArgumentHelp("Write the spoken words to this WAV file instead of playing them.", valueName: "file.wav"))
    var out: String?

    @Flag(help: "Print only; do not speak.")
    var quiet = false

    @OptionGroup var voice: VoiceOptions

    func validate() throws {
        guard !words.isEmpty else { throw ValidationError("give at least one word") }
        for word in words where word.contains(where: \.isWhitespace) {
            throw ValidationError("\"\(word)\" is more than one word; give words separately")
        }
    }

    func run() async throws {
        do {
            let models = HarkPaths.modelsDirectory()
            var configuration = RecognizerConfiguration()
            if let lexicon = HarkPaths.lexicon(in: models) { configuration.lexicons = [lexicon] }
            let recognizer = try Recognizer(configuration: configuration)
            let pronouncer = try Pronouncer.inModels(models)
            for word in words {
                if let phones = try recognizer.pronunciation(of: word) {
                    print("\(word.lowercased()): \(phones)   (dictionary)")
                } else if let pronouncer {
                    print("\(word.lowercased()): \(try pronouncer.phones(of: word).joined(separator: " "))   (espeak-ng)")
                } else {
                    print("\(word.lowercased()): unknown, and no phone map in models/ to guess with")
                }
            }
            guard !quiet else { return }
            let speech = try SpeechService(settings: voice.settings)
            let clip = try await speech.speak(words.joined(separator: ", "))
            if try !SpeechOutput.deliver(clip, to: out) {
                printError("hark: no sound card to speak on; --out FILE writes the speech, --quiet skips it")
            }
        } catch {
            throw fail(error)
        }
    }
}
