public import Foundation
#if canImport(Glibc)
import Glibc
#endif

// A child process's output, read with read(2) retried on EINTR: FileHandle's
// `readDataToEndOfFile()` and `availableData` stop the whole test process with a fatal error
// when a signal (another test's child exiting) interrupts the read.

/// What the pipe holds now, waiting for some if it is empty; empty once the writer has closed it.
public func readSome(_ handle: FileHandle) throws -> Data {
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = chunk.withUnsafeMutableBytes { read(handle.fileDescriptor, $0.baseAddress, $0.count) }
        if count >= 0 { return Data(chunk[0..<count]) }
        if errno != EINTR { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    }
}

/// Everything the pipe holds until its writer closes it.
public func readToEnd(_ handle: FileHandle) throws -> Data {
    var data = Data()
    while case let chunk = try readSome(handle), !chunk.isEmpty { data += chunk }
    return data
}
