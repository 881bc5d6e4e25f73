internal import CEspeakNG
import Foundation

/// espeak-ng keeps one synthesiser per process, with global voice and
/// parameters. This type is that synthesiser's only door: every call takes
/// the lock, so speech and phonemes never interleave their settings.
enum Espeak {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var sampleRate: Int32 = 0

    /// Runs `body` holding the synthesiser, initialising it on first use.
    static func withEngine<T>(_ body: () throws(VoiceError) -> T) throws(VoiceError) -> T {
        lock.lock()
        defer { lock.unlock() }
        if sampleRate == 0 {
            // Synchronous output hands samples to our callback; no audio device is touched.
            // DONT_EXIT keeps espeak-ng from calling exit() when its data is missing.
            let rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 200, nil, Int32(espeakINITIALIZE_DONT_EXIT))
            guard rate > 0 else {
                throw VoiceError(.initialisation, "espeak_Initialize failed: is espeak-ng-data installed? (apt-get install espeak-ng-data)", status: rate)
            }
            sampleRate = rate
            espeak_SetSynthCallback(collectSamples)
        }
        return try body()
    }

    /// Output sample rate of the synthesiser (22050 Hz for espeak-ng's voices).
    static var outputRate: Int { Int(sampleRate) }

    /// A voice file's name ("en-us", "en-us+f3"), else a language espeak-ng has a voice for
    /// ("en-gb", whose file is named "en"), as the espeak-ng command chooses.
    static func setVoice(_ name: String) throws(VoiceError) {
        var status = espeak_SetVoiceByName(name)
        // Chosen by language only when a voice speaks exactly that language: espeak-ng would
        // otherwise take the nearest ("no-such-voice" as Norwegian).
        if status != EE_OK, languagesSpoken().contains(name.lowercased()) {
            status = name.withCString { language in
                var properties = espeak_VOICE()
                properties.languages = language
                return espeak_SetVoiceByProperties(&properties)
            }
        }
        guard status == EE_OK else {
            throw VoiceError(.unknownVoice, "espeak_SetVoiceByName does not know the voice \"\(name)\" (see espeak-ng --voices)", status: Int32(status.rawValue))
        }
    }

    /// Every language some installed voice speaks ("en-gb", "en-us", …), lower-cased.
    static func languagesSpoken() -> Set<String> {
        Set(installedVoices().flatMap(\.languages).map { $0.lowercased() })
    }

    /// The installed voices, in espeak-ng's order.
    static func installedVoices() -> [InstalledVoice] {
        var found: [InstalledVoice] = []
        guard let voices = espeak_ListVoices(nil) else { return found }
        var index = 0
        while let voice = voices[index] {
            var languages: [String] = []
            // Pairs of a priority byte and a NUL-terminated language, ended by a zero byte.
            if var cursor = voice.pointee.languages.map(UnsafeRawPointer.init) {
                while cursor.load(as: UInt8.self) != 0 {
                    cursor += 1
                    let language = String(cString: cursor.assumingMemoryBound(to: CChar.self))
                    languages.append(language)
                    cursor += language.utf8.count + 1
                }
            }
            found.append(InstalledVoice(name: voice.pointee.name.map { String(cString: $0) } ?? "",
                                        file: voice.pointee.identifier.map { String(cString: $0) } ?? "",
                                        languages: languages))
            index += 1
        }
        return found
    }

    static func setParameter(_ parameter: espeak_PARAMETER, _ value: Int32, name: String) throws(VoiceError) {
        let status = espeak_SetParameter(parameter, value, 0)
        guard status == EE_OK else {
            throw VoiceError(.badSetting, "espeak_SetParameter refused \(name) = \(value)", status: Int32(status.rawValue))
        }
    }

    static func setRate(_ wordsPerMinute: Int) throws(VoiceError) {
        try setParameter(espeakRATE, Int32(wordsPerMinute), name: "rate")
    }

    static func setPitch(_ pitch: Int) throws(VoiceError) {
        try setParameter(espeakPITCH, Int32(pitch), name: "pitch")
    }

    /// Speaks `text` into memory and returns 16-bit samples at `outputRate`. With
    /// `inlinePhonemes`, text within [[ ]] is read as phoneme mnemonics (see `SpokenLexicon`).
    static func synthesize(_ text: String, inlinePhonemes: Bool = false) throws(VoiceError) -> [Int16] {
        let sink = SampleSink()
        let unmanaged = Unmanaged.passRetained(sink)
        defer { unmanaged.release() }
        let status = text.withCString { pointer in
            espeak_Synth(pointer, strlen(pointer) + 1, 0, POS_CHARACTER, 0,
                         UInt32(espeakCHARS_UTF8) | (inlinePhonemes ? UInt32(espeakPHONEMES) : 0), nil, unmanaged.toOpaque())
        }
        guard status == EE_OK else {
            throw VoiceError(.synthesis, "espeak_Synth failed for \"\(text.prefix(60))\"", status: Int32(status.rawValue))
        }
        let synchronized = espeak_Synchronize()
        guard synchronized == EE_OK else {
            throw VoiceError(.synthesis, "espeak_Synchronize failed", status: Int32(synchronized.rawValue))
        }
        return sink.samples
    }

    /// espeak-ng's phoneme mnemonics for `text`, separated by "_" within words
    /// and by spaces between them (as `espeak-ng -x --sep=_`).
    static func phonemes(_ text: String) -> String {
        var output: [String] = []
        text.withCString { start in
            var cursor: UnsafeRawPointer? = UnsafeRawPointer(start)
            // TextToPhonemes advances the cursor a clause at a time and sets it to NULL at the end.
            while let current = cursor, UnsafePointer<CChar>(current.assumingMemoryBound(to: CChar.self)).pointee != 0 {
                var pointer: UnsafeRawPointer? = current
                guard let phonemes = espeak_TextToPhonemes(&pointer, espeakCHARS_UTF8, Int32(UInt8(ascii: "_")) << 8) else { break }
                output.append(String(cString: phonemes))
                if pointer == current { break }
                cursor = pointer
            }
        }
        return output.joined(separator: " ").trimmingCharacters(in: .whitespaces)
    }
}

/// Collects the samples espeak-ng hands its callback during one synthesis.
private final class SampleSink {
    var samples: [Int16] = []
}

/// The synthesis callback: espeak-ng passes our sink back as the events' user data.
private func collectSamples(_ wave: UnsafeMutablePointer<Int16>?, _ count: Int32,
                            _ events: UnsafeMutablePointer<espeak_EVENT>?) -> Int32 {
    guard let events, let userData = events.pointee.user_data else { return 0 }
    let sink = Unmanaged<SampleSink>.fromOpaque(userData).takeUnretainedValue()
    if let wave, count > 0 {
        sink.samples.append(contentsOf: UnsafeBufferPointer(start: wave, count: Int(count)))
    }
    return 0
}
