import Foundation
import HarkRuntime
import HarkTestSupport
import Testing

/// `hark chat` driven by a script through pipes: each reply arrives as soon as it is made.
@Suite struct ChatPipeTests {
    @Test func eachReplyIsReadBeforeTheInputCloses() throws {
        let child = try ChatChild(environment: try isolatedHarkEnvironment())
        try child.say("turn on the garage light")
        #expect(try child.reply() == "Home: Turning on the garage light.")
        try child.say("turn off the garage light")
        #expect(try child.reply() == "Home: Turning off the garage light.")
        let errors = try child.finish()
        #expect(child.process.terminationStatus == 0, "\(errors)")
    }

    /// Typed at a terminal, the PIN is not shown: echo is off while it is asked for.
    @Test func aPINTypedAtATerminalIsNotShown() throws {
        let config = try temporaryDirectory()
        var file = PINFile(url: config.appendingPathComponent("hark/pin"))
        file.iterations = 1_000
        try file.set("1234")
        var environment = try isolatedHarkEnvironment()
        environment["XDG_CONFIG_HOME"] = config.path
        let child = try ChatChild(environment: environment, onTerminal: true)
        var shown = try child.output(through: "you: ") ?? ""
        try child.say("order a small dark coffee with oat milk")
        shown += try child.output(through: "Ready to order?") ?? ""
        try child.say("yes")
        shown += try child.output(through: "What's your PIN?") ?? ""
        // Typing waits for the prompt, as a person does.
        shown += try child.output(through: ": ") ?? ""
        try child.say("one two three four")
        let rest = try child.output(through: "OK. Ordering.")
        shown += rest ?? ""
        _ = try child.finish()
        #expect(rest != nil, "\(shown)")
        #expect(!shown.contains("one two three four"), "\(shown)")
    }
}
