import ArgumentParser
import Foundation
import HarkDialogue
import HarkIntents
import HarkRuntime
import HarkShortcuts
import HarkStore
import HarkVoice

/// `hark automations`: shortcuts that run by themselves.
struct Automations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a shortcut at a time of day on chosen days, and speak its result.",
        discussion: """
            hark automations add "good morning" --at 07:30 --on weekdays
            hark automations list
            hark automations run            (runs those due now and speaks their results)
            hark automations delete 2
        Days are mon, tue, wed, thu, fri, sat, sun, weekdays, weekends or daily, separated by commas. \
        `hark automations run` is meant for a timer (cron, a systemd timer) every minute; one that was \
        missed by more than 15 minutes is skipped, and each firing runs once however many run it.
        """,
        subcommands: [Add.self, List.self, Delete.self, Run.self])

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run one of your shortcuts at a time of day.")
        @Argument(help: "The shortcut: its phrase or its number.") var shortcut: String
        @Option(help: ArgumentHelp("The time of day, HH:MM (24-hour).", valueName: "time")) var at: String
        @Option(help: ArgumentHelp("The days (default daily).", valueName: "days")) var on = "daily"
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            guard TimeOfDay(at) != nil else { throw ValidationError("--at \"\(at)\" is not a time of day like 07:30") }
            if case .failure(let error) = Weekdays.parse(on) { throw ValidationError("--on: \(error)") }
        }

        func run() async throws {
            guard let time = TimeOfDay(at), case .success(let days) = Weekdays.parse(on) else { return }
            let store = try database.open()
            let found = try Shortcuts.find(shortcut, in: store)
            do {
                let automation = try store.addAutomation(shortcutID: found.id, time: time, days: days)
                let next = AutomationSchedule().nextFire(of: automation)
                print("Automation \(automation.id): \"\(found.phrase)\" at \(time) \(days)" +
                      (next.map { ", next \($0.formatted(date: .abbreviated, time: .shortened))" } ?? "") + ".")
            } catch {
                throw fail(error)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List automations and when each runs next.")
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let automations = try database.using { try $0.automations() }
            let schedule = AutomationSchedule()
            for automation in automations {
                let next = schedule.nextFire(of: automation).map { $0.formatted(date: .abbreviated, time: .shortened) } ?? "never"
                print("\(automation.id)  \(automation.time) \(automation.days)  \"\(automation.phrase)\"  (next \(next))")
            }
            if automations.isEmpty { print("No automations. Add one with: hark automations add \"PHRASE\" --at 07:30 --on weekdays") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete an automation (the shortcut stays).")
        @Argument(help: "The automation's number, from `hark automations list`.") var id: Int64
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            guard try database.using({ try $0.deleteAutomation(id: id) }) else {
                printError("hark: no automation \(id); `hark automations list` shows them")
                throw ExitCode(ExitStatus.noInput)
            }
            print("Deleted automation \(id).")
        }
    }

    struct Run: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Run the automations due now and speak what each says.")
        @Option(help: ArgumentHelp("Pretend it is this time (HH:MM today or an ISO date and time).", valueName: "time"))
        var now: String?
        @Option(help: ArgumentHelp("Write the spoken results to this WAV file instead of the sound card.", valueName: "file"))
        var replyOut: String?
        @OptionGroup var apps: AppsOptions
        @OptionGroup var voice: VoiceOptions
        @OptionGroup var database: DatabaseOptions

        func validate() throws {
            if let now, TimeArgument.date(now) == nil { throw ValidationError("--now \"\(now)\" is neither HH:MM nor an ISO date") }
        }

        func run() async throws {
            let date = now.flatMap { TimeArgument.date($0) } ?? Date()
            do {
                var configuration = try assistantConfiguration(apps: apps, voice: voice.settings)
                configuration.database = database.url
                let (engine, problems) = try await Assistant.dialogueEngine(configuration)
                for problem in problems { printError("hark: warning: \(problem)") }
                guard let store = (engine.shortcutsService as? StoredShortcuts)?.store else { return }
                let ran = try await AutomationRunner(store: store).runDue(at: date, in: ConversationService(engine))
                guard !ran.isEmpty else {
                    print("No automation is due.")
                    return
                }
                let spoken = ran.map(\.1.speech).filter { !$0.isEmpty }.joined(separator: " ")
                for (automation, reply) in ran { print("\(automation.time) \"\(automation.phrase)\": \(reply.speech)") }
                guard !spoken.isEmpty else { return }
                let clip = try await SpeechService(settings: voice.settings).speak(spoken)
                if try !SpeechOutput.deliver(clip, to: replyOut) {
                    printError("hark: no sound card to speak on; use --reply-out FILE")
                    throw ExitCode(ExitStatus.unavailable)
                }
            } catch let exit as ExitCode {
                throw exit
            } catch let error as ValidationError {
                throw error
            } catch {
                throw fail(error)
            }
        }
    }
}
