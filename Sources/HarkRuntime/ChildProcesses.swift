import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Handler programs Hark started and has not yet stopped, each the leader of its own process
/// group: stopped (with everything they started) when asked, and when Hark exits.
enum ChildProcesses {
    /// Seconds a program has to end after SIGTERM before SIGKILL.
    static let graceSeconds = 1.0

    private static let lock = NSLock()
    nonisolated(unsafe) private static var running: [Int32: Process] = [:]
    nonisolated(unsafe) private static var leadsGroup: [Int32: Bool] = [:]
    nonisolated(unsafe) private static var exitHookInstalled = false

    static func started(_ process: Process) {
        lock.lock()
        defer { lock.unlock() }
        // Signalling the group is only right when the program leads one (Foundation starts
        // children so); otherwise only the program itself is signalled.
        leadsGroup[process.processIdentifier] = getpgid(process.processIdentifier) == process.processIdentifier
        running[process.processIdentifier] = process
        if !exitHookInstalled {
            exitHookInstalled = true
            atexit { ChildProcesses.stopAll() }
        }
    }

    /// SIGTERM to the program's group, SIGKILL after `graceSeconds` if it is still there, then
    /// reaps it, so no process is left behind and none stays a zombie. The waiting happens on a
    /// thread of its own: a second of waiting must not hold one of the few threads that run
    /// every task (timers included) while the program takes its time.
    static func stop(_ process: Process) {
        guard let target = forget(process) else { return }
        reaper.async { terminate(process, target: target) }
    }

    /// Where stopped programs are waited for and reaped.
    private static let reaper = DispatchQueue(label: "hark.handler-reaper")

    /// Takes the process off the running list; the pid or group to signal, nil if there is none.
    private static func forget(_ process: Process) -> Int32? {
        let pid = process.processIdentifier
        lock.lock()
        running[pid] = nil
        let group = leadsGroup.removeValue(forKey: pid) ?? false
        lock.unlock()
        return pid > 0 ? (group ? -pid : pid) : nil
    }

    private static func terminate(_ process: Process, target: Int32) {
        signal(target, SIGTERM)
        let deadline = Date().addingTimeInterval(graceSeconds)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        // The group's other members may outlive its leader: KILL goes to the group in any case.
        signal(target, SIGKILL)
        process.waitUntilExit()
    }

    /// Sends `signal` to `target` (a negative pid is a process group). ESRCH (nothing left to
    /// signal) is the expected end; any other failure is reported.
    private static func signal(_ target: Int32, _ signal: Int32) {
        if kill(target, signal) != 0 && errno != ESRCH {
            FileHandle.standardError.write(Data("hark: warning: kill(\(target), \(signal)) failed: \(String(cString: strerror(errno)))\n".utf8))
        }
    }

    /// At exit: every program still running, stopped before Hark is gone (so here, not on the reaper).
    static func stopAll() {
        lock.lock()
        let processes = Array(running.values)
        lock.unlock()
        for process in processes {
            if let target = forget(process) { terminate(process, target: target) }
        }
    }
}
