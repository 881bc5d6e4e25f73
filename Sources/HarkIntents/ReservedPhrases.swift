/// Phrases Hark keeps for itself at every turn of a conversation. No app
/// phrase may be one of them, so "cancel" always cancels.
public enum ReservedPhrases {
    public static let cancel = ["cancel", "never mind", "stop", "forget it"]
    public static let repeatThat = ["repeat", "repeat that", "say that again", "what did you say"]
    public static let help = ["help", "what can i say"]
    public static let yes = ["yes", "yeah", "yep", "sure", "ok", "okay", "yes please"]
    public static let no = ["no", "nope", "no thanks"]

    public static var all: [String] { cancel + repeatThat + help + yes + no }
}
