import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// `CFastScoring` must score exactly as pocketsphinx does: the recogniser's margins, thresholds
/// and the wake word's verifier were all measured on the library's own scores. Each test decodes
/// real recordings with real pocketsphinx twice, once through the library's Gaussian evaluation
/// and once through the fast one, and compares every score bit for bit.
@Suite struct FastScoringTests {
    static let recordings = [
        "home-en/turn_on_the_garage_light", "home-en/turn_living_room_lamp_off", "home-en/what_time_is_it",
        "home-en/is_the_garage_door_open", "home-en/make_bedroom_light_blue",
    ]
    static let adaptation = Fixtures.root.appendingPathComponent("models/en-us.mllr").path

    /// Decoders that differ only in how they score, with the shipped adaptation (applied by the
    /// library before the fast scoring copies the means) unless `adapted` is false.
    static func pair(entries: [(word: String, phones: String)], extraArguments: [String] = [], adapted: Bool = true)
        throws -> (plain: Decoder, fast: Decoder) {
        let arguments = (adapted ? ["-mllr", adaptation] : []) + extraArguments
        let make = { (fast: Bool) throws -> Decoder in
            try PronunciationDictionary.withTemporaryFile(PronunciationDictionary.text(of: entries), extension: "dict") {
                (path) throws(RecognitionError) in
                try Decoder(.init(modelDirectory: RecognizerConfiguration.debianModel, dictionary: path, logFile: "/dev/null",
                                  extraArguments: arguments, fastScoring: fast))
            }
        }
        return (try make(false), try make(true))
    }

    /// Everything a decoding tells: words, the path's score, and each segment's frames and scores.
    static func decodingOf(_ decoder: Decoder, _ samples: [Int16]) throws -> String {
        let hypothesis = try decoder.decodeWhole(samples)
        let segments = decoder.segments().map { "\($0.word) \($0.startFrame)-\($0.endFrame) \($0.acoustic) \($0.probability)" }
        return "\(hypothesis.words) \(hypothesis.score.bitPattern) \(hypothesis.frames) " + segments.joined(separator: "; ")
    }

    static func samples(_ fixture: String, noise: Double? = nil) throws -> [Int16] {
        let clean = try RecognizerTests.samples(fixture + ".wav")
        guard let noise else { return clean }
        // A steady hiss at `noise` of full scale, from a fixed seed: noise keeps more phones active.
        var state: UInt64 = 0x2545F4914F6CDD1D
        return clean.map { sample in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let hiss = (Double(state >> 33) / Double(1 << 31) - 1) * noise * 32767
            return Int16(max(-32768, min(32767, Double(sample) + hiss)))
        }
    }

    @Test func harkScoresFastAndTheBaselinesAsTheLibraryDoes() throws {
        let (plain, fast) = try Self.pair(entries: [(word: "yes", phones: "Y EH S")])
        #expect(fast.scoresFast)
        #expect(!plain.scoresFast)
        let made = try Decoder.make(entries: [(word: "yes", phones: "Y EH S")], modelDirectory: RecognizerConfiguration.debianModel,
                                    logFile: "/dev/null", extraArguments: [])
        #expect(made.scoresFast, "Hark's decoders are made with fast scoring")
    }

    @Test func aGrammarIsHeardWithTheLibrarysOwnScores() throws {
        let words = ["turn", "on", "off", "the", "garage", "light", "living", "room", "lamp", "what", "time", "is", "it",
                     "garage", "door", "open", "make", "bedroom", "blue"]
        // Each word's first pronunciation in Debian's dictionary.
        var pronunciations: [String: String] = [:]
        for line in try String(contentsOfFile: RecognizerConfiguration.debianDictionary, encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            if parts.count == 2, words.contains(String(parts[0])), pronunciations[String(parts[0])] == nil {
                pronunciations[String(parts[0])] = String(parts[1])
            }
        }
        let entries = pronunciations.keys.sorted().map { (word: $0, phones: pronunciations[$0]!) }
        #expect(entries.count == Set(words).count)
        let (plain, fast) = try Self.pair(entries: entries)
        let grammar = "#JSGF V1.0;\ngrammar home;\npublic <command> = ( \(words.joined(separator: " | ")) )+ ;\n"
        #expect(fast.scoresFast)
        for decoder in [plain, fast] { try decoder.installJSGF(name: "home", text: grammar) }
        for fixture in Self.recordings {
            for noise in [nil, 0.02] {
                let samples = try Self.samples(fixture, noise: noise)
                let expected = try Self.decodingOf(plain, samples)
                #expect(try Self.decodingOf(fast, samples) == expected, "\(fixture), noise \(noise ?? 0)")
                #expect(expected.contains("turn") || expected.contains("what") || expected.contains("is") || expected.contains("make"))
            }
        }
    }

    /// The phone loop runs on the model cut to its context-independent phones, with three
    /// Gaussians a frame: a second shape of the model and another top-n.
    @Test func thePhoneLoopsCutModelIsHeardWithTheLibrarysOwnScores() throws {
        let model = try #require(try ContextIndependentModel(modelDirectory: RecognizerConfiguration.debianModel))
        let (plain, fast) = try model.withArguments { (arguments) throws(RecognitionError) in
            do {
                return try Self.pair(entries: [], extraArguments: ["-allphone_ci", "yes", "-topn", "3"] + arguments)
            } catch let error as RecognitionError {
                throw error
            } catch {
                throw RecognitionError(.modelLoad, "\(error)")
            }
        }
        #expect(fast.scoresFast)
        for decoder in [plain, fast] {
            try decoder.installPhoneLoop(name: "loop")
            try decoder.activate("loop")
        }
        for fixture in Self.recordings {
            let samples = try Self.samples(fixture, noise: 0.01)
            let expected = try Self.decodingOf(plain, samples)
            #expect(try Self.decodingOf(fast, samples) == expected, "\(fixture)")
        }
    }

    /// A decoder adapted while it runs: the library moves its means, and the fast scoring must
    /// weigh the moved ones.
    @Test func anAdaptationAppliedLaterIsHeardThroughByBoth() throws {
        let entries = [(word: "what", phones: "W AH T"), (word: "time", phones: "T AY M"), (word: "is", phones: "IH Z"),
                       (word: "it", phones: "IH T")]
        let (plain, fast) = try Self.pair(entries: entries, adapted: false)
        let grammar = "#JSGF V1.0;\ngrammar time;\npublic <ask> = ( what | time | is | it )+ ;\n"
        for decoder in [plain, fast] { try decoder.installJSGF(name: "time", text: grammar) }
        let samples = try Self.samples("home-en/what_time_is_it", noise: 0.01)
        let before = try Self.decodingOf(plain, samples)
        #expect(try Self.decodingOf(fast, samples) == before)
        for decoder in [plain, fast] { try decoder.adapt(toTransformAt: Self.adaptation) }
        #expect(fast.scoresFast)
        let after = try Self.decodingOf(plain, samples)
        #expect(after != before, "the adaptation moved nothing")
        #expect(try Self.decodingOf(fast, samples) == after)
        #expect(throws: RecognitionError.self) { try fast.adapt(toTransformAt: "/nonexistent/en-us.mllr") }
    }
}
