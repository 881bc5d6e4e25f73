public import Foundation

/// Locations of files committed to the repository for tests.
public enum Fixtures {
    /// The repository root, found from this source file's path (Tests/HarkTestSupport/Fixtures.swift),
    /// so tests work whatever directory `swift test` runs them from.
    public static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()   // HarkTestSupport
            .deletingLastPathComponent()   // Tests
            .deletingLastPathComponent()   // repository root
    }

    /// A file under `audio-fixtures/`.
    public static func audio(_ relativePath: String) -> URL {
        root.appendingPathComponent("audio-fixtures").appendingPathComponent(relativePath)
    }

    /// An executable of this package (`hark`, `hark-store-writer`), built beside the test bundle
    /// by `swift build --build-tests`.
    public static func executable(_ name: String) throws -> URL {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        let candidates = [beside, beside.deletingLastPathComponent(), root.appendingPathComponent(".build/debug")]
            .map { $0.appendingPathComponent(name) }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) }) else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: candidates.map(\.path).joined(separator: ", ")])
        }
        return found
    }
}
