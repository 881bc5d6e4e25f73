import Foundation
public import Logging

/// Announces the server on the local network as a `_wyoming._tcp` service through Avahi, the way
/// Home Assistant discovers Wyoming services ("Discovered" in Settings → Devices & services).
///
/// Avahi's own `avahi-publish -s NAME _wyoming._tcp PORT` (Debian's avahi-utils) keeps the
/// announcement up while it runs and withdraws it when stopped, so Hark runs it beside the server
/// and stops it on the way out, rather than taking on D-Bus and Avahi's C client itself.
///
/// It must not outlive Hark: an announcer left behind by a crash or SIGKILL would keep telling
/// Home Assistant about a server that is gone. So it runs under a small shell that holds the
/// read end of a pipe only Hark writes to: when Hark ends, however it ends, the kernel closes
/// the write end, the shell reads end-of-file and stops the announcer. (A parent-death signal
/// would not do: it fires when the thread that started the child exits, and Swift's threads come
/// and go.)
public final class ZeroconfAnnouncement {
    public static let serviceType = "_wyoming._tcp"
    public let name: String
    public let port: Int
    private let process: Process
    /// The write end of the pipe the announcer's shell waits on; closed, it stops the announcer.
    private let lifeline: FileHandle

    /// Runs the announcer (`$@`) until it ends or standard input reaches its end, then stops it:
    /// SIGTERM, and SIGKILL a second later (a child keeps the signal mask of the thread that
    /// started it, and the server's threads block SIGTERM). Background jobs read /dev/null
    /// unless told otherwise, hence the copy of standard input on descriptor 3.
    static let tiedToHark = """
        exec 3<&0
        "$@" </dev/null 3<&- &
        announcer=$!
        { read -r _ <&3; kill -TERM "$announcer"; sleep 1; kill -KILL "$announcer"; } 2>/dev/null &
        watcher=$!
        exec 3<&-
        wait "$announcer"
        status=$?
        kill "$watcher" 2>/dev/null
        exit $status
        """

    /// Starts announcing. Throws when `avahi-publish` cannot be found or started; what Avahi says
    /// afterwards (established, or a daemon that is not running) goes to `logger`.
    public init(name: String, port: Int, logger: Logger, program: String = "avahi-publish") throws(ServerError) {
        guard let executable = Self.find(program) else {
            throw ServerError(.zeroconf, "zeroconf: \(program) is missing (apt-get install avahi-utils avahi-daemon)")
        }
        self.name = name
        self.port = port
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", Self.tiedToHark, "hark-zeroconf", executable.path, "-s", name, Self.serviceType, String(port)]
        let said = Pipe()
        process.standardError = said
        process.standardOutput = said
        let lifeline = Pipe()
        process.standardInput = lifeline
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
        self.lifeline = lifeline.fileHandleForWriting
        // The shell's end is its own now; a copy left open here would keep the pipe from closing.
        try? lifeline.fileHandleForReading.close()
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

    /// Withdraws the announcement by closing the announcer's lifeline (see `tiedToHark`). Avahi
    /// withdraws a client's announcements when the client goes away, whether it was asked to end
    /// or killed (checked with avahi-browse).
    public func stop() {
        process.terminationHandler = nil
        try? lifeline.close()
        guard process.isRunning else { return }
        // The shell stops the announcer within a second of the pipe closing; this is the backstop.
        let deadline = Date().addingTimeInterval(3)
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
