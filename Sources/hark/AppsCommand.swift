import ArgumentParser
import Foundation
import HarkIntents
import HarkRuntime

/// `hark apps check`: validates a folder of apps as an app author or CI would.
struct Apps: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apps",
        abstract: "Check a folder of apps for problems.",
        discussion: """
        hark apps check [--apps DIR] reads every app.yaml in the folder (or the one app's folder; \
        without --apps, the bundled apps and the owner's in /etc/hark/apps and ~/.config/hark/apps, \
        as Hark loads them) and \
        reports each problem with its file and line: a manifest's own (unknown keys, parameters, \
        phrases, words Hark cannot pronounce, more than 5,000 phrases and values in one app) and clashes between apps (a name two apps share, a phrase that contains \
        the wake phrase of the settings file or is one of Hark's own commands). It exits 65 when \
        there is any. A running Hark leaves such apps out, says so in its log, and serves the others. \
        Warnings (a phrase two apps share, which Hark asks about; a long shortcut phrase) are \
        printed too and do not fail the check.
        """)

    @Argument(help: ArgumentHelp("check", valueName: "action"))
    var action: String

    @OptionGroup var apps: AppsOptions

    func validate() throws {
        guard action == "check" else { throw ValidationError("unknown action \"\(action)\"; use check") }
    }

    func run() throws {
        let directory = try apps.appsDirectory()
        let folders = [directory] + apps.ownerAppsDirectories().filter { FileManager.default.fileExists(atPath: $0.path) }
        let place = folders.map(\.path).joined(separator: " and ")
        let wakePhrase: String
        do {
            wakePhrase = try HarkConfigFile.load().live.wakePhrase
        } catch {
            throw fail(error)
        }
        // Words espeak-ng cannot read for the recogniser are problems too: Hark would not hear them.
        let pronunciation: PronunciationCheck
        do {
            pronunciation = try PronunciationCheck(models: HarkPaths.modelsDirectory())
        } catch {
            throw fail(error)
        }
        do throws(ManifestError) {
            let catalog = try AppCatalog.load(from: directory, ownerFolders: Array(folders.dropFirst()), wakePhrase: wakePhrase)
            let unpronounceable = pronunciation.problems(in: catalog)
            if !unpronounceable.isEmpty { throw ManifestError(problems: unpronounceable) }
            for warning in catalog.warnings { print("warning: \(warning.description)") }
            let names = catalog.apps.map { "\($0.identifier) (\($0.name))" }
            print("\(catalog.apps.count) app\(catalog.apps.count == 1 ? "" : "s") in \(place), no problems: \(names.joined(separator: ", "))")
        } catch {
            for problem in error.problems { print(problem.description) }
            printError("hark: \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s") in \(place)")
            throw ExitCode(ExitStatus.dataError)
        }
    }
}
