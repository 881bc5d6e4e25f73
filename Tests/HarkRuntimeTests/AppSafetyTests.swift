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
}
