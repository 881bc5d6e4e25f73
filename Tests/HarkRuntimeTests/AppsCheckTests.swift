import Foundation
import HarkTestSupport
import Testing

/// One bad app.yaml among good ones: `hark apps check` names it, a running Hark leaves it out.
@Suite struct AppsCheckTests {
    /// The bundled home app beside an app with a key no manifest has.
    static func appsWithOneBad() throws -> URL {
        let apps = try temporaryApps(folder: "bad", manifest: """
            name: Bad
            colour: blue
            intents:
              GetThing:
                phrases: [get the thing]
                responses: {success: ok}

            """)
        try FileManager.default.copyItem(at: Fixtures.root.appendingPathComponent("apps/home"),
                                         to: apps.appendingPathComponent("home"))
        return apps
    }

    @Test func theBundledAppsHaveNoProblems() throws {
        let outcome = try CommandLineTests.hark(["apps", "check", "--apps", "apps"])
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("5 apps in ") && outcome.output.contains("no problems: coffee (Corner Cafe), home (Home)"))
    }

    @Test func checkNamesTheBadFileAndLineAndFails() throws {
        let apps = try Self.appsWithOneBad()
        let outcome = try CommandLineTests.hark(["apps", "check", "--apps", apps.path])
        #expect(outcome.status == 65)
        #expect(outcome.output.contains("bad/app.yaml:2:"), "\(outcome.output)")
        #expect(outcome.output.contains("colour"))
        #expect(outcome.errors.contains("1 problem in"))
    }

    @Test func hearingGoesOnWithTheGoodAppsAndSaysWhichWasLeftOut() throws {
        let apps = try Self.appsWithOneBad()
        let outcome = try CommandLineTests.hark(["run", "--apps", apps.path, "audio-fixtures/home-en/what_time_is_it.wav"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("GetTime"))
        #expect(outcome.errors.contains("warning: app left out: "))
        #expect(outcome.errors.contains("bad/app.yaml:2:"))
    }
}
