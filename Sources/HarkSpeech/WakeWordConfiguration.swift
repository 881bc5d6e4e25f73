public import Foundation

/// What to listen for and how eagerly.
public struct WakeWordConfiguration: Sendable {
    /// The phrase to spot, in dictionary words ("jarvis", "hey jarvis", "computer").
    public var keyPhrase = "jarvis"
    /// Phones ("CH AE T ER B AA K S") for words of the phrases the dictionary lacks, e.g. from the
    /// project's lexicon or espeak-ng (`pronounceMissingWords`). A word the dictionary has keeps
    /// the dictionary's pronunciations.
    public var pronunciations: [String: String] = [:]
    /// Further phrases listened for at the same time, in the same search: the audio is scored
    /// once for all of them, so a second phrase costs almost nothing. Each detection says which.
    public var otherPhrases: [String] = []
    /// 0…1: higher catches more of the phrases said and also fires more often on other speech.
    /// See `WakeWordSpotter.threshold(sensitivity:verified:)` for the mapping and its measurement.
    public var sensitivity = WakeWordSpotter.defaultSensitivity
    public var modelDirectory = RecognizerConfiguration.debianModel
    public var dictionary = RecognizerConfiguration.debianDictionary
    /// An adaptation of the acoustic model (see `RecognizerConfiguration.acousticTransform`),
    /// heard by the search and the verifier alike, or nil for the model as it is.
    public var acousticTransform: URL?
    /// pocketsphinx's own log. /dev/null unless someone is debugging it.
    public var logFile = "/dev/null"
    /// Report every candidate the search finds, with `isAccepted` telling whether it reached the
    /// sensitivity's threshold, and never restart after one: for benchmarks that sweep the
    /// sensitivity over one pass. Off for listening.
    public var reportsCandidates = false
    /// The second look (see `WakeWordVerifier`): nil judges candidates by the keyword search's
    /// score alone, as plain keyword spotting does.
    public var verifier: WakeWordVerifierModel? = .shipped
    /// The level (dBFS) of the faint hiss added before the search and the verifier hear the
    /// audio (see `NoiseFloor`), or nil to hear it as it comes.
    public var noiseFloor: Double? = NoiseFloor.standardLevel
    /// Whether a voice quieter than -40 dBFS is brought up to a usual level before the search
    /// hears it (`FaintVoiceGain`), or heard as it comes. Off: measured, it finds far more faint
    /// phrases but loses some usual ones (see `FaintVoiceGain`).
    public var amplifiesFaintVoices = false
    /// How far (a likelihood ratio, pocketsphinx's -beam) a partial phrase may fall behind the
    /// best path in the search before it is given up; see `WakeWordSpotter.searchBeam`.
    public var searchBeam = WakeWordSpotter.searchBeam
    /// The search score per frame below which a candidate is not given a second look; see
    /// `WakeWordSpotter.proposalThreshold`. Needs the verifier.
    public var proposalThreshold = WakeWordSpotter.proposalThreshold
    /// How far (dB) above the room's level a 100 ms piece of audio must be for the front end's
    /// cepstral mean to learn from it, or nil to learn from everything as pocketsphinx does; see
    /// `WakeWordSpotter.meanGate`.
    public var meanGate: Double? = WakeWordSpotter.meanGate
    /// Whether the search stops while the room has been quiet a while, and starts again with the
    /// moments before the first sound (`SearchQuietGate`), or hears everything.
    public var pausesInQuietRooms = true
    /// The room level (dBFS) above which the spotter hears the audio through WebRTC's noise
    /// suppression, or nil never to; see `WakeWordSpotter.denoisingRoomLevel`.
    public var denoisesAbove: Double? = WakeWordSpotter.denoisingRoomLevel
    /// Common words (`OtherWords.read`, e.g. models/other-words.txt) that a candidate the
    /// verifier finds likely enough is checked against (`WakeWordVerifier.otherWordsGap`), or
    /// none for no such check. Needs the verifier.
    public var otherWords: [String] = []
    /// Log odds from which a candidate below the threshold is reported as tentative
    /// (`WakeWordDetection.isTentative`), or nil to report only those reaching it. The live loop
    /// listens on after a tentative wake word without a sound and acts only on a request it
    /// understands clearly (`LiveSettings.tentativeWakeOdds`). Needs the verifier; ignored while
    /// reporting candidates.
    public var tentativeOdds: Double?
    /// How far (log odds) the threshold is lowered for a candidate said in a noisy room,
    /// `WakeWordSpotter.noisyRoomFrom` up to `noisyRoomBelow` dB above it; 0 for one threshold
    /// in every room.
    /// Needs the verifier.
    public var noisyRoomAllowance = WakeWordSpotter.noisyRoomAllowance

    /// Every phrase listened for, the main one first.
    public var phrases: [String] { [keyPhrase] + otherPhrases.filter { $0 != keyPhrase } }

    public init(keyPhrase: String = "jarvis", sensitivity: Double = WakeWordSpotter.defaultSensitivity) {
        self.keyPhrase = keyPhrase
        self.sensitivity = sensitivity
    }
}

/// One spotted key phrase.
public struct WakeWordDetection: Sendable, Equatable {
    /// The key phrase as configured.
    public var phrase: String
    /// Where the phrase began and ended, in 16 kHz samples counted from the first sample the
    /// spotter was fed (samples skipped with `reset(skipping:)` count too).
    public var startSample: Int
    public var endSample: Int
    /// How much better the phrase explained the audio than free phones did, per 10 ms frame:
    /// log10 of the likelihood ratio (phrase over phone loop) divided by the phrase's frames.
    /// Usually negative; the closer to 0 (or above), the surer.
    public var score: Double
    /// What the second look found, when the spotter has a verifier.
    public var evidence: WakeWordEvidence?
    /// What the spotter judged by: the verifier's log odds that this is the phrase, or without
    /// a verifier the search's score.
    public var confidence: Double
    /// Whether the confidence reached the sensitivity's threshold (always true unless the
    /// spotter reports candidates).
    public var isAccepted: Bool
    /// Below the threshold but at or above `WakeWordConfiguration.tentativeOdds`: perhaps the
    /// phrase, to be borne out by what follows it.
    public var isTentative = false
    /// How far (dB) the phrase stood above its room, as the audio came
    /// (`WakeWordSpotter.signalToNoise(endingAudio:phraseSamples:)`); nil without a second look.
    /// From `WakeWordSpotter.noisyRoomFrom` up to `noisyRoomBelow` the threshold is lowered.
    public var signalToNoise: Double?

    public var endSeconds: Double { Double(endSample) / 16_000 }
}

extension WakeWordConfiguration {
    /// The words of the phrases that the dictionary lacks and no pronunciation was given for.
    public func wordsWithoutPronunciation() throws(RecognitionError) -> [String] {
        try dictionaryEntries().missing.filter { pronunciations[$0] == nil }
    }

    /// The dictionary's entries for the phrases' words (alternates included), and the words it
    /// lacks, in order.
    func dictionaryEntries() throws(RecognitionError) -> (found: [(word: String, phones: String)], missing: [String]) {
        let words = Set(phrases.flatMap { $0.lowercased().split(whereSeparator: \.isWhitespace).map(String.init) })
        let found = try PronunciationDictionary(path: dictionary).entries(for: words)
        return (found, words.subtracting(found.map { Decoder.baseWord($0.word) }).sorted())
    }

    /// Gives each word the dictionary lacks a pronunciation: from the first of `lexicons` (paths
    /// of files in the dictionary's format, e.g. models/lexicon.dict) that has it, else from
    /// `guess` (espeak-ng's reading), so that any phrase can be a wake phrase.
    public mutating func pronounceMissingWords(lexicons: [String], guess: ((String) throws -> [String])?) throws {
        let missing = try wordsWithoutPronunciation()
        guard !missing.isEmpty else { return }
        var known: [String: String] = [:]
        for lexicon in lexicons {
            for entry in try Recognizer.readLexicon(URL(fileURLWithPath: lexicon)) where known[entry.word] == nil {
                known[entry.word] = entry.phones
            }
        }
        for word in missing {
            if let phones = known[word] {
                pronunciations[word] = phones
            } else if let guess {
                pronunciations[word] = try guess(word).joined(separator: " ")
            }
        }
    }
}
