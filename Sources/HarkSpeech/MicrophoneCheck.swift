import Foundation
import HarkAudio

/// How a microphone hears its room and a voice in it (`hark mic-check`): a few seconds in which
/// nobody speaks, then someone saying the wake word and a request from where they usually stand.
/// Both are judged as Hark judges them while listening, so that a person can place the
/// microphone and set its gain before Hark starts missing wake words in their kitchen: a voice
/// twice as close stands 6 dB further above a steady room.
public struct MicrophoneCheck: Sendable, Equatable, Codable {
    /// What the check found, each with what Hark does about it.
    public enum Finding: String, Sendable, Equatable, Codable, CaseIterable {
        /// Nothing but exact zeros came, room and speech: a capture switched off, or not a microphone.
        case digitalSilence
        /// The room is louder than the wake spotter's noise suppression line.
        case wakeWordHeardThroughSuppression
        /// The room's loudest moments stand well above its quiet ones (a cat, dishes, talk).
        case noiseComesAndGoes
        /// Nothing in the second part stood above the room.
        case noVoice
        /// The voice is quieter than a usual voice reaching a microphone.
        case faintVoice
        /// The voice reached the converter's limit: its peaks are cut flat.
        case clipped
        /// The voice came through a telephone-band microphone (a Bluetooth headset, a phone line).
        case telephoneBand
        /// Close to the room: a wake word is often missed.
        case voiceBarelyAboveRoom
        /// In a room this noisy a request not made out is asked for again.
        case noisyRoom
        /// Below `confirm_in_noise_below`: Hark asks "Did you say …?" before acting on a request
        /// heard only just well enough.
        case asksFirst
        /// The wake word was heard only faintly (tentative odds): no chime, and only a request
        /// that follows at once is answered.
        case wakeWordFaint
        /// The wake word was not heard in the speech.
        case wakeWordMissed
    }

    /// How the wake word fared in the speech, heard by the spotter as `hark listen` sets it up.
    public struct WakeWordHeard: Sendable, Equatable, Codable {
        public var phrase: String
        /// The best odds a candidate reached in the speech; nil when none was proposed.
        public var odds: Double?
        /// Whether it reached the sensitivity's threshold (the room's allowance included).
        public var sure: Bool
        /// Whether it reached only the tentative odds.
        public var tentative: Bool
    }

    /// The room's level (dBFS) as the wake spotter measures it (`RoomLevel`: the level a fifth of
    /// its 100 ms pieces are quieter than).
    public var roomLevel: Double
    /// The room's mean power (dBFS) over the same seconds: the room a request is judged in
    /// (`RoomBeforeRequest`), which counts a noise that comes and goes.
    public var roomMeanLevel: Double
    /// The room's loudest 100 ms (dBFS).
    public var roomLoudestLevel: Double
    /// The voice's level (dBFS, `SignalToNoise.Levels.voiceLevel`); nil when no voice stood above the room.
    public var voiceLevel: Double?
    /// How far the voice stands above the room (dB), as a request's room is judged: against the
    /// louder of the speech's own quietest pieces and the room's mean power.
    public var voiceAboveRoom: Double?
    /// The share of the speech's samples at the converter's limit.
    public var clippedShare: Double
    /// Nil when the wake word was not listened for.
    public var wakeWord: WakeWordHeard?
    public var findings: [Finding]

    /// What Hark is set to do, which the findings are judged against.
    public struct Settings: Sendable {
        /// `wake_denoise_above` (dBFS); nil: never.
        public var wakeDenoisesAbove: Double?
        /// `confirm_in_noise_below` (dB); nil: never.
        public var confirmsBelow: Double?

        public init(wakeDenoisesAbove: Double? = WakeWordSpotter.denoisingRoomLevel,
                    confirmsBelow: Double? = NoisyConfirmation.standardBelow) {
            self.wakeDenoisesAbove = wakeDenoisesAbove
            self.confirmsBelow = confirmsBelow
        }
    }

    /// Audio shorter than this cannot be judged (s): a room needs a few of its 100 ms pieces,
    /// a voice a few of its words.
    public static let leastRoomSeconds = 1.0
    public static let leastSpeechSeconds = 0.5
    /// A voice stands this far above the room before it counts as one (dB): what the spotter's
    /// cepstral mean counts as louder than the room (`WakeWordSpotter.meanGate`).
    static let voiceAboveRoomAtLeast = 6.0
    /// The loudest 100 ms this far above the room's quiet fifth is a noise that comes and goes (dB).
    static let burstAboveRoom = 10.0
    /// Under this far above the room (dB) the wake word is as hard to hear as in make bench-noise's
    /// loudest rooms; the spotter's noisy-room allowance stops short of it.
    static let barelyAboveRoom = WakeWordSpotter.noisyRoomFrom
    /// A sample this close to full scale counts as clipped, and this share of them as a clipped voice.
    static let clippedSample: Int16 = 32_600
    static let clippedShareAtLeast = 0.001

    public enum Problem: Error, Equatable, CustomStringConvertible {
        case tooShort(part: String, seconds: Double, needed: Double)

        public var description: String {
            switch self {
            case let .tooShort(part, seconds, needed):
                String(format: "the %@ lasts %.1f s; at least %.1f s is needed", part, seconds, needed)
            }
        }
    }

    /// Judges `room` (16 kHz mono, nobody speaking) and `speech` (the same microphone, someone
    /// speaking); with `wakeWord`, also listens for it in the speech as `hark listen` would.
    public init(room: [Int16], speech: [Int16], settings: Settings = Settings(),
                wakeWord: WakeWordConfiguration? = nil) throws {
        let rate = Double(PipelineAudio.sampleRate)
        guard Double(room.count) / rate >= Self.leastRoomSeconds else {
            throw Problem.tooShort(part: "room", seconds: Double(room.count) / rate, needed: Self.leastRoomSeconds)
        }
        guard Double(speech.count) / rate >= Self.leastSpeechSeconds else {
            throw Problem.tooShort(part: "speech", seconds: Double(speech.count) / rate, needed: Self.leastSpeechSeconds)
        }
        // RoomLevel and RoomBeforeRequest judge the last five seconds, as while listening.
        roomLevel = RoomLevel.of(room) ?? EnergyEndpointer.level(meanSquare: 0)
        let meanPower = RoomBeforeRequest.meanPower(of: room) ?? 0
        roomMeanLevel = EnergyEndpointer.level(meanSquare: meanPower)
        roomLoudestLevel = Self.loudestPiece(of: room.suffix(Int(RoomBeforeRequest.seconds * rate)))
        clippedShare = Double(speech.lazy.filter { $0 >= Self.clippedSample || $0 <= -Self.clippedSample }.count)
            / Double(speech.count)
        let levels = SignalToNoise.levels(speech)?.against(roomBefore: meanPower)
        if let levels, levels.signalToNoise >= Self.voiceAboveRoomAtLeast {
            voiceLevel = levels.voiceLevel
            voiceAboveRoom = levels.signalToNoise
        }
        findings = []
        let silent = { (samples: [Int16]) in samples.allSatisfy { abs(Int32($0)) <= 1 } }
        if silent(room) && silent(speech) {
            findings = [.digitalSilence]
            return
        }
        findings = judged(speech: speech, settings: settings)
        guard let wakeWord, voiceLevel != nil else { return }
        let heard = try Self.hear(wakeWord, after: room, in: speech)
        self.wakeWord = heard
        if heard.tentative { findings.append(.wakeWordFaint) } else if !heard.sure { findings.append(.wakeWordMissed) }
    }

    /// The wake word in `speech`, heard after `room` by a spotter set up as `configuration`
    /// says, its candidates below the threshold reported too.
    static func hear(_ configuration: WakeWordConfiguration, after room: [Int16], in speech: [Int16]) throws -> WakeWordHeard {
        var listening = configuration
        listening.reportsCandidates = true
        let spotter = try WakeWordSpotter(configuration: listening)
        // A second of the room after the speech lets the search finish a phrase said at its end.
        let tail = Array(room.suffix(PipelineAudio.sampleRate))
        let heard = room + speech + tail
        var candidates: [WakeWordDetection] = []
        // In 100 ms pieces, as the live loop feeds it.
        for start in stride(from: 0, to: heard.count, by: PipelineAudio.sampleRate / 10) {
            candidates += try spotter.process(Array(heard[start..<min(start + PipelineAudio.sampleRate / 10, heard.count)]))
        }
        candidates = candidates.filter { $0.endSample > room.count }
        let best = candidates.map(\.confidence).max()
        let sure = candidates.contains(where: \.isAccepted)
        // Reporting every candidate, the spotter marks none tentative: judged here as it would.
        let tentative = !sure && best.map { odds in configuration.tentativeOdds.map { odds >= $0 } ?? false } ?? false
        return WakeWordHeard(phrase: configuration.keyPhrase, odds: best, sure: sure, tentative: tentative)
    }

    private func judged(speech: [Int16], settings: Settings) -> [Finding] {
        var found: [Finding] = []
        if let line = settings.wakeDenoisesAbove, roomLevel > line { found.append(.wakeWordHeardThroughSuppression) }
        if roomLoudestLevel - roomLevel >= Self.burstAboveRoom { found.append(.noiseComesAndGoes) }
        guard let voiceLevel, let voiceAboveRoom else { return found + [.noVoice] }
        if voiceLevel < FaintVoiceGain.quietestUsualVoice { found.append(.faintVoice) }
        if clippedShare >= Self.clippedShareAtLeast { found.append(.clipped) }
        if TelephoneBand.isTelephoneBand(speech) { found.append(.telephoneBand) }
        if voiceAboveRoom < Self.barelyAboveRoom { found.append(.voiceBarelyAboveRoom) }
        if voiceAboveRoom < min(settings.confirmsBelow ?? .infinity, NoisyConfirmation.noisyRoomBelow) {
            found.append(.noisyRoom)
        }
        if let below = settings.confirmsBelow, voiceAboveRoom < below { found.append(.asksFirst) }
        return found
    }

    /// The level (dBFS) of the loudest whole 100 ms piece of `samples`.
    private static func loudestPiece(of samples: some Collection<Int16>) -> Double {
        var pieces = PieceMeanSquares(), loudest = 0.0
        for sample in samples {
            if let meanSquare = pieces.add(sample) { loudest = max(loudest, meanSquare) }
        }
        return EnergyEndpointer.level(meanSquare: loudest)
    }
}
