public import HarkDialogue
public import HarkGrammar
public import HarkIntents
public import HarkShortcuts

/// The dialogue engine behind an actor: one conversation at a time.
public actor ConversationService {
    private var engine: DialogueEngine

    public init(_ engine: DialogueEngine) {
        self.engine = engine
    }

    public var catalog: AppCatalog { engine.catalog }

    /// The grammar of the next turn and a number that changes whenever it does.
    public func expectation() -> (TurnExpectation, Int) {
        (engine.expectation, engine.expectationVersion)
    }

    /// A conversation of its own that starts from this one's apps, handlers, shortcuts and
    /// history but goes on apart from it: a network client's turns never mix with the device's.
    public func separateConversation() -> ConversationService {
        var separate = engine
        separate.reset()
        return ConversationService(separate)
    }

    /// Whether a question is open: the next turn answers it rather than starting a request.
    public var isInConversation: Bool { engine.isInConversation }

    /// Whether the open question asks for the PIN (`DialogueEngine.isAskingForPIN`).
    public var isAskingForPIN: Bool { engine.isAskingForPIN }

    /// Ends any conversation under way: the next turn is a new request.
    public func reset() {
        engine.reset()
    }

    /// The person's shortcuts changed: the next new request hears the new phrases.
    public func setPersonalShortcuts(_ shortcuts: [PersonalShortcut]) {
        engine.setPersonalShortcuts(shortcuts)
    }

    public var personalShortcuts: [PersonalShortcut] { engine.personalShortcuts }

    /// Runs a shortcut as if its phrase had been said (an automation).
    public func runShortcut(_ shortcut: PersonalShortcut) async -> DialogueReply {
        var working = engine
        let reply = await working.runShortcut(shortcut)
        engine = working
        return reply
    }

    /// The reply to a turn, and, when the turn began a request, the intent it matched.
    public func respond(to input: DialogueInput, interpretation: Interpretation? = nil,
                        heardIn room: String? = nil) async -> (DialogueReply, IntentMatch?) {
        let match = engine.isInConversation ? nil : interpretation.flatMap {
            engine.catalog.match($0).map { engine.catalog.fillingFromRoom($0, room: room) }
        }
        // The engine is a value: work on a copy across the handler's suspensions, then keep it.
        // Turns of one conversation never overlap, so nothing else changes it meanwhile.
        var working = engine
        working.room = room
        let reply = await working.respond(to: input)
        engine = working
        return (reply, match)
    }
}
