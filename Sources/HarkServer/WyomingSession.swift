import HarkAudio
import HarkDialogue
import HarkIntents
import HarkRuntime
import HarkSpeech
import HarkWyoming

/// One client's side of the protocol: reads its events in order and answers each. Audio
/// between `audio-start` and `audio-stop` is collected and transcribed, or, after `detect`,
/// heard by a wake-word spotter as it arrives. A turn of text (`transcript`, as Home Assistant
/// sends it to a handle program, or `handle`) goes to the conversation its `context` names
/// (`conversation_id`, kept across connections by `ConversationDirectory`), else to one of this
/// connection's own, so Hark's follow-up questions are answered across turns.
/// Any error ends the session (the server sends it as an `error` event and closes).
struct WyomingSession {
    let hark: WyomingAssistant

    /// The longest utterance accepted; Home Assistant stops streaming at the end of speech,
    /// and a request is seconds long. Also bounds what one client can make the server hold.
    static let maximumAudioSeconds = 60

    /// Samples per `audio-chunk` of synthesised speech (46 ms at espeak-ng's 22.05 kHz).
    static let samplesPerChunk = 1024

    private var stream: AudioStream?
    /// This connection's own conversation, begun at its first turn that names none.
    private var ownConversation: ConversationService?
    /// The conversation named by the last `transcribe`, which the audio after it is heard in.
    private var transcribingFor: String?
    /// The room named by the last `transcribe` (`context.satellite_id`): the audio after it is
    /// heard with that room's background in mind (see HarkSpeech's `FrontEnd`); nil shares the
    /// one of this device and every client that names no room.
    private var transcribingIn: String?
    /// How loud that room was before its wake word (`context.room_power`, which `hark listen --hub`
    /// sends; `RoomBeforeRequest`): the audio after the `transcribe` is judged by it too.
    private var transcribingAfterRoom: Double?
    /// What the last transcription heard, until the turn it carries is handled: a request Hark
    /// half heard (transcript "") is then asked about ("Did you say …?"), as on the device.
    private var lastHeard: LastHeard?

    private struct LastHeard {
        var transcript: String
        var heard: HeardUtterance
        /// The conversation it was heard in; nil: as a new request.
        var conversation: ConversationService?
    }
    /// Made at the first `detect`; `listening` while its audio goes to the spotter.
    private var wake: WyomingWakeListener?
    private var listening = false

    /// Audio of one utterance as it arrives, mixed to mono and brought to the pipeline's 16 kHz
    /// 16-bit as each chunk comes: what a connection holds for its utterance is then the same
    /// (under 2 MB at the longest) whatever rate and layout the client sends.
    private struct AudioStream {
        var format: WyomingAudioFormat
        let converter: PipelineStream
        /// At the pipeline's rate.
        var samples: [Int16] = []
        /// Frames received, at the client's rate.
        var frames = 0

        init(format: WyomingAudioFormat) throws(WyomingError) {
            self.format = format
            do {
                converter = try PipelineStream(inputRate: format.rate)
            } catch {
                throw WyomingError(.badAudio, "audio at \(format.rate) Hz cannot be resampled: \(error)")
            }
        }
    }

    init(_ hark: WyomingAssistant) {
        self.hark = hark
    }

    mutating func respond(to event: WyomingEvent) async throws(WyomingError) -> [WyomingEvent] {
        switch event.type {
        case WyomingEventType.describe:
            return [wyomingInfoEvent(hark.programs)]
        case WyomingEventType.ping:
            return [WyomingEvent(WyomingEventType.pong, data: ["text": event.data["text"] ?? .null])]
        case WyomingEventType.selectProgram:
            let name = try Self.text(event, "name")
            guard hark.programs.contains(where: { $0.name == name }) else {
                throw WyomingError(.badData, "select-program: there is no program \"\(name)\" (Hark's are named \"hark\")")
            }
            return []
        case WyomingEventType.transcribe:
            try Self.checkLanguage(event)
            listening = false
            transcribingFor = Self.conversationName(event)
            transcribingIn = Self.satelliteName(event)
            transcribingAfterRoom = try Self.roomPower(event)
            return []
        case WyomingEventType.detect:
            try await startListening(event)
            return []
        case WyomingEventType.audioStart where listening:
            try await wake?.begin(try WyomingAudioFormat(eventData: event.data, type: event.type), timestamp: event.data["timestamp"]?.integerValue)
            return []
        case WyomingEventType.audioChunk where listening:
            return try await wake?.hear(try WyomingAudioFormat(eventData: event.data, type: event.type), payload: event.payload) ?? []
        case WyomingEventType.audioStop where listening:
            listening = false
            return await wake?.finish() ?? []
        case WyomingEventType.audioStart:
            guard stream == nil else {
                throw WyomingError(.unexpectedEvent, "audio-start came while an audio stream was already open (send audio-stop first)")
            }
            stream = try AudioStream(format: try WyomingAudioFormat(eventData: event.data, type: event.type))
            return []
        case WyomingEventType.audioChunk:
            try append(event)
            return []
        case WyomingEventType.audioStop:
            guard let finished = stream else {
                throw WyomingError(.unexpectedEvent, "audio-stop came with no audio-start before it")
            }
            stream = nil
            let (heard, transcript) = try await transcribe(finished)
            var data: [String: JSONValue] = ["text": .string(transcript), "language": "en",
                                             "whole_phrase": .bool(heard.isWholePhrase)]
            // For a satellite looking at a pause: has the phrase been said in full?
            if let quiet = heard.recognition.framesAfterLastWord { data["quiet_after_last_word_ms"] = .integer(quiet * 10) }
            return [WyomingEvent(WyomingEventType.transcript, data: data)]
        case WyomingEventType.transcript:
            // Home Assistant's conversation agent sends the words to a handle program this way.
            return try await handle(event)
        case WyomingEventType.detection:
            // A satellite heard its wake word (`hark listen --hub`): which room answers?
            return [try await arbitrate(event)]
        case WyomingEventType.synthesize:
            return try await synthesize(try Self.text(event, "text"), voice: try Self.voiceName(event))
        case WyomingEventType.recognize:
            return recognize(try Self.text(event, "text"), room: Self.satelliteName(event))
        case WyomingEventType.handle:
            return try await handle(event)
        default:
            throw WyomingError(.unknownEvent, "Hark does not serve \"\(event.type)\" events (it serves describe, detect, transcribe, audio-start/-chunk/-stop, synthesize, recognize, transcript or handle, and satellites' detection)")
        }
    }

    /// `detect`: the audio that follows is listened to for the phrases named (all served when none are).
    private mutating func startListening(_ event: WyomingEvent) async throws(WyomingError) {
        guard let configuration = hark.wake else {
            throw WyomingError(.unexpectedEvent, "detect: this server serves no wake word")
        }
        guard stream == nil else {
            throw WyomingError(.unexpectedEvent, "detect came while an audio stream was being transcribed (send audio-stop first)")
        }
        var names: [String]?
        switch event.data["names"] {
        case nil, .null?: names = nil
        case .array(let values)?:
            names = try values.map { (value) throws(WyomingError) -> String in
                guard let name = value.stringValue else { throw WyomingError(.badData, "detect: \"names\" must be a list of strings") }
                return name
            }
        default:
            throw WyomingError(.badData, "detect: \"names\" must be a list of strings")
        }
        let listener = wake ?? WyomingWakeListener(configuration, spotters: hark.wakeSpotters)
        wake = listener
        try await listener.start(names: names)
        listening = true
    }

    /// A chunk in the stream's format; a chunk with no audio-start before it starts the stream,
    /// as clients that skip audio-start expect.
    private mutating func append(_ event: WyomingEvent) throws(WyomingError) {
        let format = try WyomingAudioFormat(eventData: event.data, type: event.type)
        var current = if let stream { stream } else { try AudioStream(format: format) }
        stream = nil  // while it changes, so that its samples are not copied
        guard format == current.format else {
            throw WyomingError(.badAudio, "an audio chunk in \(format) came in a stream that started as \(current.format)")
        }
        let samples = try format.monoSamples(from: event.payload)
        guard current.frames + samples.count <= Self.maximumAudioSeconds * format.rate else {
            throw WyomingError(.badAudio, "the audio is longer than \(Self.maximumAudioSeconds) s; end each utterance with audio-stop")
        }
        current.frames += samples.count
        do {
            current.samples += try current.converter.convert(samples)
        } catch {
            throw WyomingError(.badAudio, "audio at \(format.rate) Hz could not be resampled: \(error)")
        }
        stream = current
    }

    /// What the audio says, and its transcript for the client: a spoken PIN's is `hiddenPIN`,
    /// so the digits never reach a satellite's log or Home Assistant's. Sent back as the text
    /// of a turn, it is answered from this hearing, digits and all (`takeHeard`).
    private mutating func transcribe(_ finished: AudioStream) async throws(WyomingError) -> (HeardUtterance, String) {
        // Once this client has a conversation, speech is heard as its next turn: an answer to
        // Hark's question is heard against the question's answers, not the apps' phrases.
        var conversation = ownConversation
        if let name = transcribingFor { conversation = await hark.conversation(named: name) }
        let answersPIN = await conversation?.isAskingForPIN ?? false
        do {
            let samples = finished.samples + (try finished.converter.finish())
            try await hark.assistant.recognition.heardBeforeRequest(roomPower: transcribingAfterRoom, heardIn: transcribingIn)
            let heard = if let conversation { try await hark.assistant.hear(samples, in: conversation, heardIn: transcribingIn) }
                else { try await hark.assistant.hear(samples, continuing: false, heardIn: transcribingIn) }
            var transcript = WyomingAssistant.transcript(of: heard)
            if answersPIN, !transcript.isEmpty { transcript = hiddenPIN }
            lastHeard = LastHeard(transcript: transcript, heard: heard, conversation: conversation)
            return (heard, transcript)
        } catch {
            throw WyomingError(.failed, "the audio could not be transcribed: \(error)")
        }
    }

    /// `synthesize` as one list of events (a server streams them instead: `speak(_:emit:)`).
    private func synthesize(_ text: String, voice: String?) async throws(WyomingError) -> [WyomingEvent] {
        var events: [WyomingEvent] = []
        do {
            try await speak(text, voice: voice) { events += $0 }
        } catch let error as WyomingError {
            throw error
        } catch {
            throw WyomingError(.failed, "the text could not be spoken: \(error)")
        }
        return events
    }

    private func recognize(_ text: String, room: String?) -> [WyomingEvent] {
        guard let match = hark.recognize(text, room: room) else {
            return [WyomingEvent(WyomingEventType.notRecognized, data: ["text": .string(text)])]
        }
        let entities = match.values.sorted { $0.key < $1.key }.map { name, value -> JSONValue in
            ["name": .string(match.intent.parameter(named: name)?.slotName ?? name), "value": .string(value.identifier)]
        }
        return [WyomingEvent(WyomingEventType.intent, data: [
            "name": .string(match.app.bareIntentNames ? match.intent.name : "\(match.app.identifier).\(match.intent.name)"),
            "entities": .array(entities),
            "text": .string(text),
        ])]
    }

    /// One turn of a conversation (the one the context names, else this connection's own); an
    /// empty text is silence (a question unanswered). The reply says whether Hark asked a
    /// question (`continue_conversation`), so a satellite knows to listen for the answer.
    private mutating func handle(_ event: WyomingEvent) async throws(WyomingError) -> [WyomingEvent] {
        let text = try Self.text(event, "text")
        let name = Self.conversationName(event)
        let conversation: ConversationService
        if let name {
            conversation = await hark.conversation(named: name)
        } else if let own = ownConversation {
            conversation = own
        } else {
            conversation = await hark.newConversation()
            ownConversation = conversation
        }
        let speech: String, expectsAnswer: Bool
        var intent: (app: String, name: String, slots: [String: String])?
        var volume: String?
        if let heard = await takeHeard(saying: text, in: conversation) {
            do {
                let (report, _) = try await hark.assistant.answer(heard, name: "wyoming", speaks: false, in: conversation)
                (speech, expectsAnswer, volume) = (report.reply, report.expectsAnswer, report.volumeChange)
                if let app = report.app, let name = report.intent { intent = (app, name, report.slots) }
            } catch {
                throw WyomingError(.failed, "the turn could not be answered: \(error)")
            }
        } else {
            let input: DialogueInput = text.allSatisfy(\.isWhitespace) ? .silence : .text(text)
            let (reply, match) = await conversation.respond(to: input, heardIn: Self.satelliteName(event))
            (speech, expectsAnswer, volume) = (reply.speech, reply.expectsAnswer, reply.volume?.wireValue)
            intent = Assistant.intent(of: reply, match: match)
        }
        // Words no app's phrase says: another handler may know them.
        let understood = !DialogueEngine.saysNotUnderstood(speech) || volume != nil
        var data: [String: JSONValue] = ["text": .string(speech), "continue_conversation": .bool(expectsAnswer)]
        if let name { data["context"] = ["conversation_id": .string(name)] }
        // "Louder": for the client's loudspeaker (a satellite's), which says the new level itself.
        if let volume { data["volume"] = .string(volume) }
        // The intent the turn began or carried out, for a satellite's log.
        if let intent {
            data["intent"] = ["name": .string("\(intent.app).\(intent.name)"),
                              "slots": .object(intent.slots.mapValues { .string($0) })]
        }
        return [WyomingEvent(understood ? WyomingEventType.handled : WyomingEventType.notHandled, data: data)]
    }

    /// What the last transcription heard, when `text` is its transcript and it was heard in
    /// this conversation (or as a new request, and no question is open here): answering the
    /// hearing itself keeps what text loses, the phrase Hark was unsure of.
    private mutating func takeHeard(saying text: String, in conversation: ConversationService) async -> HeardUtterance? {
        guard let last = lastHeard, last.transcript == text else { return nil }
        lastHeard = nil
        if let heardIn = last.conversation { return heardIn === conversation ? last.heard : nil }
        return await conversation.isInConversation ? nil : last.heard
    }

    /// A satellite's claim to a wake word, answered once every room that heard the same words
    /// has claimed it: `wake-arbitration` with `answer` (true for the room that heard it best).
    private func arbitrate(_ event: WyomingEvent) async throws(WyomingError) -> WyomingEvent {
        guard let room = Self.satelliteName(event) else {
            throw WyomingError(.badData, "detection from a satellite needs context.satellite_id, the room's name")
        }
        let decision = await hark.arbiter.claim(room: room, signalToNoise: try Self.number(event, "snr_db"),
                                                confidence: try Self.number(event, "confidence"))
        return WyomingEvent(WyomingEventType.wakeArbitration,
                            data: ["answer": .bool(decision.answers), "winner": .string(decision.winner)])
    }

    /// `context.satellite_id`, the room a satellite (`hark listen --hub`) names itself by; nil when absent.
    private static func satelliteName(_ event: WyomingEvent) -> String? {
        guard let name = event.data["context"]?.objectValue?["satellite_id"]?.stringValue, !name.isEmpty else { return nil }
        return name
    }

    /// `context.room_power`: the mean power (squared sample units) of the seconds before the wake
    /// word in the satellite's room; nil when absent. Anything but a number from 0 up is refused.
    private static func roomPower(_ event: WyomingEvent) throws(WyomingError) -> Double? {
        guard let value = event.data["context"]?.objectValue?["room_power"] else { return nil }
        let power: Double? = switch value {
        case .number(let number): number
        case .integer(let number): Double(number)
        default: nil
        }
        guard let power, power.isFinite, power >= 0 else {
            throw WyomingError(.badData, "transcribe: context.room_power must be a number from 0 up (the room's mean power before the wake word)")
        }
        return power
    }

    /// `context.conversation_id`, as Home Assistant names a conversation; nil when absent.
    private static func conversationName(_ event: WyomingEvent) -> String? {
        guard let name = event.data["context"]?.objectValue?["conversation_id"]?.stringValue,
              !name.isEmpty else { return nil }
        return name
    }

    private static func number(_ event: WyomingEvent, _ key: String) throws(WyomingError) -> Double {
        switch event.data[key] {
        case .number(let value)?: return value
        case .integer(let value)?: return Double(value)
        default: throw WyomingError(.badData, "\(event.type) needs \"\(key)\" as a number")
        }
    }

    static func text(_ event: WyomingEvent, _ key: String) throws(WyomingError) -> String {
        guard let text = event.string(key) else {
            throw WyomingError(.badData, "\(event.type) needs \"\(key)\" as a string")
        }
        return text
    }

    /// Hark understands English; a request for another language is refused rather than misheard.
    private static func checkLanguage(_ event: WyomingEvent) throws(WyomingError) {
        guard let language = event.string("language") else { return }
        let base = language.lowercased().split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map(String.init) ?? ""
        guard WyomingAssistant.languages.contains(base) else {
            throw WyomingError(.unsupportedLanguage, "Hark understands English (en), not \"\(language)\"")
        }
    }
}
