public import HarkSpeech

/// What becomes of a request heard straight after a tentative wake word (odds from
/// `LiveSettings.tentativeWakeOdds` up to the threshold): Hark was not sure it was called, so the
/// request must bear the wake word out.
public enum TentativeWakeFollowUp: Sendable, Equatable {
    /// Understood clearly (`Recognition.isClear`: as surely as a noisy room requires): acted on.
    case act
    /// Understood well enough to act on in a quiet room, but in a noisy one, where Hark asks
    /// first after a sure wake word too (`Recognition.isAskedForTheRoom`): asked about ("Did you
    /// say …?"), so that a wake word half heard over the noise need not be said again. In a quiet
    /// room a less sure request is let go: there a real wake word is seldom tentative, and other
    /// speech after a false candidate was asked about as often as in noise.
    case ask
    /// Anything else, and anything of fewer than `LiveSettings.tentativeRequestWords` words (a
    /// lone word turns up in any speech): let go in silence. A phrase rejected by a little, which
    /// a sure wake word asks about, is let go too: speech nobody meant for Hark falls there far
    /// more often than it reaches the threshold.
    case dismiss

    public init(_ recognition: Recognition) {
        let enoughWords = LiveSettings.tentativeRequestWords
        if !recognition.isRejected && recognition.isClear && recognition.words.count >= enoughWords {
            self = .act
        } else if recognition.isAskedForTheRoom && recognition.guess.count >= enoughWords {
            self = .ask
        } else {
            self = .dismiss
        }
    }
}
