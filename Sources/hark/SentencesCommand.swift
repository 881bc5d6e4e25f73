import ArgumentParser
import Foundation
import HarkRuntime

/// `hark sentences`: labelled sentences drawn from the installed apps' phrases, for corpora.
struct Sentences: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print labelled sentences drawn from the installed apps' phrases.",
        discussion: """
        Draws up to --per-phrase different sentences from every phrase and App Shortcut of the \
        installed apps, choosing optional words, alternatives and parameter values at random, and \
        prints each as one JSON object a line in the sidecar layout `hark bench` reads:
          {"text": …, "intent": {"name": …}, "slots": {…}, "app": …}
        The same --seed gives the same \
        sentences. bench/make-corpus.sh speaks them in many voices and noise levels. \
        Sentences with no single right answer (a name two contacts share, a value the app refuses) \
        are left out and counted on standard error.
        """)

    @OptionGroup var apps: AppsOptions

    @Option(help: ArgumentHelp("Different sentences to draw from each phrase (fewer when a phrase has fewer).",
                               valueName: "n"))
    var perPhrase = 3

    @Option(help: ArgumentHelp("Seed of the random draw.", valueName: "n"))
    var seed: UInt64 = 1

    func validate() throws {
        guard (1...1000).contains(perPhrase) else { throw ValidationError("--per-phrase must be 1–1000, not \(perPhrase)") }
    }

    func run() async throws {
        do {
            // Dynamic values (stores, contacts) come from the apps' handlers, as when Hark listens.
            let assistant = try await startAssistant(apps: apps, recognizer: try RecognizerOptions.parse([]), database: nil)
            let draw = CorpusSentences.draw(from: await assistant.catalog, perPhrase: perPhrase, seed: seed)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            for sentence in draw.sentences {
                print(String(decoding: try encoder.encode(sentence), as: UTF8.self))
            }
            printError("hark: \(draw.sentences.count) sentences; \(draw.leftOut.count) left out")
            for reason in draw.leftOut { printError("  left out: \(reason)") }
        } catch {
            throw fail(error)
        }
    }
}
