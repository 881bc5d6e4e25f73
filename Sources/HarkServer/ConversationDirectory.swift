import Foundation
import HarkRuntime

/// Conversations named by their clients, shared by every connection: Home Assistant opens a
/// new connection for each turn and names the conversation in the event's
/// `context.conversation_id`, and a satellite names its own, so a follow-up question is answered
/// on whichever connection brings the answer. A connection that names none keeps a conversation
/// of its own (see `WyomingSession`).
///
/// Bounded, because the names come from the network: a conversation idle for `idleLimit` is
/// forgotten, and beyond `capacity` the one idle longest goes first.
actor ConversationDirectory {
    static let capacity = 256
    static let idleLimit: TimeInterval = 15 * 60

    private struct Entry {
        var conversation: ConversationService
        var lastUsed: Date
    }

    private var entries: [String: Entry] = [:]
    private let clock: @Sendable () -> Date

    init(clock: @escaping @Sendable () -> Date = { Date() }) {
        self.clock = clock
    }

    /// The conversation named `name`, begun with `start` when there is none (or it was forgotten).
    func conversation(named name: String, start: @Sendable () async -> ConversationService) async -> ConversationService {
        let now = clock()
        entries = entries.filter { now.timeIntervalSince($0.value.lastUsed) < Self.idleLimit }
        if let existing = entries[name] {
            entries[name]?.lastUsed = now
            return existing.conversation
        }
        let conversation = await start()
        // Another turn may have begun it while `start` ran: keep the first.
        if let begun = entries[name] { return begun.conversation }
        if entries.count >= Self.capacity, let oldest = entries.min(by: { $0.value.lastUsed < $1.value.lastUsed }) {
            entries[oldest.key] = nil
        }
        entries[name] = Entry(conversation: conversation, lastUsed: now)
        return conversation
    }

    var count: Int { entries.count }
}
