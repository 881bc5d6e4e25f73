import CMalloc
import Foundation

/// What the second look at a wake-word candidate found: the phrase forced onto the candidate's
/// audio phone by phone, each phone against free phones over the same frames.
///
/// The keyword search's score averages over the whole phrase, so "jar" or "carve is" that fits
/// four phones of "jarvis" well and two badly can score like a real "jarvis" said softly. A
/// real rendering fits every phone; a near miss has a phone that fits nothing like it. None of
/// these depend on which phrase it is, so one verifier serves every phrase.
public struct WakeWordEvidence: Sendable, Equatable, Codable {
    /// The keyword search's score per frame (see `WakeWordDetection.score`).
    public var searchScore: Double
    /// The whole aligned phrase against the phone loop, per frame (natural log).
    public var phraseMargin: Double
    /// The worst phone's margin per frame, weighed by the square root of its frames (a phone of
    /// three frames averages little evidence): the phone the phrase was forced onto.
    public var weakestPhone: Double
    /// The second worst, the same way (a phrase of one bad phone is more often real than one of two).
    public var secondWeakestPhone: Double
    /// Share of the phrase's phones held for the fewest frames the model allows (3): a phone
    /// skipped over rather than said.
    public var shortPhones: Double
    /// Mean frames per phone: how fast the phrase was said.
    public var framesPerPhone: Double
    /// Whether the forced alignment found a path at all (when not, see `unaligned`).
    public var aligned: Bool
    /// Share of the phrase's frames where the free phones heard the very phone the phrase put
    /// there: a real rendering is heard as itself more often than a near miss is.
    public var agreement: Double
    /// Share of the quarter second before the phrase that the free phones heard as silence: a
    /// wake word usually starts after a pause, a near miss in running speech does not. (Said
    /// straight after other words, a real one loses a little here and must make it up elsewhere.)
    /// Other ways of counting the pause, in noise and before a soft first phone, were measured
    /// and not taken (docs/benchmarks.md).
    public var leadingSilence: Double
    /// How much better (per frame of the phrase, in `Confidence.marginScale` units) the phrase among common words
    /// explains the candidate's audio than the common words alone do (see
    /// `WakeWordVerifier.otherWordsGap`); nil when the check was not made. Below 0, words such as
    /// "in the nature" fit better than "athena". Not one of `vector`'s features: the spotter
    /// weighs it after the verifier's odds (`WakeWordSpotter.confidence(odds:otherWordsGap:)`).
    public var otherWordsGap: Double?

    /// The features in the order the verifier's weights are listed in.
    public var vector: [Double] {
        [searchScore, weakestPhone, secondWeakestPhone, shortPhones, log(max(framesPerPhone, 1)),
         aligned ? 1 : 0, agreement, leadingSilence]
    }
    /// `phraseMargin` is left out: on the tune half, leaving it out missed fewer real phrases at
    /// no false alarm, both when judged on a phrase the model had not seen and on all three
    /// (the weakest phones and the search score carry what it says).
    public static let featureNames = ["searchScore", "weakestPhone", "secondWeakestPhone",
                                      "shortPhones", "logFramesPerPhone", "aligned", "agreement", "leadingSilence"]
    /// What a candidate the phrase could not be aligned to gets: below what nine in ten real
    /// renderings score on each (measured on the wake corpus's tune half), so that only
    /// `aligned` tells it apart.
    static let unaligned = WakeWordEvidence(searchScore: 0, phraseMargin: -6, weakestPhone: -25, secondWeakestPhone: -20,
                                            shortPhones: 1, framesPerPhone: 3, aligned: false, agreement: 0, leadingSilence: 0)

    public init(searchScore: Double, phraseMargin: Double, weakestPhone: Double, secondWeakestPhone: Double,
                shortPhones: Double, framesPerPhone: Double, aligned: Bool, agreement: Double, leadingSilence: Double,
                otherWordsGap: Double? = nil) {
        self.searchScore = searchScore
        self.phraseMargin = phraseMargin
        self.weakestPhone = weakestPhone
        self.secondWeakestPhone = secondWeakestPhone
        self.shortPhones = shortPhones
        self.framesPerPhone = framesPerPhone
        self.aligned = aligned
        self.agreement = agreement
        self.leadingSilence = leadingSilence
        self.otherWordsGap = otherWordsGap
    }
}

/// The verifier's weights: a logistic model over `WakeWordEvidence.vector`, learned on
/// recordings by bench/fit-wake-verifier.py, which writes both the JSON `load(from:)` reads
/// (`hark bench-wake --verifier`) and the literal Hark ships (`shipped`).
public struct WakeWordVerifierModel: Sendable, Codable, Equatable {
    public var features: [String]
    /// Each feature is standardised ((x - mean) / scale) before it is weighed.
    public var mean: [Double]
    public var scale: [Double]
    public var weights: [Double]
    public var bias: Double
    /// Where the weights came from, for whoever reads the file.
    public var trainedOn: String

    /// The log odds that a candidate with this evidence is the phrase.
    public func logOdds(_ evidence: WakeWordEvidence) -> Double {
        let x = evidence.vector
        var sum = bias
        for index in weights.indices {
            sum += weights[index] * (x[index] - mean[index]) / scale[index]
        }
        return sum
    }

    public static func load(from path: String) throws(RecognitionError) -> WakeWordVerifierModel {
        let model: WakeWordVerifierModel
        do {
            model = try JSONDecoder().decode(WakeWordVerifierModel.self, from: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw RecognitionError(.modelLoad, "the wake-word verifier \(path) could not be read: \(error.localizedDescription)")
        }
        let count = WakeWordEvidence.featureNames.count
        guard model.features == WakeWordEvidence.featureNames,
              model.mean.count == count, model.scale.count == count, model.weights.count == count,
              model.scale.allSatisfy({ $0 > 0 }) else {
            throw RecognitionError(.modelLoad, "the wake-word verifier \(path) does not weigh the features \(WakeWordEvidence.featureNames.joined(separator: ", ")) (one mean, positive scale and weight each)")
        }
        return model
    }
}

/// Takes the second look: aligns a candidate's phones to its audio with a grammar of the
/// phrase's phones in order, decodes the same audio with a free loop of phones, and compares
/// them phone by phone. One decoder holds both searches; it costs its own copy of the acoustic
/// model (about 6 MB) and a few tens of milliseconds per candidate, and candidates are rare.
final class WakeWordVerifier {
    private let decoder: Decoder
    /// Hears each window once for all its searches (`cepstra(of:)`).
    private let frontEnd: FrontEnd
    private static let loopSearch = "hark-wake-loop"
    /// The last window the free phones were searched in, and what they found there (`freePhones(in:)`).
    private var lastFreePhones: (window: [Float], segments: [Decoder.Segment])?
    /// Alignment searches already installed, by their phones.
    private var alignments: [String: String] = [:]

    /// The common words a phrase is checked against (`otherWordsGap`), as the dictionary names
    /// them; empty when candidates are not checked so.
    private let otherWords: Set<String>
    /// The dictionary word standing for each phrase spelling the check may be asked about, by its phones.
    private let phraseWords: [String: String]

    /// `extraArguments`: the search's adaptation flags, so the second look hears the same model.
    /// `otherWords`: the dictionary entries of common words (`OtherWords`) to check the phrases
    /// spelt `phrases` (phones each) against; none for no such check.
    init(modelDirectory: String, logFile: String, extraArguments: [String] = [],
         otherWords: [(word: String, phones: String)] = [], phrases: [[String]] = []) throws(RecognitionError) {
        // One dictionary word per phone, so the alignment reports each phone as a segment; and
        // one more per phone for the free phones either side of the phrase.
        let entries = Phones.all.flatMap { [(word: Self.word(for: $0), phones: $0), (word: Self.garbage(for: $0), phones: $0)] }
        var phraseWords: [String: String] = [:]
        var phraseEntries: [(word: String, phones: String)] = []
        if !otherWords.isEmpty {
            for spelling in Set(phrases.map { $0.joined(separator: " ") }).sorted() {
                let word = "wk-phrase-\(phraseWords.count)"
                phraseWords[spelling] = word
                phraseEntries.append((word, spelling))
            }
        }
        decoder = try Decoder.make(entries: entries + otherWords + phraseEntries, modelDirectory: modelDirectory, logFile: logFile,
                                   extraArguments: ["-allphone_ci", "yes"] + extraArguments)
        self.otherWords = Set(otherWords.map { Decoder.baseWord($0.word) })
        self.phraseWords = phraseWords
        frontEnd = try FrontEnd(like: decoder)
        try decoder.installPhoneLoop(name: Self.loopSearch)
    }

    static func word(for phone: String) -> String { "ph-" + phone.lowercased() }
    static func garbage(for phone: String) -> String { "gb-" + phone.lowercased() }
    /// Each free phone before or after the phrase costs this much: enough that the phrase's own
    /// phones are not given away to the free ones, little enough that the words said before or
    /// after a wake word ("jarvis, turn …") need not be forced into its first or last phone.
    static let garbageProbability: Float = 1e-3
    /// Frames before the phrase whose silence `leadingSilence` measures (10 ms each).
    static let leadingFrames = 25

    /// A window of audio (the candidate with a little audio either side) as every search of it
    /// hears it: computed once, by a front end that starts afresh for each window, so that what
    /// the verifier finds in a window is that window's alone. Carried from one window to the
    /// next, the front end's estimate of the background made the alignment and the free phones
    /// hear the same audio differently, and made a candidate's odds depend on the windows looked
    /// at before it (figures: docs/benchmarks.md, "The settings' figures").
    func cepstra(of samples: [Int16]) throws(RecognitionError) -> Cepstra {
        frontEnd.startStream()
        return try frontEnd.cepstra(of: samples)
    }

    /// The evidence for `phones` (the model's phone names, in order) in `window` (`cepstra(of:)`).
    func evidence(phones: [String], in window: Cepstra, searchScore: Double) throws(RecognitionError) -> WakeWordEvidence {
        try decoder.activate(try alignment(for: phones))
        _ = try decoder.decodeWhole(window)
        let path = decoder.segments().filter { $0.word.hasPrefix("ph-") && $0.frameCount > 0 }
        try decoder.activate(Self.loopSearch)
        let loopSegments = try freePhones(in: window)
        let loop = PhoneLoopScores(loopSegments, naturalLog: decoder.naturalLog)
        guard path.count == phones.count, let first = path.first else {
            var evidence = WakeWordEvidence.unaligned
            evidence.searchScore = searchScore
            return evidence
        }
        // The free phones' label of each frame.
        var heard = [String](repeating: "", count: max((loopSegments.map(\.endFrame).max() ?? -1) + 1, 0))
        for segment in loopSegments {
            for frame in max(segment.startFrame, 0)...max(segment.endFrame, 0) where frame < heard.count {
                heard[frame] = segment.word
            }
        }
        var margins: [Double] = []
        var total = 0.0, frames = 0, short = 0, agreeing = 0
        for (index, phone) in path.enumerated() {
            let difference = Confidence.marginScale * (decoder.naturalLog(phone.acoustic) - loop.total(over: phone))
            total += difference
            frames += phone.frameCount
            if phone.frameCount <= 3 { short += 1 }
            margins.append(difference / Double(phone.frameCount).squareRoot())
            for frame in phone.startFrame...phone.endFrame where frame < heard.count && heard[frame] == phones[index] {
                agreeing += 1
            }
        }
        let before = max(first.startFrame - Self.leadingFrames, 0)..<max(first.startFrame, 0)
        let quiet = before.filter { $0 < heard.count && heard[$0] == "SIL" }.count
        margins.sort()
        return WakeWordEvidence(searchScore: searchScore, phraseMargin: total / Double(max(frames, 1)),
                                weakestPhone: margins[0], secondWeakestPhone: margins.count > 1 ? margins[1] : margins[0],
                                shortPhones: Double(short) / Double(path.count),
                                framesPerPhone: Double(frames) / Double(path.count), aligned: true,
                                agreement: Double(agreeing) / Double(max(frames, 1)),
                                // With less than a quarter second kept before it, what there is counts.
                                leadingSilence: before.isEmpty ? 0 : Double(quiet) / Double(before.count))
    }

    /// The free phones' segments of `window`. The search proposes each spelling of a phrase
    /// ("jarvis", "jarvis(2)") apart, often over the very same frames, so the same window comes
    /// twice in a row: the loop's answer depends on the window's features alone (a whole
    /// utterance is normalised by its own mean), and the last one is kept for it.
    private func freePhones(in window: Cepstra) throws(RecognitionError) -> [Decoder.Segment] {
        if let last = lastFreePhones, last.window == window.values { return last.segments }
        _ = try decoder.decodeWhole(window)
        let segments = decoder.segments()
        lastFreePhones = (window.values, segments)
        return segments
    }

    /// Where the phrase spelt `phones` lies in `window` (frames, first to last), as its forced
    /// alignment between free phones puts it, with the alignment's path score; nil when the
    /// alignment finds no path through every phone.
    func phraseFrames(phones: [String], in window: Cepstra) throws(RecognitionError) -> (frames: ClosedRange<Int>, score: Double)? {
        try decoder.activate(try alignment(for: phones))
        let hypothesis = try decoder.decodeWhole(window)
        let path = decoder.segments().filter { $0.word.hasPrefix("ph-") && $0.frameCount > 0 }
        try decoder.activate(Self.loopSearch)
        guard path.count == phones.count, let first = path.first, let last = path.last, hypothesis.score.isFinite else { return nil }
        return (first.startFrame...last.endFrame, hypothesis.score)
    }

    /// How much better the phrase spelt `phones`, with any of `words` before or after it, explains
    /// `window` than `words` alone do: the difference of the two searches' best path scores
    /// (the grammar's chances included), per frame of the phrase (`phraseFrames`,
    /// as the alignment placed it). `words` are those of the common words that may stand beside
    /// the phrase (`OtherWords.beside`: neither its words nor said like one). Either search
    /// finding no path at all gives the far end of `gapRange`.
    ///
    /// The phone loop measures how well the phrase fits against any sounds at all, which a soft
    /// real phrase and a near miss in running speech can do about equally badly; words such as
    /// "jar this" or "a thin a" explain a near miss better than the phrase does, and a real
    /// phrase better than any of them.
    func otherWordsGap(phones: [String], besides words: [String], in window: Cepstra,
                       phraseFrames: Int) throws(RecognitionError) -> Double {
        let key = phones.joined(separator: " ")
        guard let phraseWord = phraseWords[key] else {
            throw RecognitionError(.grammar, "the wake phrase \"\(key)\" was not given to the verifier to check against other words")
        }
        let known = words.filter(otherWords.contains)
        guard !known.isEmpty else {
            throw RecognitionError(.grammar, "none of the other words to check the wake phrase \"\(key)\" against is in the verifier's dictionary")
        }
        // The phrase among the words: 0 ─words─▶ 3 ─phrase─▶ 4 ─words─▶ 7, the words either side optional.
        let phraseArcs = OtherWords.loopArcs(words: known, start: 0, final: 3, firstFreeState: 1)
            + [(from: 0, to: 3, word: nil, probability: 1), (from: 3, to: 4, word: Optional(phraseWord), probability: 1),
               (from: 4, to: 7, word: nil, probability: 1)]
            + OtherWords.loopArcs(words: known, start: 4, final: 7, firstFreeState: 5)
        let withPhrase = try bestScore(of: window, states: 8, final: 7, arcs: phraseArcs)
        // The words alone: 0 ─words─▶ 3, at least one.
        let wordsAlone = try bestScore(of: window, states: 4, final: 3,
                                       arcs: OtherWords.loopArcs(words: known, start: 0, final: 3, firstFreeState: 1))
        switch (withPhrase.isFinite, wordsAlone.isFinite) {
        case (true, true):
            let gap = Confidence.marginScale * (withPhrase - wordsAlone) / Double(max(phraseFrames, 1))
            return min(max(gap, Self.gapRange.lowerBound), Self.gapRange.upperBound)
        case (true, false): return Self.gapRange.upperBound
        default: return Self.gapRange.lowerBound
        }
    }

    /// The gaps `otherWordsGap` reports (in `Confidence.marginScale` units, as the margins): a
    /// real phrase's runs from about 0 to 4.5, most of the speech's below 0.5. The phrase pruned
    /// from its search before the end (no path at all) is the lowest.
    static let gapRange = -3.0...5.0

    /// The best path score of `window` through the graph of `arcs` (from state 0), entering the
    /// words costing `OtherWords.entryProbability` and each word `OtherWords.wordProbability`,
    /// as beside a command grammar.
    ///
    /// The graph is made for this one decoding and removed after it, before the next is made:
    /// kept, the check's two searches held 14 MB of pocketsphinx's search trees for as long as
    /// Hark listened, while a check comes only with a likely wake word and making a search again
    /// costs little beside decoding it (figures: docs/benchmarks.md, `make bench-live`).
    private func bestScore(of window: Cepstra, states: Int, final: Int,
                           arcs: [(from: Int, to: Int, word: String?, probability: Float)]) throws(RecognitionError) -> Double {
        let name = "hark-wake-word-check"
        try decoder.installGraph(name: name, states: states, start: 0, final: final, arcs: arcs)
        let score = Result { () throws(RecognitionError) in try decoder.decodeWhole(window).score }
        // A removed search must not be the active one.
        try decoder.activate(Self.loopSearch)
        try decoder.removeSearch(name)
        // Tens of thousands of small blocks: given back, or the allocator keeps them.
        malloc_trim(0)
        return try score.get()
    }

    /// The name of an alignment search for `phones`, installed the first time it is asked for.
    private func alignment(for phones: [String]) throws(RecognitionError) -> String {
        let key = phones.joined(separator: " ")
        if let name = alignments[key] { return name }
        let name = "hark-wake-align-\(alignments.count)"
        // 0 ─free phones─▶ 0 ─phrase phone 1─▶ 1 … ─phrase phone n─▶ n ─free phones─▶ n
        var arcs = phones.enumerated().map { (from: $0.offset, to: $0.offset + 1, word: Optional(Self.word(for: $0.element)), probability: Float(1)) }
        for state in [0, phones.count] {
            arcs += Phones.all.map { (from: state, to: state, word: Optional(Self.garbage(for: $0)), probability: Self.garbageProbability) }
        }
        try decoder.installGraph(name: name, states: phones.count + 1, start: 0, final: phones.count, arcs: arcs)
        alignments[key] = name
        return name
    }
}

extension WakeWordVerifierModel {
    /// The verifier Hark ships, fitted by bench/fit-wake-verifier.py (proposals from -2) on the
    /// tune half of the wake corpus (bench/make-wake-corpus.py): real people saying "jarvis",
    /// "athena" and "amelia", clean and at 10 dB in household noise, against the candidates
    /// that 3 hours of other real speech raised for each, heard as they were recorded. Fitted
    /// again as the spotter hears them now (through `NoiseFloor`), weights did worse at the strict
    /// end: a logistic fit weighs every candidate alike, and a wake word needs the few
    /// best-scoring false ones kept out. So these stay (figures: docs/benchmarks.md, "The
    /// settings' figures"); `make bench-wake` judges them on the test half.
    public static let shipped: WakeWordVerifierModel? = WakeWordVerifierModel(
        features: WakeWordEvidence.featureNames,
        mean: [-1.348284, -22.33351, -17.610655, 0.701712, 1.475239, 0.459942, 0.050867, 0.101969],
        scale: [0.48163, 4.667258, 3.706666, 0.350356, 0.457206, 0.498393, 0.113099, 0.243995],
        weights: [1.130681, 0.220462, 0.213119, -0.373561, 0.210094, -0.586194, 0.292215, 0.391094],
        bias: -1.7111,
        trainedOn: "the tune halves of the wake corpus (jarvis, athena, amelia): 551 phrase candidates, 12555 false ones")
}

extension WakeWordVerifierModel {
    /// Weighs nothing (log odds 0 for every candidate) but makes the spotter gather evidence:
    /// for benchmarks that collect it to fit a verifier.
    public static let neutral = WakeWordVerifierModel(
        features: WakeWordEvidence.featureNames, mean: Array(repeating: 0, count: WakeWordEvidence.featureNames.count),
        scale: Array(repeating: 1, count: WakeWordEvidence.featureNames.count),
        weights: Array(repeating: 0, count: WakeWordEvidence.featureNames.count), bias: 0, trainedOn: "nothing")
}
