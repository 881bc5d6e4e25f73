import Foundation
public import HarkAudio
public import HarkRuntime
import HarkDialogue
import HarkSpeech
import HarkWyoming

/// A satellite's brain: the hub (`hark serve`) in another room, over one Wyoming connection.
/// The satellite keeps its microphone, wake word, endpointing and loudspeaker; each request goes
/// to the hub as `transcribe` + audio, then `transcript` (the turn), then `synthesize` (the
/// reply's audio), all naming the conversation in `context.conversation_id`. A new conversation
/// begins at each wake word, and answers to the hub's questions continue it. At a pause the
/// words so far are transcribed too, and when the hub says they are a whole phrase said in full
/// (`whole_phrase`, `quiet_after_last_word_ms`), the turn ends there without waiting for the full
/// end silence, as on a device of its own.
///
/// A wake word is claimed with `detection` (`context.satellite_id`, how far the phrase stood
/// above the room's background, `snr_db`, and the spotter's `confidence`); the hub answers `wake-arbitration` once every room that heard the same words
/// has claimed them, and only the room that heard them best answers.
///
/// When the hub cannot be reached, the satellite logs it once (`report`) and answers what it can
/// with its own apps (`ownApps`, started the first time the hub is missed): what they understand
/// is carried out here, and a question they ask is answered here. Anything else gets one short
/// falling tone (`Chime.falling`): with the hub down every room that hears a wake word answers it,
/// and a sentence in each would be noise. Why is said only when asked ("what can I say": "I can't
/// reach the hub right now.", then what can be said here). It tries the hub again at every wake
/// word and every `heartbeatInterval` while waiting; when the hub is back it says so, and goes on.
/// Runs on its own thread: the connection's reads and writes block.
public actor HubBrain: LiveBrain {
    private let executor = DedicatedExecutor(label: "hark.hub")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    public static let cannotReachHub = "I can't reach the hub right now."
    /// How often (s) a waiting satellite checks that the hub is still there.
    public static let heartbeatInterval = 5.0
    /// Samples per `audio-chunk` sent (64 ms at 16 kHz).
    static let samplesPerChunk = 1024

    public nonisolated let hub: WyomingEndpoint
    /// The room's name, which the hub arbitrates between (`context.satellite_id`).
    public nonisolated let room: String
    private let voice: SpeechService
    /// This room's loudspeaker: "louder" said here changes it, whatever the hub's.
    public nonisolated let loudspeaker: LoudspeakerVolume
    private let report: @Sendable (String) -> Void
    private var connection: WyomingConnection?
    /// When the hub was lost, while it is.
    private var lostSince: Date?
    /// Starts this room's own apps, for answering without the hub; nil: a tone for everything.
    private let ownApps: (@Sendable () async throws -> any LiveBrain)?
    /// The own apps once started, or why they could not be.
    private var own: Result<any LiveBrain, any Error>?
    /// The own apps asked a question: its answer is theirs, hub or not.
    private var answeringHere = false
    private var lastHeartbeat = Date.distantPast
    /// Conversations are named room/run/number: a new number at each wake word, and a run of
    /// its own each start, so a restarted satellite never walks into an old conversation.
    private let run = String(UUID().uuidString.prefix(8)).lowercased()
    private var conversationNumber = 0
    /// How loud this room was before the last wake word (`RoomBeforeRequest`), sent with each of
    /// its turns as `context.room_power` so the hub judges them by this room.
    private var roomPower: Double?

    /// `voice` speaks "Yes?" and the lost-hub reply here, without the network.
    /// `report` is told when the hub is lost and when it is back, once each.
    /// `ownApps`: starts this room's own apps (an `Assistant`), to answer what they can while
    /// the hub is out of reach.
    public init(hub: WyomingEndpoint, room: String, voice: SpeechService, loudspeaker: LoudspeakerVolume = LoudspeakerVolume(file: nil),
                ownApps: (@Sendable () async throws -> any LiveBrain)? = nil, report: @escaping @Sendable (String) -> Void) {
        self.hub = hub
        self.ownApps = ownApps
        self.room = room
        self.voice = voice
        self.loudspeaker = loudspeaker
        self.report = report
    }

    /// The hub's transcription of what was said so far; nil when the hub cannot be reached (the
    /// turn then waits for the full end silence, and says the hub is lost).
    public func hearEarly(_ samples: [Int16], continuing: Bool) async throws -> HeardUtterance? {
        do {
            let transcript = try transcribe(samples, on: try connected())
            let quiet = transcript.data["quiet_after_last_word_ms"]?.integerValue.map { $0 / 10 }
            let recognition = Recognition(heardElsewhere: transcript.string("text") ?? "",
                                          frames: samples.count / (PipelineAudio.sampleRate / 100), framesAfterLastWord: quiet)
            let whole = !recognition.isRejected && transcript.data["whole_phrase"] == .bool(true)
            return HeardUtterance(recognition: recognition, sampleCount: samples.count, continuing: continuing,
                                  endsPhrase: whole && Recognizer.saidInFull(recognition), isWholePhrase: whole)
        } catch {
            lose(error)
            return nil
        }
    }

    public func respond(to samples: [Int16], early: HeardUtterance?, continuing: Bool,
                        name: String) async throws -> (report: TurnReport, reply: AudioClip) {
        let recordingSeconds = Double(samples.count) / Double(PipelineAudio.sampleRate)
        if continuing && answeringHere, let here = try? own?.get() {
            return try await answerHere(samples, continuing: true, name: name, here: here, hubProblem: nil, recordingSeconds: recordingSeconds)
        }
        let started = Date()
        var report: TurnReport, clip: AudioClip
        var volume: VolumeChange?
        do {
            let connection = try connected()
            // Nothing said after a question: the turn is silence, with no audio to transcribe.
            // Heard at a pause: the hub keeps that hearing and answers it.
            let text: String
            if samples.isEmpty {
                text = ""
            } else if let early {
                text = early.recognition.text
            } else {
                text = try transcribe(samples, on: connection).string("text") ?? ""
            }
            let decodeSeconds = Date().timeIntervalSince(started)
            try connection.send(WyomingEvent(WyomingEventType.transcript, data: ["text": .string(text), "context": context]))
            let handled = try connection.receive([WyomingEventType.handled, WyomingEventType.notHandled])
            let spoken = Date()
            let speech = handled.string("text") ?? ""
            // "Louder" is for this room's loudspeaker: said here, after the change (below).
            volume = handled.string("volume").flatMap(VolumeChange.init(wireValue:))
            clip = speech.isEmpty || volume != nil ? AudioClip(samples: [], sampleRate: 22_050, channels: 1) : try synthesize(speech, on: connection)
            let intent = handled.data["intent"]?.objectValue
            report = TurnReport(recording: name, heardByHub: text, intent: intent?["name"]?.stringValue,
                                slots: intent?["slots"]?.objectValue?.compactMapValues(\.stringValue) ?? [:], reply: speech,
                                expectsAnswer: handled.data["continue_conversation"] == .bool(true),
                                handled: handled.type == WyomingEventType.handled, problem: nil,
                                timings: .init(audioSeconds: 0, decodeSeconds: decodeSeconds,
                                               speechSeconds: Date().timeIntervalSince(spoken), recordingSeconds: recordingSeconds))
        } catch {
            lose(error)
            let problem = "the hub is out of reach: \(error.message)"
            if let here = await ownBrain() {
                return try await answerHere(samples, continuing: false, name: name, here: here, hubProblem: problem,
                                            recordingSeconds: recordingSeconds)
            }
            return tone(name: name, problem: problem, recordingSeconds: recordingSeconds)
        }
        answeringHere = false
        if let volume {
            (report.reply, report.problem) = loudspeaker.change(volume)
            clip = try await voice.speak(report.reply)
        }
        return (report, clip)
    }

    /// A turn for this room's own apps. What they understand (or ask about) is theirs to answer;
    /// what they do not is a tone, and a call for help is told first why the hub does not answer.
    private func answerHere(_ samples: [Int16], continuing: Bool, name: String, here: any LiveBrain, hubProblem: String?,
                            recordingSeconds: Double) async throws -> (report: TurnReport, reply: AudioClip) {
        try await here.heardBeforeRequest(roomPower: roomPower)
        var (report, clip) = try await here.respond(to: samples, early: nil, continuing: continuing, name: name)
        // Asked for again over the noise is not understood either: the request may be one for the hub's apps.
        let notUnderstood = report.rejected && (!report.expectsAnswer || DialogueEngine.saysNotUnderstood(report.reply))
        answeringHere = report.expectsAnswer && !notUnderstood
        guard !notUnderstood else {
            return tone(name: name, problem: "\(hubProblem ?? "answered here"); not understood here either", recordingSeconds: recordingSeconds)
        }
        if let hubProblem {
            if report.builtIn == Self.helpTag {
                report.reply = Self.cannotReachHub + " " + report.reply
                clip = try await voice.speak(report.reply)
            }
            report.problem = report.problem ?? "\(hubProblem); answered here"
        }
        return (report, clip)
    }

    /// The grammar tag of Hark's own "what can I say" (`TurnReport.builtIn`).
    static let helpTag = "hark.help"

    /// The short falling tone that answers a request nobody here can.
    private func tone(name: String, problem: String, recordingSeconds: Double) -> (report: TurnReport, reply: AudioClip) {
        answeringHere = false
        let report = TurnReport(recording: name, heardByHub: "", reply: "", expectsAnswer: false, handled: false,
                                problem: "\(problem) (a tone played)",
                                timings: .init(audioSeconds: 0, decodeSeconds: 0, speechSeconds: 0, recordingSeconds: recordingSeconds))
        return (report, Chime.falling())
    }

    /// This room's own apps, started the first time they are needed; nil without them, or when
    /// they could not start (said once).
    private func ownBrain() async -> (any LiveBrain)? {
        guard let ownApps else { return nil }
        if own == nil {
            do {
                own = .success(try await ownApps())
            } catch {
                own = .failure(error)
                report("this room's own apps could not start, so only a tone answers while the hub is out of reach: \(error)")
            }
        }
        return try? own?.get()
    }

    /// Checks on the hub now and then; says nothing unprompted (automations run on the hub).
    public func whileWaiting() async throws -> [(phrase: String, speech: String, clip: AudioClip)] {
        guard Date().timeIntervalSince(lastHeartbeat) >= Self.heartbeatInterval else { return [] }
        lastHeartbeat = Date()
        do {
            let connection = try connected()
            try connection.send(WyomingEvent(WyomingEventType.ping, data: ["text": .string(room)]))
            _ = try connection.receive([WyomingEventType.pong])
        } catch {
            lose(error)
            _ = await ownBrain()  // ready for the first request without the hub
        }
        return []
    }

    public func speak(_ text: String) async throws -> AudioClip {
        try await voice.speak(text)
    }

    public func claimWake(phrase: String, signalToNoise: Double, confidence: Double) async -> Bool {
        conversationNumber += 1  // a wake word begins a new request, and a conversation for it
        do {
            let connection = try connected()
            try connection.send(WyomingEvent(WyomingEventType.detection, data: [
                "name": .string(phrase), "snr_db": .number(signalToNoise), "confidence": .number(confidence),
                "context": ["satellite_id": .string(room)],
            ]))
            let decision = try connection.receive([WyomingEventType.wakeArbitration])
            return decision.data["answer"] == .bool(true)
        } catch {
            // No hub to ask: this room answers, with its own apps or a tone.
            lose(error)
            return true
        }
    }

    /// Where this satellite's turns go on the hub: the conversation begun at the last wake word.
    private var context: JSONValue {
        var context: [String: JSONValue] = ["conversation_id": .string("\(room)/\(run)/\(conversationNumber)"),
                                            "satellite_id": .string(room)]
        if let roomPower { context["room_power"] = .number(roomPower) }
        return .object(context)
    }

    public func heardBeforeRequest(roomPower: Double?) async throws {
        self.roomPower = roomPower
    }

    private func connected() throws(ServerError) -> WyomingConnection {
        if let connection { return connection }
        let opened = try WyomingConnection(hub)
        connection = opened
        if let lostSince {
            report(String(format: "reached the hub at \(hub) again after %.0f s", Date().timeIntervalSince(lostSince)))
            self.lostSince = nil
        }
        return opened
    }

    /// Drops a connection that failed; says so the first time only, until the hub is back.
    private func lose(_ error: ServerError) {
        connection = nil
        guard lostSince == nil else { return }
        lostSince = Date()
        let meanwhile = ownApps == nil ? "a falling tone answers each request" : "this room's own apps answer what they can, a falling tone the rest"
        report("lost the hub at \(hub): \(error.message); \(meanwhile), and the hub is tried again at each wake word and every "
               + "\(Int(Self.heartbeatInterval)) s")
    }

    /// The hub's `transcript` of `samples`, heard in this wake word's conversation.
    private func transcribe(_ samples: [Int16], on connection: WyomingConnection) throws(ServerError) -> WyomingEvent {
        let format = WyomingAudioFormat(rate: PipelineAudio.sampleRate, width: 2, channels: 1)
        try connection.send(WyomingEvent(WyomingEventType.transcribe, data: ["language": "en", "context": context]))
        try connection.send(WyomingEvent(WyomingEventType.audioStart, data: format.eventData))
        for start in stride(from: 0, to: samples.count, by: Self.samplesPerChunk) {
            let chunk = samples[start..<min(start + Self.samplesPerChunk, samples.count)]
            try connection.send(WyomingEvent(WyomingEventType.audioChunk, data: format.eventData, payload: WyomingAudioFormat.payload(chunk)))
        }
        try connection.send(WyomingEvent(WyomingEventType.audioStop))
        return try connection.receive([WyomingEventType.transcript])
    }

    /// The hub's voice saying `text`: its audio-start, chunks and audio-stop, as one clip.
    private func synthesize(_ text: String, on connection: WyomingConnection) throws(ServerError) -> AudioClip {
        try connection.send(WyomingEvent(WyomingEventType.synthesize, data: ["text": .string(text)]))
        let start = try connection.receive([WyomingEventType.audioStart])
        let format: WyomingAudioFormat
        do {
            format = try WyomingAudioFormat(eventData: start.data, type: start.type)
        } catch {
            throw ServerError(.connection, "the hub's voice came in a format Hark cannot play: \(error.message)")
        }
        var samples: [Float] = []
        while true {
            let event = try connection.receive([WyomingEventType.audioChunk, WyomingEventType.audioStop])
            guard event.type == WyomingEventType.audioChunk else { break }
            do {
                samples += try format.monoSamples(from: event.payload)
            } catch {
                throw ServerError(.connection, "the hub's voice could not be read: \(error.message)")
            }
        }
        return AudioClip(samples: samples, sampleRate: format.rate, channels: 1)
    }
}
