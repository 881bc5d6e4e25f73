import ArgumentParser
import Foundation
import HarkRuntime

/// `hark pin`: the owner's spoken PIN, asked before orders.
struct PIN: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Set, check or remove the PIN that confirms orders.",
        discussion: """
        Intents with a financial impact (the order category) are confirmed and then authenticated:
        Hark asks for the PIN and the owner says it digit by digit. The PIN is stored hashed in
        $XDG_CONFIG_HOME/hark/pin (~/.config/hark/pin), readable only by its owner.

            hark pin set        (reads 4 to 8 digits from standard input)
            hark pin status
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
            if isatty(STDIN_FILENO) == 1 { print("New PIN (4 to 8 digits): ", terminator: ""); fflush(nil) }
            guard let line = readLine()?.trimmingCharacters(in: .whitespaces), !line.isEmpty else {
                throw ValidationError("no PIN given on standard input")
            }
            do {
                try store.set(line)
            } catch {
                throw ValidationError(error.description)
            }
            print("PIN set (\(store.url.path)).")
        case "clear":
            do {
                try store.clear()
            } catch {
                printError("hark: \(error.description)")
                throw ExitCode(ExitStatus.software)
            }
            print("PIN removed.")
        default:
            print(await store.isSet() ? "A PIN is set (\(store.url.path))." : "No PIN is set; orders will say how to set one.")
        }
    }
}
