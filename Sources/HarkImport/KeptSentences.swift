public import Foundation

/// The Home Assistant sentence files an imported app keeps in its own folder, so that
/// `hark import home-assistant --refresh` can import them again with a new home without the
/// files being given again.
///
/// A replacement is written beside the kept copy (`.new`) and swapped in by renaming: the old
/// copy is set aside (`.old`) only once the new one is whole, and removed only once the new one
/// is in place. Whenever it stops, one whole copy is there to read (`folderToRead`).
public struct KeptSentences {
    public static let folderName = "home-assistant-sentences"

    /// Where the kept files are, and where a replacement is written and the old copy set aside.
    public let folder: URL, staging: URL, setAside: URL
    /// Removes a file or folder (FileManager's, unless a test needs it to fail).
    private let remove: (URL) throws -> Void

    public init(app: URL, remove: @escaping (URL) throws -> Void = { try FileManager.default.removeItem(at: $0) }) {
        folder = app.appendingPathComponent(Self.folderName)
        staging = app.appendingPathComponent(Self.folderName + ".new")
        setAside = app.appendingPathComponent(Self.folderName + ".old")
        self.remove = remove
    }

    /// Replaces the kept files with `files`, numbered so they are read back in the order given.
    public func replace(with files: [(name: String, text: String)]) throws(KeptSentencesError) {
        // A replacement cut short leaves its part-written copy here: it must not mix with this one.
        try removeIfPresent(staging)
        do {
            try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: false)
            for (index, file) in files.enumerated() {
                let name = String(format: "%03d-", index + 1) + URL(fileURLWithPath: file.name).lastPathComponent
                try Data(file.text.utf8).write(to: staging.appendingPathComponent(name), options: .withoutOverwriting)
            }
        } catch {
            throw KeptSentencesError(description: "cannot write the sentences to keep in \(staging.path): \(error.localizedDescription)")
        }
        if Self.exists(folder) {
            try removeIfPresent(setAside)
            try move(folder, to: setAside)
        }
        try move(staging, to: folder)
        try removeIfPresent(setAside)
    }

    /// The folder holding the kept files: the kept copy, or the one set aside when a replacement
    /// stopped between setting it aside and putting the new one in its place; nil when neither is there.
    public var folderToRead: URL? {
        if Self.exists(folder) { return folder }
        return Self.exists(setAside) ? setAside : nil
    }

    private func removeIfPresent(_ url: URL) throws(KeptSentencesError) {
        guard Self.exists(url) else { return }
        do {
            try remove(url)
        } catch {
            throw KeptSentencesError(description: "cannot remove \(url.path): \(error.localizedDescription)")
        }
    }

    private func move(_ from: URL, to: URL) throws(KeptSentencesError) {
        guard rename(from.path, to.path) == 0 else {
            throw KeptSentencesError(description: "cannot rename \(from.path) to \(to.path): \(String(cString: strerror(errno)))")
        }
    }

    /// Whether anything is at `url`, a dangling link included (lstat, not following it).
    private static func exists(_ url: URL) -> Bool {
        var status = stat()
        return lstat(url.path, &status) == 0
    }
}

public struct KeptSentencesError: Error, CustomStringConvertible, Equatable {
    public let description: String
}
