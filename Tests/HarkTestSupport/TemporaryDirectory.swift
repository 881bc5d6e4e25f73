public import Foundation

/// Makes a new, empty directory under the system temporary directory, unique to this call,
/// so tests running in parallel never share files. The caller removes it when done.
public func temporaryDirectory(prefix: String = "hark-test") throws -> URL {
    let url = FileManager.default.temporaryDirectory
        .appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    return url
}
