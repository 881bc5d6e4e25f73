import Foundation
import HarkIntents
import HarkTestSupport
import Testing

/// An app far bigger than Hark can hold within the service's memory cap is refused with the
/// limit named, before its phrases are expanded; the other apps load and answer.
@Suite(.serialized) struct BigAppTests {
    /// `count` different three-word phrases of ordinary words ("red green blue" ...).
    static func phrases(_ count: Int) -> [String] {
        let words = ["red", "green", "blue", "black", "white", "small", "big", "old", "new", "hot", "cold", "happy",
                     "sad", "fast", "slow", "early", "late", "bright", "dark", "loud", "quiet", "soft", "hard", "sweet",
                     "sour", "warm", "cool", "fresh", "clean", "dirty", "empty", "full", "heavy", "light", "long", "short",
                     "tall", "wide", "deep", "rich", "poor", "young", "strong", "weak", "brave", "calm", "dry", "wet"]
        return (0..<count).map { index in
            let n = words.count
            return "\(words[index / (n * n) % n]) \(words[index / n % n]) \(words[index % n])"
        }
    }

    /// An apps folder holding the bundled home app and `big`, whose manifest is `manifest`.
    static func apps(big manifest: String) throws -> (apps: URL, manifest: URL) {
        let apps = try temporaryDirectory()
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("apps/home"), to: apps.appendingPathComponent("home"))
        let folder = apps.appendingPathComponent("big")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
        let file = folder.appendingPathComponent("app.yaml")
        try manifest.write(to: file, atomically: true, encoding: .utf8)
        return (apps, file)
    }

    static func manyPhrases(_ count: Int) -> String {
        "name: Big\nintents:\n  PlayTrack:\n    title: Play\n    category: generic\n    phrases:\n"
            + phrases(count).map { "      - play \($0)\n" }.joined() + "    responses:\n      success: Playing.\n"
    }

    static func manyValues(_ count: Int) -> String {
        "name: Big\ntypes:\n  Thing:\n    values:\n" + phrases(count).map { "      - \($0)\n" }.joined() + """
        intents:
          FindThing:
            title: Find a thing
            category: generic
            parameters:
              thing: {type: Thing, required: true, prompt: Which thing?}
            phrases: [find the <thing>]
            responses:
              success: Found it.

        """
    }

    @Test(arguments: [("phrases", manyPhrases(100_000)), ("values", manyValues(100_000))])
    func anAppOfAHundredThousandIsLeftOutAndTheOthersAnswer(shape: String, manifest: String) throws {
        let (apps, file) = try Self.apps(big: manifest)
        let limit = "an app may have at most \(5_000) together"
        let check = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(check.status == 65)
        #expect(check.output.contains("\(file.path): the app has"), "\(shape): \(check.output)")
        #expect(check.output.contains(limit), "\(shape): \(check.output)")

        let replies = try temporaryDirectory()
        let run = try CommandLineTests.hark(["run", "audio-fixtures/home-en/what_time_is_it.wav", "--apps", apps.path,
                                             "--reply-out", replies.appendingPathComponent("reply.wav").path])
        #expect(run.status == 0, "\(shape): \(run.errors)")
        #expect(run.output.contains("intent:     home.GetTime"), "\(shape): \(run.output)")
        #expect(run.errors.contains("warning: app left out: \(file.path): the app has"), "\(shape): \(run.errors)")
    }

    @Test func anAppAtTheLimitLoadsAndOneOverItIsRefused() throws {
        let half = 5_000 / 2
        let atLimit = Self.manyValues(half).replacingOccurrences(
            of: "phrases: [find the <thing>]",
            with: "phrases:\n" + Self.phrases(half).map { "      - find the <thing> \($0)\n" }.joined())
        let manifest = try AppCatalog.manifest(yaml: atLimit, identifier: "big", file: "big/app.yaml")
        #expect(manifest.intents.first?.phrases.count == half)
        let over = atLimit.replacingOccurrences(of: "    values:\n", with: "    values:\n      - one more\n")
        #expect(throws: ManifestError.self) { try AppCatalog.manifest(yaml: over, identifier: "big", file: "big/app.yaml") }
    }
}
