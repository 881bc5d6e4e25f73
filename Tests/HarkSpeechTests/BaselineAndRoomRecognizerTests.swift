import Foundation
import HarkAudio
import HarkGrammar
import HarkSpeech
import HarkTestSupport
import Testing

/// Plain pocketsphinx, the yardstick of every benchmark: it must decode what the recogniser's
/// grammar holds, with the recogniser's own pronunciations, and reject nothing it can parse.
@Suite(.serialized) struct BaselineRecognizerTests {
    @Test func decodesRealVoicesAgainstTheSameGrammarAsJSGF() throws {
        let baseline = try BaselineRecognizer()
        try baseline.use(RecognizerTests.home) { _ in [] }
        for fixture in ["home-en/turn_on_the_garage_light", "home-en/what_time_is_it", "home-en/make_bedroom_light_blue"] {
            let heard = try baseline.recognize(RecognizerTests.samples(fixture + ".wav"))
            #expect(heard.text == fixture.split(separator: "/").last!.replacingOccurrences(of: "_", with: " "))
            #expect(!heard.isRejected)
            #expect(heard.interpretation?.tag == (fixture.hasSuffix("time_is_it") ? "GetTime"
                : fixture.hasSuffix("blue") ? "ChangeLightColor" : "ChangeLightState"))
        }
    }

    @Test func learnsWordsTheDictionaryLacksFromTheGivenPronunciations() throws {
        let baseline = try BaselineRecognizer()
        let grammar = Grammar(rules: [.init(tag: "x", template: try PhraseTemplate("feed the ghoti"))])
        #expect(throws: RecognitionError.self) { try baseline.use(grammar) { _ in [] } }
        var asked: [String] = []
        try baseline.use(grammar) { word in asked.append(word); return ["F IH SH", "G OW T IY"] }
        #expect(asked == ["ghoti"])
    }

    @Test func aGrammarSwitchedToReplacesTheLastOne() throws {
        let baseline = try BaselineRecognizer()
        try baseline.use(RecognizerTests.home) { _ in [] }
        try baseline.use(Grammar(rules: [.init(tag: "time", template: try PhraseTemplate("what time is it"))])) { _ in [] }
        let heard = try baseline.recognize(RecognizerTests.samples("home-en/turn_on_the_garage_light.wav"))
        // Only one sentence is left: whatever is said is forced onto it, as plain pocketsphinx does.
        #expect(heard.text == "what time is it" || heard.isRejected)
        #expect(heard.text != "turn on the garage light")
    }
}

@Suite struct QuietRoomRecognizerTests {
    /// A real voice saying one digit in a near-silent room (audio-fixtures/digits), heard against
    /// the home phrases and a keypad's digits: with the noise floor the digit is accepted; heard as
    /// it is, the same decoder is far less sure of it and rejects it.
    @Test(arguments: ["digits/digit-george-9-34", "digits/digit-yweweler-4-17"])
    func aDigitSaidInAQuietRoomIsHeardThroughTheNoiseFloor(_ fixture: String) throws {
        var grammar = RecognizerTests.home
        grammar.rules.append(.init(tag: "PressKey", template: try PhraseTemplate("<digit>"), parameterValues: ["digit": "digit"]))
        let digits = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
        grammar.values["digit"] = digits.map { .init(spoken: $0, identifier: $0) }
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.audio("\(fixture).json"))) as? [String: Any]
        let said = try #require(sidecar?["text"] as? String)
        var results: [Recognition] = []
        for floor in [NoiseFloor.standardLevel, nil] {
            var configuration = RecognizerConfiguration()
            configuration.noiseFloor = floor
            let recognizer = try Recognizer(configuration: configuration)
            try recognizer.use(grammar)
            results.append(try recognizer.recognize(RecognizerTests.samples("\(fixture).wav")))
        }
        let (floored, plain) = (results[0], results[1])
        #expect(floored.text == said && !floored.isRejected, "\(floored.text) margin \(floored.margin)")
        #expect(plain.isRejected, "heard as it is: \(plain.text) margin \(plain.margin)")
        #expect(floored.margin > plain.margin + 0.5, "margins \(floored.margin) and \(plain.margin)")
    }
}

@Suite struct FaintVoiceRecognizerTests {
    static func heard(_ fixture: String, headroom: Double?) throws -> (said: String, heard: Recognition) {
        var grammar = RecognizerTests.home
        grammar.rules.append(.init(tag: "CallContact", template: try PhraseTemplate("<contact>"), parameterValues: ["contact": "contact"]))
        grammar.values["contact"] = ["athena", "amelia"].map { .init(spoken: $0, identifier: $0) }
        let sidecar = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.audio("\(fixture).json"))) as? [String: Any]
        var configuration = RecognizerConfiguration()
        configuration.noiseFloorHeadroom = headroom
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(grammar)
        return (try #require(sidecar?["text"] as? String), try recognizer.recognize(RecognizerTests.samples("\(fixture).wav")))
    }

    /// Real voices a microphone barely caught (audio-fixtures/faint: "athena" with its loudest
    /// tenth at -71 and -68 dBFS), against the home phrases and a phone's names. Under a floor
    /// fixed at -60 dBFS, louder than the voice, the recogniser finds no phrase or rejects what
    /// it finds; with the floor kept below the voice (the default) it hears the name and accepts it.
    @Test(arguments: ["faint/athena-0ee280eb", "faint/athena-e250324b"])
    func aVoiceFainterThanTheNoiseFloorIsHeardUnderAFloorBelowIt(_ fixture: String) throws {
        let below = try Self.heard(fixture, headroom: RecognizerConfiguration().noiseFloorHeadroom)
        #expect(below.heard.text == below.said && !below.heard.isRejected, "\(below.heard.text) margin \(below.heard.margin)")
        let fixed = try Self.heard(fixture, headroom: nil)
        #expect(fixed.heard.isRejected, "under the fixed floor: \(fixed.heard.text) margin \(fixed.heard.margin)")
    }

    /// A request said at a usual level is heard exactly as under the fixed floor: the headroom
    /// only ever takes the floor down for a voice within it.
    @Test func aVoiceAtAUsualLevelIsHeardAsUnderTheFixedFloor() throws {
        let fixture = "home-en/turn_on_the_garage_light"
        let below = try Self.heard(fixture, headroom: RecognizerConfiguration().noiseFloorHeadroom)
        let fixed = try Self.heard(fixture, headroom: nil)
        #expect(below.heard.text == below.said && !below.heard.isRejected)
        #expect(below.heard.text == fixed.heard.text && below.heard.margin == fixed.heard.margin)
    }
}
