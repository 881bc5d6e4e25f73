import Foundation
public import HarkGrammar

/// Plain pocketsphinx, as someone would use it without Hark: the same acoustic model, the
/// whole Debian dictionary, the turn's grammar handed over as JSGF, every other setting at
/// pocketsphinx's default, one decoder kept warm, each utterance decoded whole. It rejects
/// nothing but silence and words that form no phrase. Benchmarks decode every recording with
/// it beside the recogniser, so each of the recogniser's figures stands next to the figure a
/// plain decoder gets on the same audio in the same run.
public final class BaselineRecognizer {
    private let decoder: Decoder
    private var graph: WordGraph?
    private var installedGrammar: Grammar?
    private var generation = 0

    /// Seconds it took to load the model and the dictionary.
    public let loadSeconds: Double

    public init(modelDirectory: String = RecognizerConfiguration.debianModel,
                dictionary: String = RecognizerConfiguration.debianDictionary,
                logFile: String = "/dev/null") throws(RecognitionError) {
        let started = Date()
        decoder = try Decoder(.init(modelDirectory: modelDirectory, dictionary: dictionary, logFile: logFile))
        loadSeconds = Date().timeIntervalSince(started)
    }

    /// Makes `grammar` the one utterances are decoded against. Words the dictionary lacks are
    /// taught first with `pronunciations` (every pronunciation of the word, alternates after
    /// the first), so both recognisers listen for the same sounds.
    public func use(_ grammar: Grammar, pronunciations: (String) -> [String]) throws(RecognitionError) {
        guard grammar != installedGrammar else { return }
        try decoder.teach(grammar.vocabulary, pronunciations: pronunciations, who: "the baseline")
        let text: String
        do {
            text = try JSGFWriter.text(of: grammar)
        } catch {
            throw RecognitionError(.grammar, "the grammar cannot be written as JSGF: \(error)")
        }
        // A fresh name each time: replacing the active search in place is unsafe in this version.
        generation += 1
        let name = "baseline-\(generation)"
        try decoder.installJSGF(name: name, text: text)
        if generation > 1 { try decoder.removeSearch("baseline-\(generation - 1)") }
        graph = WordGraph(grammar)
        installedGrammar = grammar
    }

    /// Decodes one whole utterance of 16 kHz mono audio: the best path through the grammar,
    /// understood as the recogniser understands its own words; rejected only when there is no
    /// path or its words form no phrase.
    public func recognize(_ samples: [Int16]) throws(RecognitionError) -> Recognition {
        guard let graph else { throw RecognitionError(.grammar, "no grammar in use: call use(_:pronunciations:) first") }
        let started = Date()
        let hypothesis = try decoder.decodeWhole(samples)
        let interpretation = hypothesis.words.isEmpty ? nil : graph.interpret(hypothesis.words)
        let rejection: String? = hypothesis.words.isEmpty ? "nothing in the grammar matched"
            : interpretation == nil ? "the words heard do not form a phrase of the grammar" : nil
        return Recognition(words: rejection == nil ? hypothesis.words : [], isRejected: rejection != nil,
                           confidence: rejection == nil ? 1 : 0, rejection: rejection, margin: 0,
                           interpretation: interpretation, frames: hypothesis.frames,
                           decodeSeconds: Date().timeIntervalSince(started))
    }
}
