import ArgumentParser
import Foundation
import HarkImport

/// The sentence files a Home Assistant import keeps in the app folder for `--refresh`.
extension Import {
    /// Writes `files` into the app folder's kept folder, replacing what was there.
    static func keep(_ files: [(name: String, text: String)], in app: URL) throws {
        try KeptSentences(app: app).replace(with: files)
    }

    /// The sentences kept in `app` (see `keep`), in their order.
    static func keptSentences(in app: URL) throws -> [(name: String, text: String)] {
        guard let kept = KeptSentences(app: app).folderToRead else {
            throw ValidationError("\(app.path) holds no sentences kept by hark import home-assistant; import them again with their files")
        }
        return try sentenceFiles([kept.path])
    }
}
