import Foundation

/// Finds utterances in a stream of 16 kHz audio by loudness: speech starts
/// when frames stay well above the background for a while, and ends after a
/// stretch of quiet. The background level adapts while nobody speaks.
///
/// This is the simple endpointer of the first live loop; it is pure Swift so
/// its decisions can be tested frame by frame.
public struct EnergyEndpointer: Sendable {
    public struct Settings: Sendable {
        /// How far above the background (dB) a frame must be to count as speech.
        public var speechAboveBackground: Double = 12
        /// Speech must last this long (s) to start an utterance.
        public var minimumSpeech: Double = 0.15
        /// This much quiet (s) ends an utterance.
        public var endSilence: Double = 0.7
        /// An utterance is cut here (s), whatever is still going on.
        public var maximumUtterance: Double = 10
        /// Audio kept from before speech started (s), so first syllables are not clipped.
        public var preRoll: Double = 0.3

        public init() {}
    }

    public static let frameLength = 160 // 10 ms at 16 kHz

    private let settings: Settings
    private var background: Double = -60 // dBFS
    private var pending: [Int16] = []
    private var history: [[Int16]] = []
    private var utterance: [Int16] = []
    private var loudFrames = 0
    private var quietFrames = 0
    private var inSpeech = false

    public init(settings: Settings = Settings()) {
        self.settings = settings
    }

    public var isInSpeech: Bool { inSpeech }

    /// Feeds audio; returns each utterance completed by it.
    public mutating func feed(_ samples: [Int16]) -> [[Int16]] {
        pending += samples
        var completed: [[Int16]] = []
        while pending.count >= Self.frameLength {
            let frame = Array(pending.prefix(Self.frameLength))
            pending.removeFirst(Self.frameLength)
            if let done = process(frame) { completed.append(done) }
        }
        return completed
    }

    private static func level(_ frame: [Int16]) -> Double {
        let energy = frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(frame.count)
        return 10 * log10(max(energy, 1) / (32768.0 * 32768.0))
    }

    private func frames(_ seconds: Double) -> Int { Int(seconds * 100) }

    private mutating func process(_ frame: [Int16]) -> [Int16]? {
        let level = Self.level(frame)
        let loud = level > background + settings.speechAboveBackground
        if !inSpeech {
            history.append(frame)
            if history.count > frames(settings.preRoll) + frames(settings.minimumSpeech) { history.removeFirst() }
            loudFrames = loud ? loudFrames + 1 : 0
            if !loud {
                // Follow the background slowly, faster downwards than upwards.
                let rate = level < background ? 0.2 : 0.02
                background += (level - background) * rate
            }
            if loudFrames >= frames(settings.minimumSpeech) {
                inSpeech = true
                quietFrames = 0
                utterance = history.flatMap { $0 }
                history.removeAll()
            }
            return nil
        }
        utterance += frame
        quietFrames = loud ? 0 : quietFrames + 1
        let tooLong = utterance.count >= frames(settings.maximumUtterance) * Self.frameLength
        guard quietFrames >= frames(settings.endSilence) || tooLong else { return nil }
        inSpeech = false
        loudFrames = 0
        defer { utterance = [] }
        return utterance
    }
}
