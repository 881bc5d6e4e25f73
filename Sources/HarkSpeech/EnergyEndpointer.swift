import Foundation

/// Finds utterances in a stream of 16 kHz audio by loudness: speech starts
/// when frames stay well above the background for a while, and ends after a
/// stretch of quiet. The background level adapts while nobody speaks.
///
/// This is the simple endpointer of the first live loop; it is pure Swift so
/// its decisions can be tested frame by frame.
public struct EnergyEndpointer: Sendable {
    public struct Settings: Sendable {
        /// How far above the background (dB) a frame must be to count as speech in a quiet
        /// room, and at most in a loud one.
        public var speechAboveBackground: Double = 12
        /// A room whose background is louder than this (dBFS) is loud. A voice there stands
        /// little above the room (at 10 dB SNR its loudest tenth is about 11 dB above a steady
        /// noise's median, and its onsets and soft syllables less), so speech starts from
        /// `loudRoomSpeechAbove` dB, goes on while above `loudRoomSpeechContinues`, and keeps
        /// `loudRoomPreRoll` seconds from before it: the recogniser hears the room it starts in.
        /// Measured on make bench-noise (docs/benchmarks.md).
        public var loudRoomAbove: Double = -55
        public var loudRoomSpeechAbove: Double = 3
        public var loudRoomSpeechContinues: Double = 2
        public var loudRoomPreRoll: Double = 1
        /// In a loud room speech goes on while the level of the last `loudRoomSmoothing` seconds
        /// (their mean power) stands `loudRoomSpeechContinues` above the room, not each 10 ms
        /// frame: a running tap or clattering dishes rise 2 dB above their own level every few
        /// frames, so judged frame by frame most requests in a kitchen ran on to the 10 s limit
        /// (docs/benchmarks.md, make bench-noise).
        public var loudRoomSmoothing: Double = 0.2
        /// Whether `observe` takes a room that has grown louder for its new level: when the
        /// quietest tenth of the last `roomWindow` seconds is louder than speech would be against
        /// the level followed so far. Followed only frame by frame, a room that is loud from the
        /// start (a tap running before Hark listens) was never learnt: every frame counted as speech.
        public var learnsLouderRooms = true
        public var roomWindow: Double = 3
        /// Speech must last this long (s) to start an utterance; shorter bursts are clicks,
        /// knocks or the tail of a word. Once started, an utterance is kept however little of it
        /// was loud: a word said crisply in a quiet room ("one", "two") is loud for about 0.2 s,
        /// and requiring 0.25 s of it dropped them (make bench-noise, docs/benchmarks.md).
        public var minimumSpeech: Double = 0.15
        /// This much quiet (s) ends an utterance.
        public var endSilence: Double = 0.7
        /// An utterance is cut here (s), whatever is still going on.
        public var maximumUtterance: Double = 10
        /// Audio kept from before speech started (s), so first syllables are not clipped.
        public var preRoll: Double = 0.3

        public init(endSilence: Double = 0.7, maximumUtterance: Double = 10) {
            self.endSilence = endSilence
            self.maximumUtterance = maximumUtterance
        }
    }

    public static let frameLength = 160 // 10 ms at 16 kHz

    private let settings: Settings
    /// The level of the background (dBFS), followed while nobody speaks.
    public private(set) var background: Double
    /// The levels of the last `Settings.roomWindow` seconds `observe` heard, oldest first.
    private var recentLevels: [Double] = []
    private var framesObserved = 0
    /// How much quiet (s) ended the last utterance: less than `endSilence` when it was cut at
    /// the maximum length. The speech itself ended this long before the utterance was returned.
    public private(set) var lastTrailingQuiet: Double = 0
    private var pending: [Int16] = []
    private var history: [[Int16]] = []
    /// The mean squares of the last frames heard in an utterance, newest last (`loudRoomSmoothing`).
    private var recentPowers: [Double] = []
    private var utterance: [Int16] = []
    private var loudFrames = 0
    private var quietFrames = 0
    private var inSpeech = false

    /// `background` seeds the background level, e.g. with one measured before the endpointer was
    /// needed, so the first words after a wake word are judged against the room's real noise.
    public init(settings: Settings = Settings(), background: Double = -60) {
        self.settings = settings
        self.background = max(background, Self.quietestBackground)
    }

    /// A fresh endpointer for the room `room` has been following while nobody was listened to.
    public init(settings: Settings = Settings(), room: EnergyEndpointer) {
        self.init(settings: settings, background: room.background)
    }

    /// Whether the room is loud (`Settings.loudRoomAbove`).
    public var isLoudRoom: Bool { background > settings.loudRoomAbove }

    /// How far above the background (dB) a frame starts speech now.
    public var speechThreshold: Double { isLoudRoom ? settings.loudRoomSpeechAbove : settings.speechAboveBackground }

    /// How far above the background (dB) a frame keeps speech going.
    var continuingThreshold: Double { isLoudRoom ? settings.loudRoomSpeechContinues : settings.speechAboveBackground }

    /// No microphone is quieter than this (dBFS); digital silence (a synthetic recording, a
    /// muted input) would otherwise make the faintest breath count as speech.
    public static let quietestBackground = -70.0

    /// Follows the background level without looking for utterances: for the time before one is
    /// wanted, so a fresh endpointer can start from the room's level.
    public mutating func observe(_ samples: [Int16]) {
        var start = 0
        while start + Self.frameLength <= samples.count {
            let level = Self.level(Array(samples[start..<(start + Self.frameLength)]))
            followBackground(level)
            if settings.learnsLouderRooms { learnLouderRoom(level) }
            start += Self.frameLength
        }
    }

    /// Takes the quietest tenth of the last seconds for the background when even it stands out
    /// as speech would: the room itself has grown louder (see `Settings.learnsLouderRooms`).
    private mutating func learnLouderRoom(_ level: Double) {
        recentLevels.append(level)
        framesObserved += 1
        let window = frames(settings.roomWindow)
        if recentLevels.count > window { recentLevels.removeFirst(recentLevels.count - window) }
        // Looked at every tenth of a second once the window is full.
        guard recentLevels.count == window, framesObserved % 10 == 0 else { return }
        let quietest = recentLevels.sorted()[window / 10]
        if quietest > background + settings.speechAboveBackground { background = quietest }
    }

    /// `samples` without the end of a sound still fading at their start (a wake word's last
    /// phone), dropping at most `left` samples over successive calls: `left` shrinks by what
    /// was dropped, and falls to 0 once the sound has stopped.
    public func droppingSoundTail(_ samples: [Int16], left: inout Int) -> [Int16] {
        guard left > 0 else { return samples }
        let quiet = endOfSound(in: samples)
        let dropped = min(quiet ?? samples.count, left, samples.count)
        left = quiet == nil ? left - dropped : 0
        return Array(samples.dropFirst(dropped))
    }

    /// Where the sound going on at the start of `samples` stops: the first of `quietFrames`
    /// frames in a row at background level, as a sample index; nil when it does not stop.
    public func endOfSound(in samples: [Int16], quietFrames: Int = 3) -> Int? {
        var quiet = 0
        var start = 0
        while start + Self.frameLength <= samples.count {
            let level = Self.level(Array(samples[start..<(start + Self.frameLength)]))
            quiet = level > background + speechThreshold ? 0 : quiet + 1
            start += Self.frameLength
            if quiet == quietFrames { return start - quietFrames * Self.frameLength }
        }
        return nil
    }

    private mutating func followBackground(_ level: Double) {
        // Faster downwards than upwards, so speech does not drag the background up.
        let rate = level < background ? 0.2 : 0.02
        // Loud frames (speech) are not background at all.
        if level <= background + settings.speechAboveBackground {
            background = max(Self.quietestBackground, background + (level - background) * rate)
        }
    }

    public var isInSpeech: Bool { inSpeech }

    /// Seconds of quiet since the last loud frame of the utterance under way (0 outside one).
    public var quietSoFar: Double { inSpeech ? Double(quietFrames) / 100 : 0 }

    /// The utterance under way, as far as it has been heard.
    public var utteranceSoFar: [Int16] { utterance }

    /// Ends the utterance under way now (someone finished a phrase and needs no more quiet to
    /// be sure) and returns it; nil outside one.
    public mutating func endNow() -> [Int16]? {
        guard inSpeech else { return nil }
        return finishUtterance()
    }

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

    /// The RMS level of `frame` (dBFS), at least -90.
    public static func level(_ frame: some Collection<Int16>) -> Double {
        level(meanSquare: meanSquare(frame))
    }

    static func meanSquare(_ frame: some Collection<Int16>) -> Double {
        frame.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(max(frame.count, 1))
    }

    /// The level (dBFS) of audio whose samples' mean square is `meanSquare`; -90 dBFS at least.
    static func level(meanSquare: Double) -> Double {
        10 * log10(max(meanSquare, 1) / (32768.0 * 32768.0))
    }

    private func frames(_ seconds: Double) -> Int { Int(seconds * 100) }

    private mutating func process(_ frame: [Int16]) -> [Int16]? {
        let power = Self.meanSquare(frame)
        let level = Self.level(meanSquare: power)
        recentPowers.append(power)
        let smoothing = max(1, frames(settings.loudRoomSmoothing))
        if recentPowers.count > smoothing { recentPowers.removeFirst(recentPowers.count - smoothing) }
        let loud: Bool
        if inSpeech && isLoudRoom {
            let smoothed = Self.level(meanSquare: recentPowers.reduce(0, +) / Double(recentPowers.count))
            loud = smoothed > background + continuingThreshold
        } else {
            loud = level > background + (inSpeech ? continuingThreshold : speechThreshold)
        }
        if !inSpeech {
            history.append(frame)
            let preRoll = isLoudRoom ? settings.loudRoomPreRoll : settings.preRoll
            while history.count > frames(preRoll) + frames(settings.minimumSpeech) { history.removeFirst() }
            loudFrames = loud ? loudFrames + 1 : 0
            if !loud { followBackground(level) }
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
        return finishUtterance()
    }

    private mutating func finishUtterance() -> [Int16] {
        inSpeech = false
        loudFrames = 0
        lastTrailingQuiet = Double(quietFrames) / 100
        defer { utterance = [] }
        return utterance
    }
}
