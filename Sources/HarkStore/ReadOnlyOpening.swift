import Foundation
import GRDB
import Synchronization

/// Opening the shortcuts database for reading only, when it cannot be written.
///
/// Answering needs no writes, but a WAL database normally writes as it opens (its
/// shared-memory index, a first WAL frame): on a full disk that fails with "disk I/O
/// error" and used to stop Hark starting at all.
extension ShortcutStore {
    /// SQLite's primary codes for "this cannot be written", as opposed to a bad file:
    /// PERM, READONLY, IOERR, FULL and CANTOPEN.
    static let writeFailureCodes: Set<Int32> = [3, 8, 10, 13, 14]

    /// Whether a failed read-write open may be followed by a read-only one: the file is
    /// there and the failure was one of writing, not of a corrupt or newer database.
    static func mayReadInstead(after error: StoreError, _ url: URL) -> Bool {
        guard let code = error.sqliteCode, writeFailureCodes.contains(code & 0xff) else { return false }
        return FileManager.default.fileExists(atPath: url.path)
    }

    /// A single read-only connection. First with a private, in-memory copy of the WAL index
    /// (`readonly_shm`), which still sees changes waiting in the WAL; when there is no index
    /// file to start from, as an immutable file, which needs none.
    static func openReadOnly(_ url: URL, after failure: StoreError) throws(StoreError) -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = true
        configuration.busyMode = .timeout(10)
        configuration.label = "hark.shortcuts.readonly"
        // A URI, so the path's own "?" or "#" cannot be taken for parameters.
        guard let path = url.path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) else { throw failure }
        var attempts: [String] = []
        for parameters in ["mode=ro&readonly_shm=1", "mode=ro&immutable=1"] {
            do {
                let queue = try DatabaseQueue(path: "file:\(path)?\(parameters)", configuration: configuration)
                let applied = try queue.read { db in try migrator().appliedIdentifiers(db) }
                try refuseNewer(applied, url)
                guard applied.isSuperset(of: migrationNames) else {
                    throw StoreError(.readOnly, "\(failure.message); read-only, it cannot be brought up to this Hark's schema")
                }
                return queue
            } catch let error as StoreError {
                throw error
            } catch {
                attempts.append("\(parameters): \(storeError(error, doing: "reading").message)")
            }
        }
        throw StoreError(failure.code, "\(failure.message); nor could it be read (\(attempts.joined(separator: "; ")))",
                         sqliteCode: failure.sqliteCode)
    }

    /// Why changes cannot be kept, for warnings and for each refused write.
    static func readOnlyReason(after failure: StoreError, _ url: URL) -> String {
        "\(url.path) can only be read for now (\(failure.message))" + diskSpace(of: url.deletingLastPathComponent())
    }

    /// "; the disk holding FOLDER is full" when it is: the usual cause, and the fix.
    static func diskSpace(of folder: URL) -> String {
        var stats = statvfs()
        guard statvfs(folder.path, &stats) == 0 else {
            return "; how much space is left on the disk holding \(folder.path) is unknown: \(String(cString: strerror(errno)))"
        }
        let free = UInt64(stats.f_bavail) * UInt64(stats.f_frsize)
        // SQLite needs a page or two and a 32 KiB index: less than this is full in practice.
        guard free < 64 * 1024 else { return "" }
        return "; the disk holding \(folder.path) is full (\(free / 1024) KiB free): free some space"
    }

    /// The database to write to. A store opened read-only tries to open it for writing again
    /// first: a `hark listen` started on a full disk keeps what is done once space is freed.
    func writableDatabase(_ doing: String) throws(StoreError) -> any DatabaseWriter {
        try connection.withLock { (state) throws(StoreError) -> any DatabaseWriter in
            guard let reason = state.readOnlyReason else { return state.database }
            // SQLite shares one WAL index between a process's connections to a file, and the
            // read-only one's cannot be written: it is closed first, and opened again if need be.
            do {
                try state.database.close()
            } catch {
                throw Self.storeError(error, doing: "\(doing): closing \(url.path) to open it for writing (\(reason))")
            }
            do throws(StoreError) {
                state = (try Self.openWritable(url), nil)
            } catch {
                let stillReadOnly = Self.readOnlyReason(after: error, url)
                state = (try Self.openReadOnly(url, after: error), stillReadOnly)
                throw StoreError(.readOnly, "\(doing): \(stillReadOnly)")
            }
            return state.database
        }
    }

    /// Whether changes can be kept now: a read-only store tries to open for writing again, and
    /// `readOnlyReason` says why it still cannot.
    public func isWritable() -> Bool {
        do {
            _ = try writableDatabase("opening for writing")
            return true
        } catch {
            return false
        }
    }
}
