import Foundation
import HarkDialogue
public import HarkSpeech

/// What Hark made of one recording: printed for people, or as one JSON object per line.
public struct TurnReport: Sendable, Codable, Equatable {
    public struct Timings: Sendable, Codable, Equatable {
        /// Reading the file and converting it to 16 kHz mono.
        public var audioSeconds: Double
        /// Both decoding passes.
        public var decodeSeconds: Double
        /// Synthesising the reply.
        public var speechSeconds: Double
        /// Length of the recording.
        public var recordingSeconds: Double
        /// The CPU each stage of the recognition took; nil when this device did not recognise it
        /// (a hub did).
        public var decodeCPU: DecodeCPU?

        public init(audioSeconds: Double, decodeSeconds: Double, speechSeconds: Double, recordingSeconds: Double,
                    decodeCPU: DecodeCPU? = nil) {
            self.audioSeconds = audioSeconds
            self.decodeSeconds = decodeSeconds
            self.speechSeconds = speechSeconds
            self.recordingSeconds = recordingSeconds
            self.decodeCPU = decodeCPU
        }

        enum CodingKeys: String, CodingKey {
            case audioSeconds = "audio_s", decodeSeconds = "decode_s", speechSeconds = "speech_s", recordingSeconds = "recording_s"
            case decodeCPU = "decode_cpu"
        }
    }

    public var recording: String
    /// The words heard; empty when nothing in the grammar was recognised.
    public var text: String
    /// The intent's name (e.g. "ChangeLightState"), or nil when rejected.
    public var intent: String?
    /// The app that owns the intent.
    public var app: String?
    /// The phrase of Hark's own the turn answered, by its grammar tag ("hark.louder",
    /// "hark.cancel", "hark.help", …): no app's intent, but heard and acted on all the same (the
    /// loudspeaker turned up, "OK.", the help spoken). Nil for an app's intent, an answer to a
    /// question and a rejection.
    public var builtIn: String? = nil
    /// Parameter name → value identifier.
    public var slots: [String: String]
    public var reply: String
    public var confidence: Double
    /// The raw grammar-over-phone-loop margin behind the confidence, for tuning the threshold.
    public var margin: Double
    /// Its two parts: the margin over the whole utterance, and the word that fitted worst
    /// (nil when no words were heard).
    public var utteranceMargin: Double = 0
    public var weakestWord: WordFit? = nil
    /// How well every word heard fits its own stretch of audio, in order (`Recognition.wordFits`).
    public var wordFits: [WordFit] = []
    /// The passes' other measurements (see `ConfidenceFeatures`), for tuning the confidence.
    public var features: ConfidenceFeatures? = nil
    /// The phrase Hark asked about ("Did you say …?") when it was rejected by only a little.
    public var guess: String? = nil
    /// The phrase with the other of two meanings ("off" for "on"), asked about after a "no" to
    /// the guess (`Recognition.otherwise`).
    public var otherMeaning: String? = nil
    public var rejected: Bool
    /// Why the recording was rejected, if it was.
    public var rejection: String?
    /// Hark asked a question and listens for the answer.
    public var expectsAnswer: Bool = false
    /// An intent was carried out in this turn.
    public var handled: Bool = false
    /// What went wrong underneath (a handler that failed), for logs.
    public var problem: String?
    /// A loudspeaker change asked of a client (`VolumeChange.wireValue`) that it makes itself.
    public var volumeChange: String? = nil
    /// What was wrong with the recording but did not stop it being heard (a WAV file cut short).
    public var warnings: [String] = []
    public var timings: Timings

    /// A turn a hub understood and answered, as its satellite knows it: the words the hub heard
    /// ("" when it rejected them), the intent it named ("app.Intent"), its reply, and whether it
    /// asked a question.
    public init(recording: String, heardByHub text: String, intent: String? = nil, slots: [String: String] = [:],
                reply: String, expectsAnswer: Bool, handled: Bool, problem: String?, timings: Timings) {
        let named = intent?.split(separator: ".", maxSplits: 1).map(String.init)
        self.init(recording: recording, text: text, intent: named?.count == 2 ? named?[1] : nil,
                  app: named?.count == 2 ? named?[0] : nil, slots: slots, reply: reply,
                  confidence: text.isEmpty ? 0 : 1, margin: 0, rejected: text.isEmpty && !handled,
                  rejection: text.isEmpty ? "not understood by the hub" : nil, expectsAnswer: expectsAnswer,
                  handled: handled, problem: problem, timings: timings)
    }

    init(recording: String, text: String, intent: String?, app: String?, slots: [String: String], reply: String,
         builtIn: String? = nil,
         confidence: Double, margin: Double, utteranceMargin: Double = 0, wordFits: [WordFit] = [],
         features: ConfidenceFeatures? = nil, guess: String? = nil, rejected: Bool, rejection: String?,
         expectsAnswer: Bool = false, handled: Bool = false, problem: String? = nil, volumeChange: String? = nil,
         warnings: [String] = [], timings: Timings) {
        self.recording = recording
        self.text = text
        self.intent = intent
        self.app = app
        self.builtIn = builtIn
        self.slots = slots
        self.reply = reply
        self.confidence = confidence
        self.margin = margin
        self.utteranceMargin = utteranceMargin
        self.wordFits = wordFits
        self.weakestWord = WordFit.weakest(of: wordFits)
        self.features = features
        self.guess = guess
        self.rejected = rejected
        self.rejection = rejection
        self.expectsAnswer = expectsAnswer
        self.handled = handled
        self.problem = problem
        self.volumeChange = volumeChange
        self.warnings = warnings
        self.timings = timings
    }

    /// Hides what was said in answer to the PIN question: the words (and anything that repeats
    /// them: the guess, each word's fit, the count of words) become `hiddenPIN`, so no digit reaches a log or a script.
    public mutating func hideSpokenPIN() {
        if !text.isEmpty { text = hiddenPIN }
        if guess != nil { guess = hiddenPIN }
        if otherMeaning != nil { otherMeaning = hiddenPIN }
        wordFits = []
        weakestWord = nil
        // Its count of words would say how long the PIN is.
        features = nil
    }

    /// One line of JSON with sorted keys, so output is stable for scripts.
    public func jsonLine() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    /// How far the voice stood above the room it was judged in (dB): the louder of the
    /// utterance's own quietest pieces and the seconds before the wake word; nil when not measured.
    public var voiceAboveRoom: Double? { features?.signalToNoiseWithRoomBefore ?? features?.signalToNoise }

    /// "the voice 14 dB above the room"; a room quieter than any microphone's own hiss (a
    /// recording padded with digital silence) as "60 dB or more". Nil when not measured.
    public var roomSummary: String? {
        voiceAboveRoom.map { $0 >= 60 ? "the voice 60 dB or more above the room" : String(format: "the voice %.0f dB above the room", $0) }
    }

    /// A few lines for a person at a terminal.
    public func humanReadable() -> String {
        var lines = ["\(recording):"]
        let asked = otherMeaning.map { "asked about; after a no, \"\($0)\"" } ?? "asked about"
        let heard = !text.isEmpty ? "\"\(text)\"" : guess.map { "perhaps \"\($0)\" (\(asked))" } ?? "(nothing in the grammar)"
        lines.append("  heard:      \(heard)")
        if let intent, let app {
            lines.append("  intent:     \(app).\(intent)")
            for (name, value) in slots.sorted(by: { $0.key < $1.key }) {
                lines.append("    \(name) = \(value)")
            }
        } else if let builtIn {
            lines.append("  intent:     \(builtIn) (a phrase of Hark's own)")
        } else {
            // "yes", "no" or a value said in answer to a question is understood, but is no intent.
            lines.append("  intent:     none (\(rejection ?? (rejected ? "rejected" : "an answer to the question")))")
        }
        var sureness = "  confidence: " + String(format: "%.2f", confidence)
        if let weakestWord { sureness += " (weakest word " + weakestWord.summary + ")" }
        lines.append(sureness)
        if let roomSummary { lines.append("  room:       \(roomSummary)") }
        lines.append("  reply:      \"\(reply)\"\(expectsAnswer ? " (waiting for an answer)" : "")")
        if let problem { lines.append("  problem:    \(problem)") }
        let realTime = timings.recordingSeconds > 0 ? timings.decodeSeconds / timings.recordingSeconds : 0
        lines.append(String(format: "  timings:    read %.0f ms, decode %.0f ms (%.3f × real time), speech %.0f ms",
                            timings.audioSeconds * 1000, timings.decodeSeconds * 1000, realTime, timings.speechSeconds * 1000))
        return lines.joined(separator: "\n")
    }
}
