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
}
