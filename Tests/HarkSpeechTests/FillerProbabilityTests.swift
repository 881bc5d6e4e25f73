import Foundation
import HarkGrammar
import HarkSpeech
import HarkTestSupport
import Testing

/// The room between a request's words heard as noise (`RecognizerConfiguration.fillerProbability`),
/// by real decoding of a real voice in real household noise.
@Suite(.serialized) struct FillerProbabilityTests {
    @Test func theRoomBetweenWordsIsNoLongerForcedIntoThem() throws {
        // A real voice at 10 dB under a miaowing cat (audio-fixtures/noisy, from make bench-real).
        let samples = try RecognizerTests.samples("noisy/home-turn_on_living_room_lamp.wav")
        var settings = RecognizerConfiguration()
        #expect(settings.fillerProbability == RecognizerConfiguration.standardFillerProbability)
        // As Hark listens: through the shipped adaptation.
        settings.acousticTransform = AcousticTransformTests.shipped
        let withFillers = try Recognizer(configuration: settings)
        try withFillers.use(RecognizerTests.home)
        settings.fillerProbability = nil
        let barred = try Recognizer(configuration: settings)
        try barred.use(RecognizerTests.home)
        let heard = try withFillers.recognize(samples), plainly = try barred.recognize(samples)
        #expect(heard.text == "turn on living room lamp")
        #expect(plainly.text == "turn on living room lamp")
        // With fillers all but barred (pocketsphinx's own 1e-8), the cat around the words was
        // taken into them.
        let frames = try #require(heard.features?.wordFrames), barredFrames = try #require(plainly.features?.wordFrames)
        #expect(frames < barredFrames, "words over \(frames) frames with fillers, \(barredFrames) without")
    }

    @Test(arguments: [0.0, 1.5, -0.1, Double.nan])
    func aFillerProbabilityOutsideItsRangeIsRefused(_ probability: Double) throws {
        var settings = RecognizerConfiguration()
        settings.fillerProbability = probability
        do {
            _ = try Recognizer(configuration: settings)
            Issue.record("a filler probability of \(probability) was taken")
        } catch {
            #expect(error.message.contains("is not a probability from 1e-10 to 1"), "\(error.message)")
        }
    }
}
