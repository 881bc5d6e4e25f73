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
        let phones: [String]
        do {
            phones = try espeakPhones(of: spelled, word: word)
        } catch {
            // espeak-ng's English voice names some accented letters ("ž" is "z háček") with
            // phonemes the map lacks; the letters without their accents are the next best reading.
            let plain = LatinSpelling.withoutAccents(spelled)
            guard plain != spelled else { throw Self.cannotPronounce(word, error) }
            do {
                phones = try espeakPhones(of: plain, word: word)
            } catch {
                throw Self.cannotPronounce(word, error)
            }
        }
        guard !phones.isEmpty else {
            throw RecognitionError(.pronunciation, "Hark cannot pronounce \"\(word)\": espeak-ng gives it no phonemes")
        }
        return phones
    }

    /// The phones of espeak-ng's reading of `spelled`, for `word`.
    private func espeakPhones(of spelled: String, word: String) throws -> [String] {
        try map.phones(fromEspeak: try Phonemizer.phonemes(of: spelled, voice: voice), word: word)
    }

    /// Said to whoever wrote the word, and to whoever keeps the phone map.
    private static func cannotPronounce(_ word: String, _ error: any Error) -> RecognitionError {
        RecognitionError(.pronunciation, "Hark cannot pronounce \"\(word)\": \(error)")
    }
}
