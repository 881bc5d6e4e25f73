// Writes to a shortcuts database as fast as it can until it is killed, printing
// each committed row's id only after its transaction has committed:
//     hark-store-writer DATABASE
//     → "donation 17" / "shortcut 4" lines on stdout
// The durability tests kill it with SIGKILL mid-write and check that every
// printed row is in the file and the file is sound.
import Foundation
import HarkIntents
import HarkShortcuts
import HarkStore

/// One line straight to the pipe (no buffer), so what was printed is what was committed.
func report(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

guard CommandLine.arguments.count == 2 else {
    FileHandle.standardError.write(Data("usage: hark-store-writer DATABASE\n".utf8))
    exit(64)
}
do {
    let store = try ShortcutStore(url: URL(fileURLWithPath: CommandLine.arguments[1]))
    var round = 0
    while true {
        round += 1
        let value = ParameterValue(identifier: "\(round)", spoken: "\(round)")
        let id = try store.donate(Donation(app: "writer", intent: "Tick", values: ["n": value], date: Date()))
        report("donation \(id)")
        if round % 5 == 0 {
            // Three steps in one transaction: after a kill, a shortcut has all three or does not exist.
            let steps = (1...3).map { ShortcutStep(app: "writer", intent: "Tick", values: ["n": "\(round)-\($0)"]) }
            let shortcut = try store.addShortcut(phrase: "tick \(getpid()) number \(round)", steps: steps)
            report("shortcut \(shortcut.id)")
        }
    }
} catch {
    FileHandle.standardError.write(Data("hark-store-writer: \(error)\n".utf8))
    exit(70)
}
