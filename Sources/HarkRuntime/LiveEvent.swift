import Foundation
import HarkDialogue

/// Something the live loop did, for the terminal, the journal and tests.
public enum LiveEvent: Sendable {
    /// Listening for the wake word on `source`.
    case started(source: String, wakePhrase: String)
    /// The wake word ended `at` seconds into the input, with the spotter's score and the
    /// confidence it judged by (see `WakeWordDetection`).
    case wake(at: Double, score: Double, confidence: Double)
    /// Perhaps the wake word, below the sensitivity's threshold (`LiveSettings.tentativeWakeOdds`):
    /// Hark listens on without a sound, and answers only a request that bears it out
    /// (`TentativeWakeFollowUp`).
    case tentativeWake(at: Double, confidence: Double)
    /// What followed a tentative wake word (`heard`, "" for nothing) did not bear it out:
    /// Hark stayed silent and went back to waiting, `at` seconds into the input.
    case dismissed(at: Double, heard: String)
    /// One request or answer understood and replied to.
    case turn(LiveTurn)
    /// Nobody spoke after the wake word (`inConversation` false) or after a question.
    case noSpeech(at: Double, inConversation: Bool)
    /// An automation ran and its result was spoken.
    case automation(phrase: String, reply: String)
    /// Another room heard the same wake word better and answers it (a satellite of a hub); this
    /// one went back to waiting, `at` seconds into the input.
    case yielded(at: Double)
    /// The wake word was said while Hark spoke: the reply stopped `at` seconds into the input,
    /// `afterWakeWord` seconds after the wake word ended (the `wake` event follows).
    case interrupted(at: Double, afterWakeWord: Double)
    /// The microphone gave nothing but digital silence for `SilentMicrophone.seconds` (`silent`),
    /// or sound again after that, `at` seconds into the input.
    case microphone(silent: Bool, at: Double)
    /// Something went wrong and the loop went on (a device that failed, a turn that could not be decoded).
    case problem(String)
}

/// One utterance the live loop answered.
public struct LiveTurn: Sendable {
    public var report: TurnReport
    /// Where the utterance ended in the input, in seconds (time spent speaking replies counts).
    public var endedAt: Double
    /// The answer to a question Hark asked, heard without a wake word.
    public var isAnswer: Bool
    public var latency: LiveLatency
}

/// How long a person waits for the reply after they stop speaking.
public struct LiveLatency: Sendable, Codable, Equatable {
    /// The quiet the endpointer waited for to be sure speech had ended (the audio's own time).
    public var endSilence: Double
    /// From the end of speech being found (or recognition starting at a pause) to the first
    /// reply sample handed to the loudspeaker: recognising, any quiet still to be confirmed,
    /// the dialogue and its handler, and synthesising the reply.
    public var processing: Double
    public var total: Double { endSilence + processing }

    enum CodingKeys: String, CodingKey { case endSilence = "end_silence_s", processing = "processing_s" }
}

/// The figures of one run of the loop.
public struct LiveSummary: Sendable, Codable {
    public var audioSeconds = 0.0
    public var wakeWords = 0
    public var turns = 0
    public var noSpeech = 0
    /// Tentative wake words (`LiveSettings.tentativeWakeOdds`), and those a request bore out
    /// (counted in `wakeWords` too).
    public var tentativeWakes = 0
    public var tentativeAnswered = 0
    public var processingP50 = 0.0
    public var processingP95 = 0.0
    public var totalLatencyP50 = 0.0
    public var totalLatencyP95 = 0.0
    /// CPU time over audio time, over the whole run (1 = one core busy).
    public var cpuPerAudioSecond = 0.0
    public var peakResidentMegabytes = 0.0
    /// Seconds Hark spoke while listening on (echo cancelled), and the CPU that took per second
    /// (speaking, cancelling and spotting the wake word; 1 = one core busy).
    public var speakingSeconds = 0.0
    public var cpuPerSpeakingSecond = 0.0
    /// Replies stopped by the wake word, and how long after its end each stopped.
    public var interruptions = 0
    public var stopDelayP50 = 0.0
    public var stopDelayP95 = 0.0

    enum CodingKeys: String, CodingKey {
        case audioSeconds = "audio_s", wakeWords = "wake_words", turns, noSpeech = "no_speech"
        case tentativeWakes = "tentative_wakes", tentativeAnswered = "tentative_answered"
        case processingP50 = "processing_p50_s", processingP95 = "processing_p95_s"
        case totalLatencyP50 = "latency_p50_s", totalLatencyP95 = "latency_p95_s"
        case cpuPerAudioSecond = "cpu_per_audio_s", peakResidentMegabytes = "peak_rss_mb"
        case speakingSeconds = "speaking_s", cpuPerSpeakingSecond = "cpu_per_speaking_s"
        case interruptions, stopDelayP50 = "stop_delay_p50_s", stopDelayP95 = "stop_delay_p95_s"
    }

    public func humanReadable() -> String {
        var text = String(format: """
            %.1f s of audio: %d wake words, %d turns, %d times nobody spoke
            reply latency (end of speech → first reply sample): median %.0f ms, p95 %.0f ms
              of which processing (recognise, dialogue, synthesise): median %.0f ms, p95 %.0f ms
            CPU: %.3f s per second of audio (%.1f%% of one core); peak memory %.0f MB
            """, audioSeconds, wakeWords, turns, noSpeech, totalLatencyP50 * 1000, totalLatencyP95 * 1000,
                      processingP50 * 1000, processingP95 * 1000, cpuPerAudioSecond, cpuPerAudioSecond * 100,
                      peakResidentMegabytes)
        if tentativeWakes > 0 {
            text += "\n\(tentativeWakes) tentative wake words: \(tentativeAnswered) borne out by a request, "
                + "\(tentativeWakes - tentativeAnswered) let go in silence"
        }
        if speakingSeconds > 0 {
            text += String(format: "\nwhile speaking (%.1f s, echo cancelled, listening for the wake word): %.1f%% of one core",
                           speakingSeconds, cpuPerSpeakingSecond * 100)
        }
        if interruptions > 0 {
            text += String(format: "\ninterrupted %d times: the reply stopped %.0f ms after the wake word's end (median), p95 %.0f ms",
                           interruptions, stopDelayP50 * 1000, stopDelayP95 * 1000)
        }
        return text
    }
}
