public import Foundation
public import HarkGrammar
public import HarkShortcuts

/// What the person did in one turn.
public enum DialogueInput: Sendable, Equatable {
    /// Words the recogniser heard (already constrained to the turn's grammar).
    case words([String])
    /// Typed text: read with the turn's grammar, and taken verbatim where free text is asked for.
    case text(String)
    /// Nothing was said before the listening timed out.
    case silence
    /// Something was said, and the recogniser rejected it.
    case notUnderstood
    /// Something was said in a noisy room (`Recognition.isInNoisyRoom`), and the recogniser
    /// rejected it: asked for again once when it was a new request.
    case notHeardOverNoise
    /// The recogniser heard these words but was not sure enough to act on them: Hark asks
    /// whether that is what was said, and goes ahead on "yes". `otherwise`: the phrase with the
    /// other of two meanings ("off" for "on"), asked about after a "no".
    case unsure([String], otherwise: [String]? = nil)
}

/// What Hark says back, and whether it listens for an answer.
public struct DialogueReply: Sendable, Equatable {
    public var speech: String
    /// A question was asked: listen again, without the wake word.
    public var expectsAnswer: Bool
    /// Every intent carried out in this turn, in order: one, or several steps of a shortcut.
    public var handledIntents: [HandledIntent] = []
    /// What went wrong underneath, for logs (a handler that crashed, say); never spoken as is.
    public var problem: String?
    /// The person asked for the loudspeaker louder, quieter or at a level: the device playing
    /// the reply changes it and says the new level (the speech is then empty here).
    public var volume: VolumeChange?

    public init(speech: String, expectsAnswer: Bool, handledIntents: [HandledIntent] = [], problem: String? = nil,
                volume: VolumeChange? = nil) {
        self.speech = speech
        self.expectsAnswer = expectsAnswer
        self.handledIntents = handledIntents
        self.problem = problem
        self.volume = volume
    }

    /// The intent carried out last in this turn, if one was.
    public var handled: HandledIntent? {
        get { handledIntents.last }
        set { handledIntents = newValue.map { [$0] } ?? [] }
    }

    public var endsConversation: Bool { !expectsAnswer }
}

/// An intent carried out: for logs and donations.
public struct HandledIntent: Sendable, Equatable {
    public var request: IntentRequest
    public var response: HandlerResponse

    public init(request: IntentRequest, response: HandlerResponse) {
        self.request = request
        self.response = response
    }

    /// Whether the app did (or is doing) what was asked: only then is it donated.
    public var succeeded: Bool { [.success, .inProgress, .ready].contains(response.code) }
}

/// What the engine needs from the person's shortcut data besides the phrases:
/// suggestions for "any suggestions?", and somewhere to donate what was done.
/// The runtime keeps it in a database; the engine never sees how.
public protocol ShortcutsService: Sendable {
    /// The shortcuts most likely wanted at `date`, best first.
    func suggestions(at date: Date) async -> [Suggestion]
    /// Records an intent that was carried out.
    func donate(_ handled: HandledIntent, at date: Date) async
    /// Forgets donations an app says are about data that no longer exists.
    func deleteDonations(_ filters: [DonationFilter]) async
}

/// What the next turn accepts: a grammar, and whether free text is wanted instead.
public struct TurnExpectation: Sendable {
    public var grammar: Grammar
    /// The question asks for free text: recognise by dictation, and take what is heard.
    public var wantsFreeText: Bool
}
