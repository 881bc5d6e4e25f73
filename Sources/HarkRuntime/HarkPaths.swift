public import Foundation
public import HarkSpeech

/// Where Hark finds the bundled apps and the project's model additions:
/// an environment variable, else beside the executable (a build tree or an installed prefix).
/// Never the working directory: apps run programs, and a folder someone else wrote (a download,
/// a shared checkout) must not get its apps run by starting Hark there.
public enum HarkPaths {
    public static func appsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        locate("apps", variable: "HARK_APPS", environment: environment)
    }

    /// Where owners put apps of their own, loaded beside the bundled apps: the machine's
    /// (/etc/hark/apps, for the service) and then the person's ($XDG_CONFIG_HOME/hark/apps, else
    /// ~/.config/hark/apps). Installing or upgrading Hark replaces the bundled apps and never
    /// touches these; an app here replaces a bundled app of the same folder name.
    /// $HARK_OWNER_APPS (folders separated by ":") names others instead.
    public static func ownerAppsDirectories(environment: [String: String] = ProcessInfo.processInfo.environment) -> [URL] {
        if let configured = environment["HARK_OWNER_APPS"] {
            return configured.split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        }
        return [URL(fileURLWithPath: "/etc/hark/apps"), configDirectory(environment: environment).appendingPathComponent("apps")]
    }

    public static func modelsDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        locate("models", variable: "HARK_MODELS", environment: environment)
    }

    /// Where Hark keeps what it learns and what apps store: $XDG_DATA_HOME/hark, else ~/.local/share/hark.
    public static func dataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        xdg("XDG_DATA_HOME", fallback: ".local/share", environment: environment)
    }

    /// The shortcuts database: $HARK_DATABASE, else shortcuts.sqlite in the data directory.
    public static func shortcutsDatabase(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        if let configured = environment["HARK_DATABASE"], !configured.isEmpty { return URL(fileURLWithPath: configured) }
        return dataDirectory(environment: environment).appendingPathComponent("shortcuts.sqlite")
    }

    /// Where the owner's settings live: $XDG_CONFIG_HOME/hark, else ~/.config/hark.
    public static func configDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        xdg("XDG_CONFIG_HOME", fallback: ".config", environment: environment)
    }

    private static func xdg(_ variable: String, fallback: String, environment: [String: String]) -> URL {
        if let base = environment[variable], base.hasPrefix("/") {
            return URL(fileURLWithPath: base).appendingPathComponent("hark")
        }
        let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 } ?? NSHomeDirectory()
        return URL(fileURLWithPath: home).appendingPathComponent(fallback).appendingPathComponent("hark")
    }

    /// The project's pronunciation additions, if present.
    public static func lexicon(in models: URL?) -> URL? {
        installed("lexicon.dict", in: models)
    }

    /// The project's adaptation of the acoustic model (`RecognizerConfiguration.acousticTransform`),
    /// if present.
    public static func acousticTransform(in models: URL?) -> URL? {
        installed("en-us.mllr", in: models)
    }

    /// The project's noise compensation (`RecognizerConfiguration.noiseCompensation`), if present.
    public static func noiseCompensation(in models: URL?) -> URL? {
        installed("en-us.noise-network", in: models)
    }

    /// The common words the wake word is checked against (`OtherWords`), if present.
    public static func otherWords(in models: URL?) -> URL? {
        installed("other-words.txt", in: models)
    }

    /// `models`/`name`, if the folder has it.
    private static func installed(_ name: String, in models: URL?) -> URL? {
        guard let file = models?.appendingPathComponent(name),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        return file
    }

    /// The words of the installed list of other words (`otherWords(in:)`); none when there is none.
    public static func installedOtherWords(in models: URL?) throws(RecognitionError) -> [String] {
        guard let list = otherWords(in: models) else { return [] }
        return try OtherWords.read(list)
    }

    /// The running executable. Run as "hark" from PATH, the first argument names no folder, so
    /// the kernel's link to the executable is read first.
    static func executable() -> URL {
        if let path = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"), path.hasPrefix("/") {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
    }

    private static func locate(_ name: String, variable: String, environment: [String: String]) -> URL? {
        if let configured = environment[variable], !configured.isEmpty {
            return URL(fileURLWithPath: configured)
        }
        var candidates: [URL] = []
        // .build/<triple>/debug/hark, or <prefix>/bin/hark with <prefix>/share/hark.
        var directory = executable().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory)
            candidates.append(directory.appendingPathComponent("share/hark"))
            directory = directory.deletingLastPathComponent()
        }
        for candidate in candidates {
            let folder = candidate.appendingPathComponent(name)
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue {
                return folder.standardizedFileURL
            }
        }
        return nil
    }
}
