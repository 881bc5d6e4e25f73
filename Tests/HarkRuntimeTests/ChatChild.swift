import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import HarkTestSupport

/// A `hark chat` child driven line by line through pipes, as a script would drive it: each
/// reply is read before the next line is written.
final class ChatChild {
    let process = Process()
    private let input = Pipe()
    private let output = Pipe()
    private let errors = Pipe()
    private var buffered = Data()

    /// `onTerminal`: run under script(1), whose terminal (a pty) echoes what is typed, as a
    /// person's would.
    init(_ arguments: [String] = ["--apps", "apps"], environment: [String: String], directory: URL = Fixtures.root,
         onTerminal: Bool = false) throws {
        let hark = try Fixtures.executable("hark")
        if onTerminal {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/script")
            process.arguments = ["-qfec", ([hark.path, "chat"] + arguments).joined(separator: " "), "/dev/null"]
        } else {
            process.executableURL = hark
            process.arguments = ["chat"] + arguments
        }
        process.currentDirectoryURL = directory
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        // A reply that never comes (held in a buffer) must fail the test, not hang it: the child
        // is stopped after `patience`, which closes its output.
        let pid = process.processIdentifier, ended = ended
        DispatchQueue.global().asyncAfter(deadline: .now() + Self.patience) {
            if !ended.value { kill(pid, SIGTERM) }
        }
    }

    static let patience: Double = 120
    private let ended = Flag()

    struct Ended: Error, CustomStringConvertible {
        var description: String
    }

    /// Writes `line`; if the child has gone, says why (its status and standard error).
    func say(_ line: String) throws {
        do {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
        } catch {
            let complaint = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
            process.waitUntilExit()
            ended.value = true
            throw Ended(description: "hark chat ended (\(process.terminationReason == .exit ? "status" : "signal") "
                        + "\(process.terminationStatus)) before \"\(line)\" could be written (\(error)): \(complaint)")
        }
    }

    /// The next "hark: …" line, without its prefix; nil when the child closed its output first.
    func reply() throws -> String? {
        while true {
            if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffered[buffered.startIndex..<newline], as: UTF8.self)
                buffered = Data(buffered[buffered.index(after: newline)...])
                if line.hasPrefix("hark: ") { return String(line.dropFirst("hark: ".count)) }
                continue
            }
            let chunk = try readSome(output.fileHandleForReading)
            if chunk.isEmpty { return nil }
            buffered += chunk
        }
    }

    /// Everything it printed up to and including `text`; nil if it ended first.
    func output(through text: String) throws -> String? {
        while true {
            if let found = buffered.range(of: Data(text.utf8)) {
                let through = String(decoding: buffered[buffered.startIndex..<found.upperBound], as: UTF8.self)
                buffered = Data(buffered[found.upperBound...])
                return through
            }
            let chunk = try readSome(output.fileHandleForReading)
            if chunk.isEmpty { return nil }
            buffered += chunk
        }
    }

    /// Closes its input and waits for it to end; returns its standard error.
    func finish() throws -> String {
        try input.fileHandleForWriting.close()
        _ = try readToEnd(output.fileHandleForReading)
        let text = String(decoding: try readToEnd(errors.fileHandleForReading), as: UTF8.self)
        process.waitUntilExit()
        ended.value = true
        return text
    }
}

/// A Boolean shared with the watchdog's queue.
private final class Flag: @unchecked Sendable {
    // @unchecked: the lock guards the only state.
    private let lock = NSLock()
    private var raised = false

    var value: Bool {
        get { lock.withLock { raised } }
        set { lock.withLock { raised = newValue } }
    }
}
