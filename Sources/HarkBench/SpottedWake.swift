import HarkAudio
import HarkSpeech
import HarkRuntime

/// The wake word of a recorded turn (a wake phrase, then the request), found as the live loop
/// finds it: the spotter hears the room before it and the phrase, and the request is cut from
/// where the spotter ended the phrase, not from where the recording says it ended.
enum SpottedWake {
    enum Verdict: String, Codable, Sendable {
        /// Heard at the sensitivity's threshold: the loop acknowledges it and listens.
        case woke
        /// Below the threshold, at or above the tentative odds (`LiveSettings.tentativeWakeOdds`):
        /// the loop listens without a sound and answers only a request that bears it out.
        case tentative
        /// Not heard: the request is never listened for.
        case missed
    }

    /// The spotter's verdict on the phrase said from `startsAt` to `endsAt` s into `stream`, and
    /// where (in samples of `stream`) it ended the phrase when it heard it. The spotter hears the
    /// recording afresh from its start (the room before the phrase) to `listenedAfter` s past
    /// the phrase's end, in the loop's reading pieces; a detection that ends before the phrase
    /// starts (something else in the room) is what the loop would have answered instead, so it
    /// counts as a miss of this one.
    static func find(in stream: [Int16], startsAt: Double, endsAt: Double,
                     spotter: WakeWordSpotter) throws -> (verdict: Verdict, endSample: Int?, confidence: Double?) {
        try spotter.startAfresh()
        let origin = spotter.samplesProcessed
        let rate = Double(PipelineAudio.sampleRate)
        let last = min(stream.count, Int((endsAt + listenedAfter) * rate))
        var position = 0
        while position < last {
            let piece = Array(stream[position..<min(position + LiveSettings.chunkSamples, last)])
            position += piece.count
            guard let detection = try spotter.process(piece).first else { continue }
            let end = detection.endSample - origin
            guard Double(end) / rate > startsAt else { return (.missed, nil, nil) }
            return (detection.isTentative ? .tentative : .woke, end, detection.confidence)
        }
        return (.missed, nil, nil)
    }

    /// How long after the phrase's end the spotter may still report it (s): it waits
    /// `WakeWordSpotter.delayFrames` for a better end, and the search's end is rough.
    static let listenedAfter = 1.0
}
