import Foundation

/// pocketsphinx's keyword search as someone would use it without Hark, the baseline of
/// `hark bench-wake --baseline`: Debian's model and dictionary as shipped, the phrases handed
/// over one a line with no threshold of their own, every other setting at pocketsphinx's
/// default (`-kws_threshold 1`, `-beam 1e-48`, its voice activity detection, its live
/// cepstral mean learning from every frame). The stream is fed in pieces, and a detection is
/// whatever the search reports after a piece; the utterance then starts again, as
/// pocketsphinx_continuous does with `-kws`. No noise floor, no second look, no adaptation.
public final class PlainKeywordSpotter {
    /// A phrase the search reported, and how far into the stream (seconds of audio fed since
    /// `startAfresh`) the piece that brought it ended.
    public struct Detection: Sendable, Equatable {
        public var phrase: String
        public var seconds: Double
    }

    private let decoder: Decoder
    private let phrases: Set<String>
    private let initialMean: Decoder.CepstralMeanState
    private var samplesFed = 0

    /// `phrases` are lowercase words; `pronunciations` give phones for words Debian's dictionary
    /// lacks ("chatterbox"), as the benchmark's spotter gets them.
    public init(phrases: [String], pronunciations: [String: String] = [:],
                modelDirectory: String = RecognizerConfiguration.debianModel,
                dictionary: String = RecognizerConfiguration.debianDictionary,
                logFile: String = "/dev/null") throws(RecognitionError) {
        let decoder = try Decoder(.init(modelDirectory: modelDirectory, dictionary: dictionary, logFile: logFile))
        try decoder.teach(phrases.flatMap { $0.split(separator: " ").map(String.init) },
                          pronunciations: { pronunciations[$0].map { [$0] } ?? [] }, who: "the plain keyword search")
        self.phrases = Set(phrases)
        // One phrase a line and no "/threshold/": each takes -kws_threshold, pocketsphinx's 1.
        try PronunciationDictionary.withTemporaryFile(phrases.joined(separator: "\n") + "\n", extension: "kws") { (path) throws(RecognitionError) in
            try decoder.installKeyphrases(name: "plain", file: path)
        }
        initialMean = try decoder.cepstralMeanState
        try decoder.startUtterance()
        self.decoder = decoder
    }

    /// Starts a new stream from the decoder's first state (its initial cepstral mean, its voice
    /// detector and noise estimate forgotten), so that each stream is heard the same whatever the
    /// decoder heard before.
    public func startAfresh() throws(RecognitionError) {
        try decoder.endUtterance()
        try decoder.restore(initialMean)
        try decoder.startStream()
        try decoder.startUtterance()
        samplesFed = 0
    }

    /// Feeds the next piece of 16 kHz mono audio; returns what the search reported after it.
    public func process(_ samples: [Int16]) throws(RecognitionError) -> [Detection] {
        _ = try samples.withUnsafeBufferPointer { (buffer) throws(RecognitionError) in try decoder.processPartial(buffer) }
        samplesFed += samples.count
        let reported = decoder.segments().map(\.word).filter { phrases.contains($0) }
        guard !reported.isEmpty else { return [] }
        try decoder.endUtterance()
        try decoder.startUtterance()
        let seconds = Double(samplesFed) / 16_000
        return reported.map { Detection(phrase: $0, seconds: seconds) }
    }
}
