import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Polls `condition` every 20 ms until it holds or `seconds` have passed; whether it held.
/// For what another process does, which a test can only look at from outside. It sleeps as a
/// task, so that it holds none of the few threads other tests' tasks (and Hark's) run on.
public func eventually(within seconds: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return true
}

/// Whether process `pid` has ended: no such process, or a zombie (ended and not yet collected,
/// which for an orphan is init's business whenever it gets to it, not the test's).
public func processIsGone(_ pid: Int32) -> Bool {
    if kill(pid, 0) != 0 && errno == ESRCH { return true }
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
          let afterName = stat.range(of: ") ", options: .backwards) else { return true }
    return stat[afterName.upperBound...].first == "Z"
}
