import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Reads lines from a pipe until it ends, with read(2) retried when a signal interrupts it.
/// FileHandle's `availableData` and `readDataToEndOfFile()` stop the whole process with a fatal
/// error on EINTR, which a signal handled without SA_RESTART causes in a thread blocked on the
/// pipe (it stopped a test run while other child processes were coming and going).
enum PipeLines {
    /// Calls `line` with each line (without its newline) as it arrives, and with the last,
    /// unterminated one at the end. A read error ends the lines with one that says so.
    /// Blocks until the pipe's other end is closed.
    static func read(from descriptor: Int32, _ line: (String) -> Void) {
        var pending = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                line("reading the pipe failed: \(String(cString: strerror(code)))")
                return
            }
            if count == 0 { break }
            pending += chunk[0..<count]
            while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                line(String(decoding: pending[..<newline], as: UTF8.self))
                pending.removeSubrange(...newline)
            }
        }
        if !pending.isEmpty { line(String(decoding: pending, as: UTF8.self)) }
    }
}
