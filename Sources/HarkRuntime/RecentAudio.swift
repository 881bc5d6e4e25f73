import HarkAudio

/// The last few seconds heard, by position, so the words said right after the wake word (read
/// before the spotter was sure of it) can be handed to the endpointer.
struct RecentAudio {
    private var samples: [Int16] = []
    private var end = 0
    private let capacity: Int

    init(seconds: Double) {
        capacity = Int(seconds * Double(PipelineAudio.sampleRate))
    }

    mutating func append(_ chunk: [Int16], endingAt position: Int) {
        samples += chunk
        if samples.count > capacity { samples.removeFirst(samples.count - capacity) }
        end = position
    }

    /// What was heard from `position` on (as much of it as is still kept).
    func samples(from position: Int) -> [Int16] {
        let start = max(0, samples.count - max(0, end - position))
        return Array(samples[start...])
    }
}
