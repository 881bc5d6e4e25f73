import Foundation
public import Logging

/// Announces the server on the local network as a `_wyoming._tcp` service through Avahi, the way
/// Home Assistant discovers Wyoming services ("Discovered" in Settings → Devices & services).
///
/// Avahi's own `avahi-publish -s NAME _wyoming._tcp PORT` (Debian's avahi-utils) keeps the
/// announcement up while it runs and withdraws it when stopped, so Hark runs it beside the server
/// and stops it on the way out, rather than taking on D-Bus and Avahi's C client itself.
public final class ZeroconfAnnouncement {
    public static let serviceType = "_wyoming._tcp"
    public let name: String
    public let port: Int
    private let process: Process

    /// Starts announcing. Throws when `avahi-publish` cannot be found or started; what Avahi says
    /// afterwards (established, or a daemon that is not running) goes to `logger`.
    public init(name: String, port: Int, logger: Logger, program: String = "avahi-publish") throws(ServerError) {
        guard let executable = Self.find(program) else {
            throw ServerError(.zeroconf, "zeroconf: \(program) is missing (apt-get install avahi-utils avahi-daemon)")
        }
        self.name = name
        self.port = port
        let process = Process()
        process.executableURL = executable
        process.arguments = ["-s", name, Self.serviceType, String(port)]
        let said = Pipe()
        process.standardError = said
        process.standardOutput = said
        process.standardInput = FileHandle.nullDevice
        // Avahi reports on stderr: "Established under name …" once the name is announced, or why not.
        let reader = said.fileHandleForReading
        process.terminationHandler = { ended in
            logger.warning("zeroconf: \(program) ended (status \(ended.terminationStatus)); Hark is no longer announced, but goes on serving")
        }
        do {
            try process.run()
        } catch {
            throw ServerError(.zeroconf, "zeroconf: could not start \(executable.path): \(error)")
        }
        self.process = process
        DispatchQueue(label: "hark.zeroconf").async {
            while let line = Self.readLine(reader) {
                if line.hasPrefix("Established") {
                    logger.notice("zeroconf: announced as \"\(name)\" (\(Self.serviceType), port \(port))")
                } else {
                    logger.warning("zeroconf: \(line)")
                }
            }
        }
    }

    /// Withdraws the announcement: SIGTERM, and SIGKILL if avahi-publish is still there a second
    /// later. It may well be: a child keeps the signal mask of the thread that started it, and
    /// the server's threads block SIGTERM (seen here: avahi-publish ignored it until killed).
    /// Avahi withdraws a client's announcements when the client goes away, either way (checked
    /// with avahi-browse).
    public func stop() {
        process.terminationHandler = nil
        guard process.isRunning else { return }
        process.terminate()
        let deadline = Date().addingTimeInterval(1)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        stop()
    }

    /// The default service name: "Hark on HOSTNAME".
    public static func defaultName() -> String {
        "Hark on \(ProcessInfo.processInfo.hostName.split(separator: ".").first.map(String.init) ?? "this machine")"
    }

    private static func find(_ program: String) -> URL? {
        if program.contains("/") {
            return FileManager.default.isExecutableFile(atPath: program) ? URL(fileURLWithPath: program) : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            let candidate = "\(folder)/\(program)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return URL(fileURLWithPath: candidate) }
        }
        return nil
    }

    /// One line of what the program said, nil at its end.
    private static func readLine(_ handle: FileHandle) -> String? {
        var bytes: [UInt8] = []
        while true {
            let data = handle.readData(ofLength: 1)
            guard let byte = data.first else { return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self) }
            if byte == 10 { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
    }
}
