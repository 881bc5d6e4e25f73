import Foundation
import HarkAudio
import HarkSpeech
import HarkTestSupport
import Testing

/// The adaptation shipped in models/ (bench/make-adapt-corpus.py, bench/estimate-mllr.sh), loaded
/// by real pocketsphinx and heard on real recordings of a speaker it was not estimated on.
@Suite(.serialized) struct AcousticTransformTests {
    static let shipped = Fixtures.root.appendingPathComponent("models/en-us.mllr")

    static func recognizer(transform: URL?) throws -> Recognizer {
        var configuration = RecognizerConfiguration()
        configuration.acousticTransform = transform
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(RecognizerTests.home)
        return recognizer
    }

    @Test func theShippedTransformFitsTheModel() throws {
        try AcousticTransform.check(Self.shipped)
    }

    /// The home-en speaker is on the measuring side: nothing was adapted on these recordings.
    /// Through the transform every one is heard as said and accepted, and every margin moved (a
    /// transform pocketsphinx did not apply, or applied to one pass only, would leave them or
    /// break them). What it is worth is measured by make bench-real, not here.
    @Test func realSpeechIsHeardThroughTheAdaptedModel() throws {
        let plain = try Self.recognizer(transform: nil)
        let adapted = try Self.recognizer(transform: Self.shipped)
        for fixture in RecognizerTests.homeRecordings {
            let samples = try RecognizerTests.samples(fixture + ".wav")
            let before = try plain.recognize(samples), after = try adapted.recognize(samples)
            let expected = try JSONSerialization.jsonObject(with: Data(contentsOf: Fixtures.audio(fixture + ".json"))) as? [String: Any]
            let text = try #require(expected?["text"] as? String)
            #expect(after.text == text, "\(fixture): heard \"\(after.text)\" through the adaptation")
            #expect(!after.isRejected, "\(fixture): \(after.rejection ?? "")")
            #expect(after.margin != before.margin, "\(fixture): margin \(after.margin) either way")
            #expect(after.margin > -1, "\(fixture): margin \(after.margin) through the adaptation")
        }
    }

    @Test func aFileThatIsNotATransformIsRefusedByName() throws {
        let folder = try temporaryDirectory()
        let shipped = try String(contentsOf: Self.shipped, encoding: .utf8)
        let cases: [(name: String, text: String, says: String)] = [
            ("words.mllr", "word W ER D\n", "\"word\" is not a number"),
            ("empty.mllr", "", "too short"),
            ("streams.mllr", "1\n1\n39\n", "1.0 feature streams, the model has 3"),
            ("lengths.mllr", "1\n3\n12\n", "a stream of 12"),
            ("cut.mllr", String(shipped.prefix(shipped.count / 2)), "cut short"),
            ("long.mllr", shipped + "\n0.5\n", "591 numbers, expected 590"),
            ("huge.mllr", "1\n3\n1e300\n", "a stream of -1"),
            ("classes.mllr", "100000000\n3\n13\n13\n13\n", "classes"),
        ]
        for (name, text, says) in cases {
            let file = folder.appendingPathComponent(name)
            try text.write(to: file, atomically: true, encoding: .utf8)
            #expect {
                try Self.recognizer(transform: file)
            } throws: { error in
                guard let error = error as? RecognitionError, case .modelLoad = error.code else { return false }
                return error.message.contains(file.path) && error.message.contains(says)
            }
        }
        #expect(throws: RecognitionError.self) { try Self.recognizer(transform: folder.appendingPathComponent("none.mllr")) }
    }
}
