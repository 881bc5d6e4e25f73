import Foundation

/// Refuses apps that someone other than their owner could change: an app runs its handler
/// program with the owner's rights, so a folder, manifest or program that the group or everyone
/// may write would let them run anything as the owner.
enum AppPermissions {
    /// The problems of `folder`'s app: its parent folder, itself, its manifest, and (once read)
    /// the files of its handler's command inside it.
    static func problems(ofFolder folder: URL, manifest: URL) -> [ManifestError.Problem] {
        [problem(folder.deletingLastPathComponent(), stickyAllowed: true), problem(folder), problem(manifest)]
            .compactMap { $0 }
    }

    /// The problems of the files an app's handler command names in its folder (`handler.sh`,
    /// or `handler.py` in `[python3, handler.py]`); programs found on PATH are the system's.
    static func problems(ofHandler handler: HandlerSpec, in folder: URL) -> [ManifestError.Problem] {
        guard case .program(let command, _) = handler else { return [] }
        var problems: [ManifestError.Problem] = []
        for (index, part) in command.enumerated() {
            let file = (part.hasPrefix("/") ? URL(fileURLWithPath: part) : folder.appendingPathComponent(part)).standardizedFileURL
            // A bare program name is looked up on PATH, not in the folder.
            if index == 0, !part.contains("/") { continue }
            if index > 0, !FileManager.default.fileExists(atPath: file.path) { continue }
            if let found = problem(file) { problems.append(found) }
        }
        return problems
    }

    /// Why `url` is refused, if it is: writable by its group or by everyone, or its mode unreadable.
    /// A sticky folder (/tmp) is allowed where `stickyAllowed`: others may add to it but not
    /// rename or replace what is ours.
    static func problem(_ url: URL, stickyAllowed: Bool = false) -> ManifestError.Problem? {
        let mode: Int
        do {
            // What counts is the file a link leads to (a link's own mode is always 777).
            let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
            guard let found = attributes[.posixPermissions] as? Int else {
                return .init(file: url.path, line: nil, reason: "cannot check who may change it: its mode is not known")
            }
            mode = found
        } catch {
            return .init(file: url.path, line: nil, reason: "cannot check who may change it: \(error.localizedDescription)")
        }
        let groupOrOthers = 0o022, others = 0o002, sticky = 0o1000
        guard mode & groupOrOthers != 0 else { return nil }
        if stickyAllowed, mode & sticky != 0 { return nil }
        let who = mode & others != 0 ? "everyone" : "its group"
        let octal = String(mode & 0o7777, radix: 8)
        return .init(file: url.path, line: nil, reason: "writable by \(who) (mode \(octal)), so the app is refused: whoever "
                     + "may change it could run programs as you; fix it with chmod go-w \(url.path)")
    }
}
