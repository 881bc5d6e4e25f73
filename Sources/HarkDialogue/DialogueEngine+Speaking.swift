import Foundation
import HarkGrammar
import HarkIntents
import HarkShortcuts

/// Help, and what Hark says: handlers' responses and the templates of replies.
extension DialogueEngine {
    // MARK: Help

    func help() -> DialogueReply {
        if case .checking(let heard, _, _) = state {
            return DialogueReply(speech: "You can say yes or no, or cancel. " + Self.checkQuestion(heard), expectsAnswer: true)
        }
        guard case .asking(let question, let pending, _) = state else {
            return DialogueReply(speech: HelpText.examples(catalog, reader: reader), expectsAnswer: false)
        }
        let options: [String]
        switch question.kind {
        case .value(let name):
            if let parameter = pending.intent.parameter(named: name) {
                options = Self.offered(catalog.enumeratedValues(of: parameter, in: pending.app)).map(\.spoken)
            } else {
                options = []
            }
        case .choice(_, let values): options = Self.offered(values).map(\.spoken) + ["the first one"]
        case .defaultValue, .confirmValue, .confirmation, .suggestion: options = ["yes", "no"]
        case .pin: options = ["your PIN, digit by digit"]
        }
        guard !options.isEmpty else { return DialogueReply(speech: question.speech, expectsAnswer: true) }
        let choices = "You can say \(Self.list(options, or: true, startsSentence: false)), or cancel."
        // A question that reads its options out itself ("Any milk? Whole milk, oat milk or cream?")
        // is not asked again after them: the list would be heard twice.
        let spoken = question.speech.lowercased()
        let readsOptions = options.contains { $0.count > 2 && spoken.contains($0.lowercased()) }
        return DialogueReply(speech: readsOptions ? choices : choices + " " + question.speech, expectsAnswer: true)
    }

    // MARK: Speaking

    func spoken(for response: HandlerResponse, _ pending: Pending) -> String {
        let dialogue = CategoryDialogue.of(pending.intent.category)
        let responses = pending.intent.responses
        switch response.code {
        case .success, .ready:
            return responses.success.map { render($0, pending, results: pending.results) } ?? dialogue.success
        case .inProgress:
            return responses.inProgress.map { render($0, pending, results: pending.results) } ?? dialogue.inProgress
        case .failure:
            return response.failure.flatMap { responses.failures[$0] }.map { render($0, pending, results: pending.results) }
                ?? dialogue.failure
        case .continueInApp:
            return "That has to be finished in \(pending.app.name) itself; I can't do it from here."
        case .failureRequiringAppLaunch:
            return "Sorry, \(pending.app.name) needs to be opened first."
        }
    }

    func render(_ template: ResponseTemplate, _ pending: Pending, results: [String: String]) -> String {
        var fill = pending.values.mapValues(\.spoken)
        for (name, value) in results { fill["result.\(name)"] = value }
        fill["app"] = pending.app.name
        let now = clock()
        let time = DateFormatter()
        time.locale = Locale(identifier: "en_US")
        time.dateFormat = "h:mm a"
        fill["clock.time"] = time.string(from: now)
        time.dateFormat = "EEEE, MMMM d"
        fill["clock.date"] = time.string(from: now)
        return template.render(fill)
    }

    /// "A", "A or B", "A, B or C".
    /// "Small, medium or large"; inside a sentence (`startsSentence: false`) as the items are written.
    static func list(_ items: [String], or: Bool, startsSentence: Bool = true) -> String {
        let joiner = or ? "or" : "and"
        let joined = items.count > 1 ? items.dropLast().joined(separator: ", ") + " \(joiner) \(items[items.count - 1])" : items.first ?? ""
        return startsSentence ? capitalised(joined) : joined
    }

    static func capitalised(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst()
    }
}
