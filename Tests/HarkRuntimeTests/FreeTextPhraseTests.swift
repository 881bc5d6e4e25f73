import Foundation
import HarkAudio
import HarkDialogue
import HarkGrammar
import HarkIntents
@testable import HarkRuntime
import HarkSpeech
import HarkTestSupport
import Testing

/// Free text said inside a phrase ("put <item> on my shopping list"): no grammar holds it, so
/// a request no phrase fits is dictated with the general language model and matched on the
/// phrase's other words; one of them only sounding alike is asked about.
@Suite(.serialized) struct FreeTextPhraseTests {
    static let lists = """
        name: Lists
        intents:
          AddItem:
            category: create
            parameters:
              item: {type: text, required: true, prompt: What should I add?, maxWords: 3}
            phrases: ["add <item> to my shopping list", "put <item> on [my] shopping list"]
            responses:
              success: Added ${item} to your shopping list.
        """

    static func catalog() throws -> AppCatalog {
        AppCatalog(apps: [try AppCatalog.manifest(yaml: lists, identifier: "lists")])
    }

    @Test func theTextIsFoundBetweenThePhrasesOtherWords() throws {
        let catalog = try Self.catalog()
        func item(_ text: String) -> String? {
            catalog.freeTextMatch(Grammar.words(of: text))?.values["item"]?.identifier
        }
        #expect(item("add oat milk to my shopping list") == "oat milk")
        #expect(item("put bread on shopping list") == "bread")
        #expect(item("add to my shopping list") == nil)              // no text
        #expect(item("add a big box of eggs to my shopping list") == nil)  // over maxWords
        #expect(item("add oat milk to my list") == nil)               // not the phrase's words
        // Not in the grammar: the recogniser cannot be forced onto it.
        #expect(!catalog.topLevelGrammar().rules.contains { $0.tag.hasPrefix("lists.") })
        // "and" for "add": one of the phrase's words heard as another, a candidate to ask about
        // (whether they sound alike is the assistant's to judge); two words off is none.
        let near = catalog.freeTextNearMatches(Grammar.words(of: "and oat milk to my shopping list"))
        #expect(near.map(\.request) == [Grammar.words(of: "add oat milk to my shopping list")])
        #expect(near.first?.said == "add" && near.first?.heard == "and")
        #expect(catalog.freeTextNearMatches(Grammar.words(of: "and oat milk to my shopping lists")).isEmpty)
        // Whether to dictate a request no grammar phrase fits: only where a phrase says free text.
        #expect(catalog.saysFreeText)
        let wordsOnly = Self.lists.replacingOccurrences(of: "{type: text, required: true, prompt: What should I add?, maxWords: 3}",
                                                        with: "{type: integer, required: true, prompt: How many?}")
        #expect(!AppCatalog(apps: [try AppCatalog.manifest(yaml: wordsOnly, identifier: "lists")]).saysFreeText)
    }

    static let media = """
        name: Media
        types:
          Area: {values: [kitchen, {spoken: living room, id: living_room, synonyms: [lounge]}]}
        intents:
          PlayMusic:
            category: generic
            parameters:
              query: {type: text, required: true, prompt: What should I play?, maxWords: 5}
              area: {type: Area}
            phrases: ["play <query> in the <area>", "play <query> on the radio"]
            responses:
              success: Playing ${query}.
          StartTimer:
            category: generic
            parameters:
              name: {type: text, required: true, prompt: What should I call it?}
              length: {type: duration, required: true, prompt: How long?}
            phrases: ["set a <name> timer for <length>", "start a timer for <length> called <name>"]
            responses:
              success: Timer set.
          MakeAnnouncement:
            category: generic
            parameters:
              message: {type: text, required: true, prompt: What should I say?}
            phrases: ["announce <message>"]
            responses:
              success: Announcing ${message}.
        """

    @Test func theTextIsFoundBesideThePhrasesOtherParameters() throws {
        let catalog = AppCatalog(apps: [try AppCatalog.manifest(yaml: Self.media, identifier: "media")])
        func heard(_ text: String) -> [String: String]? {
            catalog.freeTextMatch(Grammar.words(of: text)).map { match in
                match.values.mapValues(\.identifier).merging(["intent": match.intent.name]) { first, _ in first }
            }
        }
        #expect(heard("play miles davis in the kitchen") == ["intent": "PlayMusic", "query": "miles davis", "area": "kitchen"])
        // A value's other way of saying it, and the value's words inside the text are the text's.
        #expect(heard("play kitchen songs in the lounge") == ["intent": "PlayMusic", "query": "kitchen songs", "area": "living_room"])
        // The fewest words to the text: the area is the area, not part of what is played.
        #expect(heard("play jazz in the living room") == ["intent": "PlayMusic", "query": "jazz", "area": "living_room"])
        #expect(heard("play jazz in the garage") == nil)                         // no such area
        #expect(heard("play in the kitchen") == nil)                             // no text
        #expect(heard("play a b c d e f in the kitchen") == nil)                 // over maxWords
        #expect(heard("set a pasta timer for five minutes")?["length"] == "300")
        #expect(heard("set a pasta timer for five minutes")?["name"] == "pasta")
        #expect(heard("start a timer for ten seconds called boiled eggs") == ["intent": "StartTimer", "length": "10", "name": "boiled eggs"])
        // Typed, one word beside the text is enough: nothing was misheard.
        #expect(heard("announce dinner is ready") == ["intent": "MakeAnnouncement", "message": "dinner is ready"])
        #expect(!catalog.topLevelGrammar().rules.contains { $0.tag.hasPrefix("media.") })
    }

    @Test func aTypedRequestWithFreeTextAndAnAreaIsCarriedOut() async throws {
        var engine = DialogueEngine(catalog: AppCatalog(apps: [try AppCatalog.manifest(yaml: Self.media, identifier: "media")]))
        let reply = await engine.respond(to: .text("play miles davis in the kitchen"))
        #expect(reply.speech == "Media: Playing miles davis.")
        #expect(reply.handled?.request.values["area"]?.identifier == "kitchen")
    }

    @Test func soundingAlikeIsOnePhoneApart() {
        func phones(_ text: String) -> [[Substring]] { [text.split(separator: " ")] }
        #expect(Assistant.soundAlike(phones("AE D"), phones("AE N D")))
        #expect(Assistant.soundAlike(phones("AA N"), phones("IH N")))
        #expect(!Assistant.soundAlike(phones("AE D"), phones("AH N D")))
        #expect(Assistant.soundAlike([["AH", "N", "D"], ["AE", "N", "D"]], phones("AE D")))
    }

    @Test func aTypedRequestIsCarriedOutWithItsText() async throws {
        var engine = DialogueEngine(catalog: try Self.catalog())
        let reply = await engine.respond(to: .text("add oat milk to my shopping list"))
        #expect(reply.speech == "Lists: Added oat milk to your shopping list.")
        #expect(reply.handled?.request.values["item"]?.identifier == "oat milk")
    }

    /// Real decoding of flite's voices (audio-fixtures/free-text): one heard word for word and
    /// carried out; one heard with "and" for "add", asked about, and carried out on "yes".
    @Test func spokenRequestsAreDictatedAndMatched() async throws {
        let assistant = try await Self.assistant(with: Self.lists, named: "lists")
        let (bread, _) = try await assistant.answer(recordingAt: Fixtures.audio("free-text/put_bread_on_my_shopping_list.rms.wav"))
        #expect(bread.text == "put bread on my shopping list" && bread.slots == ["item": "bread"])
        #expect(bread.reply == "Lists: Added bread to your shopping list.")
        let (towels, _) = try await assistant.answer(recordingAt: Fixtures.audio("free-text/add_paper_towels_to_my_shopping_list.slt.wav"))
        #expect(towels.reply == "Did you say add paper towels to my shopping list?" && towels.expectsAnswer)
        let (yes, _) = try await assistant.answer(recordingAt: Fixtures.audio("conversations/grind.2.wav"), continuing: true)
        #expect(yes.reply == "Lists: Added paper towels to your shopping list.", "\(yes.text)")
    }
}

extension FreeTextPhraseTests {
    /// A real assistant (the recogniser, dictation) with one app, written from `yaml`.
    static func assistant(with yaml: String, named name: String) async throws -> Assistant {
        let folder = try temporaryDirectory().appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(yaml.utf8).write(to: folder.appendingPathComponent("app.yaml"))
        return try await Assistant.start(AssistantConfiguration(
            appsDirectory: folder, modelsDirectory: Fixtures.root.appendingPathComponent("models"),
            dataDirectory: try temporaryDirectory()))
    }

    /// Real decoding of flite's rms (audio-fixtures/free-text): free text beside an area of two
    /// words, heard by dictation, and the area read from the words around the text.
    @Test func spokenFreeTextBesideAnAreaIsDictatedAndMatched() async throws {
        let assistant = try await Self.assistant(with: Self.media, named: "media")
        let (play, _) = try await assistant.answer(recordingAt: Fixtures.audio("free-text/play_the_beatles_in_the_living_room.rms.wav"))
        #expect(play.text == "play the beatles in the living room" && play.slots == ["query": "the beatles", "area": "living_room"],
                "\(play.text)")
        #expect(play.reply == "Media: Playing the beatles.")
        // Beside one word only, anything said after it would fit: asked about, done on "yes".
        let (announce, _) = try await assistant.answer(recordingAt: Fixtures.audio("free-text/announce_dinner_is_ready.rms.wav"))
        #expect(announce.reply == "Did you say announce dinner is ready?" && announce.expectsAnswer, "\(announce.text)")
        let (yes, _) = try await assistant.answer(recordingAt: Fixtures.audio("conversations/grind.2.wav"), continuing: true)
        #expect(yes.reply == "Media: Announcing dinner is ready.", "\(yes.text)")
    }
}
