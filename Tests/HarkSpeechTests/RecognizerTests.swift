import Foundation
import HarkAudio
import HarkGrammar
import HarkSpeech
import HarkTestSupport
import Testing

/// Real pocketsphinx decoding of real recordings. One recogniser serves the
/// suite, as one serves Hark: loading the model once is part of what is tested.
@Suite(.serialized) struct RecognizerTests {
    static let home: Grammar = {
        func template(_ text: String) -> PhraseTemplate {
            do { return try PhraseTemplate(text) } catch { fatalError("bad test template \(text): \(error)") }
        }
        let lights = ["name": "light", "state": "state", "color": "color"]
        return Grammar(
            rules: [
                .init(tag: "GetTime", template: template("what time is it | tell me the time")),
                .init(tag: "GetTemperature", template: template("whats the temperature | how (hot | cold) is it")),
                .init(tag: "GetGarageState", template: template("is the garage door (open | closed)")),
                .init(tag: "ChangeLightState", template: template("turn <state> [the] <name>"), parameterValues: lights),
                .init(tag: "ChangeLightState", template: template("turn [the] <name> <state>"), parameterValues: lights),
                .init(tag: "ChangeLightColor", template: template("set [the] <name> [to] <color>"), parameterValues: lights),
                .init(tag: "ChangeLightColor", template: template("make [the] <name> <color>"), parameterValues: lights),
            ],
            values: [
                "state": ["on", "off"].map { .init(spoken: $0, identifier: $0) },
                "light": ["bedroom light", "living room lamp", "garage light"].map { .init(spoken: $0, identifier: $0) },
                "color": ["red", "green", "blue"].map { .init(spoken: $0, identifier: $0) },
            ])
    }()

    /// The suite is serialised, so the one non-Sendable recogniser is never used concurrently.
    nonisolated(unsafe) static let shared: Result<Recognizer, any Error> = {
        do {
            let recognizer = try Recognizer()
            try recognizer.use(home)
            return .success(recognizer)
        } catch {
            return .failure(error)
        }
    }()

    func recognizer() throws -> Recognizer {
        let recognizer = try Self.shared.get()
        try recognizer.use(Self.home)
        return recognizer
    }

    static func samples(_ fixture: String) throws -> [Int16] {
        try WAVFile.read(contentsOf: Fixtures.audio(fixture)).pipelineSamples()
    }

    static let homeRecordings = [
        "home-en/turn_on_the_garage_light", "home-en/turn_living_room_lamp_off", "home-en/what_time_is_it",
        "home-en/whats_the_temperature", "home-en/how_cold_is_it", "home-en/is_the_garage_door_open",
        "home-en/make_bedroom_light_blue", "home-en/set_the_bedroom_light_to_green",
        "home-en/turn_off_the_living_room_lamp", "home-en/tell_me_the_time",
    ]

    @Test(arguments: homeRecordings)
    func decodesARealVoiceExactly(_ fixture: String) throws {
        let recognizer = try recognizer()
        let recognition = try recognizer.recognize(Self.samples(fixture + ".wav"))
        let expected = fixture.split(separator: "/").last!.replacingOccurrences(of: "_", with: " ")
        #expect(recognition.text == expected)
        #expect(!recognition.isRejected)
        #expect(recognition.confidence > 0.5)
        #expect(recognition.frames > 50)
    }

    /// A phrase its grammar says must be heard more surely (`Grammar.Rule.strictness`, as Hark's
    /// own "turn it up" is) is judged by the same two passes, its margin lowered by exactly that
    /// much: a real request taken under the home grammar is turned away once its phrase must clear
    /// the threshold by more than it does, and the rejection says why. A strictness on another
    /// phrase changes nothing for it. Each hearing is in a room of its own, so each front end
    /// starts afresh and the three decode the same cepstra.
    @Test func aStrictPhraseIsJudgedLowerByItsStrictness() throws {
        let recognizer = try recognizer()
        let samples = try Self.samples("home-en/what_time_is_it.wav")
        let plain = try recognizer.recognize(samples, heardIn: "strictness-plain")
        #expect(plain.text == "what time is it" && !plain.isRejected)
        let strictness = plain.margin - recognizer.configuration.rejectionMargin + 0.5
        var strict = Self.home
        let timeRule = try #require(strict.rules.firstIndex { $0.tag == "GetTime" })
        strict.rules[timeRule].strictness = strictness
        try recognizer.use(strict)
        let judged = try recognizer.recognize(samples, heardIn: "strictness-strict")
        #expect(judged.isRejected)
        #expect(abs(judged.margin - (plain.margin - strictness)) < 1e-6, "\(judged.margin) against \(plain.margin)")
        #expect(judged.rejection?.contains(String(format: "%.2f", -strictness) + " for a phrase heard strictly") == true,
                "\(judged.rejection ?? "")")
        var otherStrict = Self.home
        let garageRule = try #require(otherStrict.rules.firstIndex { $0.tag == "GetGarageState" })
        otherStrict.rules[garageRule].strictness = strictness
        try recognizer.use(otherStrict)
        let unaffected = try recognizer.recognize(samples, heardIn: "strictness-other")
        #expect(!unaffected.isRejected && abs(unaffected.margin - plain.margin) < 1e-6)
    }

    /// The same real request heard in a quiet room and under loud noise: in the noise its margin
    /// is judged lower by the noise penalty, and a rejection says so.
    @Test func aRequestHeardInLoudNoiseIsJudgedMoreStrictly() throws {
        let recognizer = try recognizer()
        let quiet = try Self.samples("home-en/what_time_is_it.wav")
        let heardQuiet = try recognizer.recognize(quiet)
        let quietEstimate = try #require(heardQuiet.features?.signalToNoise)
        #expect(quietEstimate > Confidence.noisePenaltyBelow, "\(quietEstimate) dB")
        // Loud white noise (seeded, so the test repeats), not so loud that no phrase is heard.
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        let noisy = quiet.map { sample -> Int16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let noise = Int(Int64(bitPattern: state) >> 51)  // -4096..<4096
            return Int16(clamping: Int(sample) + noise)
        }
        let heardNoisy = try recognizer.recognize(noisy)
        let noisyEstimate = try #require(heardNoisy.features?.signalToNoise)
        #expect(noisyEstimate < Confidence.noisePenaltyBelow - 1, "\(noisyEstimate) dB")
        #expect(abs(noisyEstimate - (SignalToNoise.estimate(noisy) ?? .nan)) < 1e-9)
        let penalty = Confidence.noisePenalty(signalToNoise: noisyEstimate)
        #expect(penalty > 0.05)
        // The margin judged is the passes' own, less the penalty (then, in this noisy room, asked
        // about if only just above the threshold: `NoisyConfirmation`, further up for a request
        // this noisy, heard through the noise suppression, less far when both its hearings agree).
        let features = try #require(heardNoisy.features)
        #expect(features.heardThroughSuppression == true)
        let agreed = try #require(features.hearingsAgreed)
        let unpenalised = Confidence.margin(features: features, utterance: heardNoisy.utteranceMargin,
                                            weakest: WordFit.weakest(of: heardNoisy.wordFits))
        let judged = NoisyConfirmation.standard.judged(unpenalised - penalty, signalToNoise: noisyEstimate,
                                                       threshold: Confidence.defaultThreshold, askBand: Confidence.defaultAskBand,
                                                       denoised: true, agreed: agreed)
        #expect(abs(heardNoisy.margin - judged) < 1e-9)
        if heardNoisy.isRejected, heardNoisy.rejection?.hasPrefix("too unsure") == true {
            #expect(heardNoisy.rejection?.contains("for noise (SNR") == true, "\(heardNoisy.rejection ?? "")")
        }
    }

    @Test func aFinishedPhraseIsOneFollowedByQuiet() throws {
        let recognizer = try recognizer()
        let samples = try Self.samples("home-en/what_time_is_it.wav")
        let heard = try recognizer.recognize(samples)
        #expect(heard.text == "what time is it")
        #expect((heard.framesAfterLastWord ?? 0) >= Recognizer.quietFramesAfterFinishedPhrase)
        #expect(recognizer.endsPhrase(heard))
        // The same words cut off right where the voice stops: nothing shows the phrase is over.
        let lastLoud = try #require(samples.lastIndex { abs(Int($0)) > 1500 })
        let cut = try recognizer.recognize(Array(samples[..<min(samples.count, lastLoud + 160)]))
        #expect((cut.framesAfterLastWord ?? 0) < Recognizer.quietFramesAfterFinishedPhrase)
        #expect(!recognizer.endsPhrase(cut))
    }

    @Test func aPhraseThatCanGoOnIsNotFinished() throws {
        // "what time is it" is whole, but in a grammar that also has "what time is it now" it
        // can go on, so a pause after "it" is not the end.
        let recognizer = try recognizer()
        var grammar = Self.home
        grammar.rules.append(.init(tag: "GetTime", template: try PhraseTemplate("what time is it now")))
        try recognizer.use(grammar)
        let heard = try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav"))
        #expect(heard.text == "what time is it")
        #expect(!recognizer.endsPhrase(heard))
        try recognizer.use(Self.home)
        #expect(recognizer.endsPhrase(try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav"))))
    }

    @Test func interpretsTheWordsItHeard() throws {
        let recognizer = try recognizer()
        let recognition = try recognizer.recognize(Self.samples("home-en/turn_living_room_lamp_off.wav"))
        let meaning = try #require(recognition.interpretation)
        #expect(meaning.tag == "ChangeLightState")
        #expect(meaning.values["name"]?.identifier == "living room lamp")
        #expect(meaning.values["state"]?.identifier == "off")
    }

    @Test(arguments: [
        "synthetic/outside.what_is_the_weather_tomorrow.en-us",
        "synthetic/outside.play_some_music.en-us-f3",
        "synthetic/outside.open_the_front_door.slt",
        "synthetic/outside.the_quick_brown_fox.awb",
    ])
    func rejectsSpeechOutsideTheGrammar(_ fixture: String) throws {
        let recognizer = try recognizer()
        let recognition = try recognizer.recognize(Self.samples(fixture + ".wav"))
        #expect(recognition.isRejected, "accepted \"\(recognition.text)\" with margin \(recognition.margin)")
        #expect(recognition.words.isEmpty)
        #expect(recognition.confidence < 0.5)
        #expect(recognition.rejection != nil)
    }

    /// A real "turn on the garage light" against a grammar that knows only other lights: the
    /// grammar forces it onto the nearest phrase, which fits well but for one word.
    @Test func namesTheWordTheGrammarForcedOntoTheAudio() throws {
        let recognizer = try recognizer()
        defer { _ = try? recognizer.use(Self.home) }
        var grammar = Self.home
        grammar.values["light"] = ["bedroom light", "kitchen light", "porch light"].map { .init(spoken: $0, identifier: $0) }
        try recognizer.use(grammar)
        let heard = try recognizer.recognize(Self.samples("home-en/turn_on_the_garage_light.wav"))
        #expect(heard.isRejected, "accepted \"\(heard.text)\" with margin \(heard.margin)")
        let weakest = try #require(heard.weakestWord)
        #expect(!["turn", "on", "the", "light"].contains(weakest.word), "weakest word \(weakest.word)")
        #expect(weakest.evidence < heard.utteranceMargin)
        #expect(heard.margin == weakest.evidence)
        #expect(heard.rejection?.contains("weakest word \"\(weakest.word)\"") == true)
        // Rejected, but since the noise floor only just: inside the band asked about ("Did you
        // say turn on the porch light?"), where the person can say no. (Before it, -2.16: below.)
        #expect(heard.margin >= recognizer.configuration.askMargin, "margin \(heard.margin)")
        #expect(heard.guess.first == "turn" && heard.guess.joined(separator: " ").contains(weakest.word), "\(heard.guess)")
        // Its utterance margin alone would have let it through, or nearly.
        #expect(heard.utteranceMargin > heard.margin + 0.5, "utterance margin \(heard.utteranceMargin)")
        // The same audio against the grammar that has the garage light: every word fits.
        try recognizer.use(Self.home)
        let right = try recognizer.recognize(Self.samples("home-en/turn_on_the_garage_light.wav"))
        #expect(right.text == "turn on the garage light")
        #expect(right.wordFits.map(\.word) == ["turn", "on", "the", "garage", "light"])
        #expect(right.wordFits.allSatisfy { $0.evidence > recognizer.configuration.rejectionMargin })
        #expect(right.margin > heard.margin + 1)
    }

    @Test func rejectsSilence() throws {
        let recognizer = try recognizer()
        let recognition = try recognizer.recognize([Int16](repeating: 0, count: 16_000))
        #expect(recognition.isRejected)
        #expect(recognition.words.isEmpty)
    }

    /// Grammars change between turns; the decoder must survive the swap (replacing the
    /// active search in place crashes this pocketsphinx) and obey the new grammar.
    @Test func switchesGrammarsBetweenUtterances() throws {
        let recognizer = try recognizer()
        let yesNo = Grammar(rules: [.init(tag: "answer", template: try PhraseTemplate("yes | no | cancel"))])
        try recognizer.use(yesNo)
        let forced = try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav"))
        #expect(forced.isRejected, "a time request is no yes/no answer, yet heard \"\(forced.text)\"")
        try recognizer.use(Self.home)
        let understood = try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav"))
        #expect(understood.text == "what time is it")
    }

    /// Each turn installs a grammar; the old ones are freed and decoding still works.
    @Test func manyGrammarSwapsKeepWorking() throws {
        let recognizer = try recognizer()
        let digits = ["one", "two", "three", "four", "five", "six", "seven"]
        for index in 0..<50 {
            // 50 different grammars, so each is compiled and the oldest kept ones are freed.
            let phrase = "yes | no | number \(digits[index % 7]) \(digits[index / 7 % 7])"
            try recognizer.use(Grammar(rules: [.init(tag: "n", template: try PhraseTemplate(phrase))]))
        }
        try recognizer.use(Self.home)
        #expect(try recognizer.recognize(Self.samples("home-en/tell_me_the_time.wav")).text == "tell me the time")
    }

    /// A conversation goes back to the top level after a question: the grammar kept from
    /// before is switched back to, and still decodes right after other grammars taught the
    /// decoder new words in between.
    @Test func aGrammarUsedAMomentAgoStillWorks() throws {
        let recognizer = try recognizer()
        try recognizer.use(Self.home)
        let question = Grammar(rules: [.init(tag: "answer", template: try PhraseTemplate("yes | no | maybe later"))])
        try recognizer.use(question)
        #expect(try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav")).isRejected)
        try recognizer.learn(["aardvark", "zucchini"])
        try recognizer.use(Grammar(rules: [.init(tag: "pet", template: try PhraseTemplate("feed the (aardvark | zucchini)"))]))
        try recognizer.use(Self.home)
        #expect(try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav")).text == "what time is it")
        try recognizer.use(question)
        #expect(try recognizer.recognize(Self.samples("home-en/tell_me_the_time.wav")).isRejected)
        try recognizer.use(Self.home)
        let lights = try recognizer.recognize(Self.samples("home-en/turn_on_the_garage_light.wav"))
        #expect(lights.interpretation?.values["name"]?.identifier == "garage light")
    }

    /// A long list of lights: its names are searched as one word each ("living_room_lamp"),
    /// and what comes back is the words, the meaning and the fits of the names as said.
    @Test func aLongListIsSearchedWithItsNamesJoined() throws {
        var configuration = RecognizerConfiguration()
        configuration.joinsWordsAboveStates = 0
        configuration.joinsListsOfAtLeast = 12
        let recognizer = try Recognizer(configuration: configuration)
        var grammar = Self.home
        let colors = ["red", "green", "blue", "white", "black", "yellow", "orange", "purple", "pink", "brown", "gray", "gold"]
        grammar.values["light"]! += colors.map { .init(spoken: "\($0) chair", identifier: "\($0) chair") }
        try recognizer.use(grammar)

        let heard = try recognizer.recognize(Self.samples("home-en/turn_living_room_lamp_off.wav"))
        #expect(heard.text == "turn living room lamp off")
        #expect(heard.interpretation?.values["name"]?.identifier == "living room lamp")
        #expect(heard.wordFits.map(\.word) == ["turn", "living room lamp", "off"])
        #expect(!heard.isRejected)
        #expect(try recognizer.pronunciation(of: "living_room_lamp") == "L IH V IH NG R UW M L AE M P")
        let time = try recognizer.recognize(Self.samples("home-en/what_time_is_it.wav"))
        #expect(time.wordFits.map(\.word) == ["what", "time", "is", "it"], "the phrases around the list keep their words")
    }

    @Test func namesWordsTheDictionaryDoesNotKnow() throws {
        let recognizer = try recognizer()
        let grammar = Grammar(rules: [.init(tag: "x", template: try PhraseTemplate("send it with unicornchat [zorblax]"))])
        #expect(try recognizer.unknownWords(in: grammar) == ["unicornchat", "zorblax"])
        #expect {
            try recognizer.use(grammar)
        } throws: { error in
            guard let error = error as? RecognitionError, case .unknownWords(let words) = error.code else { return false }
            return words == ["unicornchat", "zorblax"] && error.message.contains("\"unicornchat\"")
        }
    }

    @Test func looksUpPronunciations() throws {
        let recognizer = try recognizer()
        #expect(try recognizer.pronunciation(of: "garage") == "G ER AA ZH")
        #expect(try recognizer.pronunciation(of: "Garage") == "G ER AA ZH")
        #expect(try recognizer.pronunciation(of: "zorblax") == nil)
    }

    @Test func readsLexiconAdditions() throws {
        let directory = try temporaryDirectory()
        let lexicon = directory.appendingPathComponent("lexicon.dict")
        try "# extra words\nunicornchat Y UW N IH K AO R N CH AE T\n".write(to: lexicon, atomically: true, encoding: .utf8)
        var configuration = RecognizerConfiguration()
        configuration.lexicons = [lexicon]
        let recognizer = try Recognizer(configuration: configuration)
        #expect(try recognizer.pronunciation(of: "unicornchat") == "Y UW N IH K AO R N CH AE T")
    }

    @Test func theDictionaryWinsOverTheLexiconForWordsItKnows() throws {
        let lexicon = try temporaryDirectory().appendingPathComponent("lexicon.dict")
        try "garage G AA R AA JH\nzorblax Z AO R B L AE K S\n".write(to: lexicon, atomically: true, encoding: .utf8)
        var configuration = RecognizerConfiguration()
        configuration.lexicons = [lexicon]
        let recognizer = try Recognizer(configuration: configuration)
        #expect(try recognizer.pronunciation(of: "garage") == "G ER AA ZH")
        #expect(try recognizer.pronunciation(of: "zorblax") == "Z AO R B L AE K S")
        #expect(try recognizer.learn(["zorblax", "garage", "door", "qwxzt"]) == ["qwxzt"])
    }

    /// Dictation needs the whole dictionary, which the decoder is otherwise spared.
    @Test func dictatesARealRecordingWithTheGeneralLanguageModel() throws {
        let recognizer = try Recognizer()
        let heard = try recognizer.dictate(Self.samples("home-en/what_time_is_it.wav"))
        #expect(!heard.isRejected)
        #expect(heard.words.contains("time"), "heard \(heard.words)")
        // The grammar search still works after dictation.
        try recognizer.use(Self.home)
        #expect(try recognizer.recognize(Self.samples("home-en/tell_me_the_time.wav")).text == "tell me the time")
    }

    @Test func refusesALexiconWithUnknownPhones() throws {
        let directory = try temporaryDirectory()
        let lexicon = directory.appendingPathComponent("bad.dict")
        try "zorblax Z OO R B L AE K S\n".write(to: lexicon, atomically: true, encoding: .utf8)
        var configuration = RecognizerConfiguration()
        configuration.lexicons = [lexicon]
        #expect {
            _ = try Recognizer(configuration: configuration)
        } throws: { error in
            (error as? RecognitionError)?.message.contains("bad.dict:1: unknown phones OO") == true
        }
    }

    @Test func refusesAMissingModel() {
        var configuration = RecognizerConfiguration()
        configuration.modelDirectory = "/nonexistent/model"
        #expect {
            _ = try Recognizer(configuration: configuration)
        } throws: { error in
            guard let error = error as? RecognitionError else { return false }
            return error.code == .modelLoad && error.message.contains("/nonexistent/model")
        }
    }

    @Test func marginIsTheLowestOfTheWordsTheWeakestWordAndTheCoverage() {
        let words = [WordFit(word: "turn", margin: -0.5, frames: 30), WordFit(word: "garage", margin: -6, frames: 36),
                     WordFit(word: "the", margin: -9, frames: 4)]
        // Evidence weighs each word's margin by the square root of its share of 144 frames.
        #expect(abs(words[1].evidence - (-3)) < 1e-9)
        #expect(abs(words[2].evidence - (-1.5)) < 1e-9)
        #expect(WordFit.weakest(of: words) == words[1])
        #expect(WordFit.weakest(of: []) == nil)
        let weakest = WordFit.weakest(of: words)
        // A command: its words fill the speech heard; only the weakest word can be the lowest.
        var command = ConfidenceFeatures(frames: 120, wordFrames: 70, loopSpeechFrames: 66, wordMargin: -0.4,
                                         silenceMargin: 0, words: 3)
        #expect(command.coverage == 1)
        #expect(Confidence.margin(features: command, utterance: -9, weakest: weakest) == words[1].evidence)
        command.wordMargin = -3.5
        #expect(Confidence.margin(features: command, utterance: 0, weakest: weakest) == -3.5)
        // A sentence whose one phrase-like stretch the grammar took: its words fit, but they
        // explain a fifth of the speech, and the utterance's margin (its fillers near 0) says nothing.
        let sentence = ConfidenceFeatures(frames: 400, wordFrames: 60, loopSpeechFrames: 300, wordMargin: -0.2,
                                          silenceMargin: -0.05, words: 4)
        #expect(abs(sentence.coverage - 0.2) < 1e-9)
        #expect(abs(Confidence.margin(features: sentence, utterance: -0.3, weakest: nil) - (-2.4)) < 1e-9)
        #expect(Confidence.margin(features: sentence, utterance: -0.3, weakest: nil) < Confidence.defaultThreshold)
        #expect(Confidence.coverageMargin(Confidence.fullCoverage) == 0)
        // Without the passes' features: the utterance's margin or the weakest word's, the lower.
        #expect(Confidence.margin(features: nil, utterance: -1, weakest: weakest) == words[1].evidence)
        #expect(Confidence.margin(features: nil, utterance: -4, weakest: weakest) == -4)
        #expect(Confidence.margin(features: nil, utterance: -1, weakest: nil) == -1)
        #expect(words[1].summary == "\"garage\" -3.00")
        // The other words' allowance lifts the words' figures, never the coverage: a word that
        // beat the other words but explains a fifth of the speech is still judged by that fifth.
        let lifted = Confidence.otherWordsAllowance
        #expect(Confidence.margin(features: command, utterance: 0, weakest: weakest, allowance: lifted) == -3.5 + lifted)
        #expect(abs(Confidence.margin(features: sentence, utterance: -0.3, weakest: nil, allowance: lifted) - (-2.4)) < 1e-9)
        #expect(Confidence.margin(features: nil, utterance: -4, weakest: weakest, allowance: lifted) == -4 + lifted)
    }

    /// A phrase found inside seconds of other speech is not a request, even where it is a large
    /// enough share of the speech heard to pass on coverage.
    @Test func speechBesidesThePhraseCountsOnlyBeyondItsAllowance() {
        // What 31 s of a kitchen with "jarvis" said nine times gave against the home app's
        // phrases: 36 % of its speech in the words, 4.6 s besides them.
        let kitchen = ConfidenceFeatures(frames: 1537, wordFrames: 260, loopSpeechFrames: 721, wordMargin: -1.45,
                                         silenceMargin: -0.36, words: 6)
        #expect(kitchen.speechBesidesWords == 461)
        #expect(Confidence.coverageMargin(kitchen.coverage) > Confidence.defaultThreshold)
        #expect(abs(Confidence.margin(features: kitchen, utterance: -0.76, weakest: nil) - (-8.05)) < 1e-9)
        // A request with a little said around it is judged on its words and coverage alone.
        let request = ConfidenceFeatures(frames: 900, wordFrames: 400, loopSpeechFrames: 400 + Confidence.speechBesidesAllowed,
                                         wordMargin: -0.5, silenceMargin: 0, words: 8)
        #expect(Confidence.speechBesidesMargin(request.speechBesidesWords) == nil)
        #expect(Confidence.speechBesidesMargin(Confidence.speechBesidesAllowed + 1) == -Confidence.speechBesidesSlope / 100)
        #expect(Confidence.margin(features: request, utterance: -0.5, weakest: nil) == Confidence.coverageMargin(request.coverage))
        // Within their allowances neither figure caps a margin above 0: a request the grammar
        // fits better than free phones keeps its own.
        var confident = ConfidenceFeatures(frames: 200, wordFrames: 150, loopSpeechFrames: 150, wordMargin: 0.3,
                                           silenceMargin: 0, words: 5)
        confident.wordPhones = 15
        #expect(Confidence.margin(features: confident, utterance: 0.2, weakest: nil) == 0.3)
        // The phone loop hearing less speech than the words took is not speech besides them.
        #expect(ConfidenceFeatures(frames: 100, wordFrames: 60, loopSpeechFrames: 40, wordMargin: 0, silenceMargin: 0,
                                   words: 1).speechBesidesWords == 0)
    }

    /// A short phrase stretched over seconds of audio is not what was said, however well it fits.
    @Test func aPhraseSaidImplausiblySlowlyCountsAgainstTheMargin() throws {
        // Someone saying "jarvis" after a click, which a keypad grammar heard as "five" (three
        // phones) over 2.7 s, every frame of it in the word and fitting it about as well as free
        // phones did.
        var stretched = ConfidenceFeatures(frames: 290, wordFrames: 272, loopSpeechFrames: 103, wordMargin: -0.7,
                                           silenceMargin: 0, words: 1)
        #expect(stretched.framesPerPhone == nil)
        #expect(Confidence.margin(features: stretched, utterance: -0.7, weakest: nil) == -0.7)
        stretched.wordPhones = 3
        #expect(abs(try #require(stretched.framesPerPhone) - 272.0 / 3) < 1e-9)
        let expected = -Confidence.slowSpeechSlope * (272.0 / 3 - Confidence.slowestFramesPerPhone)
        #expect(abs(Confidence.margin(features: stretched, utterance: -0.7, weakest: nil) - expected) < 1e-9)
        #expect(expected < Confidence.defaultThreshold - Confidence.defaultAskBand)
        // The same word said slowly but within the pace allowed is judged on its fit alone.
        var slow = stretched
        slow.wordFrames = Int(Confidence.slowestFramesPerPhone) * 3
        #expect(Confidence.slowSpeechMargin(slow.framesPerPhone) == nil)
        #expect(Confidence.margin(features: slow, utterance: -0.7, weakest: nil) == -0.7)
    }

    /// The phones counted for the pace are those of the words the decoder heard, from its own
    /// dictionary; a real request takes about a tenth of a second a phone.
    @Test(arguments: ["home-en/turn_on_the_garage_light", "home-en/what_time_is_it"])
    func aRealRequestIsSaidAtAUsualPace(_ fixture: String) throws {
        let recognizer = try recognizer()
        let recognition = try recognizer.recognize(Self.samples(fixture + ".wav"))
        #expect(!recognition.isRejected)
        let features = try #require(recognition.features)
        // Each word in one of its pronunciations ("what" is W AH T or HH W AH T).
        let counts = recognition.words.map { word in recognizer.pronunciations(of: word).map { $0.split(separator: " ").count } }
        #expect(counts.allSatisfy { !$0.isEmpty })
        let fewest = counts.reduce(0) { $0 + ($1.min() ?? 0) }, most = counts.reduce(0) { $0 + ($1.max() ?? 0) }
        let phones = try #require(features.wordPhones)
        #expect(phones >= fewest && phones <= most, "\(phones) phones, not \(fewest)…\(most)")
        let pace = try #require(features.framesPerPhone)
        #expect(pace > 4 && pace < 20, "\(pace) frames a phone")
        #expect(Confidence.slowSpeechMargin(pace) == nil)
    }

    /// Real audio: nine real "jarvis" and a few other wake words over a kitchen, 31 s of it, with
    /// no request in it. The grammar still finds a phrase in it; the speech besides that phrase
    /// rejects it, and says so.
    @Test func aPhraseFoundInLongOtherSpeechIsRejected() throws {
        let recognizer = try Recognizer()
        try recognizer.use(Self.home)
        let recognition = try recognizer.recognize(Self.samples("wake/real_wakes_noisy.wav"), heardIn: "kitchen")
        #expect(recognition.isRejected)
        #expect(recognition.interpretation == nil)
        let features = try #require(recognition.features)
        #expect(features.speechBesidesWords > Confidence.speechBesidesAllowed + 100)
        #expect(recognition.margin <= (try #require(Confidence.speechBesidesMargin(features.speechBesidesWords))))
        #expect(recognition.rejection?.contains("s of speech besides them") == true, "\(recognition.rejection ?? "none")")
        #expect(recognition.guess.isEmpty)
    }

    @Test func theAskBandFollowsTheThreshold() {
        var configuration = RecognizerConfiguration()
        #expect(abs(configuration.askMargin - (Confidence.defaultThreshold - Confidence.defaultAskBand)) < 1e-9)
        // Someone who rejects more (a threshold nearer 0) still gets a band below it to ask in.
        configuration.rejectionMargin = -1.0
        #expect(abs(configuration.askMargin - (-1.0 - Confidence.defaultAskBand)) < 1e-9)
        #expect(configuration.askMargin < configuration.rejectionMargin)
        configuration.askBand = 0
        #expect(configuration.askMargin == configuration.rejectionMargin)
    }

    @Test func confidenceIsHalfAtTheThreshold() {
        #expect(abs(Confidence.from(margin: Confidence.defaultThreshold) - 0.5) < 1e-9)
        #expect(Confidence.from(margin: 0) > 0.95)
        #expect(Confidence.from(margin: Confidence.defaultThreshold - 1.2) < 0.01)
        #expect(Confidence.from(margin: -.infinity) == 0)
    }
}
