import Foundation
public import HarkAudio
import HarkDialogue
import HarkShortcuts

/// What the live loop asks of whatever understands and answers what it hears: the assistant on
/// this device, or a hub in another room (`hark listen --hub`). The loop keeps the microphone,
/// the wake word, the endpointing and the loudspeaker; the brain keeps the conversation.
public protocol LiveBrain: Sendable {
    /// What was said so far, heard at a pause to tell whether it is a finished phrase; nil when
    /// this brain does not look early (the loop then waits for the full end silence).
    func hearEarly(_ samples: [Int16], continuing: Bool) async throws -> HeardUtterance?
    /// Understands one utterance (empty: nothing was said) and prepares the spoken reply.
    /// `early`: the utterance already heard at a pause; `continuing`: it answers the question
    /// asked last. Throws only what makes the turn impossible.
    func respond(to samples: [Int16], early: HeardUtterance?, continuing: Bool,
                 name: String) async throws -> (report: TurnReport, reply: AudioClip)
    /// Called about once a second while waiting for the wake word: what to say unprompted now
    /// (automations that are due), each with its spoken clip.
    func whileWaiting() async throws -> [(phrase: String, speech: String, clip: AudioClip)]
    /// Hark's voice saying `text` (the spoken "Yes?" after the wake word).
    func speak(_ text: String) async throws -> AudioClip
    /// How loud this device's loudspeaker plays; the loop applies it to everything it plays.
    var loudspeaker: LoudspeakerVolume { get }
    /// The wake word was heard here, `signalToNoise` dB above this room's background, with the
    /// spotter's `confidence`: whether this device answers it. A hub decides between rooms that
    /// heard the same words; a device alone always answers.
    func claimWake(phrase: String, signalToNoise: Double, confidence: Double) async -> Bool
    /// How loud the room was in the seconds before the wake word (`RoomBeforeRequest.meanPower`;
    /// nil when too little was heard): the request that follows, and its follow-ups, are asked
    /// about first as in a room that loud at least.
    func heardBeforeRequest(roomPower: Double?) async throws
}

extension LiveBrain {
    /// A brain that hears only the request's own audio (a hub, sent the request alone) judges
    /// its room by that.
    public func heardBeforeRequest(roomPower: Double?) async throws {}
}

extension Assistant: LiveBrain {
    public func hearEarly(_ samples: [Int16], continuing: Bool) async throws -> HeardUtterance? {
        try await hear(samples, continuing: continuing)
    }

    public func respond(to samples: [Int16], early: HeardUtterance?, continuing: Bool,
                        name: String) async throws -> (report: TurnReport, reply: AudioClip) {
        let heard = if let early { early } else { try await hear(samples, continuing: continuing) }
        return try await answer(heard, name: name)
    }

    public func whileWaiting() async throws -> [(phrase: String, speech: String, clip: AudioClip)] {
        try await runDueAutomations().map { ($0.automation.phrase, $0.reply.speech, $0.clip) }
    }

    public func speak(_ text: String) async throws -> AudioClip {
        try await speech.speak(text)
    }

    public func claimWake(phrase: String, signalToNoise: Double, confidence: Double) async -> Bool { true }

    public func heardBeforeRequest(roomPower: Double?) async throws {
        try await recognition.heardBeforeRequest(roomPower: roomPower)
    }
}

/// A wake word's claim, settled in the background while the loop goes on listening: the loop
/// looks at it without waiting (`answers`), and waits for it only when it must reply.
final class WakeClaim: Sendable {
    private let settled = SettledAnswer()
    private let task: Task<Bool, Never>

    init(brain: any LiveBrain, phrase: String, signalToNoise: Double, confidence: Double) {
        let settled = self.settled
        task = Task.detached {
            let answers = await brain.claimWake(phrase: phrase, signalToNoise: signalToNoise, confidence: confidence)
            settled.value = answers
            return answers
        }
    }

    /// Whether this device answers, when that is known yet.
    var answers: Bool? { settled.value }

    /// Whether this device answers, waiting for the decision if need be.
    func decision() async -> Bool { await task.value }

    private final class SettledAnswer: @unchecked Sendable {
        // @unchecked: `stored` is only touched under `lock`.
        private let lock = NSLock()
        private var stored: Bool?
        var value: Bool? {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
