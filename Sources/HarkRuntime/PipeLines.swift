import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Splits bytes into lines as they arrive, in time linear in their length: each byte is searched
/// for a newline once (a long reply arrives in many chunks, and searching it all again for each
/// made 8 MB take seconds), and read lines are dropped from the buffer in bulk.
struct LineSplitter {
    enum Piece: Equatable {
        /// A line, without its newline.
        case line(String)
        /// A line longer than the limit: its bytes were dropped, up to and including its newline.
        case tooLong(limit: Int)
    }

    /// The longest line, in bytes without its newline.
    let limit: Int
    private var buffer: [UInt8] = []
    /// Where the unfinished line starts in `buffer`; bytes before it are read lines.
    private var start = 0
    /// Where the search for the next newline goes on: bytes before it hold none.
    private var searched = 0
    /// Inside a line over the limit, whose bytes are dropped until its newline.
    private var skipping = false

    init(limit: Int) {
        self.limit = limit
    }

    /// Takes `bytes` and calls `emit` with each line (or over-long line) they complete.
    mutating func append(_ bytes: UnsafeRawBufferPointer, _ emit: (Piece) -> Void) {
        buffer.append(contentsOf: bytes)
        while let newline = nextNewline() {
            if skipping {
                skipping = false
            } else if newline - start > limit {
                emit(.tooLong(limit: limit))
            } else {
                emit(.line(String(decoding: buffer[start..<newline], as: UTF8.self)))
            }
            start = newline + 1
            searched = start
        }
        searched = buffer.count
        if !skipping && buffer.count - start > limit {
            emit(.tooLong(limit: limit))
            skipping = true
        }
        if skipping {
            start = buffer.count
            searched = start
        }
        // Moving the unfinished line to the front costs no more than the bytes dropped with it.
        if start > 0 && start >= buffer.count - start {
            buffer.removeFirst(start)
            searched -= start
            start = 0
        }
    }

    /// The bytes of a line begun and not finished (at the end of the output: a line cut short).
    var unfinished: Int { skipping ? 0 : buffer.count - start }

    private func nextNewline() -> Int? {
        guard searched < buffer.count else { return nil }
        return buffer.withUnsafeBytes { all -> Int? in
            guard let base = all.baseAddress,
                  let found = memchr(base + searched, Int32(UInt8(ascii: "\n")), all.count - searched) else { return nil }
            return base.distance(to: UnsafeRawPointer(found))
        }
    }
}

/// Reading from pipes, with read(2) retried when a signal interrupts it. FileHandle's
/// `availableData` and `readDataToEndOfFile()` stop the whole process with a fatal error on
/// EINTR, which a signal handled without SA_RESTART causes in a thread blocked on the pipe.
enum PipeLines {
    /// What one read brought.
    enum Read: Equatable {
        case bytes(Int)
        /// The other end is closed and everything written has been read.
        case end
        /// Nothing to read now (a non-blocking descriptor).
        case nothingYet
        case failed(String)
    }

    /// One read(2) of up to 64 KiB from `descriptor` into `splitter`, retried on EINTR.
    static func readOnce(from descriptor: Int32, into splitter: inout LineSplitter, _ emit: (LineSplitter.Piece) -> Void) -> Read {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                chunk.withUnsafeBytes { splitter.append(UnsafeRawBufferPointer(rebasing: $0[..<count]), emit) }
                return .bytes(count)
            }
            if count == 0 { return .end }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .nothingYet }
            return .failed("reading the pipe failed: \(String(cString: strerror(code)))")
        }
    }

    /// Calls `line` with each line (without its newline) as it arrives, and with the last,
    /// unterminated one at the end; a line over `limit` bytes comes as a note that says so. A read
    /// error ends the lines with one that says so. Blocks until the pipe's other end is closed.
    static func read(from descriptor: Int32, limit: Int = 1 << 20, _ line: (String) -> Void) {
        var splitter = LineSplitter(limit: limit)
        func emit(_ piece: LineSplitter.Piece) {
            switch piece {
            case .line(let text): line(text)
            case .tooLong(let limit): line("(a line over \(limit) bytes, left out)")
            }
        }
        while true {
            switch readOnce(from: descriptor, into: &splitter, emit) {
            case .bytes, .nothingYet:
                continue
            case .end:
                // The last line has no newline: one is added, so that it comes out like the others.
                if splitter.unfinished > 0 { [UInt8(ascii: "\n")].withUnsafeBytes { splitter.append($0, emit) } }
                return
            case .failed(let message):
                line(message)
                return
            }
        }
    }
}
