import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One run of a handler program, supervised: started with posix_spawn in a session (and process
/// group) of its own with a clean signal mask, its output read on a thread of its own, and the
/// program itself reaped with waitpid, so that nothing it starts (even after `setsid`) can keep
/// Hark waiting. Each run has its own pipes: output of a stopped run never reaches the next one.
final class HandlerProcess: @unchecked Sendable {
    // @unchecked: the mutable state lives in `Mailbox` and `Reaping`, each behind its own lock;
    // `input` is only used by the handler actor that owns this run.

    /// How the program ended.
    enum Termination: Equatable, CustomStringConvertible {
        case exited(Int32)
        case signalled(Int32)
        /// waitpid could not say (an error, given here).
        case unknown(String)

        init(waitStatus status: Int32) {
            // WIFEXITED/WEXITSTATUS/WTERMSIG are macros Swift does not import.
            self = status & 0x7f == 0 ? .exited((status >> 8) & 0xff) : .signalled(status & 0x7f)
        }

        var description: String {
            switch self {
            case .exited(let code): return "ended with exit status \(code)"
            case .signalled(let signal): return "killed by signal \(signal) (\(String(cString: strsignal(signal))))"
            case .unknown(let reason): return "ended (\(reason))"
            }
        }
    }

    /// Why a request could not be written.
    enum SendFailure: Error {
        /// The program's end of its stdin is closed (EPIPE).
        case closed
        /// The pipe stayed full past the deadline: the program is not reading.
        case timedOut
        case failed(String)
    }

    let pid: pid_t
    private let input: Int32
    /// Until `stop`, which closes the program's stdin (and only it does).
    private var inputOpen = true
    let output: HandlerOutput
    private let reaping = Reaping()

    private init(pid: pid_t, input: Int32, output: HandlerOutput) {
        self.pid = pid
        self.input = input
        self.output = output
    }

    /// Starts `executable` in `directory` with exactly `arguments` and `environment`; replies
    /// longer than `replyLimit` bytes are refused. Throws a message saying why it could not start.
    static func start(executable: String, arguments: [String], directory: String, environment: [String: String],
                      replyLimit: Int) throws(HandlerStartFailure) -> HandlerProcess {
        var made: [(read: Int32, write: Int32)] = []
        do {
            for _ in 0..<4 { made.append(try pipe()) }
        } catch {
            for ends in made { closeReporting(ends.read); closeReporting(ends.write) }
            throw error
        }
        let (stdin, stdout, stderr, wake) = (made[0], made[1], made[2], made[3])
        let theirs = [stdin.read, stdout.write, stderr.write]
        ChildProcesses.stopAllAtExit()
        ChildProcesses.spawning.lock()
        defer { ChildProcesses.spawning.unlock() }
        guard !ChildProcesses.exiting else {
            for ends in made { closeReporting(ends.read); closeReporting(ends.write) }
            throw HandlerStartFailure("\(executable): not started, Hark is exiting")
        }
        let spawned = CleanSpawn.spawn(executable, arguments: arguments, environment: environment, directory: directory,
                                       input: stdin.read, output: stdout.write, errors: stderr.write)
        // Hark's copies of the program's ends: closed, so that the program alone holds them.
        for descriptor in theirs { closeReporting(descriptor) }
        let pid: pid_t
        switch spawned {
        case .success(let started): pid = started
        case .failure(let failure):
            for descriptor in [stdin.write, stdout.read, stderr.read, wake.read, wake.write] { closeReporting(descriptor) }
            throw HandlerStartFailure(failure.description)
        }
        // Writes must not block past a request's deadline when the program does not read.
        let flags = fcntl(stdin.write, F_GETFL)
        if flags < 0 || fcntl(stdin.write, F_SETFL, flags | O_NONBLOCK) != 0 {
            report("could not make the pipe to \(executable) non-blocking: \(String(cString: strerror(errno)))")
        }
        let output = HandlerOutput(output: stdout.read, errors: stderr.read, wake: wake.read, replyLimit: replyLimit)
        let process = HandlerProcess(pid: pid, input: stdin.write, output: output)
        ChildProcesses.started(process)
        Thread { process.reap(wake: wake.write) }.start()
        output.start()
        return process
    }

    private static func pipe() throws(HandlerStartFailure) -> (read: Int32, write: Int32) {
        do {
            return try CleanSpawn.pipe()
        } catch {
            throw HandlerStartFailure(error.description)
        }
    }

    // MARK: Requests

    /// Writes `data` to the program's stdin, waiting for room in the pipe until `deadline`.
    func send(_ data: Data, until deadline: ContinuousClock.Instant) throws(SendFailure) {
        guard inputOpen else { throw .closed }
        var offset = 0
        while offset < data.count {
            let written = data.withUnsafeBytes { write(input, $0.baseAddress! + offset, $0.count - offset) }
            if written >= 0 {
                offset += written
                continue
            }
            let code = errno
            switch code {
            case EINTR:
                continue
            case EPIPE:
                throw .closed
            case EAGAIN, EWOULDBLOCK:
                let left = deadline - .now
                guard left > .zero else { throw .timedOut }
                var descriptor = pollfd(fd: input, events: Int16(POLLOUT), revents: 0)
                let milliseconds = Int32(min(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 60_000))
                if poll(&descriptor, 1, milliseconds) < 0 {
                    let code = errno
                    if code != EINTR { throw .failed("waiting to write to the program: \(String(cString: strerror(code)))") }
                }
            default:
                throw .failed("writing to the program: \(String(cString: strerror(code)))")
            }
        }
    }

    /// The program's next line, or what happened instead, waiting no later than `deadline`.
    func next(until deadline: ContinuousClock.Instant) async -> HandlerOutput.Event {
        await output.next(until: deadline)
    }

    /// How it ended, once it has been reaped.
    var termination: Termination? { reaping.termination }

    // MARK: Stopping

    /// Closes its stdin, sends SIGTERM to its group and, on a thread of its own, SIGKILL to the
    /// group `grace` later (sooner if the program ended). Returns at once: a program taking its
    /// time must not hold up the person's next request.
    func stop(grace: Duration = ChildProcesses.grace) {
        guard inputOpen else { return }  // stopped already
        inputOpen = false
        closeReporting(input)
        signalGroup(SIGTERM)
        let deadline = ContinuousClock.now + grace
        DispatchQueue.global().async {
            self.finish(until: deadline)
        }
    }

    /// SIGKILL to the group once it is empty or `deadline` has passed (the program's children
    /// may outlive it, and get the same grace), then it is no longer Hark's to stop.
    func finish(until deadline: ContinuousClock.Instant) {
        _ = reaping.wait(until: deadline)
        // Signal 0 finds whether anything is left in the group.
        while ContinuousClock.now < deadline && kill(-pid, 0) == 0 { usleep(20_000) }
        signalGroup(SIGKILL)
        ChildProcesses.stopped(self)
    }

    /// Sends `signal` to the program's process group (its pid: it leads a session of its own).
    /// ESRCH (nothing left in the group) is the expected end; any other failure is reported.
    func signalGroup(_ signal: Int32) {
        if kill(-pid, signal) != 0 && errno != ESRCH {
            Self.report("kill(-\(pid), \(signal)) failed: \(String(cString: strerror(errno)))")
        }
    }

    /// Waits for the program itself (never for what it started), then tells the output thread,
    /// which reads what the program wrote before it ended and then reports the end.
    private func reap(wake: Int32) {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
        let ended: Termination = result == pid ? Termination(waitStatus: status)
            : .unknown("waitpid failed: \(String(cString: strerror(errno)))")
        reaping.ended(ended)
        output.programEnded(ended)
        var byte: UInt8 = 1
        if write(wake, &byte, 1) != 1 {
            Self.report("could not wake the reader of handler \(pid): \(String(cString: strerror(errno)))")
        }
        closeReporting(wake)
    }

    static func report(_ message: String) {
        FileHandle.standardError.write(Data("hark: warning: \(message)\n".utf8))
    }
}

/// Closes `descriptor`; a failure is a bug worth seeing, so it is reported.
func closeReporting(_ descriptor: Int32) {
    if close(descriptor) != 0 {
        HandlerProcess.report("close(\(descriptor)) failed: \(String(cString: strerror(errno)))")
    }
}

/// Why a handler program could not be started.
struct HandlerStartFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// The program's end, set once by the thread that reaped it and awaited by others.
private final class Reaping: @unchecked Sendable {
    // @unchecked: `value` is only touched under `condition`.
    private let condition = NSCondition()
    private var value: HandlerProcess.Termination?

    func ended(_ termination: HandlerProcess.Termination) {
        condition.lock()
        value = termination
        condition.broadcast()
        condition.unlock()
    }

    var termination: HandlerProcess.Termination? {
        condition.lock()
        defer { condition.unlock() }
        return value
    }

    /// Blocks until the end is known or `deadline` passed; whether it is known.
    func wait(until deadline: ContinuousClock.Instant) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while value == nil {
            let left = deadline - .now
            guard left > .zero else { return false }
            let seconds = Double(left.components.seconds) + Double(left.components.attoseconds) / 1e18
            _ = condition.wait(until: Date().addingTimeInterval(seconds))
        }
        return true
    }
}
