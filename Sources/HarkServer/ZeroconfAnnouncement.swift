import Foundation
import HarkRuntime
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
public final class ZeroconfAnnouncement: @unchecked Sendable {
    // @unchecked: `stopping` and `ended` are read and written under `lock`.
    public static let serviceType = "_wyoming._tcp"
    public let name: String
    public let port: Int
    /// The announcer's shell (see `tiedToHark`).
    private let pid: pid_t
    /// The write end of the pipe the announcer's shell waits on; closed, it stops the announcer.
    private let lifeline: Int32
    private let lock = NSCondition()
    private var stopping = false
    private var ended = false

    /// Runs the announcer (`$@`) until it ends or standard input reaches its end, then stops it:
    /// SIGTERM, and SIGKILL a second later. Background jobs read /dev/null unless told otherwise,
    /// hence the copy of standard input on descriptor 3. Started by `CleanSpawn`, with no signal
    /// blocked: started with SIGCHLD blocked (as Foundation's Process left it, from the server's
    /// threads), the shell waited for the announcer forever once Hark was gone.
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
        let lifeline: (read: Int32, write: Int32), said: (read: Int32, write: Int32)
        do {
            lifeline = try CleanSpawn.pipe()
            do { said = try CleanSpawn.pipe() } catch {
                close(lifeline.read)
                close(lifeline.write)
                throw error
            }
        } catch {
            throw ServerError(.zeroconf, "zeroconf: \(error)")
        }
        let spawned = CleanSpawn.spawn("/bin/sh", arguments: ["-c", Self.tiedToHark, "hark-zeroconf", executable.path, "-s", name,
                                                              Self.serviceType, String(port)],
                                       environment: ProcessInfo.processInfo.environment, directory: "/",
                                       input: lifeline.read, output: said.write, errors: said.write)
        // The shell's ends are its own now; a copy left open here would keep its pipes from closing.
        close(lifeline.read)
        close(said.write)
        switch spawned {
        case .success(let pid): self.pid = pid
        case .failure(let failure):
            close(lifeline.write)
            close(said.read)
            throw ServerError(.zeroconf, "zeroconf: could not start \(executable.path): \(failure)")
        }
        self.lifeline = lifeline.write
        let pid = self.pid
        Thread { [self] in
            var status: Int32 = 0
            var result: pid_t
            repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
            lock.lock()
            ended = true
            let expected = stopping
            lock.broadcast()
            lock.unlock()
            if !expected {
                logger.warning("zeroconf: \(program) ended (status \((status >> 8) & 0xff)); Hark is no longer announced, but goes on serving")
            }
        }.start()
        // Avahi reports on stderr: "Established under name …" once the name is announced, or why not.
        let reader = FileHandle(fileDescriptor: said.read, closeOnDealloc: true)
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
        lock.lock()
        defer { lock.unlock() }
        guard !stopping else { return }
        stopping = true
        close(lifeline)
        // The shell stops the announcer within a second of the pipe closing; this is the backstop.
        let deadline = Date().addingTimeInterval(3)
        while !ended && lock.wait(until: deadline) {}
        if !ended { kill(pid, SIGKILL) }
        while !ended { lock.wait() }
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
