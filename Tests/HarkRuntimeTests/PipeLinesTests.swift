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

    /// Writes `text` to a new pipe from a thread of its own and reads it back with `limit`.
    private func readBack(_ text: [UInt8], limit: Int) throws -> (lines: [String], seconds: Double) {
        var ends: [Int32] = [0, 0]
        try #require(pipe(&ends) == 0)
        let writer = ends[1]
        Thread {
            let written = text.withUnsafeBytes { bytes -> Bool in
                var offset = 0
                while offset < bytes.count {
                    let count = write(writer, bytes.baseAddress! + offset, bytes.count - offset)
                    if count <= 0 { return false }
                    offset += count
                }
                return true
            }
            precondition(written && close(writer) == 0, "the writer could not write the test's text")
        }.start()
        let started = Date()
        var lines: [String] = []
        PipeLines.read(from: ends[0], limit: limit) { lines.append($0) }
        #expect(close(ends[0]) == 0)
        return (lines, Date().timeIntervalSince(started))
    }

    @Test func aLongLineIsReadInTimeLinearInItsLength() throws {
        // Searching the whole line again for each chunk made 8 MB take seconds and 50 MB minutes.
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 32 << 20)
        let (lines, seconds) = try readBack(long + Array("\nend\n".utf8), limit: 64 << 20)
        #expect(lines.count == 2)
        #expect(lines.first?.utf8.count == 32 << 20)
        #expect(lines.last == "end")
        #expect(seconds < 5, "32 MB took \(seconds) s")
    }

    @Test func aLineOverTheLimitIsLeftOutAndTheNextOneComes() throws {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 8 << 20)
        let (lines, seconds) = try readBack(Array("first\n".utf8) + long + Array("\nend\n".utf8), limit: 1 << 20)
        #expect(lines == ["first", "(a line over 1048576 bytes, left out)", "end"])
        #expect(seconds < 5, "8 MB took \(seconds) s")
    }
}
