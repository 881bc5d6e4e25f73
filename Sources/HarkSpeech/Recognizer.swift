public import Foundation
import HarkAudio
public import HarkGrammar

/// Where the recogniser finds its model and how it judges what it heard.
public struct RecognizerConfiguration: Sendable {
    /// Debian's pocketsphinx-en-us.
    public static let debianModel = "/usr/share/pocketsphinx/model/en-us/en-us"
    public static let debianDictionary = "/usr/share/pocketsphinx/model/en-us/cmudict-en-us.dict"
    /// The general English language model of pocketsphinx-en-us, for dictation.
    public static let debianLanguageModel = "/usr/share/pocketsphinx/model/en-us/en-us.lm.bin"

    public var modelDirectory = RecognizerConfiguration.debianModel
    public var dictionary = RecognizerConfiguration.debianDictionary
    /// Used only when a question asks for free text; loaded the first time one does.
    public var languageModel = RecognizerConfiguration.debianLanguageModel
    /// Extra pronunciation files in the dictionary's format ("word PH O N E S"),
    /// e.g. the project's models/lexicon.dict; later files win.
    public var lexicons: [URL] = []
    /// An adaptation of the acoustic model to the voices and rooms Hark hears (an MLLR transform
    /// of its means, e.g. the project's models/en-us.mllr), or nil for the model as it is. Both
    /// passes listen through it: the confidence compares them, so they must hear the same model.
    public var acousticTransform: URL?
    /// pocketsphinx's own log. /dev/null unless someone is debugging it.
    public var logFile = "/dev/null"
    /// An utterance whose margin (see `Confidence`) is below this is rejected.
    public var rejectionMargin: Double = Confidence.defaultThreshold
    /// How far below `rejectionMargin` a phrase of the grammar is still kept as a guess the
    /// conversation can check ("Did you say …?") instead of giving up. A width rather than a
    /// margin, so the band follows the threshold when someone moves it. On the generated
    /// corpus, the default band (-2.25 to -1.6) holds 12 % of the commands (most of them heard
    /// right) and 13 % of the out-of-grammar sentences; on real voices, none of home-en and
    /// 4 % of the "jarvis" recordings. 0 never asks.
    public var askBand: Double = Confidence.defaultAskBand
    /// The lowest margin asked about: `rejectionMargin - askBand`.
    public var askMargin: Double { rejectionMargin - askBand }
    /// Whether to run the phone-loop pass that measures confidence. Without it nothing is
    /// rejected for want of confidence: any speech is forced onto the nearest phrase.
    public var measuresConfidence = true
    /// How far (per frame, `Confidence.marginScale` units) the words that decide an action must
    /// beat their rivals in the grammar (`RivalContest`), or nil to measure the contest without
    /// judging by it. See `Confidence.rivalMargin`.
    public var rivalClearance: Double? = Confidence.defaultRivalClearance
    /// How a request heard in a noisy room is asked about before Hark acts on it
    /// (`NoisyConfirmation`), or nil to judge it as in a quiet room.
    public var noisyConfirmation: NoisyConfirmation? = .standard
    /// A grammar whose searched graph has more states than this has the names of its long
    /// lists joined into one word each (`WordAcceptor.joiningChains`): the FSG search pays for
    /// every state on every frame. Below it the cost is small (the bundled apps' 94 states:
    /// under 5 % of decoding), and joined words are judged as one by the confidence, so a forced
    /// half of "garage light" would count for less; above it a large app's lists of names are
    /// most of the states (a thousand song names: a third of decoding time).
    public var joinsWordsAboveStates = 500
    /// Only the names of lists this long are joined (`WordAcceptor.joiningChains`'s `minimumFan`).
    public var joinsListsOfAtLeast = 100
    /// Whether lone clicks and bursts in the quiet around speech are turned down before decoding
    /// (`TransientSuppressor`).
    public var suppressesTransients = true
    /// The level (dBFS) of the faint hiss added to each utterance before it is decoded (see
    /// `NoiseFloor`), or nil to decode the audio as it comes. On make bench-real's quiet-room
    /// recordings (room 60 dB below speech) −60 dBFS lifted the commands understood at the
    /// threshold from 99 to 126 of 229 (each at its threshold from the tune half).
    public var noiseFloor: Double? = NoiseFloor.standardLevel
    /// How far below the utterance's voice (`SignalToNoise.voiceLevel`) the noise floor is kept
    /// at the least (`NoiseFloor.level(_:beneathVoiceAt:headroom:)`), or nil for `noiseFloor`
    /// whatever the voice's level.
    public var noiseFloorHeadroom: Double? = NoiseFloor.headroomBelowVoice
    /// The room level (dBFS: the quietest fifth of the utterance's 100 ms pieces, `RoomLevel`)
    /// above which an utterance is heard through WebRTC's noise suppression (`NoiseSuppressor`,
    /// a fresh one each utterance), or nil never to (the default; see
    /// `Recognizer.denoisingRoomLevel` for what it did and why it is not on).
    public var denoisesAbove: Double?
    /// Common words (`OtherWords`, e.g. the project's models/other-words.txt) searched beside the
    /// grammar when a phrase of at most `otherWordsUpTo` words was heard in a quiet room (the
    /// utterance's `SignalToNoise` estimate at least `otherWordsQuietAbove` dB) with a margin at
    /// which the search could change the verdict (`Confidence.otherWordsCouldDecide`): a second
    /// grammar search, with the loop, decides. If other words explain the audio best, the utterance is
    /// rejected as such; if a phrase still wins, it is judged `Confidence.otherWordsAllowance`
    /// more leniently. Empty: never (an assistant reads the installed list, models/other-words.txt,
    /// unless told not to: `AssistantConfiguration.readsInstalledOtherWords`). See docs/how-hark-hears.md for
    /// what it measured.
    ///
    /// The other words of `models/other-words.txt` (`bench/make-other-words.sh`) are the 500 most
    /// probable words of Debian's general language model. One word and from 15 dB were chosen
    /// with `Confidence.otherWordsAllowance` on the tune half of `make bench-real`, at the shipped
    /// threshold, as the most tune commands accepted with at most 8 of its 810 recordings to
    /// reject let through (offline, from a run with the loop beside every phrase; from 10 to
    /// 40 dB or none, up to 1, 2, 3 or any number of words, allowances 0 to 4).
    public var otherWords: [String] = []
    public var otherWordsUpTo = 1
    public var otherWordsQuietAbove = 15.0
    /// The threshold the verdict is given at, when that is not `rejectionMargin`: a benchmark
    /// decodes with no threshold, to judge every threshold from one decoding, and sets here the
    /// one its figures are given at. The search beside other words is judged worth its cost
    /// (`Confidence.otherWordsCouldDecide`), and a noisy room's requests asked about
    /// (`NoisyConfirmation`), against it. Nil: `rejectionMargin`.
    public var judgedAt: Double? = nil
    /// "one-word phrases heard at 15 dB SNR or more": where the other words are searched.
    public var otherWordsScope: String {
        (otherWordsUpTo == 1 ? "one-word phrases" : "phrases of at most \(otherWordsUpTo) words")
            + " heard at " + String(format: "%g", otherWordsQuietAbove) + " dB SNR or more"
    }

    public init() {}
}

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
    private let decoder: Decoder
    /// nil when confidence is not measured.
    private let phoneLoop: PhoneLoopPass?
    private let rivalContest: RivalContest

    /// A grammar compiled into decoder searches.
    private final class InstalledGrammar {
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
    private var grammarGeneration = 0
    private var inUse: InstalledGrammar? { installed.first }
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
        let adaptation = try Self.adaptationArguments(configuration.acousticTransform)
        let decoder = try Decoder.make(entries: entries, modelDirectory: configuration.modelDirectory,
                                       logFile: configuration.logFile, extraArguments: adaptation)
        self.configuration = configuration
        self.dictionary = dictionary
        lexiconPronunciations = added.filter { Self.baseWord($0.word) == $0.word }
        self.decoder = decoder
        rivalContest = RivalContest(decoder: decoder)
        phoneLoop = configuration.measuresConfidence
            ? try PhoneLoopPass(modelDirectory: configuration.modelDirectory, logFile: configuration.logFile,
                                extraArguments: adaptation) : nil
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

    // MARK: Dictionary

    private let dictionary: PronunciationDictionary

    /// "word" of a dictionary entry "word(2)".
    static func baseWord(_ entry: String) -> String {
        String(entry.prefix { $0 != "(" })
    }

    /// Teaches the decoder the dictionary's pronunciations (alternates included) of those of
    /// `words` it does not know yet, in one pass over the dictionary file. Returns the words
    /// no dictionary knows, sorted.
    @discardableResult
    public func learn(_ words: some Sequence<String>) throws(RecognitionError) -> [String] {
        try Self.teach(words, from: dictionary, to: decoder)
    }

    /// `learn(_:)`'s work, also for the initialiser before `self` is whole.
    @discardableResult
    private static func teach(_ words: some Sequence<String>, from dictionary: PronunciationDictionary,
                              to decoder: Decoder) throws(RecognitionError) -> [String] {
        let missing = Set(words.map { $0.lowercased() }.filter { decoder.pronunciation(of: $0) == nil })
        guard !missing.isEmpty else { return [] }
        let entries = try dictionary.entries(for: missing)
        if !entries.isEmpty { try decoder.addWords(entries) }
        return missing.subtracting(entries.map { baseWord($0.word) }).sorted()
    }

    /// Every pronunciation the dictionary gives each word, alternates included ("and": AH N D
    /// and AE N D); a word it lacks is left out.
    public func pronunciations(of words: Set<String>) throws(RecognitionError) -> [String: [String]] {
        var found: [String: [String]] = [:]
        for (entry, phones) in try dictionary.entries(for: Set(words.map { $0.lowercased() })) {
            found[String(entry.prefix { $0 != "(" }), default: []].append(phones)
        }
        return found
    }

    /// The phones Hark listens for when it hears `word`, or nil if no dictionary knows it.
    public func pronunciation(of word: String) throws(RecognitionError) -> String? {
        try learn([word])
        return decoder.pronunciation(of: word.lowercased())
    }

    /// Words of `grammar` that no dictionary knows, sorted; the others are taught to the decoder.
    public func unknownWords(in grammar: Grammar) throws(RecognitionError) -> [String] {
        try learn(grammar.vocabulary)
    }

    /// Teaches the decoder pronunciations (ARPAbet phones separated by spaces).
    public func addPronunciations(_ entries: [(word: String, phones: String)]) throws(RecognitionError) {
        try decoder.addWords(entries.map { ($0.word.lowercased(), $0.phones.uppercased()) })
    }

    static func readLexicon(_ url: URL) throws(RecognitionError) -> [(word: String, phones: String)] {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.pronunciation, "cannot read lexicon \(url.path): \(error.localizedDescription)")
        }
        var entries: [(word: String, phones: String)] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard fields.count >= 2 else {
                throw RecognitionError(.pronunciation, "\(url.path):\(number + 1): expected a word and its phones")
            }
            let unknown = fields.dropFirst().filter { !Phones.all.contains($0.uppercased()) }
            guard unknown.isEmpty else {
                throw RecognitionError(.pronunciation, "\(url.path):\(number + 1): unknown phones \(unknown.joined(separator: " ")); use the model's ARPAbet set")
            }
            entries.append((fields[0].lowercased(), fields.dropFirst().joined(separator: " ").uppercased()))
        }
        return entries
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

    private func install(_ grammar: Grammar) throws(RecognitionError) -> InstalledGrammar {
        let graph = WordGraph(grammar)
        // No garbage loop of phones beside the grammar: at any weight that left good commands
        // alone it never won once the phone-loop pass measured confidence (every margin and
        // verdict the same on 833 recordings with and without it, decoding time within
        // run-to-run noise).
        // The decoder searches the smallest graph with the same sentences: for the bundled
        // apps' top level 94 states instead of 469 and 1,672 lextree HMMs instead of 2,905.
        // Over 2,812 recordings the verdicts held (commands right 1,057 → 1,061, false
        // acceptances 42 → 41) while decoding took 23 % less time and 15 MB less memory.
        var acceptor = WordAcceptor(graph)
        var joinedWords: Set<String> = []
        if acceptor.stateCount > configuration.joinsWordsAboveStates {
            let words = Set(acceptor.arcs.compactMap(\.word))
            acceptor = acceptor.joiningChains(separator: Self.joiner, minimumFan: configuration.joinsListsOfAtLeast)
            // Only what was joined is split again: a grammar word may hold the joiner itself.
            joinedWords = Set(acceptor.arcs.compactMap(\.word)).subtracting(words)
            try learnJoinedWords(joinedWords)
        }
        let arcs = acceptor.arcs.map { arc -> (from: Int, to: Int, word: String?, probability: Float) in
            (arc.from, arc.to, arc.word, 1)
        }
        // Without a list there is nothing to set beside the grammar, nor any of its words to look up.
        let otherWords = configuration.otherWords.isEmpty ? []
            : OtherWords.beside(grammarWords: Set(arcs.compactMap(\.word)), configuration.otherWords,
                                pronunciations: alternatePronunciations(of:))
        // Like the second search, made the first time an utterance needs it.
        let otherWordsCheck: InstalledGrammar.LazySearch? = otherWords.isEmpty ? nil
            : .pending(states: acceptor.stateCount + OtherWords.addedStates, start: acceptor.start, final: acceptor.final,
                       arcs: arcs + OtherWords.loopArcs(words: otherWords, start: acceptor.start, final: acceptor.final,
                                                        firstFreeState: acceptor.stateCount))
        // A fresh name each time: replacing the active search in place is unsafe here.
        grammarGeneration += 1
        let entry = InstalledGrammar(grammar: grammar, graph: graph, search: "hark-grammar-\(grammarGeneration)",
                                     tightSearch: "hark-grammar-tight-\(grammarGeneration)",
                                     // The second search costs as much memory as the first: it is
                                     // made the first time an utterance needs it.
                                     tight: .pending(states: acceptor.stateCount, start: acceptor.start,
                                                     final: acceptor.final, arcs: arcs),
                                     otherWordsSearch: "hark-grammar-other-words-\(grammarGeneration)",
                                     otherWordsCheck: otherWordsCheck, otherWords: Set(otherWords),
                                     joinedWords: joinedWords)
        try decoder.installGraph(name: entry.search, states: acceptor.stateCount, start: acceptor.start,
                                 final: acceptor.final, arcs: arcs)
        return entry
    }

    /// What joins the words of a chain into one ("living_room"); no grammar word has it.
    static let joiner: Character = "_"
    /// Pronunciations of a joined word: each of its parts' (alternates included) one after the
    /// other, at most this many combinations.
    static let joinedPronunciationLimit = 8

    /// Teaches the decoder the joined words it does not know yet.
    private func learnJoinedWords(_ words: Set<String>) throws(RecognitionError) {
        var entries: [(word: String, phones: String)] = []
        for word in words.sorted() where decoder.pronunciation(of: word) == nil {
            var combinations = [""]
            for part in word.split(separator: Self.joiner).map(String.init) {
                let pronunciations = alternatePronunciations(of: part)
                guard !pronunciations.isEmpty else {
                    throw RecognitionError(.unknownWords([part]), "the dictionary does not know \"\(part)\"")
                }
                combinations = Array(combinations.lazy.flatMap { head in pronunciations.map { head.isEmpty ? $0 : head + " " + $0 } }
                    .prefix(Self.joinedPronunciationLimit))
            }
            for (index, phones) in combinations.enumerated() {
                entries.append((index == 0 ? word : "\(word)(\(index + 1))", phones))
            }
        }
        if !entries.isEmpty { try decoder.addWords(entries) }
    }

    /// Every pronunciation the decoder listens for in `word` ("word", "word(2)", …), taught or
    /// not: what a second decoder needs to listen for the same sounds.
    public func pronunciations(of word: String) -> [String] {
        alternatePronunciations(of: word.lowercased())
    }

    /// Every pronunciation the decoder knows for `word`: "word", "word(2)", …
    private func alternatePronunciations(of word: String) -> [String] {
        var found: [String] = []
        var entry = word
        while let phones = decoder.pronunciation(of: entry) {
            found.append(phones)
            entry = "\(word)(\(found.count + 1))"
        }
        return found
    }

    // MARK: Dictation

    private static let dictationSearch = "hark-dictation"
    private var hasLanguageModel = false

    /// Recognises free text with the general language model: for answers that
    /// are not in any grammar (a message's content). Less accurate than a
    /// grammar, and nothing is rejected except silence.
    public func dictate(_ samples: [Int16], heardIn room: String? = nil) throws(RecognitionError) -> Recognition {
        if !hasLanguageModel {
            guard FileManager.default.fileExists(atPath: configuration.languageModel) else {
                throw RecognitionError(.modelLoad, "no language model for dictation at \(configuration.languageModel)")
            }
            // The general language model's words are the whole dictionary's.
            let all = try dictionary.allEntries()
            let known = Set(all.lazy.map(\.word).filter { self.decoder.pronunciation(of: $0) != nil })
            try decoder.addWords(all.filter { !known.contains($0.word) })
            try decoder.installLanguageModel(name: Self.dictationSearch, path: configuration.languageModel)
            hasLanguageModel = true
        }
        let started = Date()
        let cepstra = try self.cepstra(of: samples, heardIn: room)
        try decoder.activate(Self.dictationSearch)
        let hypothesis: Decoder.Hypothesis
        do {
            hypothesis = try decoder.decodeWhole(cepstra)
        } catch {
            if let inUse { try? decoder.activate(inUse.search) }
            throw error
        }
        if let inUse { try decoder.activate(inUse.search) }
        let words = hypothesis.words
        return Recognition(words: words, isRejected: words.isEmpty, confidence: words.isEmpty ? 0 : 1,
                           rejection: words.isEmpty ? "nothing was heard" : nil, margin: 0, interpretation: nil,
                           frames: hypothesis.frames, decodeSeconds: Date().timeIntervalSince(started))
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
    private func cepstra(of samples: [Int16], heardIn room: String?) throws(RecognitionError) -> Cepstra {
        try frontEnds.frontEnd(for: room ?? "", like: decoder).cepstra(of: samples)
    }

    /// The rooms whose backgrounds are remembered, the one heard last first ("" for this device's own).
    public var roomsHeard: [String] { frontEnds.names }

    /// The room level suggested for `RecognizerConfiguration.denoisesAbove` (`--request-denoise-above`),
    /// which is off by default. Chosen on the tune half of `make bench-real` (room levels there:
    /// quiet rooms about -80 dBFS at the median, 20 dB SNR -44, 10 dB -34, 0 dB -27) among -70 to
    /// -35 dBFS, offline from one run with and one without suppression. Decoded for real in one
    /// run, it hears more commands right at any margin (943 of 1,374 against 924) and misrecognises
    /// fewer, but each recording then inherits the front end's noise estimate from suppressed and
    /// unsuppressed ones alike, and the margins moved: at the threshold chosen on the tune half
    /// (-1.756) it accepted 194 tune commands against 203 without it, and on the test half 422
    /// (35 wrong, 6 of 396 false acceptances) against 423 (45, 7). At -1.78: 0 dB SNR 33 commands
    /// of 229 instead of 21, 5 dB 75 instead of 68, but 10 dB 109 instead of 118. So it is there
    /// for a loud room, not on for every room. Also measured and not taken: switching by the
    /// utterance's own signal-to-noise estimate (below 11 dB: test 408 commands, 33 wrong, 3 false
    /// acceptances at its tune threshold, -1.649), suppressing every utterance, and letting the
    /// suppressor hear the utterance once before the pass kept (more false acceptances).
    public static let denoisingRoomLevel = -50.0

    /// The audio as the decoders hear it: lone transients turned down, in a loud room the noise
    /// suppressed, then the noise floor added (each fresh for the utterance, so the same audio
    /// always decodes the same way).
    /// `voiceLevel`: the heard audio's (`SignalToNoise.Levels.voiceLevel`), which keeps the floor
    /// below a faint voice.
    private func prepared(_ heard: [Int16], voiceLevel: Double?) throws(RecognitionError) -> [Int16] {
        var samples = configuration.suppressesTransients ? TransientSuppressor().suppress(heard).samples : heard
        if let line = configuration.denoisesAbove, let room = RoomLevel.of(heard), room > line {
            do {
                samples = try NoiseSuppressor.suppressing(samples)
            } catch {
                throw RecognitionError(.decoding, "the noise suppression failed: \(error)")
            }
        }
        guard let level = configuration.noiseFloor else { return samples }
        var hiss = NoiseFloor(level: NoiseFloor.level(level, beneathVoiceAt: voiceLevel, headroom: configuration.noiseFloorHeadroom))
        return hiss.adding(to: samples[...])
    }

    /// What the two passes say about one grammar search's path: its words (joined words split
    /// again), the margin judged against the threshold, and what that margin is made of.
    private struct Judgement {
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
    }

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

    /// Searches the words heard beside their rivals (`RivalContest`), keeps the outcome with the
    /// features, and lowers the margin to the contest's (`Confidence.rivalMargin`) when judged by it.
    private func judgeAgainstRivals(_ words: [String], in grammar: InstalledGrammar, cepstra: Cepstra,
                                    judged: inout Judgement) throws(RecognitionError) {
        let rivals = grammar.graph.rivals(of: words)
        guard !rivals.isEmpty,
              let outcome = try rivalContest.judge(words, rivals: rivals, cepstra: cepstra, returningTo: grammar.search) else { return }
        judged.features?.rival = outcome
        if let clearance = configuration.rivalClearance {
            let rivalMargin = Confidence.rivalMargin(gap: outcome.gap, clearance: clearance)
            if rivalMargin < judged.margin {
                judged.margin = rivalMargin
                judged.closeRival = outcome
            }
        }
    }

    /// Recognises one whole utterance of 16 kHz mono audio against the grammar in use. `room`
    /// names where it was heard (a satellite's room; nil for this device's own microphone and
    /// for clients that name none): each room's background is learnt from its own utterances.
    public func recognize(_ heardSamples: [Int16], heardIn room: String? = nil) throws(RecognitionError) -> Recognition {
        guard let grammar = inUse else {
            throw RecognitionError(.grammar, "no grammar in use: call use(_:) first")
        }
        let levels = SignalToNoise.levels(heardSamples)
        let samples = try prepared(heardSamples, voiceLevel: levels?.voiceLevel)
        let graph = grammar.graph
        let started = Date()
        let signalToNoise = levels?.signalToNoise
        let quiet = (signalToNoise ?? -.infinity) >= configuration.otherWordsQuietAbove
        let cepstra = try self.cepstra(of: samples, heardIn: room)
        // The phone loop decodes the same features on its own thread meanwhile.
        let (firstHeard, loop) = try decodeAlongsidePhoneLoop(cepstra) { () throws(RecognitionError) in
            try decodeGrammar(cepstra, grammar)
        }
        var heard = firstHeard
        var judged = judge(heard, loop: loop, grammar: grammar, signalToNoise: signalToNoise)
        if needsOtherWordsCheck(heard, judged, quiet: quiet), let checked = try decodeBesideOtherWords(cepstra, grammar) {
            heard = checked
            judged = judge(heard, loop: loop, grammar: grammar, signalToNoise: signalToNoise)
        }
        let otherWordsHeard = heard.checkedAgainstOtherWords && heard.hypothesis.words.contains { grammar.otherWords.contains($0) }
        let words = judged.words, frames = heard.hypothesis.frames
        let elapsed = Date().timeIntervalSince(started)

        let interpretation = graph.interpret(words)
        // A phrase that must be heard more surely than others ("turn it up") is judged lower by so much.
        judged.strictness = interpretation.map { grammar.grammar.rules[$0.ruleIndex].strictness } ?? 0
        judged.margin -= judged.strictness
        // Rejected without a question whatever its rivals: no contest needed.
        if configuration.measuresConfidence, interpretation != nil, judged.margin >= configuration.askMargin {
            try judgeAgainstRivals(words, in: grammar, cepstra: cepstra, judged: &judged)
        }
        // In a noisy room a request heard only just well enough is asked about (`NoisyConfirmation`).
        let heardMargin = judged.margin
        if configuration.measuresConfidence, let confirmation = configuration.noisyConfirmation {
            judged.margin = confirmation.judged(heardMargin, signalToNoise: signalToNoise,
                                                threshold: configuration.judgedAt ?? configuration.rejectionMargin,
                                                askBand: configuration.askBand)
        }
        let margin = judged.margin
        var rejection: String?
        // Rejected only for want of confidence, and not by much: worth asking about.
        var isGuess = false
        if words.isEmpty {
            rejection = "nothing in the grammar matched"
        } else if otherWordsHeard {
            rejection = "other words fit better (\"\(words.joined(separator: " "))\")"
        } else if configuration.measuresConfidence, margin < configuration.rejectionMargin {
            rejection = heardMargin >= configuration.rejectionMargin
                ? "heard only just well enough to act on in a noisy room (margin " + String(format: "%.2f", heardMargin)
                    + ", SNR " + (signalToNoise.map { String(format: "%.0f dB", $0) } ?? "unknown") + "): worth asking"
                : "too unsure (\(Confidence.describe(features: judged.features, utterance: judged.utteranceMargin, weakest: judged.weakest, noisePenalty: judged.noisePenalty, signalToNoise: signalToNoise, strictness: judged.strictness))\(judged.closeRival.map { ", \"\($0.word)\" nearly as likely as \"\(words[$0.position])\" (" + String(format: "%.2f", $0.gap) + ")" } ?? "") < \(configuration.rejectionMargin))"
            isGuess = interpretation != nil && margin >= configuration.askMargin
        } else if interpretation == nil {
            rejection = "the words heard do not form a phrase of the grammar"
        }
        let isRejected = rejection != nil
        return Recognition(
            words: isRejected ? [] : words,
            isRejected: isRejected,
            confidence: words.isEmpty ? 0 : Confidence.from(margin: margin, threshold: configuration.rejectionMargin),
            rejection: rejection,
            margin: margin,
            interpretation: isRejected ? nil : interpretation,
            frames: frames,
            decodeSeconds: elapsed,
            framesAfterLastWord: isRejected ? nil : judged.lastSoundFrame.map { frames - 1 - $0 },
            utteranceMargin: judged.utteranceMargin,
            wordFits: judged.wordFits,
            features: judged.features,
            guess: isGuess ? RivalOutcome.question(about: words, closest: judged.closeRival) : [])
    }
}

/// How sure the recogniser is of what it heard.
///
/// Every figure compares the grammar's path with a free loop of phones over the same audio, in
/// pocketsphinx's scaled log domain times `marginScale` to give readable numbers: near 0 when the
/// grammar explains the audio as well as free phones do, clearly negative when it had to force
/// the audio onto a phrase. The margin judged against the threshold is the lowest of five:
/// - the words' margin, per frame over the frames the grammar's path spends in words
///   (`ConfidenceFeatures.wordMargin`): speech forced onto a phrase fits it badly;
/// - the weakest word's evidence (`WordFit`), which catches a phrase right but for one word;
/// - the coverage margin (`coverageMargin`): how much of the speech the free phones hear the
///   grammar's words explain. A grammar's path may put speech it cannot match in its silence
///   and noise fillers, which fit speech about as well as free phones do, so a long sentence
///   with one phrase-like stretch in it scores well on its words alone.
/// - the speech besides the phrase (`speechBesidesMargin`): a share is not enough for long audio,
///   where a phrase can be a third of the speech and still leave seconds of other talk: more
///   than a request.
/// - the pace of the phrase (`slowSpeechMargin`): a path that stretches a short phrase over
///   seconds of audio ("five" over 2.7 s of someone saying "jarvis") fits it as well as the
///   free phones fit the same stretch, so nothing else says it is not what was said.
/// In loud noise that lowest figure is judged lower still (`noisePenalty`), by the audio's own
/// `SignalToNoise` estimate.
///
/// A lone short word ("two") is judged by its per-frame words' margin, unscaled, although its
/// weakest-word evidence is scaled down for shortness. Scaling the words' margin the same way
/// (below 50 frames) accepted 448 test commands of `make bench-real` instead of 397 (each at its
/// threshold from the tune half), but misrecognised nearly as many more digits as it accepted
/// (over the whole corpus, at equal false acceptances, 650 right and 111 wrong against 574 and
/// 54): it moves digits from rejected to wrong, so it is not done. Nor is a feature of how
/// often the free phones heard the word's own phones in its frames (medians: commands heard
/// right 0.38 to 0.46, speech to reject 0.21): it separates on average, not at the tail.
/// Two more were measured on `make bench-real` and not taken (each at its tune-half threshold,
/// against 397 test commands, 42 wrong, 5 of 396 false acceptances):
/// - the gap to the best rival phrase, from a second grammar search without the phrase heard:
///   407 test commands for 7 false acceptances at best. pocketsphinx scales each frame's scores
///   by the best senone the search has active, so two searches' path scores are not on one
///   scale (the same grammar with its states renumbered scored "zero" -0.265 and -0.271), and
///   for a third of the lone digits the rival search ended off the grammar's final state.
/// - `-compallsen yes` on both passes, which puts them on one scale (the best of all senones):
///   418 test commands but 59 wrong and 9 false acceptances, at a real-time factor of 0.17.
///
/// Nor is each word's margin judged against what its phones usually score. Fitted on 1,843
/// words heard right in `make adapt`'s recordings (speakers the benchmark never measures on,
/// clean and in noise; a per-frame margin per phone, by least squares, beside one per
/// condition), vowels score lower than free phones (AH -0.7, EY -1.0) and nasals higher (M
/// 1.2, NG 1.5), but the phones explain little (the words' spread falls from 0.78 to 0.75 beyond
/// what the condition explains) and differ by about 0.2 between digits, where the real
/// commands heard right differ by 2 ("one" -0.7, "two" -2.8 at the median). With the words'
/// margin less twice its phones' expectation, the best on the tune half of `make bench-real`,
/// commands less twice those wrong rose from 684 to 713 there, but on the test half it took
/// 1,118 of 1,926 commands, 118 wrong and 7 of 396 false acceptances, against 1,060, 100 and 5.
///
/// The false acceptances left at the shipped threshold are mostly lone digits (the short
/// everyday phrases of the not-wake-word recordings heard as "zero", "four", "one"). A stricter
/// margin for one-word phrases, with the threshold chosen on the tune half again, keeps them out
/// but throws away more digits said: 0.1 stricter, 404 test commands for 4 of 396 false
/// acceptances; 0.3, 373 for 1 (against 423 for 5 with none).
///
/// The utterance's own per-frame margin is kept for logs but no longer judged: the grammar's
/// fillers pull it toward 0 for speech outside the grammar (read sentences of about 8 s scored
/// -1.1 at the median, above the commands heard right in 5 dB noise), and in noise the room's frames
/// pull it down for commands heard right. On the real-voice corpus (`make bench-real`, speakers
/// the settings were not chosen on), at 1 % false acceptances, the lowest of these three kept
/// 200 of 368 commands heard right against 131 for the utterance margin and weakest word
/// (clean, 20, 5 and 0 dB).
public enum Confidence {
    public static let marginScale = 1000.0
    /// Chosen on the tune half of the real-voice corpus (`make bench-real`: three of the six
    /// digit speakers, LJ Speech, half of the other recordings by file name, clean and in four
    /// household noises at 20, 10, 5 and 0 dB and after a click) as the highest margin letting at
    /// most 1 % of the speech that must be rejected through (8 of 810), heard through the shipped
    /// acoustic adaptation and the noise floor, and judged on the other half. See the figures in
    /// docs/how-hark-hears.md and docs/benchmarks.md. The margin judged is the passes' less the noise penalty (`noisePenalty`), chosen
    /// with it. It was -1.51 before the penalty and before the phone loop weighed three Gaussians
    /// a frame instead of four (`PhoneLoopPass.gaussiansPerFrame`). The speech besides the phrase
    /// and its pace, added since, took out one tune and two test false acceptances, so the same
    /// rule then gave -1.82, but -1.78 was kept (7 of 396 test recordings let through instead of
    /// 4). Once speech heard as Hark's own commands counted as accepted (it is acted on), with
    /// those commands judged `TurnGrammar.ownCommandStrictness` lower at the top level and the
    /// other words' allowance lifting the words' figures alone (`margin`), the rule gives -1.81:
    /// on the tune half 834 commands of 1,566, 75 wrong, 8 of 810 let through; on the test half
    /// 1,063 of 1,926, 104 wrong, 4 of 396 (at -1.78 before these: 1,060, 100 and 7, with Hark's
    /// own commands counted).
    public static let defaultThreshold = -1.81
    /// Within this much below the threshold, a phrase is a guess worth asking about
    /// (see `RecognizerConfiguration.askBand`). Its floor, -2.09, stays where the band's was when
    /// the threshold was -1.45: the threshold moved with the acoustic model, the noise floor, the
    /// phone loop, the noise penalty and the counting of Hark's own commands (0.31 wide at
    /// -1.78), and on `make bench-real` this band asks about 248 commands of 3,492 (160 named
    /// right) and answers 39 of the 1,206 recordings to reject (3.2 %) with a question.
    public static let defaultAskBand = 0.28
    /// In loud noise, speech that must be rejected is forced onto phrases with margins as good as
    /// commands heard right in a quiet room: the margin is judged lower by this much for each dB
    /// the utterance's `SignalToNoise` estimate falls below `noisePenaltyBelow` (for audio too
    /// short to estimate, as if at 0 dB). Chosen with the threshold on the tune half of `make
    /// bench-real` (ten points from 5 to 50 dB, ten slopes from 0.01 to 0.12 per dB). Judged on
    /// the test half, each at its tune-half threshold: 423 commands accepted, 45 wrong, 5 of 396
    /// false acceptances, against 407, 47 and 5 with one threshold for every room. Below 10 dB
    /// at 0.06 and below 40 dB at 0.02 did equally well on the tune half (the second on the test
    /// half: 426, 42, 5); the first was kept because the second takes a quiet room's threshold to
    /// -2.17, below where "Did you say …?" began, and let 4 of the 201 quiet-room recordings to
    /// reject through instead of 2.
    public static let noisePenaltyBelow = 10.0
    public static let noisePenaltyPerDecibel = 0.06
    /// How sharply confidence falls around the threshold.
    public static let spread = 0.25
    /// The share of the speech heard that the grammar's words must explain for the coverage
    /// margin to be 0, and how fast the margin falls below it: at 36 % it reaches the default
    /// threshold. Any slope from 3 to 8 and any share from 0.7 to 0.9 did within 3 % as well on
    /// the tune half; 4 and 0.8 were the best.
    public static let fullCoverage = 0.8
    public static let coverageSlope = 4.0

    /// How much speech besides the phrase's words a request may hold before it counts against
    /// the margin (10 ms frames: 3 s), and how fast the margin falls beyond that (per second).
    /// Every one of the 924 commands `make bench-real` hears right has less than 1 s besides its
    /// words (the most, 0.99 s; the 95th percentile, 0.32 s), so three times the most leaves room
    /// for "please" and a hesitation. 31 s of a kitchen with nine "jarvis" said in it
    /// (audio-fixtures/wake/real_wakes_noisy.wav) had 4.6 s of speech besides "turn on the living
    /// room lamp", which the grammar found in it with a coverage margin just above the threshold;
    /// a Wyoming client may send a minute. On make bench-real (from one run's features): the
    /// same 624 commands at -1.78 for 13 false acceptances of 1,206 instead of 14 (a read
    /// sentence with 3.9 s besides its phrase), and 50 of them in the ask band instead of 55; 2 s
    /// or 2.5 s, or a slope of 2, changed nothing else.
    public static let speechBesidesAllowed = 300
    public static let speechBesidesSlope = 5.0

    /// How much more leniently a short phrase is judged once it has beaten the other words
    /// searched beside the grammar (`RecognizerConfiguration.otherWords`): they already reject
    /// most of what the margin against free phones is there to reject. The quiet line and the
    /// phrase length were chosen with 2.5, the most tune commands accepted (see
    /// `RecognizerConfiguration.otherWords`); but every unit of allowance also lets through
    /// phrases heard wrong. On the tune half of `make bench-real` at the shipped threshold,
    /// commands accepted less twice those accepted wrong (a wrong action weighs as two missed),
    /// allowance 0 to 3 in steps of 0.5: 116, 160, 171, **191**, 185, 175, 172 (166 without the
    /// other words), with 5 of its 810 to reject let through (7 without).
    public static let otherWordsAllowance = 1.5

    /// `otherWordsAllowance` where the phrase beat the other words, else 0.
    public static func allowance(features: ConfidenceFeatures?) -> Double {
        features?.checkedAgainstOtherWords == true ? otherWordsAllowance : 0
    }

    /// How far above the threshold a short phrase's margin, before any allowance, says the other
    /// words need not be searched: free phones already fit it nearly as well as anything could,
    /// and other words are no more than free phones. The search is dear: run on every short
    /// request, it added 44 % to the CPU of make bench-real's quiet room, and put the whole
    /// benchmark at 0.0503 of a core a second of audio, over the 0.05 budget. On the tune half of
    /// make bench-real, with and without the search in one run each, skipping it from a clearance
    /// of 1.03 changed no verdict, from 0.78 down to 0.33 two (one "four" said in two conditions,
    /// which the search had thrown away as "phone": now accepted), and from 0.28 (a margin of -1.5)
    /// two more let through that must be rejected. 0.5 leaves room: on the test half it changed no
    /// verdict while skipping 394 of the 879 searches (at 0.45 and below, one more false
    /// acceptance there).
    public static let otherWordsClearance = 0.5

    /// How far below the lowest margin asked about a short phrase's margin, less the allowance it
    /// could gain, says the search could not lift it into the ask band whatever it found. A path
    /// through the grammar scores no better beside other words than alone (their senones only
    /// raise the best score each frame is measured from); on the 1,786 utterances `make
    /// bench-real` searched, the margin rose by the allowance at most. 0.25 is to spare.
    public static let otherWordsHopeless = 0.25

    /// Whether the search with other words beside the grammar could change the verdict on a
    /// short phrase whose margin without it is `margin`: not when the phrase clears `threshold`
    /// by `otherWordsClearance` anyway, nor when even the allowance would leave it below
    /// `askMargin` (rejected without a question either way).
    public static func otherWordsCouldDecide(margin: Double, threshold: Double, askMargin: Double) -> Bool {
        margin < threshold + otherWordsClearance && margin >= askMargin - otherWordsAllowance - otherWordsHopeless
    }

    /// The speech besides the phrase on the margin's scale beyond `speechBesidesAllowed` frames:
    /// from 0 there, `speechBesidesSlope` lower for each second more. Nil within the allowance,
    /// where it says nothing (a margin above 0 stays above 0).
    public static func speechBesidesMargin(_ frames: Int) -> Double? {
        guard frames > speechBesidesAllowed else { return nil }
        return -speechBesidesSlope * Double(frames - speechBesidesAllowed) / 100
    }

    /// How slowly a phrase may be said, in 10 ms frames a phone on average over its words, before
    /// it counts against the margin, and how fast the margin falls beyond that (per frame). The
    /// 924 commands `make bench-real` hears right take 9.8 frames a phone at the median, 27.5 at
    /// the 99th percentile and 39.5 at the most (a lone digit said slowly); 50 is five times the
    /// usual pace. On make bench-real (from one run's features): the same 624 commands at -1.78
    /// for 11 false acceptances of 1,206 instead of 13 (one "jarvis" heard as "five" over 2.7 s
    /// after a click and without it, at 84 and 91 frames a phone); 45 did the same, and on three
    /// other runs 50 took out 1 or 2 false acceptances and no command.
    public static let slowestFramesPerPhone = 50.0
    public static let slowSpeechSlope = 0.2

    /// The pace of the phrase on the margin's scale beyond `slowestFramesPerPhone`: from 0 there,
    /// `slowSpeechSlope` lower for each frame a phone more. Nil within it, and when the phones
    /// were not counted.
    public static func slowSpeechMargin(_ framesPerPhone: Double?) -> Double? {
        guard let framesPerPhone, framesPerPhone > slowestFramesPerPhone else { return nil }
        return -slowSpeechSlope * (framesPerPhone - slowestFramesPerPhone)
    }

    /// 0.5 exactly at the rejection threshold, near 1 at a margin of 0.
    public static func from(margin: Double, threshold: Double = defaultThreshold) -> Double {
        guard margin.isFinite else { return 0 }
        return 1 / (1 + exp(-(margin - threshold) / spread))
    }

    /// The coverage figure on the margin's scale: 0 at `fullCoverage`, positive above it.
    public static func coverageMargin(_ coverage: Double) -> Double {
        coverageSlope * (coverage - fullCoverage)
    }

    /// The margin judged against the threshold: the lowest of the words' margin, the weakest
    /// word's evidence, the coverage margin, and the speech besides the phrase and its pace where
    /// they are past their allowances. Without the passes' features (no words on the path), the
    /// utterance's margin or the weakest word's evidence if lower.
    ///
    /// `allowance` (`otherWordsAllowance` where the phrase beat the other words) lifts the words'
    /// margin and the weakest word's evidence only: what the other words vouch for is how well the
    /// phrase's words fit their sounds, not how much of the speech they explain, what was said
    /// besides them or how slowly. Lifting the lowest figure instead let through a "jarvis" heard
    /// as "help" with 37 % of its speech in the word (a coverage margin of -1.72 taken to -0.22).
    /// On `make bench-real`, each at the loosest threshold letting at most 8 of the tune half's 810
    /// recordings to reject through, from one run's features (the margin recomputed exactly for
    /// all 4,509 with words): lifting the words alone accepts 834 tune commands (75 wrong) at
    /// -1.81 against 831 (75) at -1.79, and on the test half 1,063 commands, 104 wrong and 4 of
    /// 396 false acceptances against 1,060, 102 and 7. Allowances of 0.5 to 2.5 did no better
    /// either way by the tune half's commands less twice those wrong (684 at 1.5).
    public static func margin(features: ConfidenceFeatures?, utterance: Double, weakest: WordFit?,
                              allowance: Double = 0) -> Double {
        guard let features, features.wordFrames > 0 else { return min(utterance, weakest?.evidence ?? utterance) + allowance }
        return min(features.wordMargin + allowance, (weakest?.evidence ?? features.wordMargin) + allowance,
                   coverageMargin(features.coverage),
                   speechBesidesMargin(features.speechBesidesWords) ?? .infinity,
                   slowSpeechMargin(features.framesPerPhone) ?? .infinity)
    }

    /// The noise estimate's part of the margin: 0 at or above `noisePenaltyBelow` dB.
    /// The margin a contest with rival words gives (`RivalContest`): the threshold when the word
    /// heard beats its closest rival by `clearance` per frame, lower as the gap closes.
    public static func rivalMargin(gap: Double, clearance: Double) -> Double {
        defaultThreshold + rivalSlope * (gap - clearance)
    }

    /// See `rivalMargin`. The clearance was chosen on the tune half of `make bench-real`, where
    /// holding back more cost over three commands heard right for each wrong action stopped;
    /// the slope puts about half of those held back in the band that is asked about
    /// (docs/benchmarks.md).
    public static let defaultRivalClearance = 0.5
    public static let rivalSlope = 0.5

    public static func noisePenalty(signalToNoise: Double?) -> Double {
        max(0, noisePenaltyBelow - (signalToNoise ?? 0)) * noisePenaltyPerDecibel
    }

    /// "words -1.62, weakest word \"garage\" -2.10, 45 % of the speech in words, -0.30 for noise
    /// (SNR 5 dB)", for logs; "+2.50 as no other words fit better" where the allowance counted,
    /// "-0.80 for a phrase heard strictly" where the phrase's `Grammar.Rule.strictness` did.
    public static func describe(features: ConfidenceFeatures?, utterance: Double, weakest: WordFit?,
                         noisePenalty: Double = 0, signalToNoise: Double? = nil, strictness: Double = 0) -> String {
        let allowance = allowance(features: features)
        let noise = (noisePenalty > 0
            ? ", " + String(format: "%.2f", -noisePenalty) + " for noise (SNR "
                + (signalToNoise.map { String(format: "%.0f", $0) + " dB" } ?? "unknown") + ")"
            : "") + (allowance > 0 ? ", +" + String(format: "%.2f", allowance) + " as no other words fit better" : "")
            + (strictness > 0 ? ", " + String(format: "%.2f", -strictness) + " for a phrase heard strictly" : "")
        guard let features, features.wordFrames > 0 else {
            return "margin " + String(format: "%.2f", utterance) + (weakest.map { ", weakest word " + $0.summary } ?? "") + noise
        }
        // Each named only where it counts, past its allowance.
        let besides = speechBesidesMargin(features.speechBesidesWords) == nil
            ? "" : ", " + String(format: "%.1f", Double(features.speechBesidesWords) / 100) + " s of speech besides them"
        let pace = slowSpeechMargin(features.framesPerPhone) == nil
            ? "" : ", " + String(format: "%.0f", (features.framesPerPhone ?? 0) * 10) + " ms a phone"
        return "words " + String(format: "%.2f", features.wordMargin) + (weakest.map { ", weakest word " + $0.summary } ?? "")
            + ", " + String(format: "%.0f", features.coverage * 100) + " % of the speech in words" + besides + pace + noise
    }
}
