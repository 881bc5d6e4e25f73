import Foundation
import HarkTestSupport
import Testing

/// The Debian package's Depends field, as packaging/depends.sh writes it for the real binary.
@Suite struct PackageDependsTests {
    static func depends() throws -> (status: Int32, output: String, errors: String) {
        let script = Fixtures.root.appendingPathComponent("packaging/depends.sh")
        let process = Process()
        process.executableURL = script
        process.arguments = [try Fixtures.executable("hark").path]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        let complained = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complained, as: UTF8.self))
    }

    /// Every package carries a lowest version, so apt never pairs Hark with a library too old for it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/dpkg-shlibdeps"), "needs dpkg-dev"))
    func everyDependencyHasALowestVersion() throws {
        let (status, output, errors) = try Self.depends()
        #expect(status == 0, "\(errors)")
        let entries = output.trimmingCharacters(in: .whitespacesAndNewlines).components(separatedBy: ", ")
        let names = entries.map { String($0.prefix { $0 != " " }) }
        for needed in ["libpocketsphinx3", "libsphinxbase3", "libespeak-ng1", "libasound2", "libsqlite3-0",
                       "pocketsphinx-en-us", "espeak-ng-data", "python3", "adduser"] {
            #expect(names.contains(needed), "\(needed) missing from \(output)")
        }
        for entry in entries {
            #expect(entry.range(of: #"^[a-z0-9.+-]+ \(>= [0-9][^)]*\)$"#, options: .regularExpression) != nil,
                    "no lowest version: \(entry)")
        }
    }
}
