import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

@Suite struct WakeWordSpotterSetupTests {
    @Test func aPhraseWithAWordTheDictionaryLacksIsRefusedByName() {
        #expect {
            try WakeWordSpotter(configuration: WakeWordConfiguration(keyPhrase: "hey zorblax"))
        } throws: { error in
            guard let error = error as? RecognitionError else { return false }
            return error.code == .unknownWords(["zorblax"]) && error.message.contains("\"zorblax\"")
        }
    }

    @Test func aWordTheDictionaryLacksIsListenedForWithThePhonesGiven() throws {
        var configuration = WakeWordConfiguration(keyPhrase: "hey chatterbox")
        #expect(try configuration.wordsWithoutPronunciation() == ["chatterbox"])
        configuration.pronunciations = ["chatterbox": "CH AE T ER B AA K S", "jarvis": "JH AA"]
        #expect(try configuration.wordsWithoutPronunciation().isEmpty)
        #expect(try WakeWordSpotter(configuration: configuration).pronunciations == ["hey chatterbox"])
        // A word the dictionary has keeps the dictionary's pronunciations.
        configuration.keyPhrase = "jarvis"
        #expect(try WakeWordSpotter(configuration: configuration).pronunciations == ["jarvis", "jarvis(2)"])
    }

    @Test func aLexiconFileIsAskedBeforeTheGuess() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hark-lexicon-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let lexicon = directory.appendingPathComponent("lexicon.dict")
        try "# ours\nchatterbox CH AE T ER B AO K S\n".write(to: lexicon, atomically: true, encoding: .utf8)
        var configuration = WakeWordConfiguration(keyPhrase: "hey chatterbox zorblax")
        try configuration.pronounceMissingWords(lexicons: [lexicon.path]) { word in word == "zorblax" ? ["Z", "AO", "R"] : [] }
        #expect(configuration.pronunciations == ["chatterbox": "CH AE T ER B AO K S", "zorblax": "Z AO R"])
    }

    @Test func listensForEveryPronunciationOfEachWord() throws {
        let spotter = try WakeWordSpotter(configuration: WakeWordConfiguration(keyPhrase: "Hey Jarvis"))
        #expect(spotter.pronunciations == ["hey jarvis", "hey jarvis(2)"])
        #expect(spotter.threshold == WakeWordSpotter.threshold(sensitivity: WakeWordSpotter.defaultSensitivity))
    }

    @Test func listensForSeveralPhrasesInOneSearch() throws {
        var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
        configuration.otherPhrases = ["athena", "jarvis"]
        let spotter = try WakeWordSpotter(configuration: configuration)
        #expect(spotter.pronunciations == ["jarvis", "jarvis(2)", "athena"])
    }

    @Test func higherSensitivityMeansALowerThreshold() {
        for verified in [true, false] {
            let thresholds = stride(from: 0.0, through: 1.0, by: 0.25).map { WakeWordSpotter.threshold(sensitivity: $0, verified: verified) }
            #expect(thresholds == thresholds.sorted(by: >))
            #expect(thresholds.first == (verified ? WakeWordSpotter.strictestOdds : WakeWordSpotter.strictestThreshold))
            #expect(thresholds.last == (verified ? WakeWordSpotter.loosestOdds : WakeWordSpotter.loosestThreshold))
        }
    }

    @Test func aSearchBeamOutsideZeroToOneIsRefused() {
        #expect(WakeWordSpotter.isSearchBeam(WakeWordSpotter.searchBeam))
        for beam in [0, 1, 1e3, -1e-100, .nan] {
            #expect(!WakeWordSpotter.isSearchBeam(beam))
            var configuration = WakeWordConfiguration()
            configuration.searchBeam = beam
            #expect(throws: RecognitionError.self) { try WakeWordSpotter(configuration: configuration) }
        }
    }

    @Test func sensitivityOutsideZeroToOneIsRefused() {
        #expect(throws: RecognitionError.self) {
            try WakeWordSpotter(configuration: WakeWordConfiguration(sensitivity: 1.5))
        }
    }

    @Test func reportsCandidatesWithTheirEvidenceWhenAsked() throws {
        let spotter = try WakeWordSpotterTests.realSpotter(reportsCandidates: true)
        let candidates = try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples("real_speech"), with: spotter)
        // Near misses are proposed, looked at again, and not accepted.
        #expect(!candidates.isEmpty)
        #expect(candidates.allSatisfy { !$0.isAccepted && $0.confidence < spotter.threshold && $0.evidence != nil })
        #expect(candidates.allSatisfy { $0.score >= WakeWordSpotter.proposalThreshold })
    }

    /// A lower proposal threshold gives more of real speech's candidates a second look, and
    /// none below it; one that is no number is refused.
    @Test func theProposalThresholdDecidesWhatIsLookedAtAgain() throws {
        func candidates(proposingFrom threshold: Double) throws -> [WakeWordDetection] {
            var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
            configuration.otherPhrases = ["athena", "amelia"]
            configuration.reportsCandidates = true
            configuration.proposalThreshold = threshold
            return try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples("real_speech"), with: WakeWordSpotter(configuration: configuration))
        }
        let usual = try candidates(proposingFrom: WakeWordSpotter.proposalThreshold)
        let looser = try candidates(proposingFrom: -3)
        #expect(looser.allSatisfy { $0.score >= -3 && $0.evidence != nil })
        #expect(looser.contains { $0.score < WakeWordSpotter.proposalThreshold })
        #expect(looser.count > usual.count, "\(looser.count) candidates from -3, \(usual.count) from the default")
        for threshold in [Double.nan, .infinity] {
            var configuration = WakeWordConfiguration()
            configuration.proposalThreshold = threshold
            #expect(throws: RecognitionError.self) { try WakeWordSpotter(configuration: configuration) }
        }
    }

    @Test func withoutAVerifierTheSearchScoreDecides() throws {
        var configuration = WakeWordConfiguration(keyPhrase: "jarvis", sensitivity: 1)
        configuration.verifier = nil
        configuration.reportsCandidates = true
        let spotter = try WakeWordSpotter(configuration: configuration)
        #expect(spotter.threshold == WakeWordSpotter.loosestThreshold)
        let candidates = try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples("real_wakes"), with: spotter)
        #expect(!candidates.isEmpty)
        for candidate in candidates {
            #expect(candidate.evidence == nil && candidate.confidence == candidate.score)
            #expect(candidate.isAccepted == (candidate.score >= spotter.threshold))
        }
    }

    @Test func aVerifierFileThatDoesNotFitIsRefused() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hark-verifier-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("verifier.json")
        try Data(#"{"features": ["searchScore"], "mean": [0], "scale": [1], "weights": [1], "bias": 0, "trainedOn": "x"}"#.utf8).write(to: file)
        #expect(throws: RecognitionError.self) { try WakeWordVerifierModel.load(from: file.path) }
        try Data("not json".utf8).write(to: file)
        #expect(throws: RecognitionError.self) { try WakeWordVerifierModel.load(from: file.path) }
    }

    /// Benchmarks feed unrelated recordings one after another. Started afresh, a spotter hears a
    /// stream exactly as a new one does, whatever it heard before; merely reset, it does not: the
    /// front end's running mean carries what it heard (here a kitchen) into the next stream.
    @Test func startedAfreshItHearsAStreamAsANewSpotterDoes() throws {
        func confidences(after earlier: [Int16]?, afresh: Bool) throws -> [Double] {
            let spotter = try WakeWordSpotterTests.realSpotter(reportsCandidates: true)
            if let earlier { _ = try WakeWordSpotterTests.spot(earlier, with: spotter) }
            if afresh { try spotter.startAfresh() } else { try spotter.reset() }
            return try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples("real_wakes"), with: spotter).map(\.confidence)
        }
        let kitchen = try WakeWordSpotterTests.samples("real_wakes_noisy")
        let new = try confidences(after: nil, afresh: false)
        #expect(!new.isEmpty)
        let afresh = try confidences(after: kitchen, afresh: true)
        #expect(afresh == new)
        #expect(try confidences(after: kitchen, afresh: false) != new)
    }

    /// A phrase is a setting: listening for others beside it changes nothing about how it is
    /// judged. The search proposes the same candidates either way, and the second look at each
    /// must find the same evidence, though with three phrases it looked at other windows
    /// before (its front end used to carry the background it learnt from them into the next).
    @Test func aPhrasesSecondLookDoesNotDependOnTheOtherPhrases() throws {
        func candidates(listeningFor phrases: [String], in stream: [Int16]) throws -> [WakeWordDetection] {
            var configuration = WakeWordConfiguration(keyPhrase: phrases[0])
            configuration.otherPhrases = Array(phrases.dropFirst())
            configuration.reportsCandidates = true
            let spotter = try WakeWordSpotter(configuration: configuration)
            return try WakeWordSpotterTests.spot(stream, with: spotter)
        }
        var accepted: [String: Int] = [:]
        for name in ["real_wakes", "real_wakes_noisy"] {
            let stream = try WakeWordSpotterTests.samples(name)
            let all = try candidates(listeningFor: ["jarvis", "athena", "amelia"], in: stream)
            // Each phrase's own three recordings come after the other phrases' in the stream.
            for phrase in ["athena", "amelia"] {
                let alone = try candidates(listeningFor: [phrase], in: stream)
                let together = all.filter { $0.phrase == phrase }
                #expect(alone.contains { $0.evidence?.aligned == true }, "\(phrase) in \(name)")
                #expect(alone.map(\.evidence) == together.map(\.evidence), "\(phrase) in \(name)")
                #expect(alone.map(\.confidence) == together.map(\.confidence), "\(phrase) in \(name)")
                accepted[phrase, default: 0] += alone.filter(\.isAccepted).count
            }
        }
        #expect(accepted["athena", default: 0] >= 1 && accepted["amelia", default: 0] >= 1, "\(accepted)")
    }

    @Test func skippedAudioKeepsDetectionsOnTheStreamsTimeline() throws {
        let spotter = try WakeWordSpotterTests.realSpotter()
        #expect(try spotter.process([Int16](repeating: 0, count: 16_000)).isEmpty)
        try spotter.reset(skipping: 5 * 16_000)
        #expect(spotter.samplesProcessed == 6 * 16_000)
        let samples = try WakeWordSpotterTests.samples("real_wakes")
        let detections = try WakeWordSpotterTests.spot(samples, with: spotter)
        let wakes = try WakeWordSpotterTests.segments("real_wakes").filter { $0.kind == "wake" }
        let detection = try #require(detections.first)
        #expect(wakes.contains { 6 + $0.start < detection.endSeconds && detection.endSeconds <= 6 + $0.end + 0.5 })
    }

    /// Every detection keeps its place on the stream however many times the search started
    /// again before it: after a reset in a quiet room, after several, after the phrase itself was
    /// just heard (the restart that follows a wake), and after the restart in the quiet that ends
    /// a long wait. On the real "jarvis" of real_wakes that the spotter finds, each detection
    /// ends where a fresh spotter ends it, within 40 ms of where the phrase's forced alignment
    /// ends.
    /// (pocketsphinx anchors each new utterance where its voice detector first calls speech,
    /// less the prespeech it keeps; with its defaults every detection after the first restart
    /// ended 80–90 ms early here.)
    @Test func detectionsKeepTheirPlaceAfterTheSearchStartsAgain() throws {
        let samples = try WakeWordSpotterTests.samples("real_wakes")
        let aligner = try WakeWordSpotter(configuration: WakeWordConfiguration(keyPhrase: "jarvis"))
        var checked = 0
        for wake in try WakeWordSpotterTests.segments("real_wakes") where wake.text == "jarvis" {
            let recording = Array(samples[Int(wake.start * 16_000)..<Int(wake.end * 16_000)])
            let phraseEnd = try #require(try aligner.alignedPhrase(in: recording)).upperBound
            let room = Array(recording.prefix(8_000))
            // What the spotter hears before the recording, each part followed by a reset, but for
            // the silence over a minute long: the search restarts of itself in its quiet.
            let befores: [(name: String, audio: [[Int16]])] = [
                ("nothing", []),
                ("half a second of the room, then a reset", [room]),
                ("four of those", Array(repeating: room, count: 4)),
                ("the recording itself, then a reset", [recording]),
                ("65 s of silence (restarted after 60)", [[Int16](repeating: 0, count: 65 * 16_000)]),
            ]
            var ends: [String: Int] = [:]
            for before in befores {
                let spotter = try WakeWordSpotter(configuration: WakeWordConfiguration(keyPhrase: "jarvis"))
                for audio in before.audio {
                    try WakeWordSpotterTests.feed(audio, to: spotter)
                    if audio.count < 60 * 16_000 { try spotter.reset() }
                }
                let fedBefore = spotter.samplesProcessed
                guard let detection = try WakeWordSpotterTests.spot(recording, with: spotter).first else { continue }
                ends[before.name] = detection.endSample - fedBefore
            }
            guard let fresh = ends["nothing"] else { continue }  // the first is too faint to wake it
            checked += 1
            #expect(ends.count == befores.count, "found after \(ends.keys.sorted())")
            for (name, end) in ends {
                #expect(abs(end - phraseEnd) <= 640, "after \(name): ends at \(end), the phrase at \(phraseEnd)")
                #expect(abs(end - fresh) <= 480, "after \(name): ends at \(end), heard fresh at \(fresh)")
            }
        }
        #expect(checked >= 2)
    }

    /// A spotter that hears no wake word for a long time starts its search again in the first
    /// half second of quiet after a minute, so that what the search keeps of one utterance does
    /// not grow for as long as the device listens. (pocketsphinx's voice detector calls
    /// everything speech without silence removal; waiting for it, the search never restarted.)
    /// Where the room stays quiet long enough, the search pauses instead (`SearchQuietGate`)
    /// and searches nothing more until a sound.
    @Test func aLongWaitEndsTheSearchInTheNextQuietSpell() throws {
        var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
        configuration.pausesInQuietRooms = false
        let spotter = try WakeWordSpotter(configuration: configuration)
        let room = Array(try WakeWordSpotterTests.samples("real_wakes").prefix(16_000))
        while spotter.samplesProcessed < 62 * 16_000 { try WakeWordSpotterTests.feed(room, to: spotter) }
        #expect(spotter.framesSearched < 300, "searched \(spotter.framesSearched) frames since the search last started")
        let pausing = try WakeWordSpotter(configuration: WakeWordConfiguration(keyPhrase: "jarvis"))
        while pausing.samplesProcessed < 62 * 16_000 { try WakeWordSpotterTests.feed(room, to: pausing) }
        #expect(pausing.isSearchPaused)
        #expect(pausing.framesSearched <= SearchQuietGate.closesAfterSamples / 160 + 10, "searched \(pausing.framesSearched) frames")
    }

    /// Through an acoustic adaptation (`make bench-wake --acoustic-adaptation`) the search and
    /// its second look hear another model: the same real wake words are proposed with other
    /// scores and other evidence. A file that is no transform is refused by name.
    @Test func listensThroughAnAcousticAdaptationWhenGivenOne() throws {
        func candidates(_ transform: URL?) throws -> [WakeWordDetection] {
            var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
            configuration.reportsCandidates = true
            configuration.acousticTransform = transform
            return try WakeWordSpotterTests.spot(WakeWordSpotterTests.samples("real_wakes"), with: WakeWordSpotter(configuration: configuration))
        }
        let plain = try candidates(nil)
        let adapted = try candidates(Fixtures.root.appendingPathComponent("models/en-us.mllr"))
        let pairs = plain.compactMap { one in adapted.first { abs($0.endSample - one.endSample) < 1_600 }.map { (one, $0) } }
        #expect(!pairs.isEmpty, "no candidate proposed both ways")
        for (one, other) in pairs {
            #expect(one.score != other.score)
            #expect(one.evidence != other.evidence)
        }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hark-wake-mllr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let broken = directory.appendingPathComponent("broken.mllr")
        try Data("1 3\n13 0.5\n".utf8).write(to: broken)
        var configuration = WakeWordConfiguration(keyPhrase: "jarvis")
        configuration.acousticTransform = broken
        do {
            _ = try WakeWordSpotter(configuration: configuration)
            Issue.record("a cut-short transform was loaded")
        } catch {
            let message = "\(error)"
            #expect(message.contains(broken.path) && message.contains("cut short"), "\(message)")
        }
    }
}
