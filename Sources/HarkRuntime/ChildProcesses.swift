import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Handler programs Hark started and has not finished stopping, each leading a session and
/// process group of its own: stopped, with everything in their groups, when Hark exits normally
/// (`hark chat` at its end or on SIGTERM or Ctrl-C, `hark serve` after either).
///
/// Not covered: Hark killed by a signal it cannot catch (SIGKILL). A handler then sees its
/// stdin close, which ends any program that reads it; one
/// that does not goes on until stopped by hand (PR_SET_PDEATHSIG would need fork from a thread
/// that lives as long as Hark, as it fires when the forking thread ends).
enum ChildProcesses {
    /// How long a program has after SIGTERM before its group gets SIGKILL.
    static let grace = Duration.seconds(1)

    private static let lock = NSLock()
    /// Held from a program's spawn until it is `started`, and by `stopAll`: a Hark that exits
    /// while a program is being started waits for it and stops it too. (A SIGTERM in between
    /// once let a handler that had just started outlive `hark chat`.)
    static let spawning = NSLock()
    /// Set by `stopAll` under `spawning`: Hark is exiting, and a program started now (by a thread
    /// still answering a request while exit runs) would outlive it.
    nonisolated(unsafe) static var exiting = false
    nonisolated(unsafe) private static var running: [ObjectIdentifier: HandlerProcess] = [:]
    nonisolated(unsafe) private static var exitHookInstalled = false

    /// Arranges for `stopAll` to run at exit, once. Called before the first program is spawned,
    /// not after: a program runs as soon as it is spawned, and an exit between its spawn and
    /// `started` (a Ctrl-C the moment the program wrote its first output, under load) otherwise
    /// found no hook and left it running.
    static func stopAllAtExit() {
        lock.lock()
        defer { lock.unlock() }
        guard !exitHookInstalled else { return }
        exitHookInstalled = true
        if atexit({ ChildProcesses.stopAll() }) != 0 {
            HandlerProcess.report("could not arrange for handler programs to be stopped when Hark exits")
        }
    }

    static func started(_ process: HandlerProcess) {
        lock.lock()
        defer { lock.unlock() }
        running[ObjectIdentifier(process)] = process
    }

    /// Its stop is complete (SIGKILL went to its group): nothing is left to do at exit.
    static func stopped(_ process: HandlerProcess) {
        lock.lock()
        running[ObjectIdentifier(process)] = nil
        lock.unlock()
    }

    /// At exit: SIGTERM to every group still there, at once; SIGKILL to each after the grace
    /// period or as soon as its program has ended, so Hark waits at most `grace` in all and
    /// never for a descendant that left the group.
    static func stopAll(grace: Duration = grace) {
        spawning.lock()
        defer { spawning.unlock() }
        exiting = true
        lock.lock()
        let processes = Array(running.values)
        lock.unlock()
        for process in processes { process.signalGroup(SIGTERM) }
        let deadline = ContinuousClock.now + grace
        for process in processes { process.finish(until: deadline) }
    }
}
