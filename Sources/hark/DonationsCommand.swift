import ArgumentParser
import Foundation
import HarkDialogue
import HarkIntents
import HarkRuntime
import HarkShortcuts
import HarkStore

/// `hark donations`: what Hark remembers having done.
struct Donations: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List or delete donations: the record of intents carried out, which suggestions come from.",
        discussion: """
        Every intent Hark carries out is donated with its values, the time and the day. An app deletes \
        donations about data that no longer exists (a deleted contact) through its handler, or with:
            hark donations delete --app messages --where recipient=amy_jones
        """,
        subcommands: [List.self, Delete.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List donations, oldest first.")
        @Option(help: ArgumentHelp("Only this app's (its folder name).", valueName: "app")) var app: String?
        @Flag(help: "One JSON object per donation.") var json = false
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let donations = try database.using { try $0.donations(app: app) }
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = .current
            for donation in donations {
                let values = donation.values.mapValues(\.identifier)
                if json {
                    print(jsonLine(["id": donation.id ?? 0, "app": donation.app, "intent": donation.intent, "values": values,
                                    "date": formatter.string(from: donation.date), "weekday": donation.weekday,
                                    "time": donation.time.description] as [String: Any]))
                } else {
                    let pairs = values.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                    print("\(formatter.string(from: donation.date))  \(donation.app).\(donation.intent) \(pairs)")
                }
            }
            if !json { print("(\(donations.count) donations)") }
        }
    }

    struct Delete: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Delete an app's donations, or only those of an intent or with certain values.")
        @Option(help: ArgumentHelp("The app (its folder name).", valueName: "app")) var app: String
        @Option(help: ArgumentHelp("Only this intent's.", valueName: "intent")) var intent: String?
        @Option(name: .customLong("where"), help: ArgumentHelp("Only those with this value id, as parameter=value (repeat for more).",
                                                               valueName: "param=value"))
        var conditions: [String] = []
        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            let values: [String: String]
            switch DonationFilter.pairs(conditions) {
            case .success(let pairs): values = pairs
            case .failure(let error): throw ValidationError("--where \(error)")
            }
            let count = try database.using { try $0.deleteDonations(DonationFilter(app: app, intent: intent, values: values)) }
            print("Deleted \(count) donation\(count == 1 ? "" : "s").")
        }
    }
}

/// `hark suggest`: what Hark would offer now.
struct Suggest: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the shortcuts most likely wanted now (or at another time), best first.",
        discussion: """
        Ranked from the donations (the time of day, the day of the week, how recent, how often), with \
        the shortcuts apps declare as relevant at this time and those they suggest that you have never \
        run. By voice, "any suggestions?" offers the first one.
            hark suggest --at 07:30
            hark suggest --at 2026-03-09T12:00 --json
        """)

    @Option(help: ArgumentHelp("The time to suggest for: HH:MM today, or an ISO date and time.", valueName: "time"))
    var at: String?
    @Option(help: ArgumentHelp("How many to list.", valueName: "n")) var limit = 5
    @Flag(help: "One JSON object per suggestion.") var json = false
    @OptionGroup var apps: AppsOptions
    @OptionGroup var database: DatabaseOptions

    func validate() throws {
        if let at, TimeArgument.date(at) == nil {
            throw ValidationError("--at \"\(at)\" is neither HH:MM nor an ISO date and time like 2026-03-09T07:30")
        }
        guard limit > 0 else { throw ValidationError("--limit must be at least 1") }
    }

    func run() async throws {
        let now = at.flatMap { TimeArgument.date($0) } ?? Date()
        let store = try database.open()
        let suggestions: [Suggestion]
        do {
            let catalog = try await Assistant.dialogueEngine(try assistantConfiguration(apps: apps)).0.catalog
            suggestions = SuggestionRanker().rank(donations: try store.donations(), catalog: catalog,
                                                  shortcuts: try store.shortcuts(), at: now, limit: limit)
        } catch let error as ValidationError {
            throw error
        } catch {
            throw fail(error)
        }
        for suggestion in suggestions {
            if json {
                var object: [String: Any] = ["kind": suggestion.kind.rawValue, "app": suggestion.app, "intent": suggestion.intent,
                                             "values": suggestion.values.mapValues(\.identifier), "title": suggestion.title,
                                             "score": (suggestion.score * 1000).rounded() / 1000, "count": suggestion.count]
                if let phrase = suggestion.phrase { object["phrase"] = phrase }
                print(jsonLine(object))
            } else {
                let why = switch suggestion.kind {
                case .donated: "done \(suggestion.count) time\(suggestion.count == 1 ? "" : "s")"
                case .relevant: "relevant now"
                case .suggested: "never run yet"
                }
                let phrase = suggestion.phrase.map { "; say \"\($0)\"" } ?? ""
                print(String(format: "%6.3f  ", suggestion.score) + "\(suggestion.title)  (\(suggestion.app); \(why)\(phrase))")
            }
        }
        if suggestions.isEmpty && !json { print("No suggestions yet: they come from what you do.") }
    }
}

/// Times people type: "07:30" (today), or an ISO date and time.
enum TimeArgument {
    static func date(_ text: String, now: Date = Date(), calendar: Calendar = .current) -> Date? {
        if let time = TimeOfDay(text) {
            return calendar.date(bySettingHour: time.hour, minute: time.minute, second: 0, of: now)
        }
        let iso = ISO8601DateFormatter()
        if let date = iso.date(from: text) { return date }
        let local = DateFormatter()
        local.locale = Locale(identifier: "en_US_POSIX")
        local.timeZone = calendar.timeZone
        for format in ["yyyy-MM-dd'T'HH:mm", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd HH:mm", "yyyy-MM-dd"] {
            local.dateFormat = format
            if let date = local.date(from: text) { return date }
        }
        return nil
    }
}
