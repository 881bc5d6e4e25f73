import ArgumentParser
import Foundation
import HarkDialogue
import HarkIntents
import HarkRuntime
import HarkShortcuts
import HarkSpeech
import HarkStore

/// Where the person's shortcuts, donations and automations are kept.
struct DatabaseOptions: ParsableArguments {
    @Option(help: ArgumentHelp(
        "The shortcuts database (SQLite).",
        discussion: "Defaults to $HARK_DATABASE, else shortcuts.sqlite in $XDG_DATA_HOME/hark (~/.local/share/hark).",
        valueName: "path"))
    var database: String?

    var url: URL { database.map { URL(fileURLWithPath: $0) } ?? HarkPaths.shortcutsDatabase() }

    func open() throws -> ShortcutStore {
        try using { $0 }
    }

    /// Opens the database and does `body` with it; any failure becomes Hark's message and exit code.
    func using<T>(_ body: (ShortcutStore) throws -> T) throws -> T {
        do {
            let store = try ShortcutStore(url: url)
            let result = try body(store)
            // After a failed change its own message says the same: only a success needs telling.
            if let reason = store.readOnlyReason { printError("hark: warning: \(reason)") }
            return result
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw fail(error)
        }
    }
}

/// `hark shortcuts`: phrases of the person's own.
struct Shortcuts: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Add, list, change and delete your own phrases for apps' actions.",
        discussion: """
        A shortcut is a phrase you choose that runs an app's intent with values set in advance, or \
        several intents one after the other (a multistep shortcut). Hark hears the phrase exactly, \
        word for word. A running `hark listen` picks up changes within a second.

            hark shortcuts add "soup time" --intent soup.OrderSoup --set soup=clam_chowder --set orderType=pickup
            hark shortcuts add "lunch run" --steps lunch.yaml
            hark shortcuts list
            hark shortcuts edit "soup time" --phrase "chowder time"
            hark shortcuts delete "chowder time"
        """,
        subcommands: [Add.self, List.self, Edit.self, Delete.self])

    /// What a shortcut does, from --intent/--set or --steps.
    struct StepOptions: ParsableArguments {
        @Option(help: ArgumentHelp("The app's intent to run, as APP.INTENT (e.g. soup.OrderSoup).", valueName: "app.intent"))
        var intent: String?

        @Option(name: .customLong("set"), help: ArgumentHelp(
            "A value set in advance, as parameter=value (repeat for more). A value may be an id or a way of saying it.",
            valueName: "param=value"))
        var values: [String] = []

        @Option(help: ArgumentHelp("A YAML file of steps, for a multistep shortcut: a list of {intent: APP.INTENT, set: {…}}; " +
                                   "${result.NAME} in a value is an output of the step before.", valueName: "file"))
        var steps: String?

        var given: Bool { intent != nil || steps != nil || !values.isEmpty }

        func read() throws -> [ShortcutStep] {
            if let steps {
                guard intent == nil, values.isEmpty else { throw ValidationError("use either --steps or --intent with --set, not both") }
                do {
                    return try StepsFile.steps(contentsOf: URL(fileURLWithPath: steps))
                } catch let error as StepsFile.SyntaxError {
                    throw ValidationError("\(steps): \(error)")
                } catch {
                    printError("hark: cannot read \(steps): \(error.localizedDescription)")
                    throw ExitCode(ExitStatus.noInput)
                }
            }
            guard let intent else { throw ValidationError("say what the shortcut does: --intent APP.INTENT [--set param=value …], or --steps FILE") }
            guard let target = ShortcutStep.target(intent) else { throw ValidationError("--intent is APP.INTENT, e.g. soup.OrderSoup") }
            switch DonationFilter.pairs(values) {
            case .success(let pairs): return [ShortcutStep(app: target.app, intent: target.intent, values: pairs)]
            case .failure(let error): throw ValidationError("--set \(error)")
            }
        }
    }

    /// Checks a phrase and steps; prints warnings; throws with every refusal listed.
    static func check(_ phrase: String, _ steps: [ShortcutStep], replacing: Int64?, store: ShortcutStore,
                      apps: AppsOptions) async throws -> AppCatalog {
        let configuration = try assistantConfiguration(apps: apps)
        let catalog: AppCatalog
        let pronunciation: PronunciationCheck
        do {
            // The handlers' dynamic options (store names, contacts) count as values.
            catalog = try await Assistant.dialogueEngine(configuration).0.catalog
            pronunciation = try PronunciationCheck(models: HarkPaths.modelsDirectory())
        } catch {
            throw fail(error)
        }
        let check = PhraseCheck(catalog: catalog, wakePhrase: configuration.wakePhrase, shortcuts: try store.shortcuts())
        let words = PersonalShortcut.normalised(phrase).split(separator: " ").map(String.init)
        // A word Hark cannot pronounce would leave the shortcut out of every grammar: refused now.
        let unpronounceable = pronunciation.unpronounceable(words).map(\.reason)
        let refusals = check.refusals(phrase, replacing: replacing).map(\.description) + unpronounceable
            + check.problems(steps).map(\.description)
        guard refusals.isEmpty else {
            printError("hark: \"\(PersonalShortcut.normalised(phrase))\" can't be a shortcut:")
            for refusal in refusals { printError("  - \(refusal)") }
            throw ExitCode(ExitStatus.dataError)
        }
        for warning in check.warnings(phrase) { printError("hark: warning: \(warning)") }
        let unknown = DictionaryWords.unknown(words, dictionaries: pronunciation.dictionaries)
        if !unknown.isEmpty {
            print("Not in the dictionary: \(unknown.joined(separator: ", ")). Hark will listen for espeak-ng's pronunciation " +
                  "(see `hark pronounce \(unknown.joined(separator: " "))`).")
        }
        return catalog
    }

    static func describe(_ shortcut: PersonalShortcut, catalog: AppCatalog?) -> String {
        let steps = shortcut.steps.enumerated().map { index, step in
            let values = step.values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            let number = shortcut.isMultistep ? "\(index + 1). " : ""
            return "    \(number)\(step.key)\(values.isEmpty ? "" : " " + values)"
        }
        return (["\(shortcut.id)  \"\(shortcut.phrase)\""] + steps).joined(separator: "\n")
    }

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Add a shortcut: a phrase of your own for an app's intent, or for several.",
            discussion: """
            The phrase is refused, with the reason, when it is another shortcut's or an app's phrase, \
            one of Hark's commands ("cancel", "help", "any suggestions"), contains the wake phrase, \
            begins with a command that works in every conversation ("stop …"), or takes over a call \
            for help. Phrases of more than three words are warned about. Words the dictionary lacks \
            are fine: Hark listens for espeak-ng's pronunciation of them (full-width letters folded, \
            Cyrillic transliterated); a word it cannot pronounce (Greek or Han letters) is refused.
            """)

        @Argument(help: "The phrase, in quotes.") var phrase: String
        @OptionGroup var what: StepOptions
        @OptionGroup var apps: AppsOptions
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let steps = try what.read()
            let store = try database.open()
            let catalog = try await Shortcuts.check(phrase, steps, replacing: nil, store: store, apps: apps)
            let added: PersonalShortcut
            do {
                added = try store.addShortcut(phrase: phrase, steps: steps)
            } catch {
                throw fail(error)
            }
            print("Added:\n\(Shortcuts.describe(added, catalog: catalog))")
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List your shortcuts and what each does.")
        @OptionGroup var database: DatabaseOptions
        @Flag(help: "One JSON object per shortcut.") var json = false

        func run() async throws {
            let shortcuts = try database.using { try $0.shortcuts() }
            if json {
                for shortcut in shortcuts {
                    let object: [String: Any] = [
                        "id": shortcut.id, "phrase": shortcut.phrase,
                        "steps": shortcut.steps.map { ["app": $0.app, "intent": $0.intent, "values": $0.values] as [String: Any] },
                    ]
                    print(jsonLine(object))
                }
                return
            }
            if shortcuts.isEmpty { print("No shortcuts yet. Add one with: hark shortcuts add \"PHRASE\" --intent APP.INTENT") }
            for shortcut in shortcuts { print(Shortcuts.describe(shortcut, catalog: nil)) }
        }
    }

    struct Edit: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Change a shortcut's phrase, or what it does.",
            discussion: "The new phrase passes the same checks as `hark shortcuts add`; --intent/--set or --steps replace every step.")

        @Argument(help: "The shortcut: its phrase or its number.") var shortcut: String
        @Option(help: ArgumentHelp("A new phrase.", valueName: "phrase")) var phrase: String?
        @OptionGroup var what: StepOptions
        @OptionGroup var apps: AppsOptions
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard phrase != nil || what.given else { throw ValidationError("nothing to change: give --phrase, --intent/--set or --steps") }
        }

        func run() async throws {
            let store = try database.open()
            var edited = try Shortcuts.find(shortcut, in: store)
            if let phrase { edited.phrase = PersonalShortcut.normalised(phrase) }
            if what.given { edited.steps = try what.read() }
            let catalog = try await Shortcuts.check(edited.phrase, edited.steps, replacing: edited.id, store: store, apps: apps)
            do {
                try store.updateShortcut(edited)
            } catch {
                throw fail(error)
            }
            print("Changed:\n\(Shortcuts.describe(edited, catalog: catalog))")
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a shortcut (and its automations).")
        @Argument(help: "The shortcut: its phrase or its number.") var shortcut: String
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let store = try database.open()
            let found = try Shortcuts.find(shortcut, in: store)
            do {
                try store.deleteShortcut(id: found.id)
            } catch {
                throw fail(error)
            }
            print("Deleted \"\(found.phrase)\".")
        }
    }

    static func find(_ phraseOrID: String, in store: ShortcutStore) throws -> PersonalShortcut {
        let found: PersonalShortcut?
        do {
            found = try store.shortcut(phraseOrID)
        } catch {
            throw fail(error)
        }
        guard let found else {
            printError("hark: no shortcut \"\(phraseOrID)\"; `hark shortcuts list` shows them")
            throw ExitCode(ExitStatus.noInput)
        }
        return found
    }
}

/// One JSON object on one line, keys sorted.
func jsonLine(_ object: Any) -> String {
    (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
        .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
}
