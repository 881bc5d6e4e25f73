import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// A request standing less than `RequestDenoising.standardBelow` dB above its room is heard
/// through WebRTC's noise suppression, and asked about further above the threshold
/// (`NoisyConfirmation.denoisedReach`); a quieter room's request is heard as it came (real
/// pocketsphinx, a real voice).
@Suite struct NoisyRequestDenoisingTests {
    static func recognizer(_ change: (inout RecognizerConfiguration) -> Void = { _ in }) throws -> Recognizer {
        var configuration = RecognizerConfiguration()
        change(&configuration)
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(RecognizerTests.home)
        return recognizer
    }

    static let quiet: [Int16] = {
        let silence = [Int16](repeating: 0, count: 16_000)
        return silence + ((try? RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")) ?? []) + silence
    }()

    @Test func aNoisyRequestIsHeardThroughTheSuppressorAndAQuietOneAsItCame() throws {
        // Heard through the suppressor alone: SecondHearingTests hears it both ways.
        let denoising = try Self.recognizer { $0.hearsSuppressedRequestsAsTheyCameToo = false }
        let asItCame = try Self.recognizer { $0.denoisesBelow = nil }
        let noisy = LoudRoomRecognitionTests.loud(Self.quiet)
        #expect(try #require(SignalToNoise.estimate(noisy)) < RequestDenoising.standardBelow)
        #expect(try #require(SignalToNoise.estimate(Self.quiet)) > RequestDenoising.standardBelow + 20)

        // Each hearing in a room of its own, so no recogniser hears one through another's background.
        let quietDenoising = try denoising.recognize(Self.quiet, heardIn: "quiet")
        let quietAsItCame = try asItCame.recognize(Self.quiet, heardIn: "quiet")
        #expect(quietDenoising.features?.heardThroughSuppression == false)
        #expect(quietDenoising.margin == quietAsItCame.margin)
        #expect(quietDenoising.text == "turn on the garage light")

        let noisyDenoising = try denoising.recognize(noisy, heardIn: "loud")
        let noisyAsItCame = try asItCame.recognize(noisy, heardIn: "loud")
        #expect(noisyDenoising.features?.heardThroughSuppression == true)
        #expect(noisyAsItCame.features?.heardThroughSuppression == false)
        #expect(noisyDenoising.utteranceMargin != noisyAsItCame.utteranceMargin)
        // The noise penalty and the noisy room are judged on the audio as it came, both ways.
        #expect(noisyDenoising.features?.signalToNoise == noisyAsItCame.features?.signalToNoise)
    }

    /// `samples` under steady white noise about 29 dB below full scale (seeded, so it repeats):
    /// twice `NoisyConfirmationRecognitionTests.hiss`, half `LoudRoomRecognitionTests.loud`.
    static func noisy(_ samples: [Int16]) -> [Int16] {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return samples.map { sample -> Int16 in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int16(clamping: Int(sample) + Int(Int64(bitPattern: state) >> 52))  // -2048..<2048
        }
    }

    @Test func aRequestHeardThroughTheSuppressorIsAskedAboutFurtherUp() throws {
        // Asking first up to just above the threshold, but up to 10 above it for a request heard
        // through the suppressor: whatever margin the suppressed request gets, it is asked about.
        // Heard through the suppressor alone: two hearings of one phrase are asked about less far
        // up (SecondHearingTests).
        let confirmation = NoisyConfirmation(below: 40, reach: 0.01, denoisedReach: 10)
        let asking = try Self.recognizer { $0.noisyConfirmation = confirmation; $0.hearsSuppressedRequestsAsTheyCameToo = false }
        let asItCame = try Self.recognizer { $0.noisyConfirmation = confirmation; $0.denoisesBelow = nil }
        let noisy = Self.noisy(Self.quiet)
        let estimate = try #require(SignalToNoise.estimate(noisy))
        #expect(estimate < RequestDenoising.standardBelow, "SNR \(estimate)")

        let acted = try asItCame.recognize(noisy, heardIn: "loud")
        try #require(!acted.isRejected && acted.text == "turn on the garage light", "\(acted.rejection ?? "")")
        #expect(acted.isClear)
        let asked = try asking.recognize(noisy, heardIn: "loud")
        #expect(asked.features?.heardThroughSuppression == true)
        #expect(asked.isRejected && asked.isAskedForTheRoom, "\(asked.rejection ?? "")")
        #expect(asked.guess == acted.words, "guess \(asked.guess)")
    }

    @Test func theReachForASuppressedRequestIsItsOwn() {
        let confirmation = NoisyConfirmation(below: 30, reach: 0.5, denoisedReach: 1.0)
        let threshold = -1.81, askBand = 0.28
        // 0.75 above the threshold: acted on as heard, asked about when heard through the suppressor.
        let margin = threshold + 0.75
        #expect(confirmation.judged(margin, signalToNoise: 10, threshold: threshold, askBand: askBand) == margin)
        let suppressed = confirmation.judged(margin, signalToNoise: 10, threshold: threshold, askBand: askBand, denoised: true)
        #expect(suppressed < threshold && suppressed >= threshold - askBand)
        #expect(confirmation.asksAbout(margin, signalToNoise: 10, threshold: threshold, askBand: askBand, denoised: true))
        #expect(!confirmation.asksAbout(margin, signalToNoise: 10, threshold: threshold, askBand: askBand))
        // In a quiet room neither is asked about.
        #expect(confirmation.judged(margin, signalToNoise: 40, threshold: threshold, askBand: askBand, denoised: true) == margin)
        #expect(NoisyConfirmation.standard.reach(denoised: true) == NoisyConfirmation.standardDenoisedReach)
        #expect(NoisyConfirmation.standard.reach(denoised: false) == NoisyConfirmation.standardReach)
    }
}
