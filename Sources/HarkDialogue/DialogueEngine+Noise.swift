/// A request lost in a noisy room is asked for again, once, without the wake word.
///
/// In a kitchen the wake word is the hard part: at 10 dB of household noise Hark misses about
/// half of them. A request rejected there used to end the turn ("Sorry, I didn't catch that"), and
/// trying again meant the wake word again. Now Hark says why and listens for the request once
/// more; a second miss ends the turn, saying so. Inside a conversation the question is asked
/// again instead, as for anything else not understood.
extension DialogueEngine {
    public static let notHeardOverNoise = "Sorry, I couldn't hear that over the noise. Say it again?"
    /// How long after "Say it again?" the next turn still counts as the request said again. The
    /// live loop listens for it at once; a client that names its conversation (Home Assistant) may
    /// not say that nobody answered, and a request made minutes later is a new one.
    public static let retryOverNoiseWindow = 30.0
    public static let stillNotHeardOverNoise = "Sorry, it's too noisy for me to hear you. Try again closer to me, or when it's quieter."

    /// What Hark says to a new request rejected in a noisy room: asks for it again, unless it
    /// `again` was the request said again.
    mutating func notHeardOverNoise(again: Bool) -> DialogueReply {
        guard !again else { return end(Self.stillNotHeardOverNoise) }
        retryOverNoiseOffered = clock()
        return DialogueReply(speech: Self.notHeardOverNoise, expectsAnswer: true)
    }

    /// Whether `speech` is one of the replies that say nothing was understood: for clients that
    /// hand such turns to another agent.
    public static func saysNotUnderstood(_ speech: String) -> Bool {
        [didNotUnderstand, notHeardOverNoise, stillNotHeardOverNoise].contains(speech)
    }
}
