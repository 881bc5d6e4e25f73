import Foundation
import HarkAudio
import HarkVoice
import HarkWyoming

/// Text cut into the pieces Hark speaks one at a time, so a long reply starts playing after
/// its first sentence is made rather than after all of it, and memory holds one piece's audio.
enum SpokenPieces {
    /// A piece is cut at the last sentence end, else the last comma or space, before this many
    /// characters: about 20 s of speech at most.
    static let longest = 300

    /// The non-blank pieces of `text`, in order; together they hold all its words.
    static func split(_ text: String) -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        while !rest.isEmpty {
            let piece = nextPiece(of: rest)
            rest = rest[piece.endIndex...]
            let trimmed = piece.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { pieces.append(trimmed) }
        }
        return pieces
    }

    /// The first piece of `text`: up to and with the first sentence end (or line break) when one
    /// comes within `longest` characters, else cut at the last comma or space before it.
    private static func nextPiece(of text: Substring) -> Substring {
        let window = text.prefix(longest)
        if let end = window.indices.first(where: { endsSentence(at: $0, in: text) }) {
            return text[...end]
        }
        guard window.endIndex < text.endIndex else { return window }
        if let comma = window.lastIndex(where: { $0 == "," || $0 == ";" || $0 == ":" }) { return text[...comma] }
        if let space = window.lastIndex(where: \.isWhitespace) { return text[...space] }
        return window
    }

    /// A line break, or ".", "!" or "?" followed by white space or the end ("3.5" is not an end).
    private static func endsSentence(at index: Substring.Index, in text: Substring) -> Bool {
        let character = text[index]
        if character.isNewline { return true }
        guard ".!?".contains(character) else { return false }
        let next = text.index(after: index)
        return next == text.endIndex || text[next].isWhitespace
    }
}

extension WyomingSession {
    /// The voice a `synthesize` event asks for (`voice.name`), nil for Hark's own.
    static func voiceName(_ event: WyomingEvent) throws(WyomingError) -> String? {
        guard let voice = event.data["voice"], voice != .null else { return nil }
        guard case .object(let fields) = voice else {
            throw WyomingError(.badData, "synthesize: \"voice\" must be an object with a \"name\"")
        }
        guard let name = fields["name"], name != .null else { return nil }
        guard case .string(let text) = name, !text.isEmpty else {
            throw WyomingError(.badData, "synthesize: \"voice\".\"name\" must be a voice's name")
        }
        return text
    }

    /// `synthesize`: the text spoken piece by piece (`SpokenPieces`), each piece's audio handed
    /// to `emit` as soon as it is made: audio-start with the first, audio-stop after the last.
    /// Text over the server's limit is refused before anything is spoken.
    /// `voice`: the event's `voice.name`, an espeak-ng voice or language (`hark say --list-voices`);
    /// one espeak-ng does not have is refused before anything is spoken.
    func speak(_ text: String, voice: String? = nil, emit: ([WyomingEvent]) async throws -> Void) async throws {
        let limit = hark.spokenTextLimit
        guard text.count <= limit else {
            throw WyomingError(.badData, "synthesize: the text is \(text.count) characters, over the limit of \(limit) (hark serve --max-text)")
        }
        if let voice {
            do {
                try SpeechSynthesizer.check(voice: voice)
            } catch {
                throw WyomingError(.badData, "synthesize: there is no voice \"\(voice)\" (hark say --list-voices lists them)")
            }
        }
        var rate = 22_050, spoken = 0
        var started = false
        for piece in SpokenPieces.split(text) {
            let samples: [Int16]
            do {
                let clip = try await hark.synthesize(piece, voice: voice).mixedToMono()
                samples = clip.int16Samples()
                rate = clip.sampleRate
            } catch {
                throw WyomingError(.failed, "the text could not be spoken: \(error)")
            }
            let format = WyomingAudioFormat(rate: rate, width: 2, channels: 1)
            var events: [WyomingEvent] = []
            if !started {
                events.append(WyomingEvent(WyomingEventType.audioStart, data: format.eventData.merging(["timestamp": 0]) { $1 }))
                started = true
            }
            for start in stride(from: 0, to: samples.count, by: Self.samplesPerChunk) {
                let chunk = samples[start..<min(start + Self.samplesPerChunk, samples.count)]
                let timestamp = JSONValue.integer((spoken + start) * 1000 / rate)
                events.append(WyomingEvent(WyomingEventType.audioChunk, data: format.eventData.merging(["timestamp": timestamp]) { $1 },
                                           payload: WyomingAudioFormat.payload(chunk)))
            }
            spoken += samples.count
            try await emit(events)
        }
        var last: [WyomingEvent] = []
        if !started {
            // Nothing to say: an empty stream in the voice's format.
            let format = WyomingAudioFormat(rate: rate, width: 2, channels: 1)
            last.append(WyomingEvent(WyomingEventType.audioStart, data: format.eventData.merging(["timestamp": 0]) { $1 }))
        }
        last.append(WyomingEvent(WyomingEventType.audioStop, data: ["timestamp": .integer(spoken * 1000 / rate)]))
        try await emit(last)
    }
}
