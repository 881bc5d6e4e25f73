internal import Foundation
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Darwin)
internal import Darwin
#endif

/// Whole-file reads and writes through POSIX calls, so a failure reports the call and its
/// strerror text ("open: No such file or directory") rather than a bridged Cocoa error.
enum FileIO {
    static func failure(_ call: String, _ url: URL, _ code: Int32) -> AudioError {
        AudioError(.io, "\(url.path): \(call) failed: \(String(cString: strerror(code)))", underlying: code)
    }

    static func readAll(_ url: URL) throws(AudioError) -> [UInt8] {
        let fd = open(url.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("open", url, errno) }
        defer { close(fd) }
        var result = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("read", url, errno)
            }
            if count == 0 { return result }
            result.append(contentsOf: chunk[0..<count])
        }
    }

    static func writeAll(_ bytes: [UInt8], to url: URL) throws(AudioError) {
        let fd = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure("open", url, errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer -> Int in
                guard let base = buffer.baseAddress else { return 0 }
                return write(fd, base + written, buffer.count - written)
            }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(fd)
                throw failure("write", url, code)
            }
            written += count
        }
        // close can report a deferred write error (NFS, full disk), so it is checked too.
        guard close(fd) == 0 else { throw failure("close", url, errno) }
    }
}
