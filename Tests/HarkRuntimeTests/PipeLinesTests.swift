import Foundation
#if canImport(Glibc)
import Glibc
#endif
@testable import HarkRuntime
import Testing

/// Signals caught while a reader waits on its pipe (counted by the handler below).
nonisolated(unsafe) private var signalsCaught = 0

@Suite struct PipeLinesTests {
    /// What a reader thread read, and the thread itself so that a signal can be sent to it.
    private final class Reader: @unchecked Sendable {
        // @unchecked: `thread` is set before `started` is signalled and `lines` before
        // `finished` is; the test reads each only after waiting for its semaphore.
        var thread = pthread_t()
        var lines: [String] = []
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)

        init(descriptor: Int32) {
            Thread {
                // Threads may start with signals blocked; this one must take the test's.
                var signals = sigset_t()
                let unblocked = sigemptyset(&signals) == 0 && sigaddset(&signals, SIGUSR2) == 0
                    && pthread_sigmask(SIG_UNBLOCK, &signals, nil) == 0
                precondition(unblocked, "SIGUSR2 could not be unblocked in the reader thread")
                self.thread = pthread_self()
                self.started.signal()
                PipeLines.read(from: descriptor) { self.lines.append($0) }
                self.finished.signal()
            }.start()
        }
    }

    @Test func aSignalWhileWaitingForTheProgramLosesNothing() throws {
        // Handled without SA_RESTART, so a read blocked when it lands fails with EINTR.
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in signalsCaught += 1 }
        action.sa_flags = 0
        sigemptyset(&action.sa_mask)
        var previous = sigaction()
        try #require(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { #expect(sigaction(SIGUSR2, &previous, nil) == 0) }
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { #expect(close(ends[0]) == 0) }

        let reader = Reader(descriptor: ends[0])
        reader.started.wait()
        for _ in 0..<3 {
            usleep(30_000)   // time for the reader to block in read(2) again
            try #require(pthread_kill(reader.thread, SIGUSR2) == 0)
        }
        usleep(30_000)
        let text = Array("first\nsecond\nno newline at the end".utf8)
        #expect(write(ends[1], text, text.count) == text.count)
        #expect(close(ends[1]) == 0)
        #expect(reader.finished.wait(timeout: .now() + 5) == .success)
        #expect(signalsCaught >= 3)
        #expect(reader.lines == ["first", "second", "no newline at the end"])
    }

    @Test func aLineSplitAcrossWritesArrivesWhole() throws {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        defer { #expect(close(ends[0]) == 0) }
        let reader = Reader(descriptor: ends[0])
        for part in ["{\"id\": 1, ", "\"ok\": true}\n{\"id\"", ": 2}\n"] {
            let bytes = Array(part.utf8)
            #expect(write(ends[1], bytes, bytes.count) == bytes.count)
            usleep(10_000)
        }
        #expect(close(ends[1]) == 0)
        #expect(reader.finished.wait(timeout: .now() + 5) == .success)
        #expect(reader.lines == ["{\"id\": 1, \"ok\": true}", "{\"id\": 2}"])
    }

    @Test func aReadErrorEndsTheLinesWithOneThatSaysSo() {
        var lines: [String] = []
        PipeLines.read(from: -1) { lines.append($0) }
        #expect(lines == ["reading the pipe failed: Bad file descriptor"])
    }
}
