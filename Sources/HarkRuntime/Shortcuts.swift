public import Foundation
public import HarkDialogue
public import HarkIntents
public import HarkShortcuts
public import HarkStore

/// The person's shortcuts, donations and suggestions, kept in the shortcuts database.
public struct StoredShortcuts: ShortcutsService {
    public let store: ShortcutStore
    public let catalog: AppCatalog
    public var ranker: SuggestionRanker
    /// Where a database problem is reported; it never stops a conversation.
    public var report: @Sendable (String) -> Void
    /// Whether what was done is recorded in the owner's history. The live device and `chat` do;
    /// `run` and `bench`, which replay recordings, do not unless asked: a thousand benchmark
    /// requests would otherwise decide what Hark suggests.
    public var donates = true

    public init(store: ShortcutStore, catalog: AppCatalog, ranker: SuggestionRanker = SuggestionRanker(),
                report: @escaping @Sendable (String) -> Void = StoredShortcuts.warn) {
        self.store = store
        self.catalog = catalog
        self.ranker = ranker
        self.report = report
    }

    public static let warn: @Sendable (String) -> Void = { message in
        FileHandle.standardError.write(Data("hark: warning: \(message)\n".utf8))
    }

    public func suggestions(at date: Date) async -> [Suggestion] {
        do {
            return ranker.rank(donations: try store.donations(), catalog: catalog, shortcuts: try store.shortcuts(), at: date)
        } catch {
            report("suggestions: \(error)")
            return []
        }
    }

    public func donate(_ handled: HandledIntent, at date: Date) async {
        guard donates else { return }
        let request = handled.request
        do {
            try store.donate(Donation(app: request.app, intent: request.intent, values: request.values, date: date,
                                      calendar: ranker.calendar))
        } catch {
            report("donating \(request.app).\(request.intent): \(error)")
        }
    }

    public func deleteDonations(_ filters: [DonationFilter]) async {
        for filter in filters {
            do {
                try store.deleteDonations(filter)
            } catch {
                report("deleting donations of \(filter.app): \(error)")
            }
        }
    }
}

/// Notices changes another process made to the shortcuts (`hark shortcuts add`
/// while `hark listen` runs) through the database's change counter.
public struct ShortcutsReloader: Sendable {
    public let store: ShortcutStore
    private var version: Int64?

    public init(store: ShortcutStore) {
        self.store = store
        self.version = try? store.changeVersion()
    }

    /// The shortcuts, when they changed since the last call; nil otherwise.
    public mutating func changedShortcuts() throws(StoreError) -> [PersonalShortcut]? {
        let now = try store.changeVersion()
        guard now != version else { return nil }
        version = now
        return try store.shortcuts()
    }

    /// How often a running Hark looks: a change is heard within a second.
    public static let pollInterval = Duration.milliseconds(500)

    /// Polls until cancelled, handing each new set of shortcuts to `apply`.
    public static func watch(_ store: ShortcutStore, apply: @escaping @Sendable ([PersonalShortcut]) async -> Void) -> Task<Void, Never> {
        // The version is read now, so a change made before the task first runs is not missed.
        let start = ShortcutsReloader(store: store)
        return Task {
            var reloader = start
            while !Task.isCancelled {
                do {
                    if let shortcuts = try reloader.changedShortcuts() { await apply(shortcuts) }
                } catch {
                    StoredShortcuts.warn("reading shortcuts: \(error)")
                }
                try? await Task.sleep(for: pollInterval)
            }
        }
    }
}

/// Runs the automations whose time has come and returns what each said.
public struct AutomationRunner: Sendable {
    public let store: ShortcutStore
    public var schedule: AutomationSchedule

    public init(store: ShortcutStore, schedule: AutomationSchedule = AutomationSchedule()) {
        self.store = store
        self.schedule = schedule
    }

    /// Each automation due at `now` runs once (another process that already ran it
    /// is left to it); a shortcut that asks a question gets no answer and is dropped.
    public func runDue(at now: Date, in conversation: ConversationService) async throws(StoreError) -> [(Automation, DialogueReply)] {
        var replies: [(Automation, DialogueReply)] = []
        let due = schedule.due(try store.automations(), at: now)
        // An automation that cannot be marked as run would run again at every look: it waits
        // until the database can be written (the start-up warning says why it cannot).
        guard !due.isEmpty, store.isWritable() else { return [] }
        let shortcuts = try store.shortcuts()
        for automation in due {
            guard let fire = schedule.nextFire(of: automation),
                  try store.markRun(automation: automation.id, firedAt: fire, at: now),
                  let shortcut = shortcuts.first(where: { $0.id == automation.shortcutID }) else { continue }
            let reply = await conversation.runShortcut(shortcut)
            if reply.expectsAnswer { await conversation.reset() }
            replies.append((automation, reply))
        }
        return replies
    }
}

/// Words the recogniser's dictionaries know, read straight from their files
/// (no decoder needed): to tell a person which words of a phrase Hark will
/// pronounce with espeak-ng instead.
public enum DictionaryWords {
    /// The words of `words` in none of the dictionaries, in order.
    public static func unknown(_ words: [String], dictionaries: [URL]) -> [String] {
        var wanted = Set(words)
        for url in dictionaries {
            guard let text = try? String(contentsOf: url, encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                guard let head = line.split(separator: " ", maxSplits: 1).first else { continue }
                // Alternative pronunciations are written "word(2)".
                let word = head.split(separator: "(", maxSplits: 1).first.map(String.init) ?? String(head)
                wanted.remove(word)
                if wanted.isEmpty { return [] }
            }
        }
        return words.filter(wanted.contains)
    }
}

extension UsageMemory {
    /// The memory of how a person used each intent, rebuilt from their donations in the order
    /// they were made (`ShortcutStore.donations` gives them by date):
    /// each carried-out intent was donated as it was remembered, so an app that had become
    /// familiar (and was no longer named in replies) stays so after a restart, and the values
    /// chosen last are offered again. Forgetting donations forgets this too.
    public init(replaying donations: [Donation], familiarAfter: Int) {
        self.init(familiarAfter: familiarAfter)
        for donation in donations {
            recordUse("\(donation.app).\(donation.intent)", values: donation.values)
        }
    }
}
