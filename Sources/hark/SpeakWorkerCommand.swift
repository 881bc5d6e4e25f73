import ArgumentParser
import Foundation
import HarkRuntime

/// A speech worker of `hark serve` (`SpeechPool`): not for people to run.
struct SpeakWorker: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "speak-worker",
        abstract: "Speaks texts for hark serve in a process of its own (started by it; reads its requests on standard input).",
        shouldDisplay: false)

    func run() throws {
        do {
            try SpeechWorkerWire.serve(input: .standardInput, output: .standardOutput)
        } catch {
            FileHandle.standardError.write(Data("hark speak-worker: \(error)\n".utf8))
            throw ExitCode(70)
        }
    }
}
