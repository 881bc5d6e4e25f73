import Foundation
import HarkTestSupport
import Testing

/// Where apps come from and who may change them: an app runs its handler program as the person
/// running Hark, so only apps from installed places, changeable by their owner alone, are loaded.
@Suite(.serialized) struct AppSafetyTests {
    /// An app whose handler leaves `marker` behind when it runs.
    static func markingApp(in apps: URL, folder: String, name: String, phrase: String, marker: URL) throws -> URL {
        let app = apps.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
        try """
            name: \(name)
            intents:
              DoThing:
                phrases: [\(phrase)]
                responses: {success: done}
            handler:
              command: [./handler.sh]
              timeout: 2

            """.write(to: app.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
        let handler = app.appendingPathComponent("handler.sh")
        try "#!/bin/sh\ntouch '\(marker.path)'\nexit 1\n".write(to: handler, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: handler.path)
        return app
    }

    static func chmod(_ url: URL, _ mode: Int) throws {
        try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: url.path)
    }

    /// `hark chat` run in `directory` with `lines` typed.
    static func chat(_ arguments: [String], in directory: URL, saying lines: [String]) throws -> (replies: [String], errors: String) {
        var environment = try isolatedHarkEnvironment()
        environment["HARK_APPS"] = nil
        environment["HARK_MODELS"] = nil
        let child = try ChatChild(arguments, environment: environment, directory: directory)
        var replies: [String] = []
        for line in lines {
            try child.say(line)
            replies.append(try child.reply() ?? "(no reply)")
        }
        return (replies, try child.finish())
    }

    @Test func appsInTheWorkingDirectoryAreNeverLoaded() throws {
        let folder = try temporaryDirectory()
        let marker = folder.appendingPathComponent("evil-ran")
        _ = try Self.markingApp(in: folder.appendingPathComponent("apps"), folder: "evil", name: "Evil",
                                phrase: "do the evil thing", marker: marker)
        let (replies, errors) = try Self.chat([], in: folder, saying: ["do the evil thing", "turn on the garage light"])
        #expect(!FileManager.default.fileExists(atPath: marker.path), "the working directory's app ran its handler")
        #expect(replies[0] != "done" && !replies[0].hasPrefix("Evil"), "\(replies)")
        // The bundled apps, beside the executable, answer.
        #expect(replies[1] == "Home: Turning on the garage light.", "\(replies) \(errors)")
        #expect(!errors.contains("evil"), "\(errors)")
    }

    @Test func anAppOthersMayChangeIsLeftOutNamingThePath() throws {
        let apps = try temporaryDirectory()
        let marker = apps.appendingPathComponent("ran")
        _ = try Self.markingApp(in: apps, folder: "good", name: "Good", phrase: "say hello", marker: apps.appendingPathComponent("good-ran"))
        let open = try Self.markingApp(in: apps, folder: "open", name: "Open", phrase: "open sesame", marker: marker)
        try Self.chmod(open, 0o777)
        let groupManifest = try Self.markingApp(in: apps, folder: "shared", name: "Shared", phrase: "share it", marker: marker)
        try Self.chmod(groupManifest.appendingPathComponent("app.yaml"), 0o664)
        let program = try Self.markingApp(in: apps, folder: "program", name: "Program", phrase: "run the program", marker: marker)
        try Self.chmod(program.appendingPathComponent("handler.sh"), 0o757)

        let (replies, errors) = try Self.chat(["--apps", apps.path], in: Fixtures.root,
                                              saying: ["open sesame", "share it", "run the program", "say hello"])
        #expect(!FileManager.default.fileExists(atPath: marker.path), "a refused app's handler ran")
        #expect(errors.contains("\(open.path): writable by everyone (mode 777)"), "\(errors)")
        #expect(errors.contains("\(groupManifest.path)/app.yaml: writable by its group (mode 664)"), "\(errors)")
        #expect(errors.contains("\(program.path)/handler.sh: writable by everyone (mode 757)"), "\(errors)")
        #expect(errors.contains("chmod go-w"), "\(errors)")
        #expect(!replies[0...2].contains("done"), "\(replies)")
        // The good app beside them still runs (its handler fails on purpose, so its marker shows it ran).
        #expect(FileManager.default.fileExists(atPath: apps.appendingPathComponent("good-ran").path), "\(replies) \(errors)")
    }

    @Test func appsCheckRefusesAnOwnersAppFolderOthersMayWrite() throws {
        let owner = try temporaryDirectory()
        _ = try Self.markingApp(in: owner, folder: "mine", name: "Mine", phrase: "do my thing",
                                marker: owner.appendingPathComponent("ran"))
        try Self.chmod(owner, 0o777)
        var environment = try isolatedHarkEnvironment()
        environment["HARK_APPS"] = nil
        environment["HARK_OWNER_APPS"] = owner.path
        let outcome = try CommandLineTests.hark(["apps", "check"], environment: environment)
        #expect(outcome.status == 65)
        #expect(outcome.output.contains("\(owner.path): writable by everyone (mode 777)"), "\(outcome.output)")
    }
}
