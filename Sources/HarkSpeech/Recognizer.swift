import Foundation
import HarkAudio
public import HarkGrammar

/// Recognises whole utterances against a grammar with one decoder kept warm:
/// the model loads once, grammars are compiled to word graphs and swapped in
/// between utterances.
///
/// Each result carries a measured confidence. The utterance is decoded twice:
/// once with the grammar, once with a free loop of phones. Speech in
/// the grammar scores nearly as well under the grammar as under the free
/// loop; speech outside it scores much worse. The per-frame difference is the
/// margin, and the margin is the confidence.
public final class Recognizer {
    public let configuration: RecognizerConfiguration
    let decoder: Decoder
    let dictionary: PronunciationDictionary
    static let dictationSearch = "hark-dictation"
    var hasLanguageModel = false
    /// nil when confidence is not measured.
    private let phoneLoop: PhoneLoopPass?
    /// What the audio goes through before the decoders hear it, in order (`AudioStages`).
    private let audioStages: [any AudioStage]
    /// How a hearing is judged after the passes' margin, in order (`JudgingStages`).
    private let judgingStages: [any JudgingStage]
    /// `configuration.noiseCompensation`, read (see `compensated(_:suppressed:signalToNoise:)`).
    let noiseCompensation: NoiseCompensation?

    /// A grammar compiled into decoder searches.
    final class InstalledGrammar {
        typealias Arcs = [(from: Int, to: Int, word: String?, probability: Float)]
        /// A search made the first time an utterance needs it.
        enum LazySearch {
            case pending(states: Int, start: Int, final: Int, arcs: Arcs)
            case installed
        }
        let grammar: Grammar
        let graph: WordGraph
        let search: String
        let tightSearch: String
        var tight: LazySearch
        /// The grammar with other words beside it (nil without `RecognizerConfiguration.otherWords`).
        let otherWordsSearch: String
        var otherWordsCheck: LazySearch?
        /// The other words in that search: those neither in the grammar nor said like its words.
        let otherWords: Set<String>
        /// The joined words ("living_room") of the searched graph, split after decoding.
        let joinedWords: Set<String>

        init(grammar: Grammar, graph: WordGraph, search: String, tightSearch: String, tight: LazySearch,
             otherWordsSearch: String, otherWordsCheck: LazySearch?, otherWords: Set<String>, joinedWords: Set<String>) {
            self.grammar = grammar
            self.graph = graph
            self.search = search
            self.tightSearch = tightSearch
            self.tight = tight
            self.otherWordsSearch = otherWordsSearch
            self.otherWordsCheck = otherWordsCheck
            self.otherWords = otherWords
            self.joinedWords = joinedWords
        }
    }
    /// The grammars used last, most recent first; the first is in use. They stay installed so
    /// that a conversation going back to one (the top level after a question) switches to it
    /// instead of compiling it again: with an app of a thousand song names that took 86 ms
    /// a turn, before the person's words were even decoded.
    private var installed: [InstalledGrammar] = []
    /// How many grammars stay installed: the top level and the questions of a conversation
    /// two deep. Each costs decoder memory in proportion to its size.
    static let keptGrammars = 3
    var grammarGeneration = 0
    var inUse: InstalledGrammar? { installed.first }
    /// The grammar utterances are decoded against now; nil before the first `use(_:)`.
    public var grammarInUse: Grammar? { inUse?.grammar }

    /// The second grammar search (the first uses the decoder's -silprob, see Decoder), for utterances the first finds no complete path through (some
    /// synthetic voices, e.g. espeak-ng's "make the living room lamp blue"): silence almost never.
    static let tightSilenceProbability = 1e-10

    /// The lexicons' entries the decoder took (those for words the dictionary lacks), first
    /// pronunciations only: written by hand, so worth saying the same way (see HarkVoice's
    /// `SpokenLexicon`).
    public let lexiconPronunciations: [(word: String, phones: String)]

    /// Seconds it took to load the model and dictionary.
    public let loadSeconds: Double

    public init(configuration: RecognizerConfiguration = RecognizerConfiguration()) throws(RecognitionError) {
        let started = Date()
        let dictionary = PronunciationDictionary(path: configuration.dictionary)
        // The decoder starts with the project's lexicon; grammar words are taught from the
        // dictionary as grammars need them (see `learn`).
        var additions: [(word: String, phones: String)] = []
        for lexicon in configuration.lexicons { additions += try Self.readLexicon(lexicon) }
        // The dictionary's own pronunciation wins: the lexicon is for words it lacks.
        let known = try dictionary.entries(for: Set(additions.map(\.word)))
        let knownWords = Set(known.map { Self.baseWord($0.word) })
        let added = additions.filter { !knownWords.contains(Self.baseWord($0.word)) }
        let entries = known + added
        // Both passes hear the same model and the same fillers: the confidence compares them.
        let model = try Self.adaptationArguments(configuration.acousticTransform)
            + Self.fillerArguments(configuration.fillerProbability)
        let decoder = try Decoder.make(entries: entries, modelDirectory: configuration.modelDirectory,
                                       logFile: configuration.logFile, extraArguments: model)
        self.configuration = configuration
        self.dictionary = dictionary
        lexiconPronunciations = added.filter { Self.baseWord($0.word) == $0.word }
        self.decoder = decoder
        noiseCompensation = try Self.loadNoiseCompensation(configuration, for: decoder)
        audioStages = AudioStages.configured(by: configuration)
        judgingStages = JudgingStages.configured(by: configuration, contest: RivalContest(decoder: decoder))
        phoneLoop = configuration.measuresConfidence
            ? try PhoneLoopPass(modelDirectory: configuration.modelDirectory, logFile: configuration.logFile,
                                extraArguments: model) : nil
        // Taught once; a word no dictionary knows is left out of every loop (`OtherWords.beside`).
        try Self.teach(configuration.otherWords, from: dictionary, to: decoder)
        self.loadSeconds = Date().timeIntervalSince(started)
    }

    /// The decoder flags that load `transform`, checked first (see `AcousticTransform`).
    static func adaptationArguments(_ transform: URL?) throws(RecognitionError) -> [String] {
        guard let transform else { return [] }
        try AcousticTransform.check(transform)
        return ["-mllr", transform.path]
    }

    /// The decoder flag for `probability` (`RecognizerConfiguration.fillerProbability`), checked first.
    static func fillerArguments(_ probability: Double?) throws(RecognitionError) -> [String] {
        guard let probability else { return [] }
        let probabilities = RecognizerConfiguration.fillerProbabilities
        guard probabilities.contains(probability) else {
            throw RecognitionError(.modelLoad, "the filler probability \(probability) is not a probability from "
                                   + String(format: "%g to %g", probabilities.lowerBound, probabilities.upperBound))
        }
        return ["-fillprob", String(probability)]
    }

    // MARK: Grammar

    /// Compiles `grammar` and makes it the one utterances are decoded against. A grammar used
    /// a moment ago is switched back to, not compiled again.
    public func use(_ grammar: Grammar) throws(RecognitionError) {
        if let index = installed.firstIndex(where: { $0.grammar == grammar }) {
            // Switched to first, so a failure leaves the list as it was.
            try decoder.activate(installed[index].search)
            installed.insert(installed.remove(at: index), at: 0)
            return
        }
        let problems = grammar.problems()
        guard problems.isEmpty else { throw RecognitionError(.grammar, problems.joined(separator: "; ")) }
        let unknown = try unknownWords(in: grammar)
        guard unknown.isEmpty else {
            throw RecognitionError(.unknownWords(unknown),
                                   "the dictionary does not know \(unknown.map { "\"\($0)\"" }.joined(separator: ", ")); add a pronunciation to models/lexicon.dict")
        }
        installed.insert(try install(grammar), at: 0)
        while installed.count > Self.keptGrammars, let oldest = installed.popLast() {
            try decoder.removeSearch(oldest.search)
            if case .installed = oldest.tight { try decoder.removeSearch(oldest.tightSearch) }
            if case .installed? = oldest.otherWordsCheck { try decoder.removeSearch(oldest.otherWordsSearch) }
        }
    }

    /// Every pronunciation the decoder listens for in `word` ("word", "word(2)", …), taught or
    /// not: what a second decoder needs to listen for the same sounds.
    public func pronunciations(of word: String) -> [String] {
        alternatePronunciations(of: word.lowercased())
    }

    /// Every pronunciation the decoder knows for `word`: "word", "word(2)", …
    func alternatePronunciations(of word: String) -> [String] {
        var found: [String] = []
        var entry = word
        while let phones = decoder.pronunciation(of: entry) {
            found.append(phones)
            entry = "\(word)(\(found.count + 1))"
        }
        return found
    }

    // MARK: Recognition

    /// Whether an accepted recognition is a whole phrase of the grammar in use that no phrase
    /// continues: someone who said it has finished, so there is no need to wait for more quiet.
    /// The speech must also have ended well before the audio did (by the phone loop of the
    /// confidence pass): a grammar search can force half a phrase ("turn on the garage …") onto
    /// a whole one, and a pause of a moment inside a word is not the end.
    public func endsPhrase(_ recognition: Recognition) -> Bool {
        Self.saidInFull(recognition) && isWholePhrase(recognition)
    }

    /// Whether the phone loop heard at least `quietFrames` of quiet after the last sound.
    public static func saidInFull(_ recognition: Recognition, quietFrames: Int = quietFramesAfterFinishedPhrase) -> Bool {
        (recognition.framesAfterLastWord ?? 0) >= quietFrames
    }

    /// Whether an accepted recognition is a whole phrase of the grammar in use that no phrase
    /// continues, however little quiet followed it.
    public func isWholePhrase(_ recognition: Recognition) -> Bool {
        guard let graph = inUse?.graph, !recognition.isRejected, recognition.interpretation != nil else { return false }
        return !graph.canContinue(after: recognition.words)
    }

    /// 10 ms frames of quiet after the last word that show it was said in full.
    public static let quietFramesAfterFinishedPhrase = 10

    /// Decodes with the active grammar search; its path's segments too when confidence is
    /// measured (they come from the active search's result, so are read before another runs).
    private func decodeGrammarPath(_ cepstra: Cepstra) throws(RecognitionError) -> (Decoder.Hypothesis, [Decoder.Segment]) {
        let hypothesis = try decoder.decodeWhole(cepstra)
        return (hypothesis, configuration.measuresConfidence ? decoder.segments() : [])
    }

    /// What the grammar searches heard: the best path's words and segments, and whether the
    /// search with other words beside the grammar decided it.
    private struct GrammarHearing {
        var hypothesis: Decoder.Hypothesis
        var path: [Decoder.Segment]
        var checkedAgainstOtherWords = false
    }

    /// Decodes with `grammar`'s search; when it finds no complete path, again with its second
    /// search: some voices get one only when silence between words is all but ruled out.
    private func decodeGrammar(_ cepstra: Cepstra, _ grammar: InstalledGrammar) throws(RecognitionError) -> GrammarHearing {
        try decoder.activate(grammar.search)
        var heard = try decodeGrammarPath(cepstra)
        if heard.0.words.isEmpty && heard.0.frames > 0 {
            try activate(grammar.tightSearch, of: &grammar.tight, silenceProbability: Self.tightSilenceProbability)
            heard = try decodeGrammarPath(cepstra)
            // Should this fail, the next utterance activates its search before decoding anyway.
            try decoder.activate(grammar.search)
        }
        return GrammarHearing(hypothesis: heard.0, path: heard.1)
    }

    /// Decodes with the search that has other words beside `grammar` (see
    /// `RecognizerConfiguration.otherWords`), or nil when the grammar has none.
    private func decodeBesideOtherWords(_ cepstra: Cepstra, _ grammar: InstalledGrammar) throws(RecognitionError) -> GrammarHearing? {
        guard var check = grammar.otherWordsCheck else { return nil }
        try activate(grammar.otherWordsSearch, of: &check)
        grammar.otherWordsCheck = check
        let checked = try decodeGrammarPath(cepstra)
        try decoder.activate(grammar.search)
        return GrammarHearing(hypothesis: checked.0, path: checked.1, checkedAgainstOtherWords: true)
    }

    /// Whether a phrase the grammar search heard is short enough, in a room quiet enough, for the
    /// other words to be searched beside the grammar (`RecognizerConfiguration.otherWords`), and
    /// whether that search could change the verdict on it (`Confidence.otherWordsCouldDecide`):
    /// it is dear, and runs after the phone loop, whose margin tells.
    private func needsOtherWordsCheck(_ heard: GrammarHearing, _ judged: Judgement, quiet: Bool) -> Bool {
        guard quiet, !heard.hypothesis.words.isEmpty, heard.hypothesis.words.count <= configuration.otherWordsUpTo else {
            return false
        }
        // Without the confidence pass there is no margin to tell by.
        guard configuration.measuresConfidence else { return true }
        let threshold = configuration.judgedAt ?? configuration.rejectionMargin
        return Confidence.otherWordsCouldDecide(margin: judged.margin, threshold: threshold,
                                                askMargin: threshold - configuration.askBand)
    }

    /// Makes `search` the active one, installing it first if it is still pending.
    private func activate(_ search: String, of state: inout InstalledGrammar.LazySearch,
                          silenceProbability: Double? = nil) throws(RecognitionError) {
        if case .pending(let states, let start, let final, let arcs) = state {
            try decoder.installGraph(name: search, states: states, start: start, final: final, arcs: arcs,
                                     silenceProbability: silenceProbability)
            state = .installed
        }
        try decoder.activate(search)
    }

    /// `work`'s result and the phone loop's outcome on the same audio (nil when confidence is not
    /// measured), decoded at the same time.
    private func decodeAlongsidePhoneLoop<T>(_ cepstra: Cepstra, _ work: () throws(RecognitionError) -> T)
        throws(RecognitionError) -> (T, PhoneLoopPass.Outcome?) {
        guard let phoneLoop else { return (try work(), nil) }
        let (result, outcome) = try phoneLoop.alongside(cepstra, work)
        return (result, outcome)
    }

    /// The front ends of the rooms heard lately (see `FrontEnd`). The key "" is this device's
    /// own microphone and every client that names no room.
    private var frontEnds = RoomFrontEnds(capacity: Recognizer.roomsRemembered)

    /// How many rooms' backgrounds are remembered at once: a hub's satellites, with room to spare.
    /// A front end is a few tens of kilobytes.
    public static let roomsRemembered = 32

    /// `samples` as the decoders search them, through `room`'s front end.
    func cepstra(of samples: [Int16], heardIn room: String?, suppressed: Bool = false) throws(RecognitionError) -> Cepstra {
        try frontEnds.frontEnd(for: room ?? "", suppressed: suppressed, like: decoder).cepstra(of: samples)
    }

    /// How loud each room was before its latest request, by room ("" for this device's own).
    private var roomsBefore: [String: Double] = [:]

    /// The mean power `room` (nil: this device's own) had before the wake word of the request
    /// about to be recognised (`RoomBeforeRequest`; nil: none heard). Asking first in a noisy room
    /// judges that request and its follow-ups by the louder of this and the utterance's own room.
    public func heardBeforeRequest(roomPower: Double?, heardIn room: String? = nil) {
        roomsBefore[room ?? ""] = roomPower
    }

    /// The rooms whose backgrounds are remembered, the one heard last first ("" for this device's own).
    public var roomsHeard: [String] { frontEnds.names }

    /// The room level suggested for `RecognizerConfiguration.denoisesAbove` (`--request-denoise-above`),
    /// which is off by default: chosen on the tune half of `make bench-real`, it helped the
    /// loudest rooms and hurt the moderately noisy ones, so it is for a room that is loud all the
    /// time. By default a request is suppressed by its own signal-to-noise estimate instead
    /// (`RecognizerConfiguration.denoisesBelow`) and asked about further up (figures:
    /// docs/benchmarks.md, "The settings' figures").
    public static let denoisingRoomLevel = -50.0

    /// Judges `heard` against the phone loop's outcome on the same audio (nil when confidence is
    /// not measured).
    private func judge(_ heard: GrammarHearing, loop: PhoneLoopPass.Outcome?, grammar: InstalledGrammar,
                       signalToNoise: Double?) -> Judgement {
        let hypothesis = heard.hypothesis
        var judged = Judgement(words: hypothesis.words)
        if let loop, !hypothesis.words.isEmpty, hypothesis.frames > 0 {
            judged.lastSoundFrame = Decoder.lastSoundEndFrame(of: loop.segments)
            if loop.hypothesis.score.isFinite {
                judged.utteranceMargin = Confidence.marginScale * (hypothesis.score - loop.hypothesis.score) / Double(hypothesis.frames)
                let loopScores = PhoneLoopScores(loop.segments, naturalLog: decoder.naturalLog)
                judged.wordFits = WordFit.fits(grammarPath: heard.path, loop: loopScores, naturalLog: decoder.naturalLog)
                judged.features = ConfidenceFeatures.measure(grammarPath: heard.path, phoneLoop: loop.segments, loop: loopScores,
                                                             frames: hypothesis.frames, naturalLog: decoder.naturalLog,
                                                             phoneCount: { self.decoder.pronunciation(of: $0)?.split(separator: " ").count })
            }
        }
        if !grammar.joinedWords.isEmpty {
            judged.words = judged.words.flatMap { word in
                grammar.joinedWords.contains(word) ? word.split(separator: Self.joiner).map(String.init) : [word]
            }
            for index in judged.wordFits.indices where grammar.joinedWords.contains(judged.wordFits[index].word) {
                judged.wordFits[index].word = judged.wordFits[index].word.split(separator: Self.joiner).joined(separator: " ")
            }
        }
        judged.weakest = WordFit.weakest(of: judged.wordFits)
        judged.features?.signalToNoise = signalToNoise
        judged.features?.checkedAgainstOtherWords = heard.checkedAgainstOtherWords
        judged.noisePenalty = Confidence.noisePenalty(signalToNoise: signalToNoise)
        judged.margin = Confidence.margin(features: judged.features, utterance: judged.utteranceMargin, weakest: judged.weakest,
                                          allowance: Confidence.allowance(features: judged.features))
            - judged.noisePenalty
        return judged
    }

    /// Recognises one whole utterance of 16 kHz mono audio against the grammar in use. `room`
    /// names where it was heard (a satellite's room; nil for this device's own microphone and
    /// for clients that name none): each room's background is learnt from its own utterances.
    ///
    /// The pipeline, in order (docs/how-hark-hears.md gives each stage's why and figures):
    /// 1. the audio stages (`AudioStages`): clicks turned down, a loud room denoised, the noise floor;
    /// 2. the room's front end, then the grammar search beside the phone loop, judged by their
    ///    margin less the noise penalty; a short phrase in a quiet room searched again beside
    ///    other words when that could change the verdict;
    /// 3. the judging stages (`JudgingStages`): the phrase's strictness, its rival words, asking
    ///    first in a noisy room;
    /// 4. the verdict (`Verdict`): act, ask "Did you say …?", or reject.
    ///
    /// A request the noise suppression is for goes through 1 to 4 twice, through the suppression
    /// and as it came, and the surer hearing is kept (`SecondHearing`); two hearings of the same
    /// phrase are asked about less far up (`NoisyConfirmation.agreedReach`).
    public func recognize(_ heardSamples: [Int16], heardIn room: String? = nil) throws(RecognitionError) -> Recognition {
        guard let grammar = inUse else {
            throw RecognitionError(.grammar, "no grammar in use: call use(_:) first")
        }
        let audioStarted = ThreadClock.cpuSeconds()
        let audio = HeardAudio(heardSamples, roomBefore: roomsBefore[room ?? ""])
        let denoised = configuration.requestDenoising?.applies(to: audio) ?? false
        var first = try hear(audio, through: audioStages, denoised: denoised, suppressed: denoised, room: room,
                             grammar: grammar, since: audioStarted)
        guard denoised, configuration.hearsSuppressedRequestsAsTheyCameToo else { return verdict(on: first).recognition }
        // Judged as a request the suppression is for (a noisy room's reach) whichever hearing is kept.
        var asItCame = try hear(audio, through: audioStages.filter { !($0 is RequestDenoising) }, denoised: true,
                                suppressed: false, room: room, grammar: grammar, since: ThreadClock.cpuSeconds())
        let agreed = SecondHearing.agree(first.phrase, asItCame.phrase)
        if agreed {
            try judgeAsAgreed(&first)
            try judgeAsAgreed(&asItCame)
        }
        var kept = SecondHearing.better(of: verdict(on: first), verdict(on: asItCame))
        kept.features?.hearingsAgreed = agreed
        return kept
    }

    /// One hearing judged, before its verdict.
    struct JudgedHearing {
        var judged: Judgement
        var context: JudgingContext
        var otherWordsHeard: Bool
        var frames: Int
        var decodeSeconds: Double
        var cpu: DecodeCPU
        /// Its words formed a phrase of the grammar (not "nothing matched", not other words).
        var formsPhrase: Bool { context.interpretation != nil && !otherWordsHeard }
        /// The words, when they formed a phrase.
        var phrase: [String]? { formsPhrase ? judged.words : nil }
    }

    /// One hearing of `audio`: through `stages`, the room's front end (its own for `suppressed`
    /// audio, whose background differs), the passes and the judging stages.
    /// `denoised`: a request the noise suppression is for (`RequestDenoising`), judged as such.
    private func hear(_ audio: HeardAudio, through stages: [any AudioStage], denoised: Bool, suppressed: Bool, room: String?,
                      grammar: InstalledGrammar, since audioStarted: Double) throws(RecognitionError) -> JudgedHearing {
        var cpu = DecodeCPU()
        let heardSamples = audio.samples
        let samples = try AudioStages.run(stages, on: audio)
        let started = Date()
        let signalToNoise = audio.levels?.signalToNoise
        let quiet = (signalToNoise ?? -.infinity) >= configuration.otherWordsQuietAbove
        let cepstra = compensated(try self.cepstra(of: samples, heardIn: room, suppressed: suppressed),
                                  suppressed: suppressed, signalToNoise: signalToNoise, heardSamples: heardSamples)
        cpu.audio = ThreadClock.cpuSeconds() - audioStarted
        // The phone loop decodes the same features on its own thread meanwhile.
        let ((firstHeard, grammarSeconds), loop) = try decodeAlongsidePhoneLoop(cepstra) { () throws(RecognitionError) in
            try ThreadClock.measure { () throws(RecognitionError) in try decodeGrammar(cepstra, grammar) }
        }
        cpu.grammar = grammarSeconds
        cpu.phoneLoop = loop?.cpuSeconds ?? 0
        var heard = firstHeard
        var judged = judge(heard, loop: loop, grammar: grammar, signalToNoise: signalToNoise)
        if needsOtherWordsCheck(heard, judged, quiet: quiet) {
            let (checked, seconds) = try ThreadClock.measure { () throws(RecognitionError) in try decodeBesideOtherWords(cepstra, grammar) }
            cpu.otherWords = seconds
            if let checked {
                heard = checked
                judged = judge(heard, loop: loop, grammar: grammar, signalToNoise: signalToNoise)
            }
        }
        let otherWordsHeard = heard.checkedAgainstOtherWords && heard.hypothesis.words.contains { grammar.otherWords.contains($0) }
        let elapsed = Date().timeIntervalSince(started)

        let interpretation = grammar.graph.interpret(judged.words)
        judged.features?.heardThroughSuppression = denoised
        judged.features?.keptAsItCame = denoised && !suppressed
        // The audio as heard: the noise floor the audio stages add would fill the high band.
        let judgedSignalToNoise = audio.judgedSignalToNoise
        judged.features?.signalToNoiseWithRoomBefore = audio.roomBefore == nil ? nil : judgedSignalToNoise
        let context = JudgingContext(grammar: grammar, cepstra: cepstra, interpretation: interpretation,
                                     signalToNoise: judgedSignalToNoise,
                                     denoised: denoised, heardSamples: heardSamples)
        for stage in judgingStages { try stage.judge(&judged, in: context) }
        cpu.rivals = judged.rivalSeconds
        return JudgedHearing(judged: judged, context: context, otherWordsHeard: otherWordsHeard,
                             frames: heard.hypothesis.frames, decodeSeconds: elapsed, cpu: cpu)
    }

    /// `hearing` judged again as one of two hearings of the same phrase: only asking first
    /// depends on that, and it starts again from the margin as heard.
    private func judgeAsAgreed(_ hearing: inout JudgedHearing) throws(RecognitionError) {
        guard let heardMargin = hearing.judged.heardMargin else { return }
        hearing.judged.margin = heardMargin
        hearing.context.agreed = true
        for stage in judgingStages where stage is AskingFirst { try stage.judge(&hearing.judged, in: hearing.context) }
    }

    /// What Hark does with a judged hearing (`Verdict`): act on it, ask, or reject it.
    private func verdict(on hearing: JudgedHearing) -> SecondHearing.Hearing {
        var judged = hearing.judged
        let context = hearing.context, signalToNoise = context.signalToNoise
        judged.features?.telephoneBand = judged.telephoneBand
        judged.features?.heardMargin = judged.heardMargin
        let verdict = Verdict(judged, interpretation: context.interpretation, otherWordsHeard: hearing.otherWordsHeard,
                              signalToNoise: signalToNoise, denoised: context.denoised, agreed: context.agreed,
                              telephoneBand: judged.telephoneBand ?? false, configuration: configuration)
        let isRejected = verdict.rejection != nil, margin = judged.margin, words = judged.words, frames = hearing.frames
        var recognition = Recognition(
            words: isRejected ? [] : words,
            isRejected: isRejected,
            confidence: words.isEmpty ? 0 : Confidence.from(margin: margin, threshold: configuration.rejectionMargin),
            rejection: verdict.rejection,
            margin: margin,
            interpretation: isRejected ? nil : context.interpretation,
            frames: frames,
            decodeSeconds: hearing.decodeSeconds,
            framesAfterLastWord: isRejected ? nil : judged.lastSoundFrame.map { frames - 1 - $0 },
            utteranceMargin: judged.utteranceMargin,
            wordFits: judged.wordFits,
            features: judged.features,
            guess: verdict.isGuess ? RivalOutcome.question(about: words, closest: judged.closeRival) : [])
        if verdict.isGuess {
            recognition.otherwise = RivalOutcome.otherMeaning(of: words, askedAbout: recognition.guess,
                                                              closest: judged.features?.rival)
        }
        recognition.decodeCPU = hearing.cpu
        recognition.isClear = verdict.isClear
        recognition.isAskedForTheRoom = verdict.isAskedForTheRoom
        let noisyBelow = min(configuration.noisyConfirmation?.below ?? .infinity, NoisyConfirmation.noisyRoomBelow)
        recognition.isInNoisyRoom = signalToNoise.map { $0 < noisyBelow } ?? false
        return SecondHearing.Hearing(recognition: recognition, formsPhrase: hearing.formsPhrase, words: words)
    }
}
