import ArgumentParser
import Foundation
import HarkAudio
import HarkRuntime
import HarkIntents
import HarkSpeech
import HarkVoice

/// `hark pronounce`: what Hark listens for when a word is said, and how it says it.
struct Pronounce: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Show the phones Hark listens for in a word, and speak it.",
        discussion: """
        A word in the dictionary (Debian's cmudict-en-us) or in models/lexicon.dict is listened for \
        as written there; then a word an installed app gives a pronunciation for (its vocabulary); \
        any other word gets espeak-ng's pronunciation mapped to the recogniser's phones. Hark says \
        a word the way it listens for it: words with hand-written phones (the lexicon's and the \
        apps') are spoken from those phones.
        """)

    @Argument(help: "Words to pronounce.")
    var words: [String]

    @Option(help: ArgumentHelp("Write the spoken words to this WAV file instead of playing them.", valueName: "file.wav"))
    var out: String?

    @Flag(help: "Print only; do not speak.")
    var quiet = false

    @Option(name: .long, help: ArgumentHelp(
        "Folder of apps whose vocabulary pronunciations count (default: $HARK_APPS, else the apps/ folder Hark finds; none if there is none).",
        valueName: "dir"))
    var apps: String?

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
            let lexiconWords = Set(recognizer.lexiconPronunciations.map(\.word))
            let fromApps = try appPronunciations()
            // Words with hand-written phones are spoken from them, as Hark would say them.
            var handWritten: [(word: String, phones: String)] = []
            for word in words.map({ $0.lowercased() }) {
                if let phones = try recognizer.pronunciation(of: word) {
                    let isLexicon = lexiconWords.contains(word)
                    if isLexicon { handWritten.append((word, phones)) }
                    print("\(word): \(phones)   (\(isLexicon ? "models/lexicon.dict" : "dictionary"))")
                } else if let (phones, app) = fromApps[word] {
                    handWritten.append((word, phones))
                    print("\(word): \(phones)   (app \(app))")
                } else if let pronouncer {
                    print("\(word): \(try pronouncer.phones(of: word).joined(separator: " "))   (espeak-ng)")
                } else {
                    print("\(word): unknown, and no phone map in models/ to guess with")
                }
            }
            guard !quiet else { return }
            let speech = try SpeechService(settings: voice.settings, lexicon: try SpokenLexicon(arpabet: handWritten))
            let clip = try await speech.speak(words.joined(separator: ", "))
            if try !SpeechOutput.deliver(clip, to: out) {
                printError("hark: no sound card to speak on; --out FILE writes the speech, --quiet skips it")
            }
        } catch {
            throw fail(error)
        }
    }

    /// Word → (phones, app name) for the pronunciations installed apps give; empty when no
    /// apps folder is named or found.
    private func appPronunciations() throws -> [String: (phones: String, app: String)] {
        guard let folder = apps.map({ URL(fileURLWithPath: $0) }) ?? HarkPaths.appsDirectory() else { return [:] }
        var found: [String: (phones: String, app: String)] = [:]
        for app in try AppCatalog.load(from: folder).apps {
            for term in app.vocabulary {
                if let phones = term.pronunciation, found[term.word] == nil { found[term.word] = (phones.uppercased(), app.name) }
            }
        }
        return found
    }
}
