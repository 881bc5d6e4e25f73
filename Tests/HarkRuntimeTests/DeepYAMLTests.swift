import Foundation
import HarkRuntime
import HarkShortcuts
import HarkTestSupport
import Testing

/// YAML nested far deeper than any real file, read by the real binary.
@Suite struct DeepYAMLTests {
    /// A manifest nested 5,000 levels deep overflowed the parser's stack and killed hark with no
    /// word; it is refused with its line, and a running Hark serves the other apps.
    @Test func aManifestNestedFiveThousandLevelsIsRefusedWithItsLine() throws {
        let apps = try temporaryApps(folder: "deep", manifest: "name: Deep\nintents:\n  X: "
                                     + String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000) + "\n")
        let check = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(check.status == 65, "\(check.output)\(check.errors)")
        #expect(check.output.contains("deep/app.yaml:3: nested more than 64 levels deep"), "\(check.output)")

        let bundled = Fixtures.root.appendingPathComponent("apps/home")
        try FileManager.default.createSymbolicLink(at: apps.appendingPathComponent("home"), withDestinationURL: bundled)
        let run = try CommandLineTests.hark(["run", "--apps", apps.path, "audio-fixtures/home-en/turn_on_the_garage_light.wav"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.errors.contains("deep/app.yaml:3: nested more than 64 levels deep"), "\(run.errors)")
        #expect(run.output.contains("reply:      \"Home: Turning on the garage light.\""), "\(run.output)")
    }

    /// The settings file and a shortcut's steps go through the same parser: refused the same way.
    @Test func deepSettingsAndStepsAreRefusedWithTheirLine() {
        let deep = String(repeating: "[", count: 5_000) + String(repeating: "]", count: 5_000)
        #expect {
            try HarkConfigFile.parse("wake_phrase: jarvis\nwake_other_words: " + deep + "\n", file: "hark.yaml")
        } throws: { error in
            "\(error)" == "hark.yaml:2: nests more than 64 levels deep"
        }
        #expect {
            try StepsFile.steps(yaml: deep)
        } throws: { error in
            "\(error)" == "line 1 nests more than 64 levels deep"
        }
    }
}
