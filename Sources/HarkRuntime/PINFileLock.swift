import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An exclusive `flock` on the PIN's lock file, held while some work on the PIN runs.
///
/// flock belongs to the open file, so two checks in one process exclude each other as two
/// processes do; the kernel drops it if the holder dies, so a crash never leaves the PIN locked.
enum PINFileLock {
    /// Opens (making it, owner-only, if need be) and locks `url`, waiting for any holder; runs
    /// `body`; unlocks.
    static func holding<Result>(_ url: URL, _ body: () throws(PINFile.PINError) -> Result) throws(PINFile.PINError) -> Result {
        // O_NOFOLLOW: a link planted in place of the lock must not make us create or lock another file.
        let descriptor = open(url.path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else {
            throw PINFile.PINError(description: "cannot open \(url.path): \(String(cString: strerror(errno)))")
        }
        // Closing unlocks: the lock goes with the last descriptor of the open file. A failed close
        // of a file opened only for its lock loses nothing, and the lock is gone either way.
        defer { _ = close(descriptor) }
        while flock(descriptor, LOCK_EX) != 0 {
            guard errno == EINTR else {
                throw PINFile.PINError(description: "cannot lock \(url.path): \(String(cString: strerror(errno)))")
            }
        }
        return try body()
    }
}
