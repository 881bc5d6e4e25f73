public import Foundation

/// Makes a new, empty directory unique to this call, so tests running in parallel never share
/// files. Every directory of a test run lives under one folder of the system temporary
/// directory, removed when the test process exits: a run makes some 140 of them (recordings,
/// databases, settings files), and left behind they piled up run after run.
public func temporaryDirectory(prefix: String = "hark-test") throws -> URL {
    let url = try testRunFolder.get().appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: false)
    return url
}

/// The test run's folder, made at the first call for a directory (a global's initialiser runs
/// once, whichever thread gets there first).
private let testRunFolder = Result { () throws -> URL in
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("hark-test-run-\(getpid())-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: false)
    atexit { removeTestRunFolder() }
    return folder
}

private func removeTestRunFolder() {
    guard case .success(let folder) = testRunFolder else { return }
    do {
        try FileManager.default.removeItem(at: folder)
    } catch {
        FileHandle.standardError.write(Data("could not remove the tests' folder \(folder.path): \(error)\n".utf8))
    }
}

/// A new apps folder holding one app: `folder/app.yaml` with `manifest`. Returns the apps
/// folder (what `--apps` and `AppCatalog.load` take).
public func temporaryApps(folder: String, manifest: String) throws -> URL {
    let apps = try temporaryDirectory()
    let app = apps.appendingPathComponent(folder)
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    try manifest.write(to: app.appendingPathComponent("app.yaml"), atomically: true, encoding: .utf8)
    return apps
}

/// This process's environment for running `hark`, but never with the person's own shortcuts
/// database, app data or apps (the machine's or the person's beside the bundled ones): a fresh
/// folder for each call.
public func isolatedHarkEnvironment() throws -> [String: String] {
    let scratch = try temporaryDirectory()
    var environment = ProcessInfo.processInfo.environment
    environment["HARK_DATABASE"] = scratch.appendingPathComponent("shortcuts.sqlite").path
    environment["XDG_DATA_HOME"] = scratch.path
    environment["HARK_OWNER_APPS"] = scratch.appendingPathComponent("owner-apps").path
    return environment
}
