import Foundation
import HarkGrammar
@testable import HarkSpeech
import Testing

/// The recogniser's pipeline: which stages a configuration runs, in which order, and how the
/// verdict is read from a judgement. Pure logic; `RecognizerTests` decodes real audio through it.
@Suite(.serialized) struct RecognitionStagesTests {
    static func names(_ stages: [Any]) -> [String] { stages.map { String(describing: type(of: $0)) } }

    @Test func theAudioStagesRunInOrderAndOnlyWhenAskedFor() {
        var configuration = RecognizerConfiguration()
        #expect(Self.names(AudioStages.configured(by: configuration))
                    == ["TransientSuppression", "RequestDenoising", "NoiseFloorStage"])
        configuration.denoisesBelow = nil
        #expect(Self.names(AudioStages.configured(by: configuration)) == ["TransientSuppression", "NoiseFloorStage"])
        configuration.denoisesAbove = -50
        #expect(Self.names(AudioStages.configured(by: configuration))
                    == ["TransientSuppression", "RequestDenoising", "NoiseFloorStage"])
        configuration.suppressesTransients = false
        configuration.noiseFloor = nil
        #expect(Self.names(AudioStages.configured(by: configuration)) == ["RequestDenoising"])
    }

    @Test func theAudioGoesThroughEachStageInTurn() throws {
        // A faint room, a click 50 ms in (as `TransientSuppressorTests` makes one), then more room.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func random(_ range: ClosedRange<Int>) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return range.lowerBound + Int((state >> 33) % UInt64(range.count))
        }
        var samples = (0..<16_000).map { _ in Int16(random(-30...30)) }
        for index in 800..<1_344 { samples[index] = Int16(random(-32_000...32_000)) / (index < 864 ? 1 : 8) }
        let heard = HeardAudio(samples)
        let stages = AudioStages.configured(by: RecognizerConfiguration())
        let out = try AudioStages.run(stages, on: heard)
        let clickless = try AudioStages.run(Array(stages.prefix(1)), on: heard)
        #expect(out.count == samples.count)
        #expect(clickless[800..<1_344].map { abs(Int($0)) }.max()! < 1_000, "the click is turned down first")
        #expect(out[800..<1_344].map { abs(Int($0)) }.max()! < 1_000, "and stays down once the floor is added")
        #expect(out != clickless, "the floor is added after it")
        // Without stages the audio is as heard.
        #expect(try AudioStages.run([], on: heard) == samples)
    }

    @Test func theJudgingStagesFollowTheConfiguration() throws {
        let contest = RivalContest(decoder: try Self.recognizer().decoder)
        var configuration = RecognizerConfiguration()
        let names = { (configuration: RecognizerConfiguration) in
            Self.names(JudgingStages.configured(by: configuration, contest: contest))
        }
        #expect(names(configuration) == ["PhraseStrictness", "RivalWords", "AskingFirst"])
        configuration.noisyConfirmation = nil
        #expect(names(configuration) == ["PhraseStrictness", "RivalWords", "AskingFirst"], "for a telephone-band microphone")
        configuration.telephoneBandReach = nil
        #expect(names(configuration) == ["PhraseStrictness", "RivalWords"])
        configuration.measuresConfidence = false
        #expect(names(configuration) == ["PhraseStrictness"])
    }

    @Test func askingFirstKeepsTheMarginAsHeard() throws {
        let threshold = Confidence.defaultThreshold, band = Confidence.defaultAskBand
        let stage = AskingFirst(confirmation: .standard, telephoneBandReach: nil, threshold: threshold, askBand: band)
        var judged = Judgement(words: ["turn", "off"])
        judged.margin = threshold + 0.2
        stage.judge(&judged, in: try Self.context(signalToNoise: 8))
        #expect(judged.heardMargin == threshold + 0.2)
        #expect(judged.margin < threshold && judged.margin >= threshold - band)

        var quiet = Judgement(words: ["turn", "off"])
        quiet.margin = threshold + 0.2
        stage.judge(&quiet, in: try Self.context(signalToNoise: 40))
        #expect(quiet.margin == threshold + 0.2)
    }

    @Test func aTelephoneBandRequestIsAskedAboutInAnyRoom() throws {
        let threshold = Confidence.defaultThreshold, band = Confidence.defaultAskBand
        let reach = RecognizerConfiguration.standardTelephoneBandReach
        final class Measured: @unchecked Sendable { var count = 0 }
        let measured = Measured()
        func judged(_ margin: Double, signalToNoise: Double, telephoneBand: Bool, reach: Double? = reach,
                    confirmation: NoisyConfirmation? = .standard) throws -> Judgement {
            var stage = AskingFirst(confirmation: confirmation, telephoneBandReach: reach, threshold: threshold, askBand: band)
            stage.isTelephoneBand = { _ in measured.count += 1; return telephoneBand }
            var judgement = Judgement(words: ["lights", "on"])
            judgement.margin = margin
            stage.judge(&judgement, in: try Self.context(signalToNoise: signalToNoise))
            #expect(judgement.heardMargin == margin)
            return judgement
        }
        // A quiet room: through a telephone-band microphone, asked about up to the reach.
        let asked = try judged(threshold + reach - 0.05, signalToNoise: 50, telephoneBand: true)
        #expect(asked.margin < threshold && asked.margin >= threshold - band)
        #expect(asked.telephoneBand == true)
        #expect(try judged(threshold + 0.3, signalToNoise: 50, telephoneBand: false).margin == threshold + 0.3)
        #expect(try judged(threshold + 0.3, signalToNoise: 50, telephoneBand: true, reach: nil).margin == threshold + 0.3)
        // Without the noisy room's asking, the telephone band still asks.
        #expect(try judged(threshold + 0.3, signalToNoise: 50, telephoneBand: true, confirmation: nil).margin < threshold)
        // A noisy room too: the longer reach, and the order of margins kept.
        let both = try judged(threshold + 0.55, signalToNoise: 10, telephoneBand: true).margin
        let roomOnly = try judged(threshold + 0.55, signalToNoise: 10, telephoneBand: false).margin
        #expect(both < threshold && roomOnly == threshold + 0.55)
        #expect(try judged(threshold + 0.2, signalToNoise: 10, telephoneBand: true).margin < both)
        // Only a margin the band could move is measured: not one past the reach, nor one below the ask band.
        let before = measured.count
        let clear = try judged(threshold + reach + 0.05, signalToNoise: 50, telephoneBand: true)
        let lost = try judged(threshold - band - 0.05, signalToNoise: 50, telephoneBand: true)
        #expect(clear.margin == threshold + reach + 0.05 && lost.margin == threshold - band - 0.05)
        #expect(clear.telephoneBand == nil && lost.telephoneBand == nil && measured.count == before)
    }

    @Test func aTelephoneBandRequestInANoisyRoomIsAskedAboutFurtherUp() throws {
        let threshold = Confidence.defaultThreshold, band = Confidence.defaultAskBand
        let quietReach = RecognizerConfiguration.standardTelephoneBandReach
        let noisyReach = NoisyConfirmation.standardTelephoneBandReach
        #expect(noisyReach > quietReach && noisyReach > NoisyConfirmation.standardReach)
        func judged(_ margin: Double, signalToNoise: Double, telephoneBand: Bool,
                    reach: Double? = quietReach) throws -> Judgement {
            var stage = AskingFirst(confirmation: .standard, telephoneBandReach: reach, threshold: threshold, askBand: band)
            stage.isTelephoneBand = { _ in telephoneBand }
            var judgement = Judgement(words: ["press", "two"])
            judgement.margin = margin
            stage.judge(&judgement, in: try Self.context(signalToNoise: signalToNoise))
            return judgement
        }
        // Between the two reaches: asked about through the band in a noisy room, and only there.
        let between = threshold + (quietReach + noisyReach) / 2
        let noisy = try judged(between, signalToNoise: 10, telephoneBand: true)
        #expect(noisy.margin < threshold && noisy.margin >= threshold - band && noisy.telephoneBand == true)
        let quiet = try judged(between, signalToNoise: 50, telephoneBand: true)
        #expect(quiet.margin == between && quiet.telephoneBand == nil)
        #expect(try judged(between, signalToNoise: 10, telephoneBand: false).margin == between)
        // A telephone band not asked about at all (`confirm_telephone_band: never`) is not asked about in noise either.
        #expect(try judged(between, signalToNoise: 10, telephoneBand: true, reach: nil).margin == between)
        // Past the noisy room's reach it is acted on.
        let past = threshold + noisyReach + 0.05
        #expect(try judged(past, signalToNoise: 10, telephoneBand: true).margin == past)
    }

    @Test func theVerdictSaysWhyAndWhetherToAsk() throws {
        let configuration = RecognizerConfiguration()
        let phrase = try Self.phrase()
        let threshold = configuration.rejectionMargin
        func verdict(_ words: [String], margin: Double, heard: Double? = nil, formsPhrase: Bool = true,
                     otherWords: Bool = false, signalToNoise: Double = 8, telephoneBand: Bool = false) -> Verdict {
            var judged = Judgement(words: words)
            judged.margin = margin
            judged.heardMargin = heard
            return Verdict(judged, interpretation: formsPhrase ? phrase : nil, otherWordsHeard: otherWords,
                           signalToNoise: signalToNoise, telephoneBand: telephoneBand, configuration: configuration)
        }
        let clear = verdict(["lights", "on"], margin: threshold + 1)
        #expect(clear.rejection == nil && clear.isClear && !clear.isGuess)

        let nothing = verdict([], margin: 0)
        #expect(nothing.rejection == "nothing in the grammar matched")

        let other = verdict(["lights"], margin: threshold + 1, otherWords: true)
        #expect(other.rejection == "other words fit better (\"lights\")")

        let guess = verdict(["lights", "on"], margin: threshold - 0.1)
        #expect(guess.rejection?.hasPrefix("too unsure") == true && guess.isGuess)

        let tooFar = verdict(["lights", "on"], margin: configuration.askMargin - 0.1)
        #expect(tooFar.rejection != nil && !tooFar.isGuess)

        // Asked about only because the room was noisy: said so, and worth asking.
        let noisy = verdict(["lights", "on"], margin: threshold - 0.1, heard: threshold + 0.2)
        #expect(noisy.rejection?.hasPrefix("heard only just well enough to act on in a noisy room") == true)
        #expect(noisy.isGuess && !noisy.isClear)

        // Asked about only for the telephone-band microphone, in a quiet room: said so.
        let telephone = verdict(["lights", "on"], margin: threshold - 0.1, heard: threshold + 0.2, signalToNoise: 50,
                                telephoneBand: true)
        #expect(telephone.rejection == "heard only just well enough to act on through a telephone-band microphone (margin "
                    + String(format: "%.2f", threshold + 0.2) + "): worth asking")
        #expect(telephone.isGuess && telephone.isAskedForTheRoom)
        // Clear takes the telephone band's reach when it is the longer.
        let between = threshold + (NoisyConfirmation.standardReach + RecognizerConfiguration.standardTelephoneBandReach) / 2
        #expect(verdict(["lights", "on"], margin: between, signalToNoise: 50).isClear)
        #expect(!verdict(["lights", "on"], margin: between, signalToNoise: 50, telephoneBand: true).isClear)

        // Acted on, but not clearly enough that a noisy room would not have asked first.
        let justEnough = verdict(["lights", "on"], margin: threshold + 0.1)
        #expect(justEnough.rejection == nil && !justEnough.isClear)

        let noPhrase = verdict(["lights", "on"], margin: threshold + 1, formsPhrase: false)
        #expect(noPhrase.rejection == "the words heard do not form a phrase of the grammar")
    }
}

extension RecognitionStagesTests {
    /// A real recogniser with a grammar of two phrases, for a real judging context. The suite is
    /// serialised, so it is never used concurrently.
    nonisolated(unsafe) static let shared: Result<Recognizer, any Error> = Result {
        let recognizer = try Recognizer()
        try recognizer.use(Grammar(rules: [.init(tag: "Lights", template: try PhraseTemplate("lights (on | off)"))], values: [:]))
        return recognizer
    }
    static func recognizer() throws -> Recognizer { try shared.get() }

    static func phrase() throws -> Interpretation {
        try #require(try recognizer().inUse?.graph.interpret(["lights", "on"]))
    }

    static func context(signalToNoise: Double?) throws -> JudgingContext {
        let recognizer = try recognizer()
        let grammar = try #require(recognizer.inUse)
        let cepstra = try recognizer.cepstra(of: [Int16](repeating: 0, count: 8_000), heardIn: nil)
        return JudgingContext(grammar: grammar, cepstra: cepstra, interpretation: try phrase(), signalToNoise: signalToNoise)
    }
}
