import Foundation
import HarkAudio
import HarkGrammar

/// What the two passes say about one grammar search's path, and what the judging stages made of
/// it: its words (joined words split again), the margin judged against the threshold, and what
/// that margin is made of.
struct Judgement {
    var words: [String]
    var utteranceMargin = 0.0
    var wordFits: [WordFit] = []
    var features: ConfidenceFeatures?
    /// Where speech ended by the phone loop: a grammar search stretches its last word over
    /// the silence after it, the phone loop does not.
    var lastSoundFrame: Int?
    var weakest: WordFit?
    var noisePenalty = 0.0
    /// The phrase's own `Grammar.Rule.strictness`, taken off the margin.
    var strictness = 0.0
    /// The rival word that set the margin (`RivalContest`), if one did.
    var closeRival: RivalOutcome?
    var margin = 0.0
    /// The margin as heard, before `AskingFirst` moved it into the ask band; nil when that
    /// stage did not run.
    var heardMargin: Double?
    /// CPU seconds the rival contest took (`DecodeCPU.rivals`).
    var rivalSeconds = 0.0
    /// Whether the audio sounded telephone-band (`TelephoneBand`); nil when not measured, as it
    /// is only for a margin it could move (`AskingFirst`).
    var telephoneBand: Bool?
}

/// What a judging stage may look at besides the judgement.
struct JudgingContext {
    let grammar: Recognizer.InstalledGrammar
    let cepstra: Cepstra
    /// The phrase the words form, if any.
    let interpretation: Interpretation?
    let signalToNoise: Double?
    /// Heard through noise suppression (`RequestDenoising`).
    var denoised = false
    /// Such a request's two hearings formed the same phrase (`SecondHearing`).
    var agreed = false
    /// The audio as heard, before the audio stages (`TelephoneBand` measures it).
    var heardSamples: [Int16] = []
}

/// One step of judging how sure Hark may be of a hearing (the last part of `Recognizer`'s
/// pipeline, after the margin of the two passes and its noise penalty). A stage only lowers or
/// reorders the margin; the verdict is read from it afterwards (`Verdict`).
protocol JudgingStage {
    func judge(_ judged: inout Judgement, in context: JudgingContext) throws(RecognitionError)
}

/// A phrase that must be heard more surely than others ("turn it up", Hark's own commands at the
/// top level) is judged lower by its `Grammar.Rule.strictness`.
struct PhraseStrictness: JudgingStage {
    func judge(_ judged: inout Judgement, in context: JudgingContext) {
        judged.strictness = context.interpretation.map { context.grammar.grammar.rules[$0.ruleIndex].strictness } ?? 0
        judged.margin -= judged.strictness
    }
}

/// The words that decide the action, searched beside the rivals the grammar allows in their place
/// (`RivalContest`). Skipped for what is rejected without a question whatever its rivals. The
/// contest's outcome is kept with the features; with a `clearance`, the margin falls to the
/// contest's (`Confidence.rivalMargin`) when that is lower.
struct RivalWords: JudgingStage {
    let contest: RivalContest
    let clearance: Double?
    let askMargin: Double

    func judge(_ judged: inout Judgement, in context: JudgingContext) throws(RecognitionError) {
        guard context.interpretation != nil, judged.margin >= askMargin else { return }
        let rivals = context.grammar.graph.rivals(of: judged.words)
        guard !rivals.isEmpty else { return }
        let (contested, seconds) = try ThreadClock.measure { () throws(RecognitionError) in
            try contest.judge(judged.words, rivals: rivals, cepstra: context.cepstra, returningTo: context.grammar.search)
        }
        judged.rivalSeconds = seconds
        guard let outcome = contested else { return }
        judged.features?.rival = outcome
        if let clearance {
            let rivalMargin = Confidence.rivalMargin(gap: outcome.gap, clearance: clearance)
            if rivalMargin < judged.margin {
                judged.margin = rivalMargin
                judged.closeRival = outcome
            }
        }
    }
}

/// A request heard only just well enough is asked about first in a noisy room
/// (`NoisyConfirmation`) and through a telephone-band microphone (`telephoneBandReach`, any
/// room); where both apply, the longer reach. The band is measured only for a margin it could
/// move, from the bottom of the ask band up to the reach: a request heard clearly, or not at all,
/// costs no measuring.
struct AskingFirst: JudgingStage {
    let confirmation: NoisyConfirmation?
    let telephoneBandReach: Double?
    let threshold: Double
    let askBand: Double
    var isTelephoneBand: ([Int16]) -> Bool = TelephoneBand.isTelephoneBand

    func judge(_ judged: inout Judgement, in context: JudgingContext) {
        let heard = judged.margin
        judged.heardMargin = heard
        if let bandReach = NoisyConfirmation.bandReach(confirmation, signalToNoise: context.signalToNoise,
                                                       telephoneBandReach: telephoneBandReach),
           heard >= threshold - askBand, heard < threshold + bandReach {
            judged.telephoneBand = isTelephoneBand(context.heardSamples)
        }
        let reach = NoisyConfirmation.askingReach(confirmation, signalToNoise: context.signalToNoise, denoised: context.denoised,
                                                  agreed: context.agreed, telephoneBandReach: judged.telephoneBand == true ? telephoneBandReach : nil)
        if let reach { judged.margin = NoisyConfirmation.squeezed(heard, threshold: threshold, askBand: askBand, reach: reach) }
    }
}

enum JudgingStages {
    /// The stages `configuration` asks for, in order. Without the confidence pass there is no
    /// margin to judge, so only the phrase's strictness is taken off.
    static func configured(by configuration: RecognizerConfiguration, contest: RivalContest) -> [any JudgingStage] {
        var stages: [any JudgingStage] = [PhraseStrictness()]
        guard configuration.measuresConfidence else { return stages }
        stages.append(RivalWords(contest: contest, clearance: configuration.rivalClearance, askMargin: configuration.askMargin))
        if configuration.noisyConfirmation != nil || configuration.telephoneBandReach != nil {
            stages.append(AskingFirst(confirmation: configuration.noisyConfirmation,
                                      telephoneBandReach: configuration.telephoneBandReach,
                                      threshold: configuration.judgedAt ?? configuration.rejectionMargin,
                                      askBand: configuration.askBand))
        }
        return stages
    }
}

/// What Hark does with a judged hearing: act on it, ask "Did you say …?", or reject it and why.
struct Verdict {
    /// Why the hearing is rejected; nil when it is acted on.
    var rejection: String?
    /// Rejected only for want of confidence, and not by much: worth asking about.
    var isGuess = false
    /// Acted on, and heard well enough that a noisy room would not have asked first.
    var isClear = false
    /// Asked about only because the room is noisy: heard well enough to act on in a quiet one.
    var isAskedForTheRoom = false

    init(_ judged: Judgement, interpretation: Interpretation?, otherWordsHeard: Bool, signalToNoise: Double?,
         denoised: Bool = false, agreed: Bool = false, telephoneBand: Bool = false, configuration: RecognizerConfiguration) {
        let words = judged.words, margin = judged.margin, heardMargin = judged.heardMargin ?? judged.margin
        let threshold = configuration.rejectionMargin
        if words.isEmpty {
            rejection = "nothing in the grammar matched"
        } else if otherWordsHeard {
            rejection = "other words fit better (\"\(words.joined(separator: " "))\")"
        } else if configuration.measuresConfidence, margin < threshold {
            rejection = heardMargin >= threshold
                ? Self.askedFirst(heardMargin: heardMargin, signalToNoise: signalToNoise, telephoneBand: telephoneBand,
                                  configuration: configuration)
                : "too unsure (\(Confidence.describe(features: judged.features, utterance: judged.utteranceMargin, weakest: judged.weakest, noisePenalty: judged.noisePenalty, signalToNoise: signalToNoise, strictness: judged.strictness))\(judged.closeRival.map { ", \"\($0.word)\" nearly as likely as \"\(words[$0.position])\" (" + String(format: "%.2f", $0.gap) + ")" } ?? "") < \(threshold))"
            isGuess = interpretation != nil && margin >= configuration.askMargin
            isAskedForTheRoom = isGuess && heardMargin >= threshold
        } else if interpretation == nil {
            rejection = "the words heard do not form a phrase of the grammar"
        }
        let reach = NoisyConfirmation.clearReach(configuration.noisyConfirmation, denoised: denoised, agreed: agreed,
                                                 telephoneBandReach: telephoneBand ? configuration.telephoneBandReach : nil)
        isClear = rejection == nil
            && (!configuration.measuresConfidence || heardMargin >= (configuration.judgedAt ?? threshold) + reach)
    }

    /// Why a request heard well enough to act on in a quiet room is asked about first: the room's
    /// noise, or the telephone-band microphone it came through.
    private static func askedFirst(heardMargin: Double, signalToNoise: Double?, telephoneBand: Bool,
                                   configuration: RecognizerConfiguration) -> String {
        let margin = String(format: "%.2f", heardMargin)
        let noisy = (signalToNoise ?? -.infinity) < (configuration.noisyConfirmation?.below ?? -.infinity)
        if telephoneBand && !noisy {
            return "heard only just well enough to act on through a telephone-band microphone (margin \(margin)): worth asking"
        }
        return "heard only just well enough to act on in a noisy room (margin \(margin), SNR "
            + (signalToNoise.map { String(format: "%.0f dB", $0) } ?? "unknown") + "): worth asking"
    }
}
