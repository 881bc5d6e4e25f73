import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A handler program's stdout and stderr, read on a thread of its own with poll(2), and what
/// came of them as events in order: its lines, then (once it has been reaped) its end, after
/// everything it wrote before ending. A descendant that still holds the pipes open cannot delay
/// that end: once the program is reaped, what is left in the pipes is read without waiting.
final class HandlerOutput: @unchecked Sendable {
    // @unchecked: `events`, `waiter`, `ended` and `errorTail` are only touched under `lock`;
    // the descriptors and splitters only by the reading thread.

    enum Event: Equatable {
        case line(String)
        /// A line longer than the limit (its bytes were dropped).
        case tooLong(limit: Int)
        /// Its stdout closed: no reply can come any more. `unfinished` bytes of a line were cut short.
        case outputClosed(unfinished: Int)
        /// It ended and was reaped; `unfinished` bytes of a line were cut short.
        case exited(HandlerProcess.Termination, unfinished: Int)
        /// Nothing came by the deadline.
        case timedOut
    }

    private let lock = NSLock()
    private var events: [Event] = []
    private var waiter: (token: Int, continuation: CheckedContinuation<Event, Never>, timer: DispatchWorkItem)?
    private var waits = 0
    private var ended: HandlerProcess.Termination?
    private var errorLines: [String] = []

    private let output: Int32
    private let errors: Int32
    private let wake: Int32
    private var replies: LineSplitter
    private var errorSplitter = LineSplitter(limit: 2000)

    init(output: Int32, errors: Int32, wake: Int32, replyLimit: Int) {
        self.output = output
        self.errors = errors
        self.wake = wake
        self.replies = LineSplitter(limit: replyLimit)
    }

    func start() {
        Thread { self.run() }.start()
    }

    /// The last lines the program wrote to stderr, for the log when it fails.
    var errorSummary: String {
        lock.lock()
        defer { lock.unlock() }
        return errorLines.isEmpty ? "" : "; stderr: " + errorLines.joined(separator: " | ")
    }

    /// Called by the thread that reaped the program, before it wakes the reading thread.
    func programEnded(_ termination: HandlerProcess.Termination) {
        lock.lock()
        ended = termination
        lock.unlock()
    }

    // MARK: Waiting for events

    func next(until deadline: ContinuousClock.Instant) async -> Event {
        await withCheckedContinuation { continuation in
            lock.lock()
            if !events.isEmpty {
                let event = events.removeFirst()
                lock.unlock()
                continuation.resume(returning: event)
                return
            }
            guard deadline > .now else {
                lock.unlock()
                continuation.resume(returning: .timedOut)
                return
            }
            waits += 1
            let token = waits
            // A dispatch timer, not a task: when busy tasks hold up Swift's few cooperative threads,
            // the deadline must still fall when it is due, not when a reply that came later is read.
            let timer = DispatchWorkItem { [weak self] in self?.expire(token) }
            let left = deadline - .now
            DispatchQueue.global().asyncAfter(
                deadline: .now() + .nanoseconds(Int(left.components.seconds) * 1_000_000_000 + Int(left.components.attoseconds / 1_000_000_000)),
                execute: timer)
            // One waiter at a time (ProgramHandler sends one request at a time); one left over
            // would otherwise never be resumed.
            let previous = waiter
            waiter = (token, continuation, timer)
            lock.unlock()
            if let previous {
                previous.timer.cancel()
                previous.continuation.resume(returning: .timedOut)
            }
        }
    }

    private func expire(_ token: Int) {
        lock.lock()
        guard let waiting = waiter, waiting.token == token else {
            lock.unlock()
            return
        }
        waiter = nil
        lock.unlock()
        waiting.continuation.resume(returning: .timedOut)
    }

    /// Lines kept while no request waits: a program that writes without end between requests
    /// must not fill Hark's memory (the lines past this are dropped; none of them is a reply).
    static let queueLimit = 256

    private func push(_ event: Event) {
        lock.lock()
        guard let waiting = waiter else {
            if case .line = event, events.count >= Self.queueLimit {
                lock.unlock()
                return
            }
            events.append(event)
            lock.unlock()
            return
        }
        waiter = nil
        lock.unlock()
        waiting.timer.cancel()
        waiting.continuation.resume(returning: event)
    }

    private func noteError(_ piece: LineSplitter.Piece) {
        let line: String
        switch piece {
        case .line(let text): line = text
        case .tooLong(let limit): line = "(a line over \(limit) bytes)"
        }
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        lock.lock()
        errorLines.append(line)
        if errorLines.count > 5 { errorLines.removeFirst() }
        lock.unlock()
    }

    // MARK: The reading thread

    private func run() {
        var watched = [pollfd(fd: output, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: errors, events: Int16(POLLIN), revents: 0),
                       pollfd(fd: wake, events: Int16(POLLIN), revents: 0)]
        while watched[2].fd >= 0 {
            if poll(&watched, nfds_t(watched.count), -1) < 0 {
                if errno == EINTR { continue }
                HandlerProcess.report("waiting for a handler's output: \(String(cString: strerror(errno)))")
                usleep(100_000)  // not a busy loop if poll keeps failing; the reaper's wake-up still ends it
                continue
            }
            if watched[0].revents != 0, !readReplies() { watched[0].fd = -1 }
            if watched[1].revents != 0, !readErrors() { watched[1].fd = -1 }
            if watched[2].revents != 0 { watched[2].fd = -1 }
        }
        // The program has been reaped: what it wrote is in the pipes already. Read it without
        // waiting for the pipes to close (a descendant may hold them open for ever).
        for descriptor in [output, errors] {
            let flags = fcntl(descriptor, F_GETFL)
            if flags < 0 || fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) != 0 {
                HandlerProcess.report("could not make a handler's pipe non-blocking: \(String(cString: strerror(errno)))")
            }
        }
        if watched[0].fd >= 0 { while readReplies(stopWhenEmpty: true) {} }
        if watched[1].fd >= 0 { while readErrors(stopWhenEmpty: true) {} }
        if errorSplitter.unfinished > 0 {
            [UInt8(ascii: "\n")].withUnsafeBytes { errorSplitter.append($0) { noteError($0) } }
        }
        for descriptor in [output, errors, wake] { closeReporting(descriptor) }
        lock.lock()
        let termination = ended ?? .unknown("no exit status")
        lock.unlock()
        push(.exited(termination, unfinished: replies.unfinished))
    }

    /// Reads once from stdout; false when there is nothing more to read (its end, or an error).
    private func readReplies(stopWhenEmpty: Bool = false) -> Bool {
        var lines: [Event] = []
        let result = PipeLines.readOnce(from: output, into: &replies) { piece in
            switch piece {
            case .line(let text): lines.append(.line(text))
            case .tooLong(let limit): lines.append(.tooLong(limit: limit))
            }
        }
        for line in lines { push(line) }
        switch result {
        case .bytes: return true
        case .nothingYet: return !stopWhenEmpty
        case .end:
            push(.outputClosed(unfinished: replies.unfinished))
            return false
        case .failed(let message):
            noteError(.line(message))
            push(.outputClosed(unfinished: replies.unfinished))
            return false
        }
    }

    /// Reads once from stderr; false when there is nothing more to read.
    private func readErrors(stopWhenEmpty: Bool = false) -> Bool {
        var pieces: [LineSplitter.Piece] = []
        let result = PipeLines.readOnce(from: errors, into: &errorSplitter) { pieces.append($0) }
        for piece in pieces { noteError(piece) }
        switch result {
        case .bytes: return true
        case .nothingYet: return !stopWhenEmpty
        case .end, .failed:
            if case .failed(let message) = result { noteError(.line(message)) }
            return false
        }
    }
}
