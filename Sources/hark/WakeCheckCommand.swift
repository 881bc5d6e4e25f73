import ArgumentParser
import Foundation
import HarkRuntime

/// `hark wake-check`: whether a wake phrase is likely to wake Hark when nobody said it.
struct WakeCheck: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "wake-check",
        abstract: "Check a wake phrase: how often ordinary speech would wake Hark with it.",
        discussion: """
        The spotter listens, at the sensitivity `hark listen` would use, to about 16 minutes of \
        ordinary speech in which nobody says the phrase (talk at home, the news, the telephone, \
        said by espeak-ng at three pitches and speeds), then to the phrase said the same ways. \
        Prints the false wakes, the near misses (candidates given even odds or better once \
        checked against other words, as listening checks them: a quarter of an hour cannot \
        show one false wake in ten hours, near misses can show a phrase that will wake it \
        often) and a verdict; for the phrases make bench-wake \
        measures on real people's speech, that figure too. Takes about a minute.

        The phrase and the sensitivity come from the command line, else from the settings file \
        (wake_phrase, sensitivity; see `hark listen --help`), else "jarvis" at 0.5.
        """)

    @Argument(help: ArgumentHelp("The wake phrase, in words (e.g. \"hey computer\").", valueName: "phrase"))
    var phrase: [String] = []

    @Option(help: ArgumentHelp("Sensitivity 0–1 to check at.", valueName: "s"))
    var sensitivity: Double?

    @Option(help: ArgumentHelp("Settings file (YAML) to take the phrase and sensitivity from.", valueName: "file"))
    var config: String?

    @Flag(help: "Print the figures as JSON.")
    var json = false

    func validate() throws {
        if let sensitivity, !(0...1).contains(sensitivity) {
            throw ValidationError("--sensitivity must be 0 to 1, not \(sensitivity)")
        }
    }

    func run() async throws {
        var settings = try settingsFile(config).live
        if !phrase.isEmpty { settings.wakePhrase = phrase.joined(separator: " ").lowercased() }
        if let sensitivity { settings.sensitivity = sensitivity }
        try settings.prepareWakeWord()
        do {
            let bar = ProgressBar(label: "ordinary speech, sentences")
            let result = try await WakePhraseCheck(configuration: settings.wakeWord).run { done, total in
                bar.show(done, of: total)
                if done == total { bar.finish() }
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                print(String(decoding: try encoder.encode(result), as: UTF8.self))
            } else {
                print(WakePhraseCheck.report(result))
            }
        } catch {
            throw fail(error)
        }
    }
}
