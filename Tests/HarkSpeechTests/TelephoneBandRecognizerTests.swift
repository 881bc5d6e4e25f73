import Foundation
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// A request heard through a telephone-band microphone (`TelephoneBand`), decoded for real: a
/// digit recorded at 8 kHz (audio-fixtures/digits) is asked about where full-band audio heard as
/// surely is acted on (`RecognizerConfiguration.telephoneBandReach`).
@Suite struct TelephoneBandRecognizerTests {
    static func recognizer(reach: Double?) throws -> Recognizer {
        var configuration = RecognizerConfiguration()
        configuration.telephoneBandReach = reach
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(OtherWordsRecognizerTests.keypad)
        return recognizer
    }

    /// A reach no margin reaches, so that the test does not hang on how surely the digit is heard
    /// (and the band is measured whatever the margin).
    static let farReach = 40.0

    @Test func aTelephoneBandDigitHeardClearlyIsAskedAbout() throws {
        let (said, samples) = try OtherWordsRecognizerTests.digit("digits/digit-yweweler-4-17")
        let acted = try Self.recognizer(reach: nil).recognize(samples)
        #expect(acted.text == said && !acted.isRejected, "\(acted.rejection ?? acted.text)")
        #expect(acted.features?.telephoneBand == nil, "not measured without a reach")

        let asked = try Self.recognizer(reach: Self.farReach).recognize(samples)
        #expect(asked.features?.telephoneBand == true)
        #expect(asked.isRejected && asked.guess == [said])
        #expect(asked.isAskedForTheRoom && !asked.isClear)
        #expect(asked.rejection?.contains("through a telephone-band microphone") == true, "\(asked.rejection ?? asked.text)")
        #expect(asked.utteranceMargin == acted.utteranceMargin, "heard the same; only the verdict moved")
    }

    @Test func aFullBandRequestIsJudgedAsBefore() throws {
        let samples = try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")
        let heard = try Self.recognizer(reach: Self.farReach).recognize(samples)
        #expect(heard.features?.telephoneBand == false)
        #expect(heard.text == "turn on the garage light" && !heard.isRejected, "\(heard.rejection ?? heard.text)")
        let without = try Self.recognizer(reach: nil).recognize(samples)
        #expect(heard.margin == without.margin && heard.isClear == without.isClear)
    }
}
