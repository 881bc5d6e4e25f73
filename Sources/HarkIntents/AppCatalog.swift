public import Foundation
public import HarkGrammar

/// The installed apps: every folder under an apps directory that holds an
/// `app.yaml`, or the directory itself when it is one app's folder.
public struct AppCatalog: Sendable {
    public static let manifestFileName = "app.yaml"

    public var apps: [AppManifest] {
        // Reviews of other apps are not these apps' reviews.
        didSet {
            reviews = PhraseReviews()
            freeText = FreeTextGraph()
        }
    }

    public init(apps: [AppManifest]) {
        self.apps = apps
    }

    /// The phrase review of these apps, made once for each wake phrase: it expands every
    /// phrase, and is asked for by loading, warnings and the dialogue alike (a home imported
    /// from Home Assistant, 800 phrases: 0.8 s a review).
    private var reviews = PhraseReviews()

    /// The phrases that say free text as one word graph (`freeTextMatch`), made the first time
    /// a request needs it.
    var freeText = FreeTextGraph()

    private final class PhraseReviews: @unchecked Sendable {
        typealias Review = (problems: [ManifestError.Problem], shared: [ManifestError.Problem], sharing: Set<String>)
        private let lock = NSLock()
        private var byWakePhrase: [String: Review] = [:]

        func review(for wakePhrase: String, making make: () -> Review) -> Review {
            lock.lock()
            defer { lock.unlock() }
            if let made = byWakePhrase[wakePhrase] { return made }
            let made = make()
            byWakePhrase[wakePhrase] = made
            return made
        }
    }

    /// The wake phrase used when none is configured; no app phrase may contain it.
    public static let defaultWakePhrase = "jarvis"

    /// Loads every app, reporting the problems of all of them at once:
    /// each manifest's own, then clashes between apps.
    public static func load(from directory: URL, ownerFolders: [URL] = [],
                            wakePhrase: String = defaultWakePhrase) throws(ManifestError) -> AppCatalog {
        let (catalog, refused) = try loadGoodApps(from: directory, ownerFolders: ownerFolders, wakePhrase: wakePhrase)
        if !refused.isEmpty { throw ManifestError(problems: refused) }
        return catalog
    }

    /// Loads every app that is well made and leaves out the others, returning their problems:
    /// what a running device does, so that one bad app.yaml does not silence every other app.
    /// An app with a problem of its own is left out; then, while apps clash, the app each clash
    /// is reported against is left out too. Throws only when no app is left (or the folder
    /// cannot be read).
    ///
    /// `ownerFolders` are the owner's own apps, loaded beside `directory`'s (the bundled ones):
    /// each that exists is read like `directory`, and an app there replaces an earlier folder's
    /// app of the same name (its folder's name), so an owner can change a bundled app without
    /// touching the copy an upgrade overwrites.
    public static func loadGoodApps(from directory: URL, ownerFolders: [URL] = [], wakePhrase: String = defaultWakePhrase)
        throws(ManifestError) -> (catalog: AppCatalog, refused: [ManifestError.Problem]) {
        var folders = try appFolders(in: directory)
        for owner in ownerFolders where FileManager.default.fileExists(atPath: owner.path) {
            let owned = try appFolders(in: owner)
            let names = Set(owned.map(\.lastPathComponent))
            folders = folders.filter { !names.contains($0.lastPathComponent) } + owned
        }
        guard !folders.isEmpty else {
            throw ManifestError(problems: [.init(file: directory.path, line: nil,
                                                 reason: "no apps here: each app is a folder with an \(manifestFileName)")])
        }
        var apps: [AppManifest] = []
        var problems: [ManifestError.Problem] = []
        for folder in folders {
            let file = folder.appendingPathComponent(manifestFileName)
            let unsafe = AppPermissions.problems(ofFolder: folder, manifest: file)
            guard unsafe.isEmpty else {
                problems += unsafe
                continue
            }
            do {
                let yaml = try String(contentsOf: file, encoding: .utf8)
                var app = try ManifestReader.read(yaml: yaml, identifier: folder.lastPathComponent, file: file.path)
                app.folder = folder
                let unsafeHandler = AppPermissions.problems(ofHandler: app.handler, in: folder)
                guard unsafeHandler.isEmpty else {
                    problems += unsafeHandler
                    continue
                }
                apps.append(app)
            } catch let error as ManifestError {
                problems += error.problems
            } catch {
                problems.append(.init(file: file.path, line: nil, reason: "cannot read: \(error.localizedDescription)"))
            }
        }
        var catalog = AppCatalog(apps: apps)
        while true {
            let clashes = catalog.clashes(wakePhrase: wakePhrase)
            guard !clashes.isEmpty else { break }
            problems += clashes
            let blamed = Set(clashes.map(\.file))
            let kept = catalog.apps.filter { !blamed.contains($0.file) }
            // A clash that names no app's file cannot be settled by leaving one out.
            guard kept.count < catalog.apps.count else { throw ManifestError(problems: problems) }
            catalog = AppCatalog(apps: kept)
        }
        guard !catalog.apps.isEmpty else { throw ManifestError(problems: problems) }
        return (catalog, problems)
    }

    /// The app folders in `directory`, by name: the folder itself when it holds an app.yaml, else
    /// its subfolders that do.
    static func appFolders(in directory: URL) throws(ManifestError) -> [URL] {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ManifestError(problems: [.init(file: directory.path, line: nil, reason: "no such apps directory")])
        }
        if fileManager.fileExists(atPath: directory.appendingPathComponent(manifestFileName).path) {
            return [directory]
        }
        let entries: [URL]
        do {
            entries = try fileManager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
        } catch {
            throw ManifestError(problems: [.init(file: directory.path, line: nil, reason: "cannot list: \(error.localizedDescription)")])
        }
        return entries.filter { fileManager.fileExists(atPath: $0.appendingPathComponent(manifestFileName).path) }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }

    /// Parses one manifest from text: for tests and tools that hold YAML in memory.
    public static func manifest(yaml: String, identifier: String, file: String = "app.yaml") throws(ManifestError) -> AppManifest {
        try ManifestReader.read(yaml: yaml, identifier: identifier, file: file)
    }

    /// Problems no single manifest shows: one app taking another's name, the wake word or a
    /// built-in command inside a phrase.
    public func clashes(wakePhrase: String = defaultWakePhrase) -> [ManifestError.Problem] {
        phraseReview(wakePhrase: wakePhrase).problems
    }

    /// Phrases two apps share, where the words alone (with values both apps have) cannot say
    /// which app is meant: allowed, and Hark asks ("Which app, Home or Garage?"). Said as
    /// warnings, so an app's author sees it and can make the phrase its own.
    public func sharedPhrases(wakePhrase: String = defaultWakePhrase) -> [ManifestError.Problem] {
        phraseReview(wakePhrase: wakePhrase).shared
    }

    /// The apps that share a phrase with another (see `sharedPhrases`), by identifier.
    public var appsSharingPhrases: Set<String> { phraseReview(wakePhrase: Self.defaultWakePhrase).sharing }

    private func phraseReview(wakePhrase: String) -> (problems: [ManifestError.Problem], shared: [ManifestError.Problem], sharing: Set<String>) {
        reviews.review(for: wakePhrase) { reviewPhrases(wakePhrase: wakePhrase) }
    }

    private func reviewPhrases(wakePhrase: String) -> (problems: [ManifestError.Problem], shared: [ManifestError.Problem], sharing: Set<String>) {
        var shared: [ManifestError.Problem] = []
        var sharing = Set<String>()
        var problems: [ManifestError.Problem] = []
        let wakeWords = Grammar.words(of: wakePhrase)
        let reserved = Set(ReservedPhrases.all.map(Grammar.words(of:)))
        var owners: [[String]: (app: AppManifest, phrase: PhraseTemplate)] = [:]
        // A phrase's values are looked at only when its words meet another app's, once per phrase.
        var valuesOf: [String: [String: Set<[String]>]] = [:]
        func values(_ phrase: PhraseTemplate, _ app: AppManifest) -> [String: Set<[String]>] {
            let key = app.identifier + "\u{0}" + phrase.source
            if let known = valuesOf[key] { return known }
            let found = Self.spokenValues(of: phrase, in: app)
            valuesOf[key] = found
            return found
        }
        for (index, app) in apps.enumerated() {
            for other in apps[..<index] {
                let taken = Set(other.names.map { $0.lowercased() }).intersection(app.names.map { $0.lowercased() })
                for name in taken.sorted() {
                    problems.append(.init(file: app.file, line: nil,
                                          reason: "the name \"\(name)\" is already \(other.identifier)'s (\(other.file))"))
                }
            }
            var phrases = app.intents.flatMap(\.phrases) + app.shortcuts.map(\.phrase)
            var seen = Set<PhraseTemplate>()
            phrases = phrases.filter { seen.insert($0).inserted }
            for phrase in phrases {
                guard let sentences = PhraseExpansion.sentences(of: phrase) else { continue }
                var reported = Set<String>()
                for sentence in sentences {
                    if !wakeWords.isEmpty, sentence.containsRun(wakeWords), reported.insert("wake").inserted {
                        problems.append(.init(file: app.file, line: nil,
                                              reason: "phrase \"\(phrase)\" contains the wake phrase \"\(wakePhrase)\""))
                    }
                    if reserved.contains(sentence), reported.insert("reserved").inserted {
                        problems.append(.init(file: app.file, line: nil,
                                              reason: "phrase \"\(phrase)\" can be \"\(sentence.joined(separator: " "))\", " +
                                                      "which is Hark's own command"))
                    }
                    if let owner = owners[sentence], owner.app.identifier != app.identifier {
                        // The same words around a parameter whose values differ in the two apps
                        // ("is the <name> locked": doors in one, windows in the other) are never
                        // said the same way.
                        let disjoint = sentence.contains { token in
                            guard token.hasPrefix("<"), token.hasSuffix(">") else { return false }
                            let name = String(token.dropFirst().dropLast())
                            guard let mine = values(phrase, app)[name], let theirs = values(owner.phrase, owner.app)[name] else {
                                return false
                            }
                            return mine.isDisjoint(with: theirs)
                        }
                        if disjoint { continue }
                        sharing.formUnion([app.identifier, owner.app.identifier])
                        if reported.insert("shared \(owner.app.identifier)").inserted {
                            shared.append(.init(file: app.file, line: nil,
                                                reason: "phrase \"\(phrase)\" can be said the same way as \(owner.app.identifier)'s " +
                                                        "\"\(owner.phrase)\" (\"\(sentence.joined(separator: " "))\"): Hark will ask which app is meant"))
                        }
                    } else if index < apps.count - 1, owners[sentence] == nil {
                        // Only later apps look a sentence up: the last app's need no entry.
                        owners[sentence] = (app, phrase)
                    }
                }
            }
        }
        return (problems, shared, sharing)
    }

    /// Warnings of every app (e.g. long invocation phrases), and the phrases apps share.
    public var warnings: [ManifestError.Problem] { apps.flatMap(\.warnings) + sharedPhrases() }

    /// Replaces the values of an app's type, e.g. with the options its handler supplies at run time.
    public mutating func setValues(_ values: [EnumeratedValue], app identifier: String, type: String) {
        guard let index = apps.firstIndex(where: { $0.identifier == identifier }),
              var enumerated = apps[index].types[type] else { return }
        enumerated.values = values
        apps[index].types[type] = enumerated
    }

    /// For each parameter `phrase` says whose values the app lists (its own types): every way
    /// of saying them in this phrase (its `only:` respected). Parameters of Hark's types (numbers,
    /// times, text) are left out: they can be said any way.
    static func spokenValues(of phrase: PhraseTemplate, in app: AppManifest) -> [String: Set<[String]>] {
        var owner: (intent: IntentDefinition, options: PhraseOptions?)?
        for intent in app.intents {
            if let index = intent.phrases.firstIndex(of: phrase) {
                owner = (intent, intent.phraseOptions[index])
                break
            }
        }
        if owner == nil, let shortcut = app.shortcuts.first(where: { $0.phrase == phrase }), let intent = app.intent(named: shortcut.intent) {
            owner = (intent, nil)
        }
        guard let owner else { return [:] }
        var values: [String: Set<[String]>] = [:]
        for name in phrase.parameterNames {
            guard let parameter = owner.intent.parameter(named: name), let typeName = parameter.enumerationName,
                  let type = app.types[typeName], !type.isDynamic else { continue }
            let allowed = owner.options?.only[name].map(Set.init)
            values[name] = Set(type.values.filter { allowed?.contains($0.identifier) ?? true }
                .flatMap(\.spokenForms).map(Grammar.words(of:)))
        }
        return values
    }

    public func app(_ identifier: String) -> AppManifest? {
        apps.first { $0.identifier == identifier }
    }

    /// Every intent phrase and App Shortcut of every app: the grammar of the top level.
    /// Tags are "app.Intent" for intent phrases, "app.Intent#phrase.N" for a phrase with options
    /// (`PhraseOptions`) and "app.Intent#shortcut.N" for App Shortcuts.
    /// `only`: these apps' phrases alone (one app's, to tell which apps a request could mean).
    public func topLevelGrammar(only: [AppManifest]? = nil) -> Grammar {
        var grammar = Grammar()
        for app in only ?? apps {
            for intent in app.intents {
                let parameterValues = addValues(of: intent, app: app, to: &grammar)
                for (index, phrase) in intent.phrases.enumerated() {
                    // Free text inside a phrase is no grammar's: dictation hears it (`freeTextMatch`).
                    if Self.freeTextParameter(of: phrase, in: intent) != nil { continue }
                    grammar.rules.append(rule(saying: index, of: intent, in: app, parameterValues: parameterValues, grammar: &grammar))
                }
            }
            for (index, shortcut) in app.shortcuts.enumerated() {
                guard let intent = app.intent(named: shortcut.intent) else { continue }
                let parameterValues = addValues(of: intent, app: app, to: &grammar)
                grammar.rules.append(Grammar.Rule(tag: Self.tag(app: app, intent: intent) + "#shortcut.\(index)",
                                                  template: shortcut.phrase, parameterValues: parameterValues))
            }
        }
        return grammar
    }

    /// The grammar's rule for the intent's phrase number `index`: tagged "app.Intent", or
    /// "app.Intent#phrase.N" when the phrase has options (`PhraseOptions`), a parameter it limits
    /// listening for its own list of values (added to `grammar`).
    func rule(saying index: Int, of intent: IntentDefinition, in app: AppManifest, parameterValues: [String: String],
              grammar: inout Grammar) -> Grammar.Rule {
        let phrase = intent.phrases[index]
        guard let options = intent.phraseOptions[index] else {
            return Grammar.Rule(tag: Self.tag(app: app, intent: intent), template: phrase, parameterValues: parameterValues)
        }
        var limited = parameterValues
        for (name, ids) in options.only {
            guard let parameter = intent.parameter(named: name), let key = parameterValues[name] else { continue }
            let onlyKey = key + "#only:" + ids.joined(separator: ",")
            limited[name] = onlyKey
            if grammar.values[onlyKey] == nil {
                let values = enumeratedValues(of: parameter, in: app).filter { ids.contains($0.identifier) }
                grammar.values[onlyKey] = ValueReader.spokenValues(of: parameter.type, enumerated: values)
            }
        }
        return Grammar.Rule(tag: Self.tag(app: app, intent: intent) + "#phrase.\(index)", template: phrase, parameterValues: limited)
    }

    /// Puts the spoken values of each of the intent's parameters into the grammar; returns parameter → values key.
    @discardableResult
    public func addValues(of intent: IntentDefinition, app: AppManifest, to grammar: inout Grammar) -> [String: String] {
        var keys: [String: String] = [:]
        for parameter in intent.parameters {
            let key = Self.valuesKey(app: app, parameter: parameter)
            keys[parameter.name] = key
            if grammar.values[key] == nil {
                grammar.values[key] = ValueReader.spokenValues(of: parameter.type, enumerated: enumeratedValues(of: parameter, in: app))
            }
        }
        return keys
    }

    public func enumeratedValues(of parameter: ParameterDefinition, in app: AppManifest) -> [EnumeratedValue] {
        parameter.enumerationName.flatMap { app.types[$0]?.values } ?? []
    }

    /// The intent and values an interpretation of the top-level grammar stands for.
    public func match(_ interpretation: Interpretation, reader: ValueReader = ValueReader()) -> IntentMatch? {
        let tagParts = interpretation.tag.split(separator: "#", maxSplits: 1).map(String.init)
        let parts = tagParts[0].split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2,
              let app = apps.first(where: { $0.identifier == parts[0] }),
              let intent = app.intent(named: parts[1]) else { return nil }
        var match = IntentMatch(app: app, intent: intent, values: [:])
        var presets: [String: String] = [:]
        if tagParts.count == 2, tagParts[1].hasPrefix("shortcut."), let index = Int(tagParts[1].dropFirst("shortcut.".count)),
           app.shortcuts.indices.contains(index) {
            match.shortcut = index
            presets = app.shortcuts[index].presets
        } else if tagParts.count == 2, tagParts[1].hasPrefix("phrase."), let index = Int(tagParts[1].dropFirst("phrase.".count)) {
            presets = intent.phraseOptions[index]?.presets ?? [:]
            match.fromRoom = intent.phraseOptions[index]?.fromRoom ?? []
        }
        for (name, preset) in presets {
            guard let parameter = intent.parameter(named: name),
                  case .value(let value) = read(preset: preset, for: parameter, in: app, reader: reader) else { continue }
            match.values[name] = IntentMatch.Value(value: value, heard: preset)
        }
        for (name, heard) in interpretation.values {
            guard let parameter = intent.parameter(named: name) else { continue }
            let enumerated = enumeratedValues(of: parameter, in: app)
            let candidates = ValueReader.matching(heard.spoken, in: enumerated)
            if candidates.count > 1 {
                // Name the ambiguity the way the manifest writes it ("Amy", not "amy").
                let written = candidates.flatMap(\.spokenForms).first { Grammar.words(of: $0) == heard.spoken }
                match.ambiguous[name] = IntentMatch.Ambiguity(heard: written ?? heard.spoken.joined(separator: " "),
                                                              candidates: candidates)
                continue
            }
            switch reader.read(heard.spoken, identifier: heard.identifier, type: parameter.type, enumerated: enumerated) {
            case .value(let value):
                match.values[name] = IntentMatch.Value(value: value, heard: heard.spoken.joined(separator: " "))
            case .unsupported(let reason):
                match.unsupported[name] = reason
            case .notAValue:
                continue
            }
        }
        return match
    }

    /// A value written down for a parameter (a shortcut's `set:`, a person's `--set`):
    /// an enumerated value's id or any way of saying it, a number, a duration in words, text.
    public func read(preset: String, for parameter: ParameterDefinition, in app: AppManifest,
                     reader: ValueReader = ValueReader()) -> ValueReader.Reading {
        // Text is taken as written, capitals and all ("Running late.").
        if parameter.type == .text {
            return preset.isEmpty ? .notAValue : .value(ParameterValue(identifier: preset, spoken: preset))
        }
        return reader.read(Grammar.words(of: preset), identifier: preset, type: parameter.type,
                    enumerated: enumeratedValues(of: parameter, in: app))
    }

    /// What an intent with these values does, in words that begin with a verb: the
    /// intent's parameter summary when it has one ("Order 1 clam chowder for pickup at Harbor"),
    /// its title otherwise. Parameters without a value take their defaults.
    public func describe(app: AppManifest, intent: IntentDefinition, values: [String: ParameterValue]) -> String {
        var filled = values
        for parameter in intent.parameters where filled[parameter.name] == nil {
            guard let preset = parameter.defaultValue,
                  case .value(let value) = read(preset: preset, for: parameter, in: app) else { continue }
            filled[parameter.name] = value
        }
        guard let summary = intent.summary else {
            let extras = intent.parameters.compactMap { values[$0.name]?.spoken }
            return ([intent.title] + extras).joined(separator: ", ")
        }
        var fill = filled.mapValues(\.spoken)
        fill["app"] = app.name
        return summary.template(for: filled.mapValues(\.identifier)).render(fill)
    }

    static func tag(app: AppManifest, intent: IntentDefinition) -> String {
        "\(app.identifier).\(intent.name)"
    }

    static func valuesKey(app: AppManifest, parameter: ParameterDefinition) -> String {
        switch parameter.type {
        case .enumeration(let name): "\(app.identifier).\(name)"
        case .integer(let range, let step):
            "integer.\(range.map { "\($0.lowerBound)-\($0.upperBound)" } ?? "any")" + (step == 1 ? "" : ".step\(step)")
        default: parameter.type.name
        }
    }
}
