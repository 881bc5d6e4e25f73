import HarkAudio
import HarkRuntime
import HarkSpeech
import HarkWyoming

/// A client's wake-word listening: after `detect`, the audio it streams goes to a wake-word
/// spotter instead of the recogniser, and each phrase found is told as a `detection`; a stream
/// that ends with none found gets `not-detected`.
///
/// The spotter (a keyword search with its own copy of the acoustic model, about 5 MB, and the
/// verifier every client's spotter shares) is made at the client's first `detect` and kept for
/// the connection's later ones: Home Assistant sends `detect` before each stretch of listening,
/// on the same connection. It loads and decodes on a thread of its own, never on the threads that
/// serve the other clients.
actor WyomingWakeListener {
    private let executor = DedicatedExecutor(label: "hark.wyoming.wake")
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let configuration: WakeWordConfiguration
    /// The phrases served, as `info` names them.
    private var phrases: [String] { configuration.phrases }
    /// Made at the first `start`.
    private var spotter: WakeWordSpotter?
    /// The phrases this stretch listens for.
    private var wanted: Set<String>
    private var format: WyomingAudioFormat?
    private var converter: PipelineStream?
    /// Pipeline samples heard since the stream's start, and the client's timestamp (ms) of that start.
    private var samplesAtStart = 0
    private var startTimestamp = 0
    private var found = false

    /// Where the spotter comes from: one verifier for every client's.
    private let spotters: WakeSpotters

    init(_ configuration: WakeWordConfiguration, spotters: WakeSpotters) {
        self.spotters = spotters
        var configuration = configuration
        // A client acts on every detection it is sent: only sure ones are.
        configuration.tentativeOdds = nil
        self.configuration = configuration
        wanted = Set(configuration.phrases)
    }

    /// A new stretch of listening for `names` (nil or empty: every phrase served).
    func start(names: [String]?) throws(WyomingError) {
        if spotter == nil {
            do {
                spotter = try spotters.spotter(configuration)
            } catch {
                throw WyomingError(.failed, "the wake-word spotter could not start: \(error)")
            }
        }
        let asked = (names ?? []).filter { !$0.isEmpty }
        if !asked.isEmpty {
            let served = asked.filter(phrases.contains)
            guard !served.isEmpty else {
                throw WyomingError(.badData, "detect: Hark listens for \(phrases.map { "\"\($0)\"" }.joined(separator: ", ")), not \(asked.map { "\"\($0)\"" }.joined(separator: ", "))")
            }
            wanted = Set(served)
        } else {
            wanted = Set(phrases)
        }
        format = nil
        converter = nil
        found = false
    }

    /// `audio-start`: the stream's format and where its clock starts.
    func begin(_ format: WyomingAudioFormat, timestamp: Int?) throws(WyomingError) {
        try use(format)
        samplesAtStart = spotter?.samplesProcessed ?? 0
        startTimestamp = timestamp ?? 0
    }

    /// One `audio-chunk`: the phrases it completed, as `detection` events (a stream that sent
    /// no `audio-start` starts with its first chunk).
    func hear(_ format: WyomingAudioFormat, payload: [UInt8]) throws(WyomingError) -> [WyomingEvent] {
        if self.format == nil { try begin(format, timestamp: nil) }
        guard format == self.format, let converter, let spotter else {
            throw WyomingError(.badAudio, "an audio chunk in \(format) came in a stream that started as \(self.format.map(\.description) ?? "?")")
        }
        let detections: [WakeWordDetection]
        do {
            detections = try spotter.process(try converter.convert(try format.monoSamples(from: payload)))
        } catch let error as WyomingError {
            throw error
        } catch {
            throw WyomingError(.failed, "the wake-word spotter failed: \(error)")
        }
        return detections.filter { wanted.contains($0.phrase) }.map { detection in
            found = true
            let milliseconds = (detection.endSample - samplesAtStart) * 1000 / PipelineAudio.sampleRate
            return WyomingEvent(WyomingEventType.detection, data: [
                "name": .string(detection.phrase),
                "timestamp": .integer(startTimestamp + max(0, milliseconds)),
                "speaker": .null,
            ])
        }
    }

    /// `audio-stop`: `not-detected` when the stream held no phrase listened for.
    func finish() -> [WyomingEvent] {
        defer { format = nil; converter = nil }
        return found ? [] : [WyomingEvent(WyomingEventType.notDetected)]
    }

    private func use(_ format: WyomingAudioFormat) throws(WyomingError) {
        do {
            converter = try PipelineStream(inputRate: format.rate)
        } catch {
            throw WyomingError(.badAudio, "audio at \(format.rate) Hz cannot be resampled: \(error)")
        }
        self.format = format
    }
}
