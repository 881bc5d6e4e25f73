import ArgumentParser
import Foundation
import HarkDialogue
import HarkRuntime

/// `hark pin`: the owner's spoken PIN, asked before orders.
struct PIN: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Set, check or remove the PIN that confirms orders.",
        discussion: """
        Intents with a financial impact (the order category) are confirmed and then authenticated:
        Hark asks for the PIN and the owner says it digit by digit. The PIN is stored hashed in
        $XDG_CONFIG_HOME/hark/pin (~/.config/hark/pin), readable only by its owner. After three wrong \
        PINs in a row none is checked for 30 seconds, then twice as long after each further wrong one \
        (up to a day), restarts included; setting or clearing the PIN clears the count.

            hark pin set        (reads 4 to 8 digits from standard input; from a terminal, unseen)
            hark pin status     (also says how many wrong PINs were said in a row)
            hark pin clear
        """)

    @Argument(help: ArgumentHelp("set, status or clear.", valueName: "action"))
    var action: String

    @Option(help: ArgumentHelp("The PIN file (default $XDG_CONFIG_HOME/hark/pin).", valueName: "path"))
    var file: String?

    func validate() throws {
        guard ["set", "status", "clear"].contains(action) else {
            throw ValidationError("unknown action \"\(action)\"; use set, status or clear")
        }
    }

    func run() async throws {
        let store = file.map { PINFile(url: URL(fileURLWithPath: $0)) } ?? PINFile()
        switch action {
        case "set":
            guard let line = try Self.readPIN()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
                throw ValidationError("no PIN given on standard input")
            }
            do {
                try store.set(line)
            } catch {
                throw ValidationError(error.description)
            }
            print("PIN set (\(store.url.path)).")
        case "clear":
            let wasSet: Bool
            do {
                wasSet = try store.isStored()
                try store.clear()
            } catch {
                printError("hark: \(error.description)")
                throw ExitCode(ExitStatus.ioError)
            }
            print(wasSet ? "PIN removed." : "No PIN was set.")
        default:
            let isSet: Bool
            let lockout: PINLockout
            do {
                isSet = try store.isStored()
                lockout = try store.readLockout()
            } catch {
                printError("hark: \(error.description)")
                throw ExitCode(ExitStatus.ioError)
            }
            print(isSet ? "A PIN is set (\(store.url.path))." : "No PIN is set; orders will say how to set one.")
            if lockout.failures > 0 { print("\(lockout.failures) wrong PIN(s) in a row since the last right one.") }
            if let seconds = lockout.secondsLeft(at: Date()) { print("No PIN is checked for another \(seconds) s.") }
        }
    }

    /// A line from standard input; from a terminal, with a prompt and without echoing the digits.
    static func readPIN() throws -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine() }
        do {
            return try readLineUnseen(prompt: "New PIN (4 to 8 digits, not shown): ")
        } catch {
            throw ValidationError(error.description)
        }
    }
}
