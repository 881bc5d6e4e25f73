import ArgumentParser
import Foundation
import HarkDialogue
import HarkIntents
import HarkRuntime

/// `hark chat`: a conversation typed instead of spoken.
struct Chat: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chat",
        abstract: "Talk to the installed apps by typing; prints what Hark would say.",
        discussion: """
        Each line you type is one turn, read with the same grammar the recogniser would use for \
        that turn, so what works here works spoken. An empty line is silence. Hark's commands work \
        at every turn: "cancel", "repeat", "what can I say".

        With --script FILE, the conversation in FILE is played instead and every reply is checked:
            you: order a large coffee
            hark: Corner Cafe: Any milk? Whole milk, oat milk or cream?
            handled: coffee.OrderCoffee milk=cream size=large
        "pin: 1234" in a script sets the owner's PIN for that script (otherwise none is set); \
        "shortcut: \"soup time\" soup.OrderSoup soup=clam_chowder" gives it a shortcut. \
        Exits 1 when a reply differs from the script.

        Your shortcuts work here, and what is done here is donated, as when spoken.
        """)

    @OptionGroup var apps: AppsOptions
    @OptionGroup var database: DatabaseOptions

    @Option(help: ArgumentHelp("Play and check a scripted conversation.", valueName: "file"))
    var script: String?

    @Option(help: ArgumentHelp("Type as if in this room: phrases that mean the room's own area (\"turn on the lights\") use it.",
                               valueName: "name"))
    var room: String?

    func run() async throws {
        // Ctrl-C or SIGTERM ends the chat through exit, so the handler programs are stopped
        // (ChildProcesses' exit hook) instead of outliving it.
        let stopper = try StopSignals { name in Foundation.exit(name == "SIGINT" ? 130 : 143) }
        defer { stopper.cancel() }
        var configuration = try assistantConfiguration(apps: apps)
        configuration.database = database.url
        var parsedScript: ConversationScript?
        if let script {
            let text: String
            do {
                text = try String(contentsOf: URL(fileURLWithPath: script), encoding: .utf8)
            } catch {
                printError("hark: cannot read \(script): \(error.localizedDescription)")
                throw ExitCode(ExitStatus.noInput)
            }
            do {
                parsedScript = try ConversationScript(text)
            } catch {
                printError("hark: \(script): \(error)")
                throw ExitCode(ExitStatus.dataError)
            }
            configuration.authenticator = FixedPIN(parsedScript?.pin)
        }
        var engine: DialogueEngine
        do {
            let (made, problems) = try await Assistant.dialogueEngine(configuration)
            engine = made
            engine.room = room
            for problem in problems { printError("hark: warning: \(problem)") }
        } catch {
            throw fail(error)
        }
        for warning in engine.catalog.warnings { printError("hark: warning: \(warning)") }

        if let parsedScript, let script {
            let mismatches = await parsedScript.run(&engine) { said, reply in
                print("you: \(said)")
                print("hark: \(reply.speech)")
            }
            guard mismatches.isEmpty else {
                for mismatch in mismatches { printError("hark: \(script): \(mismatch)") }
                throw ExitCode(1)
            }
            print("(\(parsedScript.turns.count) turns, all as expected)")
            return
        }

        var reloader = (engine.shortcutsService as? StoredShortcuts).map { ShortcutsReloader(store: $0.store) }
        let interactive = isatty(STDIN_FILENO) == 1
        if interactive { print("Type what you would say; an empty line is silence; Ctrl-D ends.") }
        while true {
            let line: String?
            if interactive && engine.isAskingForPIN {
                // Typed at a terminal, the PIN would stay on screen and in its scrollback.
                do {
                    line = try readLineUnseen(prompt: "you (PIN, not shown): ")
                } catch {
                    printError("hark: \(error.description)")
                    throw ExitCode(ExitStatus.ioError)
                }
            } else {
                if interactive {
                    print("you: ", terminator: "")
                    fflush(nil)
                }
                line = readLine()
            }
            guard let line else { break }
            // Shortcuts added in another terminal meanwhile are heard from this line on.
            if !engine.isInConversation, let shortcuts = try? reloader?.changedShortcuts() {
                engine.setPersonalShortcuts(shortcuts)
            }
            let reply = await engine.respond(to: line.trimmingCharacters(in: .whitespaces).isEmpty ? .silence : .text(line))
            print("hark: \(reply.speech)")
            if let problem = reply.problem { printError("hark: (\(problem))") }
            // Piped, stdout is block-buffered: a script waiting for this reply would wait forever.
            guard fflush(nil) == 0 else {
                printError("hark: cannot write the reply: \(String(cString: strerror(errno)))")
                throw ExitCode(ExitStatus.ioError)
            }
        }
    }
}
