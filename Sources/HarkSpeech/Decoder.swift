internal import CFastScoring
internal import CPocketSphinx
import Foundation

/// Owns one pocketsphinx decoder: the acoustic model and dictionary are
/// loaded once, and searches (grammars) are installed and switched between
/// utterances. Not thread-safe: use it from one thread at a time.
final class Decoder {
    // Internal so that extensions in other files (the lattice) reach the handle.
    let decoder: OpaquePointer
    private let config: OpaquePointer

    struct Settings {
        var modelDirectory: String
        var dictionary: String
        /// Where pocketsphinx writes its own log; /dev/null keeps the terminal clean.
        var logFile: String
        var extraArguments: [String] = []
        /// Scores the model's Gaussians with `CFastScoring` (the same scores, less CPU) when the
        /// model is phonetically tied, as Debian's en-us is. Off for the plain-pocketsphinx
        /// baselines, which measure the library as it comes.
        var fastScoring = false
    }

    init(_ settings: Settings) throws(RecognitionError) {
        for path in [settings.modelDirectory, settings.dictionary] where !FileManager.default.fileExists(atPath: path) {
            throw RecognitionError(.modelLoad, "the speech model file \(path) is missing; install pocketsphinx-en-us (apt-get install pocketsphinx-en-us)")
        }
        // No -logfn: with it, ps_init swaps sphinxbase's one process-wide log stream and fcloses
        // the old one, so two decoders made at once closed the same FILE twice (a hang in glibc's
        // stream locks, seen in `make test`). The stream is set once, under `lifecycle`.
        let arguments = [
            "-hmm", settings.modelDirectory,
            "-dict", settings.dictionary,
            // 16 kHz in, as the model was trained; other rates are resampled before this.
            "-samprate", "16000", "-nfft", "512",
            // Silence between words at pocketsphinx's own probability: a lower one failed speech
            // with quiet around it (figures: docs/benchmarks.md, "The settings' figures"). The
            // recogniser keeps a second grammar search with almost none for the voices this
            // finds no path for.
            "-silprob", "0.005",
        ] + settings.extraArguments
        var cStrings: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        defer { cStrings.forEach { free($0) } }
        guard let config = cStrings.withUnsafeMutableBufferPointer({ buffer in
            cmd_ln_parse_r(nil, ps_args(), Int32(arguments.count), buffer.baseAddress, 1)
        }) else {
            throw RecognitionError(.modelLoad, "cmd_ln_parse_r rejected the decoder settings \(arguments.joined(separator: " "))")
        }
        Self.lifecycle.lock()
        let logged = Self.useLog(settings.logFile)
        let made = logged ? ps_init(config) : nil
        Self.lifecycle.unlock()
        guard logged else {
            _ = cmd_ln_free_r(config)
            throw RecognitionError(.modelLoad, "cannot open the speech decoder's log \(settings.logFile)")
        }
        guard let decoder = made else {
            _ = cmd_ln_free_r(config)
            throw RecognitionError(.modelLoad, "ps_init could not load the model in \(settings.modelDirectory) with \(settings.dictionary)")
        }
        self.config = config
        self.decoder = decoder
        if settings.fastScoring, hark_fast_scoring_install(decoder) < 0 {
            throw RecognitionError(.modelLoad, "out of memory while preparing the model's fast scoring")
        }
    }

    /// Whether this decoder scores through `CFastScoring`.
    var scoresFast: Bool { hark_fast_scoring_installed(decoder) == 1 }

    /// A decoder whose dictionary holds `entries` alone: pocketsphinx 5prealpha reads a
    /// decoder's first dictionary only from a file, so they go through a temporary one.
    static func make(entries: [(word: String, phones: String)], modelDirectory: String, logFile: String,
                     extraArguments: [String]) throws(RecognitionError) -> Decoder {
        try PronunciationDictionary.withTemporaryFile(PronunciationDictionary.text(of: entries), extension: "dict") {
            (path) throws(RecognitionError) in
            try Decoder(.init(modelDirectory: modelDirectory, dictionary: path, logFile: logFile, extraArguments: extraArguments,
                              fastScoring: true))
        }
    }

    deinit {
        Self.lifecycle.lock()
        defer { Self.lifecycle.unlock() }
        _ = ps_free(decoder)
        _ = cmd_ln_free_r(config)
    }

    /// Serialises making and freeing decoders: both touch sphinxbase's process-wide state (the
    /// log stream, shared model caches), which is not safe from two threads at once.
    private static let lifecycle = NSLock()
    /// The log the process's decoders write to; sphinxbase has one for all of them.
    nonisolated(unsafe) private static var currentLog: String?

    /// Points sphinxbase's log at `path` the first time a decoder asks; "/dev/null" turns logging
    /// off. The first decoder's choice holds for the process (a later, different one is ignored:
    /// swapping the stream while other decoders may be writing to it is what must not happen).
    /// Called with `lifecycle` held. False when the file cannot be opened.
    private static func useLog(_ path: String) -> Bool {
        guard currentLog == nil else { return true }
        if path == "/dev/null" {
            err_set_logfp(nil)
        } else if err_set_logfile(path) < 0 {
            return false
        }
        currentLog = path
        return true
    }

    /// The language weight the decoder applies to grammar probabilities.
    var languageWeight: Float {
        Float(cmd_ln_float_r(config, "-lw"))
    }

    // MARK: Dictionary

    func pronunciation(of word: String) -> String? {
        guard let phones = ps_lookup_word(decoder, word) else { return nil }
        defer { free(phones) }
        return String(cString: phones)
    }

    /// Adds words in one batch: the dictionary is rebuilt once, at the last word.
    func addWords(_ entries: [(word: String, phones: String)]) throws(RecognitionError) {
        for (index, entry) in entries.enumerated() {
            let isLast = index == entries.count - 1
            let result = ps_add_word(decoder, entry.word, entry.phones, isLast ? 1 : 0)
            if result < 0 {
                throw RecognitionError(.pronunciation, "ps_add_word refused \"\(entry.word)\" with phones \"\(entry.phones)\"", returnCode: result)
            }
        }
    }

    /// Teaches the words of `words` the dictionary lacks, each with every pronunciation
    /// `pronunciations` gives (alternates after the first), in one batch; throws naming the words
    /// it gives none for (`who` says whose dictionary it is), teaching nothing.
    func teach(_ words: some Sequence<String>, pronunciations: (String) -> [String], who: String) throws(RecognitionError) {
        var entries: [(word: String, phones: String)] = []
        var unknown: [String] = []
        for word in Set(words).sorted() where pronunciation(of: word) == nil {
            let known = pronunciations(word)
            if known.isEmpty { unknown.append(word) }
            for (index, phones) in known.enumerated() {
                entries.append((index == 0 ? word : "\(word)(\(index + 1))", phones))
            }
        }
        guard unknown.isEmpty else {
            throw RecognitionError(.unknownWords(unknown), "\(who) has no pronunciation for \(unknown.joined(separator: ", "))")
        }
        if !entries.isEmpty { try addWords(entries) }
    }

    // MARK: Searches

    /// Installs `build`'s FSG under `name` and makes it the active search.
    /// Replacing the active search frees it under the decoder's feet, so the
    /// search is switched again right after (a known trap of this version).
    /// `silenceProbability`, when given, replaces the decoder's -silprob for this search alone
    /// (an FSG search reads it once, when it is made).
    func installGraph(name: String, states: Int, start: Int, final: Int,
                      arcs: [(from: Int, to: Int, word: String?, probability: Float)],
                      silenceProbability: Double? = nil) throws(RecognitionError) {
        let logmath = ps_get_logmath(decoder)
        let weight = languageWeight
        guard let fsg = fsg_model_init(name, logmath, weight, Int32(states)) else {
            throw RecognitionError(.grammar, "fsg_model_init failed for grammar \(name) with \(states) states")
        }
        defer { _ = fsg_model_free(fsg) }
        hark_fsg_set_start_final(fsg, Int32(start), Int32(final))
        for arc in arcs {
            let logProbability = Int32(Float(logmath_log(logmath, Float64(arc.probability))) * weight)
            if let word = arc.word {
                let wordID = fsg_model_word_add(fsg, word)
                guard wordID >= 0 else { throw RecognitionError(.grammar, "fsg_model_word_add failed for \"\(word)\"", returnCode: wordID) }
                fsg_model_trans_add(fsg, Int32(arc.from), Int32(arc.to), logProbability, wordID)
            } else {
                // 0 means an existing, better null arc was kept; both are fine.
                _ = fsg_model_null_trans_add(fsg, Int32(arc.from), Int32(arc.to), logProbability)
            }
        }
        // The search expects silent arcs closed transitively, as the JSGF compiler leaves them.
        let nulls = fsg_model_null_trans_closure(fsg, nil)
        glist_free(nulls)

        let usual = cmd_ln_float_r(config, "-silprob")
        if let silenceProbability { cmd_ln_set_float_r(config, "-silprob", silenceProbability) }
        let result = ps_set_fsg(decoder, name, fsg)
        if silenceProbability != nil { cmd_ln_set_float_r(config, "-silprob", usual) }
        guard result >= 0 else {
            throw RecognitionError(.grammar, "ps_set_fsg could not install grammar \(name) (a word may be missing from the dictionary)", returnCode: result)
        }
        try activate(name)
    }

    /// Installs a JSGF grammar the way plain pocketsphinx does (its own compiler, its own
    /// weights) and makes it the active search.
    func installJSGF(name: String, text: String) throws(RecognitionError) {
        let result = ps_set_jsgf_string(decoder, name, text)
        guard result >= 0 else {
            throw RecognitionError(.grammar, "ps_set_jsgf_string could not compile grammar \(name) (a word may be missing from the dictionary)", returnCode: result)
        }
        try activate(name)
    }

    /// A free loop of context-independent phones (the decoder runs with
    /// -allphone_ci), the yardstick the grammar's score is measured against.
    func installPhoneLoop(name: String) throws(RecognitionError) {
        let result = ps_set_allphone(decoder, name, nil)
        guard result >= 0 else { throw RecognitionError(.grammar, "ps_set_allphone could not install the phone loop", returnCode: result) }
    }

    /// An n-gram language model search, for free text (dictation).
    func installLanguageModel(name: String, path: String) throws(RecognitionError) {
        let result = ps_set_lm_file(decoder, name, path)
        guard result >= 0 else { throw RecognitionError(.grammar, "ps_set_lm_file could not load \(path)", returnCode: result) }
    }

    func activate(_ name: String) throws(RecognitionError) {
        let result = ps_set_search(decoder, name)
        guard result >= 0 else { throw RecognitionError(.grammar, "ps_set_search could not switch to \(name)", returnCode: result) }
    }

    /// Frees a search that is no longer active.
    func removeSearch(_ name: String) throws(RecognitionError) {
        let result = ps_unset_search(decoder, name)
        guard result >= 0 else { throw RecognitionError(.grammar, "ps_unset_search could not remove \(name)", returnCode: result) }
    }

    // MARK: Decoding

    struct Hypothesis {
        var words: [String]
        /// Path score in natural-log units (pocketsphinx reports it in its log base).
        var score: Double
        var frames: Int
    }

    /// Decodes a whole utterance in one call, so cepstral mean normalisation
    /// uses the utterance's own mean rather than a cold running estimate.
    ///
    /// What does carry from one utterance to the next is the front end's estimate of the
    /// background noise (its noise removal; `startStream` forgets it), so the same recording can
    /// score a little differently after others. The estimate from the utterances before (in the
    /// same room, the same noise) helps, and forgetting it cost commands (figures:
    /// docs/benchmarks.md, "The settings' figures"); so it is kept, but a decoder shared by rooms
    /// of different noise would hear each through the last one's estimate: the recogniser
    /// therefore keeps a front end for each room (`FrontEnd`) and decodes its cepstra
    /// (`decodeWhole(_: Cepstra)`); this is plain pocketsphinx's way, which the baseline keeps.
    func decodeWhole(_ samples: [Int16]) throws(RecognitionError) -> Hypothesis {
        try decodeUtterance(feeding: "ps_process_raw failed on \(samples.count) samples") {
            samples.withUnsafeBufferPointer { buffer in ps_process_raw(decoder, buffer.baseAddress, buffer.count, 0, 1) }
        }
    }

    /// Decodes one whole utterance from cepstra a `FrontEnd` computed, as `decodeWhole(_:)` does
    /// from audio with the decoder's own front end: the same features give the same result. They
    /// are copied first, because pocketsphinx normalises them where they lie.
    func decodeWhole(_ cepstra: Cepstra) throws(RecognitionError) -> Hypothesis {
        var values = cepstra.values
        let frames = cepstra.frames
        return try decodeUtterance(feeding: "ps_process_cep failed on \(frames) frames") {
            values.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress else { return 0 }
                var rows: [UnsafeMutablePointer<Float>?] = (0..<frames).map { base + $0 * cepstra.width }
                return rows.withUnsafeMutableBufferPointer { ps_process_cep(decoder, $0.baseAddress, Int32(frames), 0, 1) }
            }
        }
    }

    /// One utterance from start to end, `feed` giving the decoder all of it at once (its return
    /// code is checked; `failure` says what failed); then its best hypothesis.
    private func decodeUtterance(feeding failure: @autoclosure () -> String,
                                 _ feed: () -> Int32) throws(RecognitionError) -> Hypothesis {
        var result = ps_start_utt(decoder)
        guard result >= 0 else { throw RecognitionError(.decoding, "ps_start_utt failed", returnCode: result) }
        result = feed()
        guard result >= 0 else {
            _ = ps_end_utt(decoder)
            throw RecognitionError(.decoding, failure(), returnCode: result)
        }
        result = ps_end_utt(decoder)
        guard result >= 0 else { throw RecognitionError(.decoding, "ps_end_utt failed", returnCode: result) }
        return bestHypothesis()
    }

    /// The utterance just decoded: its best path's words and score.
    private func bestHypothesis() -> Hypothesis {
        var score: Int32 = 0
        let frames = Int(ps_get_n_frames(decoder))
        guard let hypothesis = ps_get_hyp(decoder, &score) else {
            return Hypothesis(words: [], score: -.infinity, frames: frames)
        }
        let words = String(cString: hypothesis).split(separator: " ").map { Self.baseWord(String($0)) }
        let naturalLog = logmath_log_to_ln(ps_get_logmath(decoder), score)
        return Hypothesis(words: words, score: naturalLog, frames: frames)
    }

    /// The frame the last word (or phone) of `segments` ended on, fillers such as silence left
    /// out; nil when nothing but fillers was heard.
    static func lastSoundEndFrame(of segments: [Segment]) -> Int? {
        segments.last { !isFiller($0.word) }?.endFrame
    }

    /// A new front end with this decoder's settings, its model's feat.params among them (see
    /// `FrontEnd`); nil when sphinxbase refuses them. The caller frees it.
    func makeFrontEnd() -> OpaquePointer? {
        fe_init_auto_r(config)
    }

    /// A score in pocketsphinx's units (as in `Segment`) in natural-log units.
    func naturalLog(_ score: Int32) -> Double {
        logmath_log_to_ln(ps_get_logmath(decoder), score)
    }

    // MARK: Streaming (keyword spotting)

    /// Installs a keyword-spotting search from a file of "phrase /threshold/" lines and makes it active.
    func installKeyphrases(name: String, file: String) throws(RecognitionError) {
        let result = ps_set_kws(decoder, name, file)
        guard result >= 0 else {
            throw RecognitionError(.grammar, "ps_set_kws could not install the key phrases of \(file)", returnCode: result)
        }
        try activate(name)
    }

    func startUtterance() throws(RecognitionError) {
        let result = ps_start_utt(decoder)
        guard result >= 0 else { throw RecognitionError(.decoding, "ps_start_utt failed", returnCode: result) }
    }

    /// Forgets what the front end learnt of the audio's background (the noise level its noise
    /// removal tracks from one utterance to the next); call between utterances.
    func startStream() throws(RecognitionError) {
        let result = ps_start_stream(decoder)
        guard result >= 0 else { throw RecognitionError(.decoding, "ps_start_stream failed", returnCode: result) }
    }

    func endUtterance() throws(RecognitionError) {
        let result = ps_end_utt(decoder)
        guard result >= 0 else { throw RecognitionError(.decoding, "ps_end_utt failed", returnCode: result) }
    }

    /// Feeds the next piece of a live utterance (`full_utt` false); returns the frames searched so far.
    func processPartial(_ samples: UnsafeBufferPointer<Int16>) throws(RecognitionError) -> Int {
        let result = ps_process_raw(decoder, samples.baseAddress, samples.count, 0, 0)
        guard result >= 0 else {
            throw RecognitionError(.decoding, "ps_process_raw failed on \(samples.count) samples", returnCode: result)
        }
        return Int(ps_get_n_frames(decoder))
    }

    /// The live cepstral mean normaliser's state: the mean the front end subtracts from live
    /// audio (`processPartial`), one value per cepstral coefficient, and the running sum and
    /// frame count it is next updated from. It carries from one utterance to the next, so
    /// whatever a decoder heard last shapes how it hears what comes next. (Whole utterances,
    /// `decodeWhole`, are normalised by their own mean and do not use it.)
    struct CepstralMeanState {
        var mean: [Float]
        var sum: [Float]
        var frames: Int32
    }

    var cepstralMeanState: CepstralMeanState {
        get throws(RecognitionError) {
            let (cmn, count) = try liveNormaliser()
            var state = CepstralMeanState(mean: Array(repeating: 0, count: count), sum: Array(repeating: 0, count: count), frames: 0)
            state.mean.withUnsafeMutableBufferPointer { mean in
                state.sum.withUnsafeMutableBufferPointer { sum in
                    hark_cmn_get_state(cmn, mean.baseAddress, sum.baseAddress, &state.frames)
                }
            }
            return state
        }
    }

    /// Puts back a state read with `cepstralMeanState`; call between utterances.
    func restore(_ state: CepstralMeanState) throws(RecognitionError) {
        let (cmn, count) = try liveNormaliser()
        guard state.mean.count == count, state.sum.count == count else {
            throw RecognitionError(.decoding, "a cepstral mean of \(state.mean.count) values for a front end of \(count)")
        }
        state.mean.withUnsafeBufferPointer { mean in
            state.sum.withUnsafeBufferPointer { sum in hark_cmn_set_state(cmn, mean.baseAddress, sum.baseAddress, state.frames) }
        }
    }

    /// The front end's cepstral mean normaliser and how many coefficients it holds.
    private func liveNormaliser() throws(RecognitionError) -> (UnsafeMutablePointer<cmn_t>, Int) {
        guard let cmn = hark_ps_cmn(decoder) else { throw RecognitionError(.decoding, "the decoder has no cepstral mean normaliser") }
        return (cmn, Int(hark_ps_cmn_veclen(decoder)))
    }

    /// A segment of the current hypothesis: for a keyword search, one detection.
    struct Segment {
        var word: String
        var startFrame: Int
        var endFrame: Int
        /// The search's score for it: for key phrases, log(p(phrase) / p(phone loop)) in
        /// pocketsphinx's scaled units (log base 1.0001, shifted right by 10 bits).
        var probability: Int32
        /// The acoustic part of the path score over the segment, in the same units.
        var acoustic: Int32
        var frameCount: Int { endFrame - startFrame + 1 }
    }

    /// The segments of the current hypothesis, or none when there is no hypothesis yet.
    func segments() -> [Segment] {
        var score: Int32 = 0
        guard ps_get_hyp(decoder, &score) != nil else { return [] }
        var segments: [Segment] = []
        var iterator = ps_seg_iter(decoder)
        while let segment = iterator {
            var start: Int32 = 0, end: Int32 = 0
            var acoustic: Int32 = 0, language: Int32 = 0, backoff: Int32 = 0
            ps_seg_frames(segment, &start, &end)
            let probability = ps_seg_prob(segment, &acoustic, &language, &backoff)
            let word = ps_seg_word(segment).map { String(cString: $0) } ?? ""
            segments.append(Segment(word: word, startFrame: Int(start), endFrame: Int(end), probability: probability,
                                    acoustic: acoustic))
            // ps_seg_next frees the iterator when it returns NULL.
            iterator = ps_seg_next(segment)
        }
        return segments
    }

    /// Fillers are written <sil>, <s>, </s> or [NOISE]; a phone loop's silence is SIL; the null
    /// transitions of a grammar search come back as "(NULL)".
    static func isFiller(_ word: String) -> Bool {
        word.hasPrefix("<") || word.hasPrefix("[") || word.hasPrefix("(") || word == "SIL"
    }

    /// "read(2)" → "read": alternate pronunciations share the word.
    static func baseWord(_ word: String) -> String {
        guard word.hasSuffix(")"), let open = word.lastIndex(of: "(") else { return word }
        return String(word[..<open])
    }
}
