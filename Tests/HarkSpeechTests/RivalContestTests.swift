import HarkGrammar
import HarkSpeech
import Testing

/// The words that decide an action judged against their rivals in the grammar, on real
/// recordings with real pocketsphinx decoding.
@Suite(.serialized) struct RivalContestTests {
    /// The home grammar with one more colour that sounds exactly like "blue": no audio can tell them apart.
    static let homophones: Grammar = {
        var grammar = RecognizerTests.home
        grammar.values["color", default: []].append(.init(spoken: "blew", identifier: "blew"))
        return grammar
    }()

    @Test func theWordThatDecidesIsJudgedAgainstItsRival() throws {
        let recognizer = try Recognizer()
        try recognizer.use(RecognizerTests.home)
        let heard = try recognizer.recognize(RecognizerTests.samples("home-en/turn_living_room_lamp_off.wav"))
        #expect(heard.text == "turn living room lamp off" && !heard.isRejected, "\(heard.rejection ?? "")")
        let rival = try #require(heard.features?.rival)
        #expect(rival.word == "on" && rival.position == 4 && rival.wordsThere == 1)
        #expect(rival.gap > Confidence.defaultRivalClearance, "gap \(rival.gap)")
    }

    /// A request asked about whose deciding word has one other meaning carries the phrase with
    /// it, for the question after a "no".
    @Test func aGuessCarriesTheOtherOfTwoMeanings() throws {
        var configuration = RecognizerConfiguration()
        // Everything understood falls in the ask band: the request is asked about.
        configuration.rejectionMargin = 50
        configuration.askBand = 100
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(RecognizerTests.home)
        let lamp = try recognizer.recognize(RecognizerTests.samples("home-en/turn_living_room_lamp_off.wav"))
        #expect(lamp.isRejected && lamp.guess == ["turn", "living", "room", "lamp", "off"], "\(lamp.guess)")
        #expect(lamp.otherwise == ["turn", "living", "room", "lamp", "on"])
        #expect(lamp.features?.rival?.wordsThere == 1)
        // Accepted: nothing to ask about, so nothing to ask after a "no".
        let accepting = try Recognizer()
        try accepting.use(RecognizerTests.home)
        let heard = try accepting.recognize(RecognizerTests.samples("home-en/turn_living_room_lamp_off.wav"))
        #expect(!heard.isRejected && heard.otherwise == nil)
    }

    @Test func aRivalThatSoundsTheSameIsNotActedOn() throws {
        var configuration = RecognizerConfiguration()
        configuration.rivalClearance = nil
        let measuring = try Recognizer(configuration: configuration)
        try measuring.use(Self.homophones)
        let samples = try RecognizerTests.samples("home-en/make_bedroom_light_blue.wav")
        // Judged without its rival, the phrase is accepted as one colour or the other: a coin toss.
        let unjudged = try measuring.recognize(samples)
        #expect(!unjudged.isRejected && ["blue", "blew"].contains(unjudged.words.last ?? ""), "\(unjudged.rejection ?? "")")
        let rival = try #require(unjudged.features?.rival)
        #expect(abs(rival.gap) < 0.05, "gap \(rival.gap)")

        let judging = try Recognizer()
        try judging.use(Self.homophones)
        let judged = try judging.recognize(samples)
        #expect(judged.isRejected, "accepted \(judged.text)")
        // Not thrown away: close enough to ask "Did you say …?" about.
        // The question names whichever of the two scored better: no audio tells them apart.
        #expect(judged.guess.dropLast() == unjudged.words.dropLast() && ["blue", "blew"].contains(judged.guess.last ?? ""),
                "guess \(judged.guess)")
        #expect(judged.rejection?.contains("nearly as likely") == true, "\(judged.rejection ?? "")")
        #expect(judged.margin <= Confidence.rivalMargin(gap: rival.gap, clearance: Confidence.defaultRivalClearance) + 1e-9)
        #expect(judged.margin < unjudged.margin)
    }
}

@Suite struct RivalQuestionTests {
    static let heard = ["turn", "on", "the", "garage", "light"]

    /// A rival that scored better is what the question names: "yes" then does what was most likely said.
    @Test func aRivalThatScoredBetterIsWhatTheQuestionNames() {
        let better = RivalOutcome(word: "off", position: 1, gap: -0.3, rivals: 1)
        #expect(RivalOutcome.question(about: Self.heard, closest: better) == ["turn", "off", "the", "garage", "light"])
    }

    /// After a "no", the other of two meanings: the rival's phrase, or the words heard when the
    /// question named the rival; none where the grammar allows several words there.
    @Test func theOtherOfTwoMeaningsIsWhatFollowsANo() {
        let close = RivalOutcome(word: "off", position: 1, gap: 0.2, rivals: 3, wordsThere: 1)
        let better = RivalOutcome(word: "off", position: 1, gap: -0.3, rivals: 3, wordsThere: 1)
        let offPhrase = ["turn", "off", "the", "garage", "light"]
        #expect(RivalOutcome.otherMeaning(of: Self.heard, askedAbout: Self.heard, closest: close) == offPhrase)
        #expect(RivalOutcome.otherMeaning(of: Self.heard, askedAbout: offPhrase, closest: better) == Self.heard)
        let room = RivalOutcome(word: "kitchen", position: 3, gap: 0.2, rivals: 3, wordsThere: 2)
        #expect(RivalOutcome.otherMeaning(of: Self.heard, askedAbout: Self.heard, closest: room) == nil)
        #expect(RivalOutcome.otherMeaning(of: Self.heard, askedAbout: Self.heard, closest: nil) == nil)
        // A report written before the count was kept says nothing of it: no second question.
        #expect(RivalOutcome.otherMeaning(of: Self.heard, askedAbout: Self.heard,
                                          closest: RivalOutcome(word: "off", position: 1, gap: 0.2, rivals: 1)) == nil)
    }

    @Test func theWordsHeardAreNamedWhenTheyStillScoredBetter() {
        let close = RivalOutcome(word: "off", position: 1, gap: 0.2, rivals: 1)
        #expect(RivalOutcome.question(about: Self.heard, closest: close) == Self.heard)
        #expect(RivalOutcome.question(about: Self.heard, closest: nil) == Self.heard)
    }
}
