import CHandlerSpawn
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How Hark starts every program of its own (handler programs, the zeroconf announcer): with
/// posix_spawn, in a session of its own, with no signal blocked or ignored and no descriptor but
/// 0–2 (`hark_handler_spawn`). A child keeps the signal mask of the thread that started it, and
/// Hark's threads block several: a shell started with SIGCHLD blocked waits for its children
/// forever.
public enum CleanSpawn {
    /// Starts `executable` with exactly `arguments` and `environment` in `directory`, reading
    /// `input` and writing `output` and `errors`. Returns its pid, or why it could not start.
    public static func spawn(_ executable: String, arguments: [String], environment: [String: String], directory: String,
                             input: Int32, output: Int32, errors: Int32) -> Result<Int32, SpawnFailure> {
        let argv = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp = environment.sorted { $0.key < $1.key }.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }
        guard !argv.dropLast().contains(nil), !envp.dropLast().contains(nil) else {
            return .failure(SpawnFailure("\(executable): out of memory for its arguments"))
        }
        var pid: pid_t = 0
        var result = hark_handler_spawn(executable, argv, envp, directory, input, output, errors, &pid)
        // ETXTBSY: another thread's child, between its start and its exec, still holds a descriptor
        // the script was written through (a test writing its handler, an app being installed).
        // It goes at that child's exec, a moment later.
        for attempt in 1...20 where result == ETXTBSY {
            usleep(useconds_t(5_000 * attempt))
            result = hark_handler_spawn(executable, argv, envp, directory, input, output, errors, &pid)
        }
        guard result == 0 else { return .failure(SpawnFailure("\(executable): \(String(cString: strerror(result)))")) }
        return .success(pid)
    }

    /// A pipe whose ends are closed on exec and are never 0–2.
    public static func pipe() throws(SpawnFailure) -> (read: Int32, write: Int32) {
        var ends: [Int32] = [-1, -1]
        let result = hark_handler_pipe(&ends)
        guard result == 0 else { throw SpawnFailure("could not make a pipe: \(String(cString: strerror(result)))") }
        return (ends[0], ends[1])
    }

    /// Why a program could not be started.
    public struct SpawnFailure: Error, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }
}
