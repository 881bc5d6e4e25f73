import HarkAudio
import HarkSpeech
import HarkRuntime

/// A request cut from a recording as the live loop cuts one from its microphone: the room
/// before the wake word is heard while waiting (the loop follows its level), then a fresh
/// endpointer, seeded with that level, finds the utterance in what follows. A benchmark whose
/// recordings carry seconds of a noisy room before each request measures the endpointer and
/// the room's level as a device in that room has them, not a request cut by hand.
enum StreamedRequest {
    /// The utterance the live loop would hear in `samples` (16 kHz), whose first `roomSeconds`
    /// are the room before the wake word; nil when it finds no speech after them.
    /// `dropsWakeTail`: the wake word itself ends at `roomSeconds` (a recorded turn), and its
    /// last sound, up to `LiveLoop.longestWakeTail`, is not the request, as in the loop.
    static func cut(_ samples: [Int16], roomSeconds: Double, dropsWakeTail: Bool = false,
                    settings: EnergyEndpointer.Settings = LiveSettings().endpointer) -> [Int16]? {
        let wakePoint = min(samples.count, max(0, Int(roomSeconds * Double(PipelineAudio.sampleRate))))
        var ambient = EnergyEndpointer(settings: settings)
        for chunk in chunks(samples[..<wakePoint]) { ambient.observe(chunk) }
        var endpointer = EnergyEndpointer(settings: settings, room: ambient)
        var tailLeft = dropsWakeTail ? Int(LiveLoop.longestWakeTail * Double(PipelineAudio.sampleRate)) : 0
        for chunk in chunks(samples[wakePoint...]) {
            if let utterance = endpointer.feed(endpointer.droppingSoundTail(chunk, left: &tailLeft)).first { return utterance }
        }
        // The recording ended while someone was still speaking: the loop would have heard them out.
        return endpointer.endNow()
    }

    /// The live loop's reading pieces (`LiveSettings.chunkSamples`).
    private static func chunks(_ samples: ArraySlice<Int16>) -> [[Int16]] {
        stride(from: samples.startIndex, to: samples.endIndex, by: LiveSettings.chunkSamples).map {
            Array(samples[$0..<min($0 + LiveSettings.chunkSamples, samples.endIndex)])
        }
    }
}
