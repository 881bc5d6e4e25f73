import Dispatch
import Foundation
import HarkRuntime
import Logging

/// Logging for `hark listen`: one line per message on standard output, which is where the
/// journal picks it up when Hark runs as a service; on standard error when standard output
/// carries JSON for a script.
enum LiveLog {
    static func start(level: Logger.Level, toStandardError: Bool) -> Logger {
        LoggingSystem.bootstrap { label in
            var handler = toStandardError ? StreamLogHandler.standardError(label: label)
                : StreamLogHandler.standardOutput(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "hark")
        logger.logLevel = level
        return logger
    }
}

/// Shows what the live loop does: turns as blocks for a person reading a recording's results,
/// one log line each when live, or JSON lines for scripts.
struct LiveEventPrinter: Sendable {
    var json: Bool
    /// Listening to a recording: print blocks with positions in it.
    var recording: Bool
    var logger: Logger

    func print(_ event: LiveEvent) {
        if json {
            emit(Self.object(event))
            return
        }
        switch event {
        case .started(let source, let wakePhrase):
            logger.info("listening on \(source) for \"\(wakePhrase)\"")
        case .wake(let at, let score, _):
            if recording {
                Swift.print(String(format: "%7.2f s  wake word (score %.2f)", at, score))
            } else {
                logger.info("wake word (score \(String(format: "%.2f", score)))")
            }
        case .tentativeWake(let at, let confidence):
            let what = String(format: "perhaps the wake word (odds %.2f): listening without a sound", confidence)
            if recording { Swift.print(String(format: "%7.2f s  %@", at, what)) } else { logger.debug("\(what)") }
        case .dismissed(let at, let heard):
            let what = heard.isEmpty ? "no request followed: stayed silent" : "\"\(heard)\" did not bear it out: stayed silent"
            if recording { Swift.print(String(format: "%7.2f s  %@", at, what)) } else { logger.debug("\(what)") }
        case .turn(let turn):
            let latency = String(format: "%.0f ms after the end of speech (%.0f ms waiting for quiet, %.0f ms answering)",
                                 turn.latency.total * 1000, turn.latency.endSilence * 1000, turn.latency.processing * 1000)
            if recording {
                Swift.print(String(format: "%7.2f s  %@", turn.endedAt, turn.isAnswer ? "answer" : "request"))
                Swift.print(turn.report.humanReadable())
                Swift.print("  replied:    \(latency)")
            } else {
                let heard = turn.report.text.isEmpty ? "nothing in the grammar" : "\"\(turn.report.text)\""
                let intent = turn.report.intent.map { " → \(turn.report.app ?? "").\($0)" } ?? ""
                logger.info("heard \(heard)\(intent)\(Self.room(of: turn.report)); replying \"\(turn.report.reply)\", \(latency)")
                if let problem = turn.report.problem { logger.warning("\(problem)") }
            }
        case .noSpeech(let at, let inConversation):
            let what = inConversation ? "nobody answered" : "nothing said after the wake word"
            if recording { Swift.print(String(format: "%7.2f s  %@", at, what)) } else { logger.info("\(what)") }
        case .automation(let phrase, let reply):
            if recording { Swift.print("  automation \"\(phrase)\": \"\(reply)\"") } else { logger.info("automation \"\(phrase)\": \"\(reply)\"") }
        case .yielded(let at):
            let what = "another room heard the wake word better and answers it"
            if recording { Swift.print(String(format: "%7.2f s  %@", at, what)) } else { logger.info("\(what)") }
        case .interrupted(let at, let afterWakeWord):
            let what = String(format: "interrupted: stopped speaking %.0f ms after the wake word", afterWakeWord * 1000)
            if recording { Swift.print(String(format: "%7.2f s  %@", at, what)) } else { logger.info("\(what)") }
        case .microphone(let silent, let at):
            let what = silent ? SilentMicrophoneText.silent : SilentMicrophoneText.heardAgain
            if recording {
                Swift.print(String(format: "%7.2f s  %@", at, what))
            } else if silent {
                logger.warning("\(what)")
            } else {
                logger.info("\(what)")
            }
        case .problem(let message):
            logger.error("\(message)")
        }
    }

    func print(summary: LiveSummary) {
        if json {
            guard let data = try? JSONEncoder().encode(summary),
                  var object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else { return }
            object["event"] = "summary"
            emit(object)
        } else if recording {
            Swift.print(summary.humanReadable())
        } else {
            logger.info("stopped after \(String(format: "%.0f", summary.audioSeconds)) s: \(summary.turns) turns")
        }
    }

    private func emit(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else {
            logger.error("could not write an event as JSON")
            return
        }
        Swift.print(String(decoding: data, as: UTF8.self))
    }

    /// " (the voice 14 dB above the room)", for someone reading the log in a noisy kitchen; ""
    /// when not measured.
    static func room(of report: TurnReport) -> String {
        report.roomSummary.map { " (\($0))" } ?? ""
    }

    static func object(_ event: LiveEvent) -> [String: Any] {
        switch event {
        case .started(let source, let wakePhrase):
            return ["event": "started", "source": source, "wake_phrase": wakePhrase]
        case .wake(let at, let score, let confidence):
            return ["event": "wake", "at_s": at, "score": score, "confidence": confidence]
        case .tentativeWake(let at, let confidence):
            return ["event": "tentative_wake", "at_s": at, "confidence": confidence]
        case .dismissed(let at, let heard):
            return ["event": "dismissed", "at_s": at, "heard": heard]
        case .turn(let turn):
            var object: [String: Any] = ["event": "turn", "at_s": turn.endedAt, "answer": turn.isAnswer,
                                         "end_silence_s": turn.latency.endSilence, "processing_s": turn.latency.processing]
            if let data = try? JSONEncoder().encode(turn.report),
               let report = try? JSONSerialization.jsonObject(with: data) {
                object["report"] = report
            }
            return object
        case .noSpeech(let at, let inConversation):
            return ["event": "no_speech", "at_s": at, "in_conversation": inConversation]
        case .automation(let phrase, let reply):
            return ["event": "automation", "phrase": phrase, "reply": reply]
        case .yielded(let at):
            return ["event": "yielded", "at_s": at]
        case .interrupted(let at, let afterWakeWord):
            return ["event": "interrupted", "at_s": at, "after_wake_word_s": afterWakeWord]
        case .microphone(let silent, let at):
            return ["event": silent ? "microphone_silent" : "microphone_heard_again", "at_s": at]
        case .problem(let message):
            return ["event": "problem", "message": message]
        }
    }
}

/// Calls `stop` on SIGTERM or SIGINT (each time one comes), so a service manager or Ctrl-C ends
/// Hark cleanly: the devices are closed and the summary printed instead of the process dying
/// mid-reply. The handler is installed at once (`signal`), and only writes the signal's number to
/// a pipe, which `stop` is called from. A dispatch signal source registers itself on another
/// thread a moment later, and a SIGTERM sent as soon as the address was printed was ignored in
/// between: `hark serve` went on running (seen in the tests, under load).
final class StopSignals {
    /// The pipe's write end, for the handler: it may call nothing but write(2).
    nonisolated(unsafe) private static var handlerPipe: Int32 = -1
    private static let names = [SIGTERM: "SIGTERM", SIGINT: "SIGINT"]
    private let source: any DispatchSourceRead
    private let ends: (read: Int32, write: Int32)

    init(_ stop: @escaping @Sendable (String) -> Void) throws {
        var descriptors: [Int32] = [-1, -1]
        // Neither end is passed to children, nor ever blocks (a full pipe drops a signal, which
        // the bytes already in it have told).
        guard pipe(&descriptors) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard descriptors.allSatisfy({ fcntl($0, F_SETFD, FD_CLOEXEC) == 0 && fcntl($0, F_SETFL, O_NONBLOCK) == 0 }) else {
            let failure = POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            descriptors.forEach { close($0) }
            throw failure
        }
        ends = (descriptors[0], descriptors[1])
        let read = descriptors[0]
        source = DispatchSource.makeReadSource(fileDescriptor: read, queue: .global())
        source.setEventHandler {
            var numbers = [UInt8](repeating: 0, count: 16)
            let count = Glibc.read(read, &numbers, numbers.count)
            for number in numbers.prefix(max(count, 0)) {
                stop(Self.names[Int32(number)] ?? "signal \(number)")
            }
        }
        source.resume()
        Self.handlerPipe = descriptors[1]
        for signalNumber in Self.names.keys {
            signal(signalNumber) { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(StopSignals.handlerPipe, &byte, 1)
            }
        }
    }

    /// Signals after this are ignored, as a stopping Hark has nothing more to do with them.
    func cancel() {
        for signalNumber in Self.names.keys { signal(signalNumber, SIG_IGN) }
        source.cancel()
        close(ends.read)
        close(ends.write)
    }
}

/// What `hark listen` says when the microphone gives nothing but digital silence, and after.
enum SilentMicrophoneText {
    static let silent = String(format: "the microphone has given nothing but digital silence for %g s: is its capture"
        + " switched off (alsamixer, F4) or is it the wrong device (hark devices)?", SilentMicrophone.seconds)
    static let heardAgain = "the microphone hears sound again"
}
