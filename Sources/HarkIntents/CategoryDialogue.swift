/// What each intent category says by default, from the custom-intents table:
/// its verbs, and its confirmation, success and error dialogue. An app's own
/// templates come first; these fill in what it leaves out.
public struct CategoryDialogue: Sendable, Equatable {
    public var defaultVerb: String
    public var additionalVerbs: [String]
    /// Asked after any custom confirmation ("Ready to order?").
    public var confirmation: String
    /// Said when the intent is done and the app gave no success reply ("OK. Ordering.").
    public var success: String
    /// Said when the app has started but not finished.
    public var inProgress: String
    /// Said when the app failed and gave no failure of its own.
    public var failure: String
    /// Said when the person answers "no" to the confirmation.
    public var declined: String

    public var verbs: [String] { [defaultVerb] + additionalVerbs }

    /// The confirmation question for an intent that uses one of the category's other verbs ("Ready to send?").
    public func confirmation(verb: String) -> String {
        verb == defaultVerb ? confirmation : "Ready to \(verb)?"
    }

    /// What is said when the person answers "no" to that question ("OK, I won't send it.").
    public func declined(verb: String) -> String {
        verb == defaultVerb ? declined : "OK, I won't \(verb) it."
    }

    public static func of(_ category: IntentCategory) -> CategoryDialogue {
        switch category {
        case .generic:
            .init(defaultVerb: "do", additionalVerbs: ["run", "go"], confirmation: "Ready to go?",
                  success: "OK. Done.", inProgress: "OK. Working on it.",
                  failure: "Sorry, that couldn't be done.", declined: "OK, I won't.")
        case .information:
            .init(defaultVerb: "view", additionalVerbs: ["open"], confirmation: "Do you want to hear it?",
                  success: "OK.", inProgress: "OK. Looking it up.",
                  failure: "Sorry, I couldn't get that.", declined: "OK.")
        case .order:
            .init(defaultVerb: "order", additionalVerbs: ["book", "buy"], confirmation: "Ready to order?",
                  success: "OK. Ordering.", inProgress: "OK. Your order is on its way in.",
                  failure: "Sorry, the order couldn't be placed.", declined: "OK, I won't order it.")
        case .start:
            .init(defaultVerb: "start", additionalVerbs: ["navigate"], confirmation: "Ready to start?",
                  success: "OK. Starting.", inProgress: "OK. Starting.",
                  failure: "Sorry, that couldn't be started.", declined: "OK, I won't start it.")
        case .share:
            .init(defaultVerb: "share", additionalVerbs: ["post", "send"], confirmation: "Ready to share?",
                  success: "OK. Shared.", inProgress: "OK. Sharing.",
                  failure: "Sorry, that couldn't be shared.", declined: "OK, I won't share it.")
        case .create:
            .init(defaultVerb: "create", additionalVerbs: ["add"], confirmation: "Ready to create it?",
                  success: "OK. Created.", inProgress: "OK. Creating it.",
                  failure: "Sorry, that couldn't be created.", declined: "OK, I won't create it.")
        case .search:
            .init(defaultVerb: "search", additionalVerbs: ["find", "filter"], confirmation: "Ready to search?",
                  success: "OK. Searching.", inProgress: "OK. Searching.",
                  failure: "Sorry, the search didn't work.", declined: "OK, I won't search.")
        case .download:
            .init(defaultVerb: "download", additionalVerbs: ["get"], confirmation: "Ready to download?",
                  success: "OK. Downloading.", inProgress: "OK. Downloading.",
                  failure: "Sorry, that couldn't be downloaded.", declined: "OK, I won't download it.")
        case .other:
            .init(defaultVerb: "set", additionalVerbs: ["request", "toggle", "check in"], confirmation: "Ready to go ahead?",
                  success: "OK. Done.", inProgress: "OK. Working on it.",
                  failure: "Sorry, that couldn't be done.", declined: "OK, I won't.")
        }
    }
}
