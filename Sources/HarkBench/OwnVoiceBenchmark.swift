public import Foundation
import HarkAudio
import HarkSpeech
import HarkVoice
import HarkRuntime

/// Hark's own replies, and nobody else, coming back into the microphone of a quiet room through
/// a simulated room at the level it plays them (the loudspeaker beside the microphone), heard
/// reply by reply as `hark listen` hears while it speaks: how often its own voice wakes it, with
/// replies that name the wake word ("Jarvis is my name. …") and replies that do not. Each reply
/// is heard three ways: as it comes in, after the canceller, and after the canceller and the
/// own-voice check (what the loop does). The canceller and its measured delay carry over from one
/// reply to the next, as in the loop.
public struct OwnVoiceBenchmark {
    public struct Row: Sendable, Codable {
        public var namesWakeWord: Bool
        public var replies = 0
        public var hours = 0.0
        public var wakesRaw = 0
        public var wakesCancelled = 0
        public var wakesWhileSpeaking = 0
    }

    /// Minutes of replies of each kind.
    public var minutes: Double
    public var wakePhrase = "jarvis"
    /// Common words a likely wake word is checked against, as `hark listen` checks it
    /// (`WakeWordConfiguration.otherWords`); none: not checked.
    public var otherWords: [String] = []
    /// The adaptation of the acoustic model both spotters hear through (nil: Debian's model).
    public var acousticTransform: URL?

    public init(minutes: Double) {
        self.minutes = minutes
    }

    /// What a voice assistant says: answers, confirmations, questions, lists.
    static let sentences = [
        "Here is the weather for today. It will be cloudy in the morning, with sunny spells in the afternoon.",
        "Turning on the garage light.", "Your soup is on its way; it should arrive in about twenty minutes.",
        "It's seven thirty in the evening.", "I've set a timer for ten minutes.", "Which room, the kitchen or the bedroom?",
        "Starting your sleep meditation. Breathe in slowly, and let your shoulders drop.",
        "You can say things like order coffee, what time is it, or start meditation.",
        "The living room is twenty one degrees, and the heating is off.", "Sorry, I didn't catch that. Could you say it again?",
        "Your next alarm is at six forty five tomorrow morning.", "Playing the news from the beginning.",
        "The front door is locked, and the back door is open.", "Do you want pickup or delivery?",
        "I sent your message to Amy Jones: running late, see you at eight.", "The dishwasher finished an hour ago.",
        "Here are three suggestions: check the weather, order soup, or turn off the lights.",
        "Volume is now six.", "OK, I've cancelled that.", "There are four items on your shopping list: milk, eggs, bread and apples.",
        "Tomorrow will be much the same, with a chance of rain in the evening and a light breeze from the west.",
        "Dimming the bedroom lamp to thirty percent.", "Your package was delivered to the front porch at two fifteen.",
        "The oven has reached two hundred degrees.",
    ]
    /// How a reply names the wake word.
    static func namings(_ phrase: String) -> [String] {
        let name = phrase.prefix(1).uppercased() + phrase.dropFirst()
        return ["\(name) is my name.", "This is \(name).", "\(name) here.", "You can call me \(name).", "Ask \(name) anything."]
    }
    /// Hark's voice at three pitches (espeak-ng's voice names differ between builds; its pitch does not).
    static let pitches = [40, 50, 60]
    static let rates = [150, 170, 190]

    public func run(progress: (String) -> Void) async throws -> [Row] {
        let room = SimulatedRoom(delay: 592, gain: 1, reverberation: 0.1)
        // One spotter hears the replies as they come in, the other what the echo path leaves.
        var listening = WakeWordConfiguration(keyPhrase: wakePhrase)
        listening.otherWords = otherWords
        listening.acousticTransform = acousticTransform
        let raw = try WakeWordSpotter(configuration: listening)
        let spotter = try WakeWordSpotter(configuration: listening)
        let echo = try EchoPath()
        var hiss = NoiseFloor(level: -50, seed: 11)
        var rows: [Row] = []
        for namesWakeWord in [true, false] {
            var row = Row(namesWakeWord: namesWakeWord)
            var index = 0
            while row.hours * 60 < minutes {
                let sentence = Self.sentences[index % Self.sentences.count]
                let naming = Self.namings(wakePhrase)[(index / Self.sentences.count) % Self.namings(wakePhrase).count]
                let voice = VoiceSettings(voice: "en-us", rate: Self.rates[index % Self.rates.count], pitch: Self.pitches[(index / 3) % Self.pitches.count])
                index += 1
                let text = namesWakeWord ? naming + " " + sentence : sentence
                let played = try await SpeechService(settings: voice).speak(text).pipelineSamples()
                let heard = room.heard(played + [Int16](repeating: 0, count: room.response.count))
                let captured = hiss.adding(to: heard[...])
                row.wakesRaw += try Self.wakes(in: captured, spotter: raw).count
                try spotter.reset()
                echo.begin(played, queued: 0, at: spotter.samplesProcessed)
                spotter.holdsMean = true
                for piece in stride(from: 0, to: captured.count, by: LiveSettings.chunkSamples) {
                    let cleaned = echo.clean(Array(captured[piece..<min(piece + LiveSettings.chunkSamples, captured.count)]))
                    for detection in try spotter.process(cleaned) {
                        row.wakesCancelled += 1
                        if try !echo.isOwnVoice(detection, spotter: spotter) { row.wakesWhileSpeaking += 1 }
                    }
                }
                echo.end()
                spotter.holdsMean = false
                row.replies += 1
                row.hours += Double(captured.count) / 16_000 / 3_600
                progress(String(format: "own voice, %@ the wake word: %.1f of %.0f minutes", namesWakeWord ? "naming" : "not naming",
                                row.hours * 60, minutes))
            }
            rows.append(row)
        }
        return rows
    }

    static func wakes(in audio: [Int16], spotter: WakeWordSpotter) throws -> [WakeWordDetection] {
        try spotter.reset()
        var found: [WakeWordDetection] = []
        for piece in stride(from: 0, to: audio.count, by: LiveSettings.chunkSamples) {
            found += try spotter.process(Array(audio[piece..<min(piece + LiveSettings.chunkSamples, audio.count)]))
        }
        return found
    }

    public static func table(_ rows: [Row]) -> String {
        var lines = ["Hark's own replies | replies | hours | woke it: as heard | echo cancelled | cancelled and own voice checked (as the loop listens)"]
        for row in rows {
            lines.append(String(format: "%@ | %d | %.2f | %d | %d | %d", row.namesWakeWord ? "naming the wake word" : "not naming it",
                                row.replies, row.hours, row.wakesRaw, row.wakesCancelled, row.wakesWhileSpeaking))
        }
        return lines.joined(separator: "\n")
    }
}
