import Foundation
public import HarkSpeech
import HarkAudio
public import HarkVoice

/// How a wake phrase would fare before anyone lives with it: the spotter listens, at the
/// sensitivity it would listen at, to a quarter of an hour of ordinary speech in which nobody
/// says the phrase (`everydaySpeech`, said by espeak-ng at three pitches and speeds), and to the
/// phrase said the same ways.
///
/// A phrase is a setting, so anyone may pick one that wakes Hark all day. Synthetic speech is
/// not people, and a quarter of an hour cannot show one false wake in ten hours, so the check
/// counts near misses too: candidates given even odds or better once checked against other
/// words, as listening checks them. On the four phrases `make bench-wake` measures on real speech,
/// the near misses per hour of this speech picked out the worst as the real false wakes did
/// (figures: docs/benchmarks.md, "The settings' figures"). So a phrase is called risky when it
/// has `riskyNearMissesPerHour` or more, or wakes Hark at all here; the real figures, where they
/// exist, are shown beside.
public struct WakePhraseCheck {
    public struct Result: Sendable, Codable, Equatable {
        public var phrase: String
        public var sensitivity: Double
        /// The phrase's phones, as the spotter listens for them (its first pronunciation).
        public var phones: [String]
        /// Seconds of ordinary speech listened to.
        public var speechSeconds: Double
        /// Wakes at the sensitivity, in that speech.
        public var falseWakes: Int
        /// Candidates with log odds of 0 or more, in that speech.
        public var nearMisses: Int
        /// How often the phrase itself, said by the same voices, woke it.
        public var phraseSaid: Int
        public var phraseHeard: Int

        public var hours: Double { speechSeconds / 3_600 }
        public var nearMissesPerHour: Double { hours > 0 ? Double(nearMisses) / hours : 0 }
        public var isRisky: Bool { falseWakes > 0 || nearMissesPerHour >= WakePhraseCheck.riskyNearMissesPerHour }
        /// Fewer phones than this, and a phrase is short enough for many words to sound like it.
        public var isShort: Bool { phones.count < WakePhraseCheck.shortestPhones }
    }

    /// Near misses per hour of `everydaySpeech` from which a phrase is risky: between "hey" alone
    /// (18 an hour; called short anyway) and "athena" (90, 18 real false wakes per 10 hours).
    public static let riskyNearMissesPerHour = 30.0
    /// "jarvis" has 6 phones; "hey" 2, "okay" 3.
    public static let shortestPhones = 5

    /// False wakes per 10 hours at sensitivity 0.5 on 12.6 to 14.4 hours of real speech that must
    /// not wake Hark (`make bench-wake`, the test side of its corpus, the shipped verifier and its
    /// check against other words; the counts: docs/benchmarks.md, "The settings' figures").
    public static let measuredOnRealSpeech: [String: Double] = ["jarvis": 1.6, "athena": 18.1, "amelia": 1.5, "hey chatterbox": 5.5]

    /// Hark's voice three ways: espeak-ng's voice names differ between builds; its pitch and speed do not.
    public static let voices = [VoiceSettings(voice: "en-us", rate: 150, pitch: 40), VoiceSettings(voice: "en-us", rate: 170, pitch: 50),
                         VoiceSettings(voice: "en-us", rate: 190, pitch: 60)]
    /// Quiet between sentences (s).
    static let pause = 0.4

    public var configuration: WakeWordConfiguration
    /// What is said in which nobody says the phrase, and by whom.
    public var sentences = WakePhraseCheck.everydaySpeech
    public var voices = WakePhraseCheck.voices

    public init(configuration: WakeWordConfiguration) {
        self.configuration = configuration
    }

    /// `progress`: sentences heard so far, of all there are to hear (every voice's).
    public func run(progress: (_ done: Int, _ total: Int) -> Void) async throws -> Result {
        var listening = configuration
        listening.reportsCandidates = true
        let spotter = try WakeWordSpotter(configuration: listening)
        let pause = [Int16](repeating: 0, count: Int(Self.pause * 16_000))
        var result = Result(phrase: configuration.keyPhrase, sensitivity: configuration.sensitivity,
                            phones: spotter.phoneSequences.first ?? [],
                            speechSeconds: 0, falseWakes: 0, nearMisses: 0, phraseSaid: 0, phraseHeard: 0)
        for (index, voice) in voices.enumerated() {
            let speech = try SpeechService(settings: voice)
            for (number, sentence) in sentences.enumerated() {
                progress(index * sentences.count + number, voices.count * sentences.count)
                let audio = try await speech.speak(sentence).pipelineSamples() + pause
                result.speechSeconds += Double(audio.count) / 16_000
                for candidate in try spotter.process(audio) {
                    if candidate.isAccepted { result.falseWakes += 1 }
                    if candidate.confidence >= 0 { result.nearMisses += 1 }
                }
            }
            // The phrase alone, with room around it, heard afresh.
            try spotter.reset()
            let said = try await speech.speak(configuration.keyPhrase).pipelineSamples()
            result.phraseSaid += 1
            if try spotter.process(pause + said + pause + pause).contains(where: \.isAccepted) {
                result.phraseHeard += 1
            }
            try spotter.reset()
        }
        progress(voices.count * sentences.count, voices.count * sentences.count)
        return result
    }

    /// What the check found, for people: the figures, then the verdict.
    public static func report(_ result: Result) -> String {
        var lines = [
            "\"\(result.phrase)\" (\(result.phones.joined(separator: " "))), sensitivity \(String(format: "%.2f", result.sensitivity))",
            String(format: "  ordinary speech, %.1f minutes in which nobody says it: %d false wake%@, %d near miss%@ (%.0f an hour)",
                   result.speechSeconds / 60, result.falseWakes, result.falseWakes == 1 ? "" : "s", result.nearMisses,
                   result.nearMisses == 1 ? "" : "es", result.nearMissesPerHour),
            "  the phrase itself, said by the same \(result.phraseSaid) voices: woke it \(result.phraseHeard) time\(result.phraseHeard == 1 ? "" : "s")",
        ]
        if let real = measuredOnRealSpeech[result.phrase] {
            lines.append(String(format: "  on real people's speech (make bench-wake): %.1f false wakes per 10 hours at sensitivity 0.5", real))
        }
        if result.isRisky {
            lines.append("  risky: this phrase is likely to wake Hark when nobody said it (\"athena\" scores like this, and on real speech wakes it"
                         + " about 18 times in ten hours of talk). A longer phrase with less common sounds, or a lower sensitivity, wakes it less.")
        } else if result.isShort {
            lines.append("  short: \(result.phones.count) phones; short phrases sound like many ordinary words. Nothing woke it here, but a longer phrase is safer.")
        } else {
            lines.append("  no sign of trouble: nothing here woke it, and few near misses (\"jarvis\" has none here).")
        }
        if result.phraseHeard < result.phraseSaid {
            lines.append("  (espeak-ng's voice is not a person's: a phrase it says that Hark misses may still be heard when people say it.)")
        }
        return lines.joined(separator: "\n")
    }

    /// Sentences of a home: talk at the table, the radio and television, the telephone, a
    /// recipe, a story. None names a wake phrase Hark ships or measures.
    public static let everydaySpeech = [
        "Could you pass me the salt and pepper, please?",
        "I think we should leave a little earlier tomorrow because of the roadworks.",
        "Did anyone remember to feed the cat this morning?",
        "The kettle has just boiled, would you like a cup of tea or coffee?",
        "We are running out of milk again, I will pick some up on the way home.",
        "Have you seen my keys? I left them on the kitchen table last night.",
        "The football match starts at eight, so dinner needs to be ready by half past seven.",
        "My sister called to say she is coming over on Sunday with the children.",
        "It looks like it is going to rain all weekend, so the barbecue is off.",
        "Remember to take the bins out, the collection is early on Thursdays.",
        "The washing machine is making that strange noise again.",
        "I am going to the supermarket, do you need anything?",
        "That film was far too long, I nearly fell asleep in the middle of it.",
        "Good evening, here are the main stories this hour.",
        "The government has announced new funding for schools and hospitals across the country.",
        "Traffic is heavy on the motorway this morning after an accident near the junction.",
        "Temperatures will rise slowly through the week, reaching twenty degrees by Friday.",
        "The city council met yesterday to discuss plans for a new library in the town centre.",
        "Scientists say the discovery could change the way we understand the early universe.",
        "Shares fell sharply in early trading before recovering most of their losses.",
        "And now over to our reporter, who is live at the scene.",
        "Thank you for calling, all of our advisers are busy at the moment.",
        "Please hold the line and your call will be answered as soon as possible.",
        "Hello, is that the dentist? I would like to move my appointment to next week.",
        "Sorry, I missed your call, I was in a meeting all afternoon.",
        "Let me check my diary and I will get back to you later today.",
        "Can you hear me now? The signal in this part of the house is terrible.",
        "Mix the flour and the butter together until it looks like breadcrumbs.",
        "Bake in the oven for twenty five minutes, or until golden brown.",
        "Add a pinch of salt and stir the sauce gently over a low heat.",
        "Chop the onions finely and fry them in a little olive oil.",
        "The children have a school trip to the museum next Tuesday.",
        "Homework first, and then you can play outside until it gets dark.",
        "Who left their muddy shoes in the hallway again?",
        "Turn that music down a bit, I am trying to read.",
        "Grandma says the garden looks lovely this time of year.",
        "We should paint the spare room before the guests arrive.",
        "The boiler engineer is coming between nine and twelve.",
        "I have booked a table at the Italian place for Saturday night.",
        "Do you want to watch the news or the quiz show?",
        "The neighbours are having their kitchen redone, hence all the drilling.",
        "He said the train was cancelled, so he will be about an hour late.",
        "Our holiday photos are finally printed, come and have a look.",
        "I need to renew my passport before the summer.",
        "The doctor told me to drink more water and walk every day.",
        "Let us go for a walk along the river after lunch.",
        "The shop on the corner has closed down, which is a real shame.",
        "She has started a new job at the hospital, working nights.",
        "They are building a new roundabout at the end of our road.",
        "I can never remember whether the recycling goes out this week or next.",
        "The printer has run out of ink again, it is always at the worst moment.",
        "Put the leftovers in the fridge, we can have them tomorrow.",
        "What time does the post office close on Saturdays?",
        "My phone battery is nearly dead, where is the charger?",
        "The dog needs a bath after rolling around in the park.",
        "We have been invited to a wedding in September.",
        "This soup is delicious, what did you put in it?",
        "I will finish the ironing and then we can go out.",
        "Once upon a time, in a village at the edge of a great forest, there lived an old woodcutter.",
        "Every morning he walked into the trees with his axe over his shoulder.",
        "One day he met a fox who could speak, and the fox asked him for help.",
        "The princess looked out of the tower window and saw the knight riding across the valley.",
        "After many years at sea, the captain finally returned to his home port.",
        "The weather forecast says strong winds overnight, with gusts of up to fifty miles an hour.",
        "There will be delays on the northern line because of engineering works.",
        "Tickets for the concert go on sale at ten o'clock on Friday morning.",
        "The team scored twice in the last ten minutes to win the game.",
        "A spokesperson for the company said they were disappointed with the decision.",
        "Police are asking anyone who saw the incident to come forward.",
        "The museum will be open late on Thursday evenings throughout the summer.",
        "Farmers are hoping for a dry spell so they can bring in the harvest.",
        "The bridge will be closed to traffic for repairs until the end of the month.",
        "Researchers followed more than ten thousand people over twenty years.",
        "The festival attracted visitors from all over the world.",
        "He has been learning the piano for three years and plays beautifully now.",
        "Can you help me carry these boxes up to the attic?",
        "I would rather stay in tonight and order a takeaway.",
        "Have you finished with the newspaper? I want to do the crossword.",
        "Your mother phoned, she wants you to call her back when you get a minute.",
        "The car is due for its service next month, remind me to book it.",
        "Don't forget your umbrella, it is pouring down out there.",
        "We could plant some tomatoes and beans along the back fence.",
        "I think the baby is finally asleep, let us keep our voices down.",
        "Is there any more of that chocolate cake left?",
        "The lights in the bathroom keep flickering, I think the bulb is going.",
        "Come and sit down, dinner is on the table.",
        "It has been a long day, I am going to have an early night.",
    ]
}
