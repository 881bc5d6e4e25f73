import Foundation
import HarkDialogue
import HarkExampleApps
import HarkRuntime
import HarkSpeech
import HarkTestSupport
import Testing

/// Three conversations spoken end to end: recorded turns through the real
/// recogniser, each turn constrained to the grammar of the question asked.
@Suite(.serialized) struct SpokenConversationTests {
    static func assistant() async throws -> Assistant {
        // Synthetic voices score below the threshold tuned on people (see EndToEndTests).
        var recognizer = RecognizerConfiguration()
        recognizer.rejectionMargin = -4
        return try await Assistant.start(AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"),
            modelsDirectory: Fixtures.root.appendingPathComponent("models"),
            recognizer: recognizer, inProcessHandlers: ExampleApps.handlers,
            authenticator: FixedPIN("1234"), dataDirectory: try temporaryDirectory()))
    }

    /// Plays NAME.1.wav, NAME.2.wav, … as one conversation; returns the replies.
    static func converse(_ assistant: Assistant, _ name: String) async throws -> [TurnReport] {
        var reports: [TurnReport] = []
        var turn = 1
        while true {
            let url = Fixtures.audio("conversations/\(name).\(turn).wav")
            guard FileManager.default.fileExists(atPath: url.path) else { break }
            let (report, _) = try await assistant.answer(recordingAt: url, continuing: turn > 1)
            // The words may be a synonym of what was said ("yes please" for "yes"); the replies check the meaning.
            #expect(!report.text.isEmpty, "\(name).\(turn): nothing heard (\(report.rejection ?? ""))")
            reports.append(report)
            turn += 1
        }
        return reports
    }

    @Test func soupForDelivery() async throws {
        let replies = try await Self.converse(try await Self.assistant(), "soup").map(\.reply)
        #expect(replies == [
            "Soup Shack: Pickup or delivery?",
            "Where should it go?",
            "Order 1 tomato soup delivered to the office. Ready to order?",
            "What's your PIN?",
            "OK. It'll be ready in 35 minutes.",
        ])
    }

    @Test func meditationShortcutWithoutItsParameter() async throws {
        let reports = try await Self.converse(try await Self.assistant(), "meditation")
        #expect(reports.map(\.reply) == [
            "Serene: Your daily meditation?",
            "Which meditation? Morning, daily or sleep?",
            "Starting your morning meditation.",
        ])
        #expect(reports.last?.handled == true)
        #expect(reports.last?.slots == ["type": "morning"])
    }

    @Test func groundCoffeeWithTheDefaultGrind() async throws {
        let reports = try await Self.converse(try await Self.assistant(), "grind")
        #expect(reports.map(\.reply) == [
            "Corner Cafe: Do you want coarse-ground coffee?",
            "A bag of coarse-ground coffee comes to $12.00. Ready to order?",
            "What's your PIN?",
            "OK. Your coarse-ground coffee is on its way.",
        ])
        #expect(reports.map(\.expectsAnswer) == [true, true, true, false])
    }
}
