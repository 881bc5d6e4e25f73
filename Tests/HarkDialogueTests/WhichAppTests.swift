import HarkDialogue
import HarkGrammar
import HarkIntents
import Testing

/// Two apps that say the same words about values both have: Hark asks which app is meant,
/// as Siri does when two apps can take a request.
@Suite struct WhichAppTests {
    static func app(_ name: String, values: [String], reply: String) throws -> AppManifest {
        try AppCatalog.manifest(yaml: """
            name: \(name)
            types:
              Thing:
                values: [\(values.joined(separator: ", "))]
            intents:
              CheckThing:
                parameters:
                  name: {type: Thing, required: true, prompt: Which one?}
                phrases: ["is the <name> shut"]
                responses: {success: "\(reply)"}
            """, identifier: name.lowercased())
    }

    static func engine() throws -> DialogueEngine {
        DialogueEngine(catalog: AppCatalog(apps: [try app("Locks", values: ["front door", "back door"], reply: "It's locked."),
                                                  try app("Windows", values: ["garage window", "front door"], reply: "It's closed.")]))
    }

    static func converse(_ turns: [String]) async throws -> [DialogueReply] {
        var engine = try engine()
        var replies: [DialogueReply] = []
        for turn in turns { replies.append(await engine.respond(to: .text(turn))) }
        return replies
    }

    @Test func aPhraseBothAppsCanTakeIsAskedAboutAndTheAnswerPicksTheApp() async throws {
        let replies = try await Self.converse(["is the front door shut", "windows"])
        #expect(replies[0].speech == "Which app, Locks or Windows?" && replies[0].expectsAnswer)
        #expect(replies[1].speech.hasSuffix("It's closed.") && !replies[1].expectsAnswer, "\(replies[1].speech)")
        #expect(replies[1].handled?.request.app == "windows")
        #expect(replies[1].handled?.request.values["name"]?.identifier == "front door")
        // "The first one" picks from the list as read out.
        let byPosition = try await Self.converse(["is the front door shut", "the first one"])
        #expect(byPosition[1].handled?.request.app == "locks")
    }

    @Test func valuesOnlyOneAppHasDecideWithoutAQuestion() async throws {
        let replies = try await Self.converse(["is the back door shut", "is the garage window shut"])
        #expect(replies.map { $0.handled?.request.app } == ["locks", "windows"])
        #expect(replies.allSatisfy { !$0.expectsAnswer })
    }

    @Test func anAnswerThatNamesNeitherIsAskedOnceMoreThenLetGo() async throws {
        let replies = try await Self.converse(["is the front door shut", "is the back door shut", "the garage"])
        #expect(replies[1].speech == "Locks or Windows?" && replies[1].expectsAnswer)
        #expect(!replies[2].expectsAnswer && replies[2].handled == nil)
        let cancelled = try await Self.converse(["is the front door shut", "cancel"])
        #expect(cancelled[1].speech == "OK." && !cancelled[1].expectsAnswer)
    }

    @Test func theSharedPhraseIsAWarningNotARefusal() throws {
        let catalog = AppCatalog(apps: [try Self.app("Locks", values: ["front door"], reply: "a"),
                                        try Self.app("Windows", values: ["front door"], reply: "b")])
        #expect(catalog.clashes().isEmpty)
        #expect(catalog.sharedPhrases().map(\.reason) == [
            "phrase \"is the <name> shut\" can be said the same way as locks's \"is the <name> shut\" (\"is the <name> shut\"): Hark will ask which app is meant",
        ])
        #expect(catalog.appsSharingPhrases == ["locks", "windows"])
    }
}

/// "Louder", "quieter", "volume four" when nothing else is going on: a change for the device
/// to make, not an app's request.
@Suite struct VolumeCommandTests {
    @Test func volumeCommandsAskTheDeviceForAChange() async throws {
        var engine = try WhichAppTests.engine()
        #expect(await engine.respond(to: .text("louder")).volume == .louder)
        #expect(await engine.respond(to: .text("turn it down")).volume == .quieter)
        let set = await engine.respond(to: .text("set the volume to seven"))
        #expect(set.volume == .level(7) && set.speech.isEmpty && !set.expectsAnswer)
        #expect(await engine.respond(to: .text("volume eleven")).volume == nil)
        // Inside a conversation it is not a command: the question is asked again.
        _ = await engine.respond(to: .text("is the front door shut"))
        let inside = await engine.respond(to: .text("louder"))
        #expect(inside.volume == nil && inside.expectsAnswer)
    }
}
