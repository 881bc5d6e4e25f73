import Foundation
import HarkDialogue

/// What went wrong with a handler program, each told apart: the person hears which, and the log
/// says what exactly (with the program's last lines on stderr).
enum HandlerFault {
    /// It ended (an exit status or a signal), or closed its stdout.
    case crash
    /// No reply by the deadline.
    case hang
    /// It closed its stdin but goes on running: it can take no more requests.
    case closedInput
    /// A reply over the size limit.
    case tooLong
    /// A line that is not a JSON object.
    case garbage
}

extension ProgramHandler {
    /// The reply to request `id`; lines for any other id are dropped (and logged).
    func awaitReply(id: String, from process: HandlerProcess, until deadline: ContinuousClock.Instant) async throws -> [String: Any] {
        while true {
            switch await process.next(until: deadline) {
            case .line(let text):
                guard !text.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let parsed = object as? [String: Any] else {
                    throw failure(.garbage, "not a JSON object: \(text.prefix(200))", process)
                }
                // Another request's reply (sent twice, too late, or guessed) must not answer this one.
                guard parsed["id"] as? String == id else {
                    report("\(commandText): dropped a reply for request \(parsed["id"].map { "\($0)" } ?? "(no id)") while waiting for \(id): \(text.prefix(200))")
                    continue
                }
                return parsed
            case .tooLong(let limit):
                throw failure(.tooLong, "a reply longer than the limit of \(limit) bytes", process)
            case .outputClosed(let unfinished):
                // No reply can come now. If the program ended, its exit status follows at once;
                // one that closed its stdout and goes on is not waited for.
                let patience = ContinuousClock.now + .seconds(1)
                while true {
                    switch await process.next(until: patience) {
                    case .exited(let termination, _):
                        throw failure(.crash, Self.ending(termination, unfinished: unfinished), process)
                    case .timedOut:
                        throw failure(.crash, "closed its stdout while still running" + Self.cut(unfinished), process)
                    case .line, .tooLong, .outputClosed:
                        continue
                    }
                }
            case .exited(let termination, let unfinished):
                throw failure(.crash, Self.ending(termination, unfinished: unfinished), process)
            case .timedOut:
                throw failure(.hang, "no reply within \(timeout)", process)
            }
        }
    }

    /// A request could not be written because the program's stdin is closed: it has either
    /// ended (its status follows at once) or closed stdin and goes on, a program that can take
    /// no more requests. Either way it is stopped, and the next request starts it again.
    func closedInput(_ process: HandlerProcess) async -> HandlerError {
        let patience = ContinuousClock.now + .milliseconds(500)
        while true {
            switch await process.next(until: patience) {
            case .exited(let termination, let unfinished):
                return failure(.crash, Self.ending(termination, unfinished: unfinished), process)
            case .timedOut:
                return failure(.closedInput, "closed its stdin while still running", process)
            case .line, .tooLong, .outputClosed:
                continue
            }
        }
    }

    /// Stops the program and says what went wrong.
    func failure(_ fault: HandlerFault, _ detail: String, _ process: HandlerProcess) -> HandlerError {
        stop()
        let spoken: String
        switch fault {
        case .crash: spoken = "Sorry, \(appName) stopped working."
        case .hang: spoken = "Sorry, \(appName) didn't answer in time."
        case .closedInput: spoken = "Sorry, \(appName) stopped taking requests."
        case .tooLong: spoken = "Sorry, \(appName) sent a reply that was too long."
        case .garbage: spoken = "Sorry, \(appName) sent a reply I couldn't read."
        }
        return HandlerError(spoken: spoken, detail: "\(commandText): \(detail) (stopped)" + process.output.errorSummary)
    }

    static func ending(_ termination: HandlerProcess.Termination, unfinished: Int) -> String {
        "\(termination)" + cut(unfinished)
    }

    static func cut(_ unfinished: Int) -> String {
        unfinished > 0 ? " partway through a reply (\(unfinished) bytes and no newline)" : ""
    }

    var commandText: String { command.joined(separator: " ") }
}
