import Foundation
import HarkTestSupport
import Testing

/// bench/update-figures.py, which puts a benchmark's own table into docs/benchmarks.md: run as
/// the Makefile runs it, on a copy of a document.
@Suite struct UpdateFiguresScriptTests {
    static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Fixtures.root.appendingPathComponent("bench/update-figures.py").path] + arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = Pipe()
        try process.run()
        let data = try errors.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    static let document = """
        # Benchmarks

        ## make bench-noise

        Words before.

        <!-- figures: bench-noise -->
        Measured long ago.

        | old | table |
        <!-- /figures: bench-noise -->

        Words after.

        """

    @Test func theBlockIsReplacedAndTheRestKept() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let doc = directory.appendingPathComponent("benchmarks.md"), table = directory.appendingPathComponent("table.md")
        try Self.document.write(to: doc, atomically: true, encoding: .utf8)
        try "| new | table |\n|---|---|\n| 1 | 2 |\n".write(to: table, atomically: true, encoding: .utf8)
        let outcome = try Self.run([doc.path, "bench-noise", table.path, "--measured", "2026-12-04, commit abc1234, 2 cores"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let updated = try String(contentsOf: doc, encoding: .utf8)
        #expect(updated == """
            # Benchmarks

            ## make bench-noise

            Words before.

            <!-- figures: bench-noise -->
            Measured 2026-12-04, commit abc1234, 2 cores.

            | new | table |
            |---|---|
            | 1 | 2 |
            <!-- /figures: bench-noise -->

            Words after.

            """)
    }

    @Test func aDocumentWithoutTheBlockIsLeftAsItWas() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let doc = directory.appendingPathComponent("benchmarks.md"), table = directory.appendingPathComponent("table.md")
        try Self.document.write(to: doc, atomically: true, encoding: .utf8)
        try "| new |\n".write(to: table, atomically: true, encoding: .utf8)
        let outcome = try Self.run([doc.path, "bench-wake", table.path, "--measured", "today"])
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("must hold one block <!-- figures: bench-wake -->"), "\(outcome.errors)")
        #expect(try String(contentsOf: doc, encoding: .utf8) == Self.document)
        // Nothing else was left in the folder.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted() == ["benchmarks.md", "table.md"])
    }
}
