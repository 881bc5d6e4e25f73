import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// A request the noise suppression is for is heard through it and as it came, and the surer
/// hearing is kept (`SecondHearing`): real pocketsphinx, WebRTC's real suppressor, a real voice.
@Suite struct SecondHearingTests {
    /// A recogniser of the home's grammar that never asks first in a noisy room, so that each
    /// hearing's margin is the passes' own and the three recognisers below can be compared.
    static func recognizer(_ change: (inout RecognizerConfiguration) -> Void = { _ in }) throws -> Recognizer {
        try NoisyRequestDenoisingTests.recognizer {
            $0.noisyConfirmation = nil
            change(&$0)
        }
    }

    @Test func aNoisyRequestIsHeardBothWaysAndTheSurerHearingKept() throws {
        let twice = try Self.recognizer()
        let suppressedOnly = try Self.recognizer { $0.hearsSuppressedRequestsAsTheyCameToo = false }
        let asItCameOnly = try Self.recognizer { $0.denoisesBelow = nil }
        let noisy = LoudRoomRecognitionTests.loud(NoisyRequestDenoisingTests.quiet)
        #expect(try #require(SignalToNoise.estimate(noisy)) < RequestDenoising.standardBelow)

        // Each recogniser hears it first in that room, so each hearing starts from the same background.
        let kept = try twice.recognize(noisy, heardIn: "kitchen")
        let suppressed = try suppressedOnly.recognize(noisy, heardIn: "kitchen")
        let asItCame = try asItCameOnly.recognize(noisy, heardIn: "kitchen")
        #expect(suppressed.features?.keptAsItCame == false)
        // Heard only through the suppression, the room is still one the recogniser has heard.
        #expect(suppressedOnly.roomsHeard == ["kitchen"])
        #expect(twice.roomsHeard == ["kitchen"])
        #expect(suppressed.utteranceMargin != asItCame.utteranceMargin)

        let asItCameWasSurer = asItCame.margin >= suppressed.margin
        let surer = asItCameWasSurer ? asItCame : suppressed
        #expect(kept.margin == max(suppressed.margin, asItCame.margin))
        #expect(kept.utteranceMargin == surer.utteranceMargin)
        #expect(kept.words == surer.words)
        #expect(kept.features?.keptAsItCame == asItCameWasSurer)
        #expect(kept.features?.heardThroughSuppression == true)
    }

    @Test func aQuietRequestIsHeardOnce() throws {
        let twice = try Self.recognizer()
        let once = try Self.recognizer { $0.hearsSuppressedRequestsAsTheyCameToo = false }
        let quiet = NoisyRequestDenoisingTests.quiet
        let heardTwice = try twice.recognize(quiet, heardIn: "bedroom")
        let heardOnce = try once.recognize(quiet, heardIn: "bedroom")
        #expect(heardTwice.text == "turn on the garage light")
        #expect(heardTwice.margin == heardOnce.margin)
        #expect(heardTwice.features?.heardThroughSuppression == false)
        #expect(heardTwice.features?.keptAsItCame == false)
    }

    static func hearing(_ text: String, margin: Double, formsPhrase: Bool, grammarCPU: Double) -> SecondHearing.Hearing {
        var recognition = Recognition(heardElsewhere: text, frames: 100, framesAfterLastWord: nil)
        recognition.margin = margin
        recognition.decodeCPU.grammar = grammarCPU
        return SecondHearing.Hearing(recognition: recognition, formsPhrase: formsPhrase)
    }

    @Test func aPhraseBeatsNoPhraseThenTheHigherMarginThenAsItCame() {
        let on = Self.hearing("turn on the light", margin: -1.5, formsPhrase: true, grammarCPU: 0.25)
        let off = Self.hearing("turn off the light", margin: -1.2, formsPhrase: true, grammarCPU: 0.5)
        let other = Self.hearing("the fight", margin: 3, formsPhrase: false, grammarCPU: 0.5)
        #expect(SecondHearing.better(of: on, off).text == "turn off the light")
        #expect(SecondHearing.better(of: off, on).text == "turn off the light")
        // Words that form no phrase lose whatever their margin.
        #expect(SecondHearing.better(of: other, on).text == "turn on the light")
        #expect(SecondHearing.better(of: on, other).text == "turn on the light")
        // On a tie, the hearing as it came (the second).
        let tied = Self.hearing("turn off the light", margin: -1.5, formsPhrase: true, grammarCPU: 0.5)
        #expect(SecondHearing.better(of: on, tied).text == "turn off the light")
        #expect(SecondHearing.better(of: on, off).decodeCPU.grammar == 0.75)
    }

    @Test func aRequestHeardTheSameBothWaysIsAskedAboutLessFarUp() throws {
        // A suppressed request is asked about up to 10 above the threshold, unless both hearings
        // formed the same phrase: then only up to just above it.
        func recognizer(agreedReach: Double) throws -> Recognizer {
            try NoisyRequestDenoisingTests.recognizer {
                $0.noisyConfirmation = NoisyConfirmation(below: 40, reach: 0.01, denoisedReach: 10, agreedReach: agreedReach)
            }
        }
        let noisy = NoisyRequestDenoisingTests.noisy(NoisyRequestDenoisingTests.quiet)
        let agreeing = try recognizer(agreedReach: 0.01).recognize(noisy, heardIn: "loud")
        let notAgreeing = try recognizer(agreedReach: 10).recognize(noisy, heardIn: "loud")

        let other = try #require(agreeing.features?.otherHearing)
        #expect(other.formsPhrase && other.words == ["turn", "on", "the", "garage", "light"])
        #expect(agreeing.features?.hearingsAgreed == true && notAgreeing.features?.hearingsAgreed == true)
        #expect(!agreeing.isRejected && agreeing.isClear, "\(agreeing.rejection ?? "")")
        #expect(agreeing.text == "turn on the garage light")
        #expect(notAgreeing.isRejected && notAgreeing.isAskedForTheRoom, "\(notAgreeing.rejection ?? "")")
        #expect(notAgreeing.guess == agreeing.words)
        // Both judged from the same hearing as heard.
        #expect(agreeing.features?.heardMargin == notAgreeing.features?.heardMargin)
        #expect(agreeing.features?.keptAsItCame == notAgreeing.features?.keptAsItCame)
    }

    @Test func hearingsAgreeOnlyOnTheSamePhrase() {
        let on = ["turn", "on", "the", "light"], off = ["turn", "off", "the", "light"]
        #expect(SecondHearing.agree(on, on))
        #expect(!SecondHearing.agree(on, off))
        #expect(!SecondHearing.agree(nil, nil))
        #expect(!SecondHearing.agree(on, nil))
        let confirmation = NoisyConfirmation(below: 30, reach: 0.5, denoisedReach: 1.0, agreedReach: 0.65)
        #expect(confirmation.reach(denoised: true, agreed: true) == 0.65)
        #expect(confirmation.reach(denoised: true) == 1.0)
        #expect(confirmation.reach(denoised: false, agreed: true) == 0.5)
        // 0.8 above the threshold: asked about when heard one way only, acted on when both agree.
        let threshold = -1.81, askBand = 0.28, margin = threshold + 0.8
        #expect(confirmation.asksAbout(margin, signalToNoise: 10, threshold: threshold, askBand: askBand, denoised: true))
        #expect(confirmation.judged(margin, signalToNoise: 10, threshold: threshold, askBand: askBand, denoised: true,
                                    agreed: true) == margin)
        #expect(NoisyConfirmation.clearReach(confirmation, denoised: true, agreed: true, telephoneBandReach: 0.6) == 0.65)
        #expect(NoisyConfirmation.clearReach(confirmation, denoised: true, agreed: true, telephoneBandReach: 0.7) == 0.7)
    }
}
