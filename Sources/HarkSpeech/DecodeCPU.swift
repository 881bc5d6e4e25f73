import Foundation

/// The CPU one utterance's recognition took, stage by stage: seconds of the thread that ran each
/// (the phone loop runs on a thread of its own). `hark bench` adds them up to show where its
/// real-time factor goes.
public struct DecodeCPU: Sendable, Codable, Equatable {
    /// The audio stages (clicks turned down, noise suppression, the noise floor) and the room's
    /// front end, which turns the audio into cepstra once for every search.
    public var audio = 0.0
    /// The grammar search, and its second search with almost no silence when that ran.
    public var grammar = 0.0
    /// The confidence pass's free loop of phones.
    public var phoneLoop = 0.0
    /// The grammar searched again beside the other words, when that could change the verdict.
    public var otherWords = 0.0
    /// The words that decide the action searched beside their rivals (`RivalContest`).
    public var rivals = 0.0

    public init() {}

    /// Every stage, named as people read it: the one list the sum, the total and the report use.
    static let parts: [(name: String, seconds: any WritableKeyPath<DecodeCPU, Double> & Sendable)] = [
        ("phone loop", \.phoneLoop), ("grammar", \.grammar), ("rival words", \.rivals), ("other words", \.otherWords),
        ("audio and front end", \.audio),
    ]

    public var total: Double { Self.parts.reduce(0) { $0 + self[keyPath: $1.seconds] } }

    /// Each stage's seconds added to `other`'s.
    public static func + (one: DecodeCPU, other: DecodeCPU) -> DecodeCPU {
        var sum = one
        for part in parts { sum[keyPath: part.seconds] += other[keyPath: part.seconds] }
        return sum
    }

    /// The stages by name, dearest first.
    public var stages: [(name: String, seconds: Double)] {
        Self.parts.map { ($0.name, self[keyPath: $0.seconds]) }.sorted { $0.seconds > $1.seconds }
    }

    enum CodingKeys: String, CodingKey {
        case audio = "audio_s", grammar = "grammar_s", phoneLoop = "phone_loop_s", otherWords = "other_words_s", rivals = "rivals_s"
    }
}

/// The CPU time of the calling thread alone, so that a stage is charged for its own work whatever
/// the other threads of the process do meanwhile.
enum ThreadClock {
    /// Seconds of CPU this thread has used. Linux always keeps this clock; were it ever refused,
    /// a stage would be charged nothing rather than a recognition fail over a report's figure.
    static func cpuSeconds() -> Double {
        var time = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time) == 0 else { return 0 }
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// `work`'s result and the CPU seconds this thread spent on it.
    static func measure<T>(_ work: () throws(RecognitionError) -> T) throws(RecognitionError) -> (T, Double) {
        let started = cpuSeconds()
        let result = try work()
        return (result, cpuSeconds() - started)
    }
}
