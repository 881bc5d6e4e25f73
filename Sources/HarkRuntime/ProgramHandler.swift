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
/// and docs/apps.md).
///
/// The program is started directly (never through a shell) with a clean
/// environment, in the app's folder, and kept running between requests, which
/// it gets one at a time. A program that crashes, hangs past its timeout, closes
/// its stdin, writes a reply over `replyLimit` or something that is not a reply
/// is stopped; the person hears a specific error and the next request starts it
/// again.
///
/// Each request carries a fresh random `id` (128 bits, hex), and only a reply with that id
/// answers it: a stray or guessed reply is dropped with a log entry. Each run of the program has
/// its own pipes, so nothing a stopped run writes late can reach the next. The program runs in a
/// session and process group of its own with a clean signal mask (see `HandlerProcess`):
/// stopping it is SIGTERM to the group, then SIGKILL a second later; programs still running when
/// Hark exits are stopped the same way (see `ChildProcesses`).
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
    let report: @Sendable (String) -> Void

    /// The longest reply read, in bytes: a longer one is an error, not a wait for memory to run out.
    public let replyLimit: Int
    private var process: HandlerProcess?
    /// Whether a request is under way, and the requests waiting for it to end: the program
    /// answers one at a time, and two waiting on its output at once would take each other's replies.
    private var busy = false
    private var queued: [CheckedContinuation<Void, Never>] = []

    /// 1 MiB: far above any real reply (a few options or values), far below trouble.
    public static let defaultReplyLimit = 1 << 20

    /// Directories searched for a bare program name, before Hark's own PATH.
    static let cleanPath = "/usr/local/bin:/usr/bin:/bin"

    public init(app: AppManifest, command: [String], timeoutSeconds: Double, dataDirectory: URL,
                replyLimit: Int = ProgramHandler.defaultReplyLimit,
                deleteDonations: (@Sendable ([DonationFilter]) async -> Void)? = nil,
                report: @escaping @Sendable (String) -> Void = StoredShortcuts.warn) {
        self.report = report
        self.replyLimit = replyLimit
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

    /// A handler let go of (its app removed, say) takes its program with it.
    deinit {
        process?.stop()
    }

    /// Stops the program and everything it started (it is started again by the next request).
    public func stop() {
        process?.stop()
        process = nil
    }

    // MARK: The exchange

    private func exchange(phase: String, _ request: IntentRequest, parameter: String? = nil) async throws -> [String: Any] {
        if busy {
            await withCheckedContinuation { queued.append($0) }
        }
        busy = true
        defer {
            if queued.isEmpty { busy = false } else { queued.removeFirst().resume() }
        }
        let process = try startIfNeeded()
        let id = Self.requestID()
        var message: [String: Any] = [
            "id": id, "phase": phase, "app": request.app, "intent": request.intent,
            "values": request.values.mapValues { ["id": $0.identifier, "spoken": $0.spoken] },
        ]
        if let parameter { message["parameter"] = parameter }
        let line = try JSONSerialization.data(withJSONObject: message, options: [.sortedKeys]) + Data("\n".utf8)
        let deadline = ContinuousClock.now + timeout
        do {
            try process.send(line, until: deadline)
        } catch .closed {
            throw await closedInput(process)
        } catch .timedOut {
            throw failure(.hang, "its stdin stayed full for \(timeout): it is not reading requests", process)
        } catch .failed(let reason) {
            throw failure(.crash, reason, process)
        }
        let reply = try await awaitReply(id: id, from: process, until: deadline)
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

    /// The running program, started first if there is none or it has ended.
    private func startIfNeeded() throws -> HandlerProcess {
        Self.ignoreBrokenPipes
        if let process, process.termination == nil { return process }
        stop()
        guard let program = command.first, let executable = Self.locate(program, in: folder) else {
            throw HandlerError(spoken: "Sorry, \(appName)'s handler isn't installed.",
                               detail: "\(command.first ?? "(no command)") not found in \(folder.path) or on PATH")
        }
        do {
            let process = try HandlerProcess.start(executable: executable.path, arguments: Array(command.dropFirst()),
                                                   directory: folder.path, environment: environment, replyLimit: replyLimit)
            self.process = process
            return process
        } catch {
            throw HandlerError(spoken: "Sorry, \(appName)'s handler wouldn't start.", detail: error.description)
        }
    }

    /// 128 random bits in hex: a program cannot guess the id of a request it has not been sent.
    static func requestID() -> String {
        var generator = SystemRandomNumberGenerator()
        return [generator.next() as UInt64, generator.next()].map { number in
            let digits = String(number, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }.joined()
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
}
