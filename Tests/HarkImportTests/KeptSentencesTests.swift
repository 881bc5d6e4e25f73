import Foundation
import HarkImport
import HarkTestSupport
import Testing

/// The sentence files a Home Assistant import keeps for `--refresh`: replaced whole, never mixed
/// with a replacement cut short, never lost between the old copy and the new.
struct KeptSentencesTests {
    private func names(in folder: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    @Test func aReplacementTakesThePlaceOfTheKeptFilesWhole() throws {
        let app = try temporaryDirectory()
        let kept = KeptSentences(app: app)
        try kept.replace(with: [("a/_common.yaml", "one"), ("lights.yaml", "two")])
        try kept.replace(with: [("fans.yaml", "three")])
        #expect(kept.folderToRead == kept.folder)
        #expect(try names(in: kept.folder) == ["001-fans.yaml"])
        #expect(try String(contentsOf: kept.folder.appendingPathComponent("001-fans.yaml"), encoding: .utf8) == "three")
        #expect(try names(in: app) == [KeptSentences.folderName])
    }

    /// A replacement that stopped while writing left part of its files beside the kept copy: the
    /// next one starts from nothing, and none of them comes back.
    @Test func filesOfAReplacementCutShortAreNotMixedIn() throws {
        let app = try temporaryDirectory()
        let kept = KeptSentences(app: app)
        try FileManager.default.createDirectory(at: kept.staging, withIntermediateDirectories: false)
        try Data("stale".utf8).write(to: kept.staging.appendingPathComponent("001-lights.yaml"))
        try Data("stale".utf8).write(to: kept.staging.appendingPathComponent("002-old.yaml"))
        try kept.replace(with: [("lights.yaml", "new")])
        #expect(try names(in: kept.folder) == ["001-lights.yaml"])
        #expect(try String(contentsOf: kept.folder.appendingPathComponent("001-lights.yaml"), encoding: .utf8) == "new")
    }

    /// Stopped after the old copy was set aside and before the new one took its place: the old
    /// copy is still what is read, and the next replacement clears it away.
    @Test func theCopySetAsideIsReadUntilTheNextReplacement() throws {
        let app = try temporaryDirectory()
        let kept = KeptSentences(app: app)
        #expect(kept.folderToRead == nil)
        try kept.replace(with: [("lights.yaml", "old")])
        try FileManager.default.moveItem(at: kept.folder, to: kept.setAside)
        #expect(kept.folderToRead == kept.setAside)
        try kept.replace(with: [("lights.yaml", "new")])
        #expect(kept.folderToRead == kept.folder)
        #expect(try names(in: app) == [KeptSentences.folderName])
    }

    /// What cannot be removed is an error, not passed over: a stale copy left in place would
    /// mix with the new files, and the kept copy is not touched.
    @Test func aFolderThatCannotBeRemovedIsAnError() throws {
        let app = try temporaryDirectory()
        try KeptSentences(app: app).replace(with: [("lights.yaml", "old")])
        struct Refused: Error {}
        let refusing = KeptSentences(app: app, remove: { _ in throw Refused() })
        try FileManager.default.createDirectory(at: refusing.staging, withIntermediateDirectories: false)
        let error = #expect(throws: KeptSentencesError.self) { try refusing.replace(with: [("lights.yaml", "new")]) }
        #expect(error?.description.hasPrefix("cannot remove \(refusing.staging.path)") == true, "\(String(describing: error))")
        #expect(try String(contentsOf: refusing.folder.appendingPathComponent("001-lights.yaml"), encoding: .utf8) == "old")
    }
}
