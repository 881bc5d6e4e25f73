public import Foundation
public import HarkSpeech
import HarkVoice

/// Pronunciations for words the dictionary lacks: espeak-ng's phonemiser,
/// mapped to the acoustic model's phones. Hark then says a name the way it
/// listens for it, because both come from espeak-ng's reading of the word.
public struct Pronouncer: Sendable {
    public static let mapFileName = "espeak2arpabet.tsv"

    public let map: PhoneMap
    public var voice: String

    public init(map: PhoneMap, voice: String = "en-us") {
        self.map = map
        self.voice = voice
    }

    /// The pronouncer of the project's models folder, if its phone map is there.
    public static func inModels(_ models: URL?) throws -> Pronouncer? {
        guard let file = models?.appendingPathComponent(mapFileName),
              FileManager.default.fileExists(atPath: file.path) else { return nil }
        return Pronouncer(map: try PhoneMap(contentsOf: file))
    }

    /// Gives the words of `configuration`'s phrases that the dictionary lacks a pronunciation the
    /// way the recogniser would: the project's lexicon in `models`, else espeak-ng through the
    /// phone map there.
    public static func pronounceMissingWords(of configuration: inout WakeWordConfiguration, models: URL?) throws {
        let pronouncer = try inModels(models)
        try configuration.pronounceMissingWords(lexicons: HarkPaths.lexicon(in: models).map { [$0.path] } ?? [],
                                                guess: pronouncer.map { pronouncer in { try pronouncer.phones(of: $0) } })
    }

    /// ARPAbet phones for `word`, from espeak-ng reading its Latin spelling (`LatinSpelling`).
    /// Throws, naming the word, when it has letters of another script or espeak-ng reads it
    /// with a phoneme the phone map lacks: whoever asked leaves that word's phrase out.
    public func phones(of word: String) throws -> [String] {
        guard let spelled = LatinSpelling.of(word) else {
            throw RecognitionError(.pronunciation, "Hark cannot pronounce \"\(word)\": only words in Latin or Cyrillic letters can be listened for")
        }
        let mnemonics = try Phonemizer.phonemes(of: spelled, voice: voice)
        let phones = try map.phones(fromEspeak: mnemonics, word: word)
        guard !phones.isEmpty else {
            throw RecognitionError(.pronunciation, "espeak-ng gave no phonemes for \"\(word)\"")
        }
        return phones
    }
}
