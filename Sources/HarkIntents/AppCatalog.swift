public import Foundation
public import HarkGrammar

/// The installed apps: every folder under an apps directory that holds an
/// `app.yaml`, or the directory itself when it is one app's folder.
public struct AppCatalog: Sendable {
    public static let manifestFileName = "app.yaml"

    public var apps: [AppManifest]

    public init(apps: [AppManifest]) {
        self.apps = apps
    }

    /// Loads every app, reporting the problems of all of them at once.
    public static func load(from directory: URL) throws(ManifestError) -> AppCatalog {
        let fileManager = FileManager.default
        var isDirectory: ObjCBool = false
        guard fileManager.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw ManifestError(problems: [.init(file: directory.path, line: nil, reason: "no such apps directory")])
        }
        var folders: [URL]
        if fileManager.fileExists(atPath: directory.appendingPathComponent(manifestFileName).path) {
            folders = [directory]
        } else {
            let entries: [URL]
            do {
                entries = try fileManager.contentsOfDirectory(at: directory, includingPropertiesForKeys: nil)
            } catch {
                throw ManifestError(problems: [.init(file: directory.path, line: nil, reason: "cannot list: \(error.localizedDescription)")])
            }
            folders = entries.filter { fileManager.fileExists(atPath: $0.appendingPathComponent(manifestFileName).path) }
            folders.sort { $0.lastPathComponent < $1.lastPathComponent }
        }
        guard !folders.isEmpty else {
            throw ManifestError(problems: [.init(file: directory.path, line: nil,
                                                 reason: "no apps here: each app is a folder with an \(manifestFileName)")])
        }
        var apps: [AppManifest] = []
        var problems: [ManifestError.Problem] = []
        for folder in folders {
            let file = folder.appendingPathComponent(manifestFileName)
            do {
                let yaml = try String(contentsOf: file, encoding: .utf8)
                apps.append(try ManifestReader.read(yaml: yaml, identifier: folder.lastPathComponent, file: file.path))
            } catch let error as ManifestError {
                problems += error.problems
            } catch {
                problems.append(.init(file: file.path, line: nil, reason: "cannot read: \(error.localizedDescription)"))
            }
        }
        if !problems.isEmpty { throw ManifestError(problems: problems) }
        return AppCatalog(apps: apps)
    }

    /// Parses one manifest from text: for tests and tools that hold YAML in memory.
    public static func manifest(yaml: String, identifier: String, file: String = "app.yaml") throws(ManifestError) -> AppManifest {
        try ManifestReader.read(yaml: yaml, identifier: identifier, file: file)
    }

    /// Every phrase of every intent of every app: the grammar of the top level.
    public func topLevelGrammar() -> Grammar {
        var grammar = Grammar()
        for app in apps {
            for (typeName, type) in app.types {
                grammar.values[Self.valuesKey(app: app, type: typeName)] = type.values.flatMap { value in
                    value.spokenForms.map { Grammar.SpokenValue(spoken: $0, identifier: value.identifier) }
                }
            }
            for intent in app.intents {
                var parameterValues: [String: String] = [:]
                for parameter in intent.parameters {
                    parameterValues[parameter.name] = Self.valuesKey(app: app, type: parameter.typeName)
                }
                for phrase in intent.phrases {
                    grammar.rules.append(Grammar.Rule(tag: Self.tag(app: app, intent: intent), template: phrase,
                                                      parameterValues: parameterValues))
                }
            }
        }
        return grammar
    }

    /// The intent and values an interpretation of the top-level grammar stands for.
    public func match(_ interpretation: Interpretation) -> IntentMatch? {
        let parts = interpretation.tag.split(separator: ".", maxSplits: 1).map(String.init)
        guard parts.count == 2,
              let app = apps.first(where: { $0.identifier == parts[0] }),
              let intent = app.intent(named: parts[1]) else { return nil }
        var values: [String: IntentMatch.Value] = [:]
        for (name, value) in interpretation.values {
            guard let parameter = intent.parameter(named: name),
                  let enumerated = app.types[parameter.typeName]?.value(identifier: value.identifier) else { continue }
            values[name] = IntentMatch.Value(identifier: enumerated.identifier, spoken: enumerated.spoken,
                                             heard: value.spoken.joined(separator: " "))
        }
        return IntentMatch(app: app, intent: intent, values: values)
    }

    static func tag(app: AppManifest, intent: IntentDefinition) -> String {
        "\(app.identifier).\(intent.name)"
    }

    static func valuesKey(app: AppManifest, type: String) -> String {
        "\(app.identifier).\(type)"
    }
}

/// A request understood: the app, the intent and the parameter values heard.
public struct IntentMatch: Sendable, Equatable {
    public struct Value: Sendable, Equatable {
        public var identifier: String
        /// The value's own spoken name, used in replies.
        public var spoken: String
        /// What the person actually said for it (perhaps a synonym).
        public var heard: String

        public init(identifier: String, spoken: String, heard: String) {
            self.identifier = identifier
            self.spoken = spoken
            self.heard = heard
        }
    }

    public var app: AppManifest
    public var intent: IntentDefinition
    public var values: [String: Value]

    /// The success reply, with parameters spoken by their names and Hark's own values filled in.
    public func successReply(now: Date = Date(), locale: Locale = Locale(identifier: "en_US")) -> String {
        var fill = values.mapValues(\.spoken)
        fill["app"] = app.name
        let time = DateFormatter()
        time.locale = locale
        time.dateFormat = "h:mm a"
        fill["clock.time"] = time.string(from: now)
        let date = DateFormatter()
        date.locale = locale
        date.dateFormat = "EEEE, MMMM d"
        fill["clock.date"] = date.string(from: now)
        return intent.responses.success.render(fill)
    }
}
