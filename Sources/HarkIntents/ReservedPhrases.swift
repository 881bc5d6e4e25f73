/// Phrases Hark keeps for itself at every turn of a conversation. No app
/// phrase may be one of them, so "cancel" always cancels.
public enum ReservedPhrases {
    public static let cancel = ["cancel", "never mind", "stop", "forget it"]
    public static let repeatThat = ["repeat", "repeat that", "say that again", "what did you say"]
    public static let help = ["help", "what can i say"]
    public static let yes = ["yes", "yeah", "yep", "sure", "ok", "okay", "yes please"]
    public static let no = ["no", "nope", "no thanks"]

    /// Asked when nothing else is going on: Hark offers the shortcut most likely wanted now.
    public static let suggestions = ["any suggestions", "what do you suggest", "suggest something"]

    /// Asked when nothing else is going on: the loudspeaker, a step at a time.
    public static let louder = ["louder", "volume up", "turn it up", "speak up"]
    public static let quieter = ["quieter", "volume down", "turn it down", "softer"]
    /// The loudspeaker at a level from zero to ten ("volume seven").
    public static let volume = ["volume <level>", "set the volume to <level>", "set volume to <level>"]

    public static var all: [String] { cancel + repeatThat + help + yes + no + suggestions + louder + quieter }


    /// Phrases no one may take over for a shortcut of their own: calls for help
    /// must always mean what they say.
    public static let core = ["call nine one one", "call nine eleven", "call nine one one now", "call emergency services",
                              "call an ambulance", "call the police", "call the fire brigade", "emergency"]
}
