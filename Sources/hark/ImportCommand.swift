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

        hark import home-assistant FILE_OR_FOLDER... --out DIR does the same from Home Assistant's \
        sentences: a language's folder of the intents repository (sentences/en, its _common.yaml \
        included), custom_sentences files, or the home-assistant-intents package's data/en.json, \
        all given merged into one app as Home Assistant merges them. Intents and their data: blocks' \
        sentences, {list} and {list:slot} as parameters with the values of lists: (values: with \
        in:/out:, range:), expansion_rules: written in place, a block's slots: as values its phrases \
        set, skip_words: allowed before and after each sentence; requires_context: keeps a sentence \
        to the entities it allows and takes an area from the room that heard it. The sentences are \
        kept in the app folder: after the devices change, hark import home-assistant --refresh \
        --entities HOME --out DIR imports them again with the new home. Wildcards beside other \
        slots and response: are reported, not carried over.

        hark import rhino context.yml --out DIR does the same from Picovoice Rhino's context YAML: \
        each expression list an intent, $type:slot a parameter with the type's values from slots:, \
        [a, b] a choice and (words) optional words; macros (@name) are reported, not carried over.
        """)

    @Argument(help: ArgumentHelp("What the sentences come from: rhasspy, home-assistant or rhino.", valueName: "format"))
    var format: String

    @Argument(help: ArgumentHelp("The sentences (Rhasspy: sentences.ini; Home Assistant: sentence YAML files or JSON, or folders of them; Rhino: context.yml).",
                                 valueName: "file"))
    var files: [String] = []

    /// The one file of a format that takes one.
    var file: String { files.first ?? "" }

    @Option(help: ArgumentHelp("Rhasspy's slots folder (default: slots/ beside the file, if there).", valueName: "dir"))
    var slots: String?

    @Option(help: ArgumentHelp("Home Assistant: the home's areas, floors and entities (the YAML of its intent tests' fixtures, or the JSON of /api/states), which fill {name}, {area} and {floor} and decide what a sentence's requires_context: allows. Import again after changing it.",
                               valueName: "file"))
    var entities: String?

    @Option(help: ArgumentHelp("The app folder to write (its name is the app's identifier).", valueName: "dir"))
    var out: String

    @Option(help: ArgumentHelp("The app's spoken name (default: the folder's name).", valueName: "name"))
    var name: String?

    @Flag(help: "Replace an app.yaml already in the folder.")
    var force = false

    @Flag(help: "Home Assistant: import the sentences kept in --out again, with the home of --entities.")
    var refresh = false

    func validate() throws {
        guard ["rhasspy", "home-assistant", "rhino"].contains(format) else {
            throw ValidationError("unknown format \"\(format)\"; use rhasspy, home-assistant or rhino")
        }
        if format != "rhasspy", slots != nil { throw ValidationError("--slots is Rhasspy's; \(format)'s lists are in its YAML") }
        if format != "home-assistant", entities != nil { throw ValidationError("--entities is Home Assistant's") }
        if refresh {
            guard format == "home-assistant" else { throw ValidationError("--refresh is Home Assistant's") }
            guard files.isEmpty else { throw ValidationError("--refresh imports the sentences kept in --out; name none") }
            guard entities != nil else { throw ValidationError("--refresh needs the home's --entities") }
            return
        }
        if files.isEmpty { throw ValidationError("name the sentences to import") }
        if format != "home-assistant", files.count > 1 {
            throw ValidationError("\(format) imports one file; Home Assistant's sentences may be several files or folders")
        }
    }

    func run() throws {
        let source = URL(fileURLWithPath: file)
        var text = ""
        if format != "home-assistant" {
            do {
                text = try String(contentsOf: source, encoding: .utf8)
            } catch {
                throw ValidationError("cannot read \(file): \(error.localizedDescription)")
            }
        }
        let folder = URL(fileURLWithPath: out)
        let manifest = folder.appendingPathComponent("app.yaml")
        if FileManager.default.fileExists(atPath: manifest.path) && !force && !refresh {
            throw ValidationError("\(manifest.path) exists; pass --force to replace it")
        }
        let appName = name ?? folder.lastPathComponent.replacingOccurrences(of: "_", with: " ").replacingOccurrences(of: "-", with: " ")
        // Home Assistant's sentence files, read once: imported, then kept in the app folder.
        let sentences = format != "home-assistant" ? []
            : refresh ? try Self.keptSentences(in: folder) : try Self.sentenceFiles(files)
        let sources = format == "home-assistant" ? sentences.map(\.name) : files
        let result = try makeApp(text: text, source: source, name: appName, sentences: sentences)
        for line in result.report { print(line) }
        guard !result.app.intents.isEmpty else {
            printError("hark: nothing in \(sources.joined(separator: ", ")) could be carried over")
            throw ExitCode(ExitStatus.dataError)
        }
        let yaml = AppYAML.text(of: result.app, header: [
            "Imported from \(sources.map { URL(fileURLWithPath: $0).lastPathComponent }.joined(separator: ", ")) by hark import \(format).",
            "Replies are \"OK.\" with the values heard: write your own, or add a handler (see docs/apps.md).",
        ])
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            if format == "home-assistant" && !refresh { try Self.keep(sentences, in: folder) }
            // Whole or not at all: a Hark already running may read it at any moment.
            try Data((yaml + "\n").utf8).write(to: manifest, options: .atomic)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
        let phrases = result.app.intents.reduce(0) { $0 + $1.phrases.count }
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        print("wrote \(manifest.path): \(count(result.app.intents.count, "intent")), \(count(phrases, "phrase")); " +
              "\(count(result.report.count, "note")) above")
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

    /// The app the format's importer makes of the file (Home Assistant: of `sentences`).
    func makeApp(text: String, source: URL, name: String, sentences: [(name: String, text: String)]) throws -> RhasspyImporter.Result {
        if format == "home-assistant" {
            var home: HomeEntities?
            if let entities {
                let text: String
                do {
                    text = try String(contentsOf: URL(fileURLWithPath: entities), encoding: .utf8)
                } catch {
                    throw ValidationError("cannot read \(entities): \(error.localizedDescription)")
                }
                do {
                    home = try HomeEntities.read(text, file: entities)
                } catch {
                    throw ValidationError(error.description)
                }
            }
            var result = HomeAssistantImporter.makeApp(name: name, files: sentences, home: home)
            result.report = (home?.notes ?? []) + result.report
            return result
        }
        if format == "rhino" {
            return RhinoImporter.makeApp(name: name, file: file, text: text)
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
        var importer = RhasspyImporter(file: file, text: text, slots: slotLists)
        return importer.makeApp(name: name)
    }

    /// Home Assistant's sentence files among `paths`, read: each file as given, and each folder's
    /// YAML and JSON files (not its folders), those whose names begin with "_" (its shared
    /// lists and rules, _common.yaml) first, then by name.
    static func sentenceFiles(_ paths: [String]) throws -> [(name: String, text: String)] {
        var files: [String] = []
        for path in paths {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
                throw ValidationError("\(path) does not exist")
            }
            guard isFolder.boolValue else {
                files.append(path)
                continue
            }
            let names: [String]
            do {
                names = try FileManager.default.contentsOfDirectory(atPath: path)
            } catch {
                throw ValidationError("cannot read the folder \(path): \(error.localizedDescription)")
            }
            let sentences = names.filter { name in
                !name.hasPrefix(".") && [".yaml", ".yml", ".json"].contains { name.lowercased().hasSuffix($0) }
            }.sorted { ($0.hasPrefix("_") ? 0 : 1, $0) < ($1.hasPrefix("_") ? 0 : 1, $1) }
            guard !sentences.isEmpty else { throw ValidationError("\(path) holds no sentence files (.yaml, .yml or .json)") }
            files += sentences.map { (path as NSString).appendingPathComponent($0) }
        }
        return try files.map { file in
            do {
                return (file, try String(contentsOf: URL(fileURLWithPath: file), encoding: .utf8))
            } catch {
                throw ValidationError("cannot read \(file): \(error.localizedDescription)")
            }
        }
    }
}
