import Testing

/// `hark say --list-voices`: the voices a person can choose with --voice, or a Wyoming client with
/// a synthesize event's voice.
@Suite struct SayVoicesTests {
    @Test func listsTheInstalledVoicesEachUsableAsWritten() throws {
        let outcome = try CommandLineTests.hark(["say", "--list-voices"])
        #expect(outcome.status == 0, "stderr: \(outcome.errors)")
        let first = outcome.output.split(separator: "\n").map { String($0.split(separator: "\t").first ?? "") }
        #expect(first.contains("en-us") && first.contains("en-gb"))
        // Each voice as listed is one --voice takes.
        let spoken = try CommandLineTests.hark(["say", "Hello.", "--voice", "en-gb-scotland", "--out", "/dev/null"])
        #expect(first.contains("en-gb-scotland"))
        #expect(spoken.status == 0, "stderr: \(spoken.errors)")
        #expect(try CommandLineTests.hark(["say", "--list-voices", "hello"]).status == 64)
    }
}
