import ArgumentParser
import Foundation
import HarkImport
import HarkIntents
import HarkRuntime

/// `hark import`: an app from another assistant's sentences.
struct Import: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make a Hark app from another assistant's sentences.",
        discussion: """
        hark import rhasspy sentences.ini [--slots DIR] --out DIR writes a Hark app folder (its \
        app.yaml) from Rhasspy's sentences.ini: each [Intent] section becomes an intent, each \
        sentence a phrase, each {tag} a parameter whose values are the words the tagged part can \
        be said with (substitutions become the values' ids), <rules> and $slot lists (from the \
        slots folder, by default slots/ beside the file) are written out in place, number ranges \
        are said in words. It prints, line by line, what it could not carry over or changed, then \
        checks the app as `hark apps check` does. Replies are "OK." with the values heard: write \
        your own in the app.yaml, or add a handler.
        """)

    @Argument(help: ArgumentHelp("What the sentences come from: rhasspy.", valueName: "format"))
    var format: String

    @Argument(help: ArgumentHelp("The sentences file (Rhasspy: sentences.ini).", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("Rhasspy's slots folder (default: slots/ beside the file, if there).", valueName: "dir"))
    var slots: String?

    @Option(help: ArgumentHelp("The app folder to write (its name is the app's identifier).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("The app's spoken name (default: the folder's name).", valueName: "name"))
    var name: String?

    @Flag(help: "Replace an app.yaml already in the folder.")
    var force = false

    func validate() throws {
        guard format == "rhasspy" else { throw ValidationError("unknown format \"\(format)\"; use rhasspy") }
    }

    func run() throws {
        let source = URL(fileURLWithPath: file)
        let text: String
        do {
            text = try String(contentsOf: source, encoding: .utf8)
        } catch {
            throw ValidationError("cannot read \(file): \(error.localizedDescription)")
        }
        let slotsFolder = slots.map { URL(fileURLWithPath: $0) } ?? source.deletingLastPathComponent().appendingPathComponent("slots")
        var slotLists: [String: [String]] = [:]
        if slots != nil || FileManager.default.fileExists(atPath: slotsFolder.path) {
            do {
                slotLists = try RhasspyImporter.readSlots(in: slotsFolder)
            } catch {
                throw ValidationError("cannot read the slots folder \(slotsFolder.path): \(error.localizedDescription)")
            }
        }
        let folder = URL(fileURLWithPath: out)
        let manifest = folder.appendingPathComponent("app.yaml")
        if FileManager.default.fileExists(atPath: manifest.path) && !force {
            throw ValidationError("\(manifest.path) exists; pass --force to replace it")
        }
        let appName = name ?? folder.lastPathComponent.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        var importer = RhasspyImporter(file: file, text: text, slots: slotLists)
        let result = importer.makeApp(name: appName)
        for line in result.report { print(line) }
        guard !result.app.intents.isEmpty else {
            printError("hark: nothing in \(file) could be carried over")
            throw ExitCode(ExitStatus.dataError)
        }
        let yaml = AppYAML.text(of: result.app, header: [
            "Imported from \(source.lastPathComponent) by hark import rhasspy.",
            "Replies are \"OK.\" with the values heard: write your own, or add a handler: (see README, Apps).",
        ])
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data((yaml + "\n").utf8).write(to: manifest)
        } catch {
            throw fail(error)
        }
        let phrases = result.app.intents.reduce(0) { $0 + $1.phrases.count }
        print("wrote \(manifest.path): \(result.app.intents.count) intents, \(phrases) phrases; \(result.report.count) note\(result.report.count == 1 ? "" : "s") above")
        do {
            _ = try AppCatalog.load(from: folder, wakePhrase: try HarkConfigFile.load().live.wakePhrase)
        } catch let error as ManifestError {
            for problem in error.problems { print(problem.description) }
            printError("hark: the imported app has \(error.problems.count) problem\(error.problems.count == 1 ? "" : "s"); fix them in \(manifest.path)")
            throw ExitCode(ExitStatus.dataError)
        } catch {
            throw fail(error)
        }
    }
}
