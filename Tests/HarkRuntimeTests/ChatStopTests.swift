import Foundation
import HarkTestSupport
import Testing

/// `hark chat` stopped by SIGTERM or Ctrl-C stops its handler programs too.
@Suite(.serialized) struct ChatStopTests {
    @Test(arguments: [SIGTERM, SIGINT])
    func aStoppedChatStopsAHandlerThatWouldOutliveIt(_ signalNumber: Int32) async throws {
        // The handler answers, then ignores both its stdin closing and SIGTERM: only the
        // group's SIGKILL from Hark's exit ends it.
        let (_, directory) = try ProgramHandlerTests.app(handler: """
        echo $$ > "$HARK_APP_DIR/pid"
        trap '' TERM
        \(ProgramHandlerSupervisionTests.working)
        sleep 30
        """, timeout: 5)
        let folder = directory.appendingPathComponent("echo")
        let process = Process()
        process.executableURL = try CommandLineTests.executable()
        process.arguments = ["chat", "--apps", directory.path]
        process.environment = try isolatedHarkEnvironment()
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        try input.fileHandleForWriting.write(contentsOf: Data("say hello\n".utf8))
        let pidFile = folder.appendingPathComponent("pid")
        #expect(await eventually(within: 15) { ProgramHandlerSupervisionTests.writtenPID(in: pidFile) != nil }, "the handler never started")
        let handler = try ProgramHandlerSupervisionTests.pid(in: pidFile)
        defer { kill(handler, SIGKILL) }
        kill(process.processIdentifier, signalNumber)
        #expect(await eventually(within: 10) { !process.isRunning }, "hark chat did not stop")
        #expect(await eventually(within: 5) { processIsGone(handler) }, "the handler \(handler) outlived hark chat")
    }
}
