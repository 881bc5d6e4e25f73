import Foundation
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
}
