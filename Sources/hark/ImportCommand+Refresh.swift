import ArgumentParser
import Foundation

/// Home Assistant's sentences kept in the app folder they were imported into, so the app can be
/// made again when the home's devices change (`--refresh`) without finding the sentences again.
extension Import {
    static let keptFolder = "home-assistant-sentences"

    /// Writes `files` into the app folder's kept folder, replacing what was there, numbered so
    /// they are read back in the order they were merged.
    static func keep(_ files: [(name: String, text: String)], in app: URL) throws {
        let kept = app.appendingPathComponent(keptFolder)
        let fresh = app.appendingPathComponent(keptFolder + ".new")
        try? FileManager.default.removeItem(at: fresh)
        try FileManager.default.createDirectory(at: fresh, withIntermediateDirectories: true)
        for (index, file) in files.enumerated() {
            let name = String(format: "%03d-", index + 1) + URL(fileURLWithPath: file.name).lastPathComponent
            try Data(file.text.utf8).write(to: fresh.appendingPathComponent(name))
        }
        // The old copy goes only once the new one is whole.
        try? FileManager.default.removeItem(at: kept)
        try FileManager.default.moveItem(at: fresh, to: kept)
    }

    /// The sentences kept in `app` (see `keep`), in their order.
    static func keptSentences(in app: URL) throws -> [(name: String, text: String)] {
        let kept = app.appendingPathComponent(keptFolder)
        guard FileManager.default.fileExists(atPath: kept.path) else {
            throw ValidationError("\(app.path) holds no sentences kept by hark import home-assistant; import them again with their files")
        }
        return try sentenceFiles([kept.path])
    }
}
