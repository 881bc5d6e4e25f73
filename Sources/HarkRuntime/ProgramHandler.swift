public import Foundation
#if canImport(Glibc)
import Glibc
#endif
public import HarkDialogue
public import HarkIntents
public import HarkShortcuts

/// An app's handler that is a program of its own, in any language: Hark
/// writes one JSON request per line to its stdin and reads one JSON reply per
/// line from its stdout (the protocol is described in apps/messages/handler.py
/// and the README).
///
/// The program is started directly (never through a shell) with a clean
/// environment, in the app's folder, and kept running between requests. A
/// program that crashes, hangs past its timeout or writes something that is not
/// a reply is stopped; the person hears a specific error and the next request
/// starts it again.
///
/// Replies are matched to requests by `id`: a reply to another request (one that came twice,
/// or too late) is dropped with a log entry instead of answering the next request. The program
/// runs in a process group of its own, so stopping it stops whatever it started:
/// SIGTERM, then SIGKILL if it is still there a second later, and it is reaped; programs still
/// running when Hark exits are stopped the same way.
public actor ProgramHandler: IntentHandler {
    public let appName: String
    public let command: [String]
    public let timeout: Duration
    private let folder: URL
    private let environment: [String: String]
    /// Called with the donations a reply asks to delete, always scoped to this app.
    private let deleteDonations: (@Sendable ([DonationFilter]) async -> Void)?
    private let appIdentifier: String
    /// Where dropped replies are reported.
    private let report: @Sendable (String) -> Void

    private var process: Process?
    private var input: FileHandle?
    private var errorTail = ErrorTail()
    private var nextID = 0
    private var waiting: (id: Int, continuation: CheckedContinuation<Line, Never>)?
    private var buffered: [String] = []
    private var ended = false
    /// When the program's output closed, as the thread reading it saw it.
    private var outputClosedAt = Moment()

    /// Directories searched for a bare program name, before Hark's own PATH.
    static let cleanPath = "/usr/local/bin:/usr/bin:/bin"

    public init(app: AppManifest, command: [String], timeoutSeconds: Double, dataDirectory: URL,
                deleteDonations: (@Sendable ([DonationFilter]) async -> Void)? = nil,
                report: @escaping @Sendable (String) -> Void = StoredShortcuts.warn) {
        self.report = report
        self.appName = app.name
        self.appIdentifier = app.identifier
        self.deleteDonations = deleteDonations
        self.command = command
        self.timeout = .milliseconds(Int(timeoutSeconds * 1000))
        self.folder = app.folder ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        self.environment = [
            "PATH": Self.cleanPath,
            "LANG": "C.UTF-8",
            "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/",
            "HARK_APP": app.identifier,
            "HARK_APP_DIR": self.folder.path,
            "HARK_APP_DATA": dataDirectory.path,
        ]
    }

    // MARK: The phases

    public func options(for parameter: String, of request: IntentRequest) async throws -> [EnumeratedValue]? {
        let reply = try await exchange(phase: "options", request, parameter: parameter)
        guard let options = reply["options"], !(options is NSNull) else { return nil }
        return try Self.enumeratedValues(options, appName: appName)
    }

    public func resolve(_ parameter: String, in request: IntentRequest) async throws -> Resolution {
        let reply = try await exchange(phase: "resolve", request, parameter: parameter)
        switch reply["resolution"] as? String {
        case "success":
            return .success(try Self.parameterValue(reply["value"], appName: appName))
        case "needsValue":
            return .needsValue
        case "disambiguation":
            return .disambiguation(try Self.enumeratedValues(reply["options"] as Any, appName: appName))
        case "confirmationRequired":
            return .confirmationRequired(try Self.parameterValue(reply["value"], appName: appName))
        case "unsupported":
            return .unsupported(reason: reply["reason"] as? String, failure: reply["failure"] as? String)
        case "notRequired":
            return .notRequired
        default:
            throw unreadable("resolve reply without a known \"resolution\": \(reply)")
        }
    }

    public func confirm(_ request: IntentRequest) async throws -> HandlerResponse {
        try response(try await exchange(phase: "confirm", request))
    }

    public func handle(_ request: IntentRequest) async throws -> HandlerResponse {
        try response(try await exchange(phase: "handle", request))
    }

    /// Stops the program and everything it started (it is started again by the next request).
    public func stop() {
        guard let process else { return }
        try? input?.close()
        ChildProcesses.stop(process)
        self.process = nil
        self.input = nil
    }

    // MARK: The exchange

    private func exchange(phase: String, _ request: IntentRequest, parameter: String? = nil) async throws -> [String: Any] {
        try startIfNeeded()
        nextID += 1
        let id = nextID
        var message: [String: Any] = [
            "id": id, "phase": phase, "app": request.app, "intent": request.intent,
            "values": request.values.mapValues { ["id": $0.identifier, "spoken": $0.spoken] },
        ]
        if let parameter { message["parameter"] = parameter }
        let line: Data
        do {
            line = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]) + Data("\n".utf8)
            try input?.write(contentsOf: line)
        } catch {
            // The program has died: wait for it, so its exit status makes it into the log.
            process?.waitUntilExit()
            let status = process.map { " (exit status \($0.terminationStatus))" } ?? ""
            let detail = "writing to \(command.joined(separator: " ")): \(error)\(status)" + errorTail.summary
            stop()
            throw HandlerError(spoken: "Sorry, \(appName) stopped working.", detail: detail)
        }

        let reply: [String: Any]
        let deadline = ContinuousClock.now + timeout
        while true {
            switch await nextLine(id: id, until: deadline) {
            case .line(let text):
                guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let parsed = object as? [String: Any] else {
                    stop()
                    throw unreadable("not a JSON object: \(text.prefix(200))")
                }
                // Another request's reply (sent twice, or too late) must not answer this one.
                guard (parsed["id"] as? NSNumber)?.intValue == id else {
                    report("\(command.joined(separator: " ")): dropped a reply for request \(parsed["id"].map { "\($0)" } ?? "(no id)") while waiting for \(id): \(text.prefix(200))")
                    continue
                }
                reply = parsed
            case .ended, .timedOut:
                // Which came first, the program's end or the deadline, is judged by when its output
                // really closed (noted by the reading thread), not by when this task heard of it:
                // on a busy machine either news can arrive late.
                guard let closed = outputClosedAt.time, closed <= deadline else {
                    let detail = "\(command.joined(separator: " ")): no reply within \(timeout) (stopped)" + errorTail.summary
                    stop()
                    throw HandlerError(spoken: "Sorry, \(appName) didn't answer in time.", detail: detail)
                }
                // It crashed or quit. Its exit status follows soon; it is waited for a moment
                // without holding a thread (a program may close its output and go on running).
                let ending = process
                let patience = closed + .seconds(1)
                while let ending, ending.isRunning, ContinuousClock.now < patience {
                    try? await Task.sleep(for: .milliseconds(10))
                }
                let status = ending.map { process -> String in
                    if process.isRunning { return "output closed, still running" }
                    return process.terminationReason == .uncaughtSignal ? "killed by signal \(process.terminationStatus)"
                        : "exit status \(process.terminationStatus)"
                } ?? "not running"
                let detail = "\(command.joined(separator: " ")): ended (\(status))" + errorTail.summary
                stop()
                throw HandlerError(spoken: "Sorry, \(appName) stopped working.", detail: detail)
            }
            break
        }
        if let deletions = reply["deleteDonations"] {
            await deleteDonations?(try donationFilters(deletions))
        }
        if let error = reply["error"] as? String {
            throw HandlerError(spoken: "Sorry, \(appName) couldn't do that.", detail: "\(command.joined(separator: " ")): \(error)")
        }
        return reply
    }

    private func response(_ reply: [String: Any]) throws -> HandlerResponse {
        guard let codeName = reply["code"] as? String, let code = ResponseCode(rawValue: codeName) else {
            throw unreadable("reply without a known \"code\" (\(ResponseCode.allCases.map(\.rawValue).joined(separator: ", "))): \(reply)")
        }
        var values: [String: String] = [:]
        for (key, value) in reply["values"] as? [String: Any] ?? [:] {
            values[key] = value as? String ?? "\(value)"
        }
        return HandlerResponse(code: code, failure: reply["failure"] as? String, values: values)
    }

    /// `"deleteDonations": [{"intent": "SendMessage", "where": {"recipient": "amy_jones"}}]`, both keys optional.
    private func donationFilters(_ object: Any) throws -> [DonationFilter] {
        guard let list = object as? [[String: Any]] else {
            throw unreadable("deleteDonations is a list of {\"intent\", \"where\": {parameter: id}}, got \(object)")
        }
        return try list.map { entry in
            var values: [String: String] = [:]
            for (name, value) in entry["where"] as? [String: Any] ?? [:] {
                guard let id = value as? String else { throw unreadable("deleteDonations where: values are ids (strings), got \(value)") }
                values[name] = id
            }
            return DonationFilter(app: appIdentifier, intent: entry["intent"] as? String, values: values)
        }
    }

    private func unreadable(_ detail: String) -> HandlerError {
        HandlerError(spoken: "Sorry, \(appName) sent a reply I couldn't read.", detail: "\(command.joined(separator: " ")): \(detail)")
    }

    // MARK: The process

    /// Writing to a program that has just died must fail with EPIPE, not kill Hark with SIGPIPE.
    private static let ignoreBrokenPipes: Void = {
        _ = signal(SIGPIPE, SIG_IGN)
    }()

    private func startIfNeeded() throws {
        Self.ignoreBrokenPipes
        if let process, process.isRunning { return }
        stop()
        guard let program = command.first, let executable = Self.locate(program, in: folder) else {
            throw HandlerError(spoken: "Sorry, \(appName)'s handler isn't installed.",
                               detail: "\(command.first ?? "(no command)") not found in \(folder.path) or on PATH")
        }
        let process = Process()
        // Foundation starts the program as the leader of a process group of its own (checked by
        // ChildProcesses.started), so stopping the group reaches whatever it started too.
        process.executableURL = executable
        process.arguments = Array(command.dropFirst())
        process.currentDirectoryURL = folder
        process.environment = environment
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        do {
            try process.run()
        } catch {
            throw HandlerError(spoken: "Sorry, \(appName)'s handler wouldn't start.", detail: "\(executable.path): \(error)")
        }
        self.process = process
        ChildProcesses.started(process)
        self.input = stdin.fileHandleForWriting
        buffered = []
        ended = false
        outputClosedAt = Moment()
        errorTail = ErrorTail()
        let lines = Self.lines(of: stdout.fileHandleForReading, closed: outputClosedAt)
        let errors = Self.lines(of: stderr.fileHandleForReading)
        Task { [weak self] in
            for await line in lines { await self?.deliver(line) }
            await self?.deliver(nil)
        }
        Task { [weak self] in
            for await line in errors { await self?.noteError(line) }
        }
    }

    /// What waiting for the program's next line brought.
    enum Line {
        case line(String)
        /// Its output closed: it ended.
        case ended
        case timedOut
    }

    private func nextLine(id: Int, until deadline: ContinuousClock.Instant) async -> Line {
        if !buffered.isEmpty { return .line(buffered.removeFirst()) }
        if ended { return .ended }
        guard deadline > .now else { return .timedOut }
        return await withCheckedContinuation { continuation in
            waiting = (id, continuation)
            Task { [weak self] in
                try? await Task.sleep(until: deadline)
                await self?.expire(id: id)
            }
        }
    }

    private func deliver(_ line: String?) {
        guard let line else {
            ended = true
            if let waiting { self.waiting = nil; waiting.continuation.resume(returning: .ended) }
            return
        }
        guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { return }
        if let waiting {
            self.waiting = nil
            waiting.continuation.resume(returning: .line(line))
        } else {
            buffered.append(line)
        }
    }

    private func expire(id: Int) {
        guard let waiting, waiting.id == id else { return }
        self.waiting = nil
        waiting.continuation.resume(returning: .timedOut)
    }

    private func noteError(_ line: String) {
        errorTail.append(line)
    }

    /// Lines read from a pipe on a thread of their own (reading blocks; see `PipeLines`).
    /// `closed` is set when the pipe reaches its end.
    private static func lines(of handle: FileHandle, closed: Moment? = nil) -> AsyncStream<String> {
        AsyncStream { continuation in
            let thread = Thread {
                PipeLines.read(from: handle.fileDescriptor) { continuation.yield($0) }
                closed?.mark()
                continuation.finish()
            }
            thread.start()
        }
    }

    /// A program path relative to the app's folder, or a bare name looked up
    /// on the clean PATH and then on Hark's own.
    static func locate(_ program: String, in folder: URL) -> URL? {
        let fileManager = FileManager.default
        if program.contains("/") {
            let url = program.hasPrefix("/") ? URL(fileURLWithPath: program) : folder.appendingPathComponent(program)
            return fileManager.isExecutableFile(atPath: url.path) ? url : nil
        }
        let searched = cleanPath + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "")
        for directory in searched.split(separator: ":") where !directory.isEmpty {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(program)
            if fileManager.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }

    static func parameterValue(_ object: Any?, appName: String) throws -> ParameterValue {
        guard let fields = object as? [String: Any], let id = fields["id"] as? String else {
            throw HandlerError(spoken: "Sorry, \(appName) sent a reply I couldn't read.",
                               detail: "a value is {\"id\": …, \"spoken\": …}, got \(String(describing: object))")
        }
        return ParameterValue(identifier: id, spoken: fields["spoken"] as? String ?? id)
    }

    static func enumeratedValues(_ object: Any, appName: String) throws -> [EnumeratedValue] {
        guard let list = object as? [[String: Any]] else {
            throw HandlerError(spoken: "Sorry, \(appName) sent a reply I couldn't read.",
                               detail: "options are a list of {\"id\", \"spoken\", \"synonyms\"}, got \(object)")
        }
        return try list.map { fields in
            guard let id = fields["id"] as? String else {
                throw HandlerError(spoken: "Sorry, \(appName) sent a reply I couldn't read.", detail: "an option has no \"id\": \(fields)")
            }
            return EnumeratedValue(identifier: id, spoken: fields["spoken"] as? String ?? id,
                                   synonyms: fields["synonyms"] as? [String] ?? [])
        }
    }

    /// The last lines the program wrote to stderr, for the log when it fails.
    struct ErrorTail {
        private(set) var lines: [String] = []
        mutating func append(_ line: String) {
            lines.append(line)
            if lines.count > 5 { lines.removeFirst() }
        }
        var summary: String { lines.isEmpty ? "" : "; stderr: " + lines.joined(separator: " | ") }
    }
}

/// An instant set once from any thread and read from another.
final class Moment: @unchecked Sendable {
    // @unchecked: `value` is only touched under `lock`.
    private let lock = NSLock()
    private var value: ContinuousClock.Instant?

    func mark() {
        lock.lock()
        defer { lock.unlock() }
        if value == nil { value = .now }
    }

    var time: ContinuousClock.Instant? {
        lock.lock()
        defer { lock.unlock() }
        return value
    }
}
