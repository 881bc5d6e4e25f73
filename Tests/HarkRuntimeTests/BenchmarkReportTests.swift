@testable import HarkRuntime
@testable import HarkBench
import Foundation
import HarkIntents
import HarkSpeech
import Testing

/// The figures `hark bench` works out from one decoding at every margin threshold.
@Suite struct BenchmarkReportTests {
    static func outcome(_ name: String, margin: Double, mustReject: Bool = false, understood: Bool = true,
                        right: Bool = true, folder: String = "clean", voice: String? = nil) -> BenchmarkOutcome {
        BenchmarkOutcome(recording: name, folder: folder, voice: voice, mustReject: mustReject, margin: margin,
                         understood: understood, intentRight: right, commandRight: right,
                         slotConfusions: right ? [] : ["name: garage light → bedroom_light"], account: "heard something")
    }

    static let outcomes = [
        outcome("a", margin: -0.5), outcome("b", margin: -1.0), outcome("c", margin: -2.2),
        outcome("d", margin: -1.2, right: false),
        outcome("e", margin: -3.0, understood: false),
        outcome("outside1", margin: -2.6, mustReject: true, folder: "noisy", voice: "flite:awb"),
        outcome("outside2", margin: -0.9, mustReject: true, understood: false, folder: "noisy", voice: "flite:awb"),
    ]

    /// A sidecar names the slot as Wyoming clients are told it: "state", which an imported home
    /// may hear as its parameter "state_2" (a slot that is two parameters).
    @Test func aSlotHeardAsAnotherParameterOfTheSameSlotIsRight() throws {
        let app = try AppCatalog.manifest(yaml: """
            name: Home
            types:
              LockState: {values: [locked, unlocked]}
              DoorState: {values: [{spoken: open, id: "on"}, {spoken: closed, id: "off"}]}
            intents:
              GetState:
                parameters:
                  state: {type: LockState}
                  state_2: {type: DoorState, slot: state}
                phrases: ["is the door <state>", "is the window <state_2>"]
                responses: {success: Done.}
            """, identifier: "home")
        let expected = try JSONDecoder().decode(ExpectedUnderstanding.self, from: Data("""
            {"text": "is the window closed", "intent": {"name": "GetState"}, "slots": {"state": "off"}}
            """.utf8))
        func heard(_ slots: [String: String]) -> BenchmarkOutcome {
            let turn = TurnReport(recording: "window.wav", text: "is the window closed", intent: "GetState", app: "home", slots: slots,
                                  reply: "Done.", confidence: 1, margin: 0, rejected: false, rejection: nil,
                                  timings: .init(audioSeconds: 1, decodeSeconds: 0, speechSeconds: 0, recordingSeconds: 1))
            return Benchmark.outcome(turn, expected: expected, url: URL(fileURLWithPath: "/clean/window.wav"),
                                     catalog: AppCatalog(apps: [app]))
        }
        #expect(heard(["state_2": "off"]).commandRight)
        #expect(!heard(["state_2": "on"]).commandRight)
        #expect(!heard([:]).commandRight)
    }

    @Test func judgesEveryRecordingAtTheSetting() {
        let report = BenchmarkReport(outcomes: Self.outcomes, threshold: -1.8)
        #expect(report.mustAccept == 5 && report.mustReject == 2)
        // c (below the threshold) and e (not understood at all) are rejected.
        #expect(report.falseRejections == 2)
        #expect(report.commandsAccepted == 2)
        #expect(report.misrecognitions == 1)
        #expect(report.slotConfusions == ["name: garage light → bedroom_light": 1])
        // outside1 is below the threshold; outside2 was never understood.
        #expect(report.falseAcceptances == 0)
        #expect(report.byFolder["clean"]?.commandsAccepted == 2)
        #expect(report.byFolder["noisy"]?.mustReject == 2)
        #expect(report.byVoice.keys.sorted() == ["flite:awb"])
    }

    /// A command thrown away by the threshold is listed with every figure of its margin, so the
    /// list says which one fell short, as `hark run` does.
    @Test func aRejectedCommandSaysWhichFigureFellShort() throws {
        var long = Self.outcome("long", margin: -6.3)
        // A phrase that fits, inside 4.6 s of other speech in a room at 5 dB.
        var features = ConfidenceFeatures(frames: 1537, wordFrames: 260, loopSpeechFrames: 721, wordMargin: -1.45,
                                          silenceMargin: -0.36, words: 6)
        features.signalToNoise = 5
        long.features = features
        long.weakestWord = WordFit(word: "turn", margin: -2.05, frames: 62)
        let report = BenchmarkReport(outcomes: [long], threshold: -1.78)
        let line = try #require(report.failures.first)
        #expect(line.hasPrefix("long: rejected (margin -6.30: words -1.45, weakest word \"turn\""), "\(line)")
        #expect(line.contains("36 % of the speech in words, 4.6 s of speech besides them, -0.30 for noise (SNR 5 dB)"), "\(line)")
    }

    @Test func setsPlainPocketsphinxBesideHarkByGroup() throws {
        func compared(_ name: String, margin: Double, mustReject: Bool = false, right: Bool = true,
                      baselineUnderstood: Bool, baselineRight: Bool, noise: String, snr: Double) -> BenchmarkOutcome {
            var outcome = Self.outcome(name, margin: margin, mustReject: mustReject, right: right)
            outcome.noise = noise
            outcome.snr = snr
            outcome.baseline = BaselineOutcome(understood: baselineUnderstood, commandRight: baselineRight, account: "plain")
            return outcome
        }
        let outcomes = [
            // Right, and kept; right, but thrown away by the threshold; wrong for both.
            compared("a", margin: -0.5, baselineUnderstood: true, baselineRight: true, noise: "tap", snr: 10),
            compared("b", margin: -2.5, baselineUnderstood: true, baselineRight: true, noise: "tap", snr: 5),
            compared("c", margin: -0.5, right: false, baselineUnderstood: true, baselineRight: false, noise: "cat", snr: 5),
            compared("d", margin: -0.5, baselineUnderstood: false, baselineRight: false, noise: "cat", snr: 5),
            // To reject: the baseline takes both, Hark one.
            compared("x", margin: -0.2, mustReject: true, baselineUnderstood: true, baselineRight: false, noise: "tap", snr: 5),
            compared("y", margin: -3.0, mustReject: true, baselineUnderstood: true, baselineRight: false, noise: "cat", snr: 10),
        ]
        let report = BenchmarkReport(outcomes: outcomes, threshold: -1.6)
        let baseline = try #require(report.baseline)
        #expect(baseline.commandsAccepted == 2 && baseline.misrecognitions == 1 && baseline.rejections == 1)
        #expect(baseline.falseAcceptances == 2)
        let tap = try #require(report.byNoise["tap"])
        #expect(tap.commandsAccepted == 1 && tap.baselineCommandsAccepted == 2 && tap.falseRejectionsByThreshold == 1)
        #expect(tap.falseAcceptances == 1 && tap.baselineFalseAcceptances == 1)
        #expect(report.bySNR.keys.sorted() == ["05 dB", "10 dB"])
        #expect(report.bySNR["05 dB"]?.commandsAccepted == 1)
        let summary = report.summary()
        #expect(summary.contains("plain pocketsphinx"))
        #expect(summary.contains("by noise"))
        #expect(summary.contains("thrown away"))
        // No CPU measured: no ratio. With both measured, Hark's CPU over plain pocketsphinx's.
        #expect(report.cpuAgainstBaseline == nil && !summary.contains("Hark's CPU"))
        var timed = report
        timed.cpuSeconds = 6
        timed.audioSeconds = 100
        timed.baseline?.cpuSeconds = 2
        timed.baseline?.audioSeconds = 100
        #expect(timed.cpuAgainstBaseline == 3)
        #expect(timed.summary().contains("Hark's CPU:           3.00 × plain pocketsphinx's"))
        #expect(timed.markdown().contains("real-time factor 0.060 (plain pocketsphinx 0.020; Hark 3.00× its CPU)"))
        // Without a baseline there is no baseline section.
        #expect(!BenchmarkReport(outcomes: Self.outcomes, threshold: -1.8).summary().contains("plain pocketsphinx"))
    }

    /// The table docs/benchmarks.md keeps, written by the benchmark itself (`--markdown`).
    @Test func writesTheTableTheDocumentKeeps() {
        func outcome(_ name: String, _ folder: String, margin: Double, mustReject: Bool = false, right: Bool = true,
                     plain: (understood: Bool, right: Bool)? = nil) -> BenchmarkOutcome {
            var outcome = Self.outcome(name, margin: margin, mustReject: mustReject, right: right, folder: folder)
            outcome.baseline = plain.map { BaselineOutcome(understood: $0.understood, commandRight: $0.right, account: "plain") }
            return outcome
        }
        let outcomes = [
            // clean: right; asked about (just below the threshold) and right; wrong; a rejection let through.
            outcome("a", "clean", margin: -0.5, plain: (true, true)),
            outcome("b", "clean", margin: -1.7, plain: (true, false)),
            outcome("c", "clean", margin: -0.5, right: false, plain: (true, false)),
            outcome("x", "clean", margin: -0.2, mustReject: true, plain: (true, false)),
            // snr10: rejected far below the band; plain pocketsphinx heard it right.
            outcome("d", "snr10", margin: -3.5, plain: (true, true)),
        ]
        var report = BenchmarkReport(outcomes: outcomes, threshold: -1.6)
        report.measureAsking(band: 0.28)
        let lines = report.markdown().split(separator: "\n").map(String.init)
        #expect(lines[0].hasPrefix("| condition | commands | Hark"))
        #expect(lines[0].contains("plain pocketsphinx"))
        #expect(lines.contains("| clean | 3 | 1 / 1 / **1** | 2 | 1 of 1 | 1 / **2** | 1 of 1 |"))
        #expect(lines.contains("| snr10 | 1 | 0 / 0 / **0** | 1 | 0 of 0 | 1 / **0** | 0 of 0 |"))
        #expect(lines.contains("| all | 4 | 1 / 1 / **1** | 3 | 1 of 1 | 2 / **2** | 1 of 1 |"))
        #expect(lines.last?.hasPrefix("Threshold -1.60, ask band 0.28") == true)
        // Without plain pocketsphinx, no columns for it.
        let alone = BenchmarkReport(outcomes: Self.outcomes, threshold: -1.8).markdown()
        #expect(!alone.contains("plain pocketsphinx"))
        #expect(alone.contains("| clean | 5 | 2 / 0 / **1** | 3 | 0 of 0 |"))
    }

    @Test func countsWhatTheAskBandWouldAskAbout() throws {
        var report = BenchmarkReport(outcomes: Self.outcomes + [
            Self.outcome("outside3", margin: -2.0, mustReject: true),
            Self.outcome("f", margin: -1.9),
        ], threshold: -1.8)
        report.measureAsking(band: 0.5)
        // Within 0.5 below -1.8: c (-2.2, right), f (-1.9, right) and outside3 (-2.0, to reject);
        // not e (never understood), outside1 (-2.6, too far below) or anything accepted.
        let asking = try #require(report.asking)
        #expect(asking == AskFigures(band: 0.5, commandsRight: 2, commandsWrong: 0, mustReject: 1))
        // A narrower band asks about less; every table row is judged at its own width.
        let narrow = try #require(report.askingByBand.first { abs($0.band - 0.2) < 1e-9 })
        #expect(narrow.commandsRight == 1 && narrow.mustReject == 1)
        #expect(report.askingByBand.map(\.band) == [0.1, 0.2, 0.3, 0.4, 0.5, 0.8, 1.0])
        let summary = report.summary()
        #expect(summary.contains("asked \"Did you say …?\": 2 commands (2 named right, 0 wrong), 1/3 (33.3%) of the speech to reject"))
        #expect(summary.contains("margins -2.30 to -1.80"))
        // A band of 0 never asks: no figures at the setting, the table still shows the widths.
        report.measureAsking(band: 0)
        #expect(report.asking == nil)
        #expect(!report.summary().contains("asked \"Did you say"))
        #expect(report.askingByBand.count == 7)
    }

    /// The recogniser's stages as shares of all the benchmark's CPU, the dearest first, and what
    /// is left for the rest of the run.
    @Test func saysWhereTheCPUWent() {
        var report = BenchmarkReport(outcomes: Self.outcomes, threshold: -1.8)
        #expect(report.cpuByStageText == "not measured")
        report.cpuSeconds = 10
        report.decodeCPU.phoneLoop = 4
        report.decodeCPU.grammar = 3
        report.decodeCPU.rivals = 1.5
        report.decodeCPU.otherWords = 1
        report.decodeCPU.audio = 0.3
        #expect(report.cpuByStageText == "phone loop 40 %, grammar 30 %, rival words 15 %, other words 10 %, audio and front end 3 %, the rest 2 %")
        #expect(report.markdown().hasSuffix("CPU by stage: " + report.cpuByStageText + ".\n"))
    }

    /// Each group's real-time factor from its own recordings' CPU and length; none for a group
    /// whose recordings' CPU was not kept (a report written before it was).
    @Test func givesEachGroupItsOwnRealTimeFactor() {
        var outcomes = Self.outcomes
        for index in outcomes.indices where outcomes[index].folder == "noisy" {
            outcomes[index].cpuSeconds = 0.3
            outcomes[index].audioSeconds = 5
        }
        let report = BenchmarkReport(outcomes: outcomes, threshold: -1.8)
        // Two recordings of 5 s, 0.3 s of CPU each.
        #expect(abs((report.byFolder["noisy"]?.realTimeFactor ?? 0) - 0.06) < 1e-12)
        #expect(report.byFolder["clean"]?.realTimeFactor == nil)
        let lines = report.summary().split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("  noisy: ") && $0.hasSuffix(", real-time factor 0.060") })
        #expect(lines.contains { $0.hasPrefix("  clean: ") && !$0.contains("real-time factor") })
    }

    @Test func slotsAreWrittenInNameOrder() {
        // A dictionary's own order changes from run to run; accounts must not.
        let slots = ["state": "on", "name": "garage light", "colour": "red"]
        #expect(Benchmark.describe(slots) == "[\"colour\": \"red\", \"name\": \"garage light\", \"state\": \"on\"]")
        #expect(Benchmark.describe([:]) == "[:]")
    }

    @Test func tableCoversEveryQuarterAndTheSetting() throws {
        let report = BenchmarkReport(outcomes: Self.outcomes, threshold: -1.8)
        let thresholds = report.thresholds.map(\.threshold)
        #expect(thresholds.first == -4 && thresholds.last == 0)
        #expect(thresholds.contains(-1.8) && thresholds.contains(-1.75))
        #expect(thresholds == thresholds.sorted())
        let loosest = try #require(report.thresholds.first)
        #expect(loosest.falseAcceptances == 1 && loosest.falseRejections == 1 && loosest.commandsAccepted == 3)
        let strictest = try #require(report.thresholds.last)
        #expect(strictest.falseRejections == 5 && strictest.falseAcceptances == 0)
        #expect(report.summary().contains("← setting"))
    }

    @Test func findsTheLoosestThresholdThatKeepsFalseAcceptancesDown() throws {
        let report = BenchmarkReport(outcomes: Self.outcomes, threshold: -1.8)
        // outside1's margin is -2.6: anything above it rejects it, and -2.2 is the next margin up.
        let chosen = try #require(report.threshold(forFalseAcceptances: 0.01))
        #expect(chosen.threshold == -2.2)
        #expect(chosen.falseAcceptances == 0 && chosen.falseRejections == 1)
        // With one false acceptance in two allowed, no threshold is needed at all.
        #expect(report.threshold(forFalseAcceptances: 0.5)?.threshold == -.infinity)
    }
}

/// `hark bench --spot-wake` follows a request after a tentative wake word up as the live loop
/// does (`TentativeWakeFollowUp`), from its margin: acted on when clear, asked about (counted in
/// the ask band) when a noisy room asks about it first, else dropped.
@Suite struct TentativeWakeBenchmarkTests {
    static let threshold = -1.8, band = 0.28

    static func followed(margin: Double, words: Int = 4, signalToNoise: Double?, confirmation: NoisyConfirmation? = .standard,
                         telephoneBand: Bool = false, denoised: Bool = false, agreed: Bool = false,
                         telephoneBandReach: Double? = RecognizerConfiguration.standardTelephoneBandReach) -> BenchmarkOutcome {
        var outcome = BenchmarkReportTests.outcome("turn", margin: margin)
        var features = ConfidenceFeatures(frames: 100, wordFrames: 60, loopSpeechFrames: 60, wordMargin: margin,
                                          silenceMargin: 0, words: words)
        features.signalToNoise = signalToNoise
        features.telephoneBand = telephoneBand
        features.heardThroughSuppression = denoised
        features.hearingsAgreed = agreed
        outcome.features = features
        Benchmark.followTentativeWake(&outcome, words: words, threshold: threshold, askBand: band, confirmation: confirmation,
                                      telephoneBandReach: telephoneBandReach)
        return outcome
    }

    @Test func aTelephoneBandRequestIsAskedAboutInAQuietRoomToo() {
        let reach = RecognizerConfiguration.standardTelephoneBandReach
        let squeezed = NoisyConfirmation.squeezed(Self.threshold + 0.1, threshold: Self.threshold, askBand: Self.band, reach: reach)
        let asked = Self.followed(margin: squeezed, signalToNoise: 50, telephoneBand: true)
        #expect(asked.margin == squeezed && asked.account.hasPrefix("after a tentative wake word, asked about"))
        #expect(Self.followed(margin: squeezed, signalToNoise: 50, telephoneBand: true, telephoneBandReach: nil).margin
                    == Benchmark.unheardMargin)
        // Clear only past the telephone band's reach.
        let between = Self.threshold + (NoisyConfirmation.standardReach + reach) / 2
        #expect(Self.followed(margin: between, signalToNoise: 50).margin == between)
        #expect(Self.followed(margin: between, signalToNoise: 50, telephoneBand: true).margin == Benchmark.unheardMargin)
    }

    @Test func aSuppressedRequestHeardTheSameBothWaysIsClearFromTheAgreedReach() {
        // Between the agreed reach and a suppressed request's: acted on as the live loop acts on it
        // when both hearings agree, else neither clear nor in the ask band, so let go.
        let margin = Self.threshold + (NoisyConfirmation.standardAgreedReach + NoisyConfirmation.standardDenoisedReach) / 2
        let agreed = Self.followed(margin: margin, signalToNoise: 8, denoised: true, agreed: true)
        #expect(agreed.margin == margin && !agreed.account.contains("tentative"))
        #expect(Self.followed(margin: margin, signalToNoise: 8, denoised: true).margin == Benchmark.unheardMargin)
        // Asked about when agreeing hearings' margin is squeezed into the band from the threshold up.
        let asked = NoisyConfirmation.standard.judged(Self.threshold + 0.1, signalToNoise: 8, threshold: Self.threshold,
                                                      askBand: Self.band, denoised: true, agreed: true)
        let followed = Self.followed(margin: asked, signalToNoise: 8, denoised: true, agreed: true)
        #expect(followed.margin == asked && followed.account.hasPrefix("after a tentative wake word, asked about"))
    }

    @Test func aClearRequestIsActedOnAndOneANoisyRoomAsksAboutAskedAbout() {
        let clear = Self.followed(margin: Self.threshold + NoisyConfirmation.standardReach + 0.1, signalToNoise: 50)
        #expect(clear.margin == Self.threshold + NoisyConfirmation.standardReach + 0.1 && !clear.account.contains("tentative"))

        // Asked about for a noisy room (its margin already in the band, from the threshold's image up): kept.
        let forTheRoom = NoisyConfirmation.standard.judged(Self.threshold + 0.1, signalToNoise: 10, threshold: Self.threshold,
                                                           askBand: Self.band)
        let noisy = Self.followed(margin: forTheRoom, signalToNoise: 10)
        #expect(noisy.margin == forTheRoom && noisy.account.hasPrefix("after a tentative wake word, asked about"))
        // With no room asking first (confirm_in_noise_below: never), the same margin is let go.
        #expect(Self.followed(margin: forTheRoom, signalToNoise: 10, confirmation: nil).margin == Benchmark.unheardMargin)
    }

    @Test func aQuietRoomsLessSureRequestAGuessALoneWordAndAnythingLessAreDropped() {
        // Accepted in a quiet room, not clearly: a sure wake word would act on it, a tentative one does not.
        let quiet = Self.followed(margin: Self.threshold + 0.2, signalToNoise: 50)
        #expect(quiet.margin == Benchmark.unheardMargin && quiet.account.hasPrefix("after a tentative wake word, dropped"))
        // Below the threshold in a quiet room: a sure wake word would ask, a tentative one does not.
        #expect(Self.followed(margin: Self.threshold - 0.05, signalToNoise: 50).margin == Benchmark.unheardMargin)
        // In a noisy room, below what the threshold is judged as there.
        let belowTheImage = NoisyConfirmation.standard.judged(Self.threshold - 0.01, signalToNoise: 10, threshold: Self.threshold,
                                                              askBand: Self.band)
        #expect(Self.followed(margin: belowTheImage, signalToNoise: 10).margin == Benchmark.unheardMargin)
        let lone = Self.followed(margin: Self.threshold + 1, words: 1, signalToNoise: 50)
        #expect(lone.margin == Benchmark.unheardMargin && lone.account.hasPrefix("after a tentative wake word, dropped"))
    }
}
