import HarkAudio

/// The utterance as it was heard, before any audio stage: what a stage may judge the room or the
/// voice by, whatever the stages before it did to the samples.
struct HeardAudio {
    let samples: [Int16]
    /// The voice's and the room's levels (`SignalToNoise`); nil for audio too short to tell.
    let levels: SignalToNoise.Levels?
    /// The room heard before the request (`RoomBeforeRequest.meanPower`), when one was.
    let roomBefore: Double?

    init(_ samples: [Int16], roomBefore: Double? = nil) {
        self.samples = samples
        levels = SignalToNoise.levels(samples)
        self.roomBefore = roomBefore
    }

    /// The signal-to-noise estimate a noisy room's asking first is judged by: the voice against
    /// the louder of its own room and the room heard before it.
    var judgedSignalToNoise: Double? { levels?.against(roomBefore: roomBefore).signalToNoise }
}

/// One step the audio takes on its way to the decoders (the first part of `Recognizer`'s
/// pipeline). Each is fresh for every utterance, so the same audio always decodes the same way.
protocol AudioStage {
    func process(_ samples: [Int16], of heard: HeardAudio) throws(RecognitionError) -> [Int16]
}

/// Lone clicks and knocks turned down (`TransientSuppressor`): the grammar search otherwise hears
/// them as a word's first phone.
struct TransientSuppression: AudioStage {
    func process(_ samples: [Int16], of heard: HeardAudio) -> [Int16] {
        TransientSuppressor().suppress(samples).samples
    }
}

/// WebRTC's noise suppression (`NoiseSuppressor`, a fresh one each utterance) for a request heard
/// in a loud room: one whose own signal-to-noise estimate is below `belowSignalToNoise` (on by
/// default), or whose room (`RoomLevel`) is louder than `aboveRoomLevel` dBFS
/// (`--request-denoise-above`, off by default: see `Recognizer.denoisingRoomLevel`).
public struct RequestDenoising: AudioStage {
    var belowSignalToNoise: Double?
    var aboveRoomLevel: Double?

    /// 14 dB: chosen with `NoisyConfirmation.standardDenoisedReach` on the tune half of `make
    /// bench-real` among 6 to 20 dB, as the most requests done or asked about right, a wrong action
    /// counted as six (figures: docs/benchmarks.md, "Noise suppression for a noisy request").
    public static let standardBelow = 14.0

    /// Whether `heard` goes through the suppression.
    func applies(to heard: HeardAudio) -> Bool {
        if let below = belowSignalToNoise, let estimate = heard.levels?.signalToNoise, estimate < below { return true }
        if let above = aboveRoomLevel, let room = RoomLevel.of(heard.samples), room > above { return true }
        return false
    }

    func process(_ samples: [Int16], of heard: HeardAudio) throws(RecognitionError) -> [Int16] {
        guard applies(to: heard) else { return samples }
        do {
            return try NoiseSuppressor.suppressing(samples)
        } catch {
            throw RecognitionError(.decoding, "the noise suppression failed: \(error)")
        }
    }
}

/// A faint hiss added (`NoiseFloor`), kept `headroom` dB below the voice as heard, so a
/// near-silent room does not throw the recogniser off.
struct NoiseFloorStage: AudioStage {
    let level: Double
    let headroom: Double?

    func process(_ samples: [Int16], of heard: HeardAudio) -> [Int16] {
        var hiss = NoiseFloor(level: NoiseFloor.level(level, beneathVoiceAt: heard.levels?.voiceLevel, headroom: headroom))
        return hiss.adding(to: samples[...])
    }
}

enum AudioStages {
    /// The stages `configuration` asks for, in the order the audio goes through them.
    static func configured(by configuration: RecognizerConfiguration) -> [any AudioStage] {
        var stages: [any AudioStage] = []
        if configuration.suppressesTransients { stages.append(TransientSuppression()) }
        if let denoising = configuration.requestDenoising { stages.append(denoising) }
        if let level = configuration.noiseFloor {
            stages.append(NoiseFloorStage(level: level, headroom: configuration.noiseFloorHeadroom))
        }
        return stages
    }

    /// `heard` through every one of `stages`, in order.
    static func run(_ stages: [any AudioStage], on heard: HeardAudio) throws(RecognitionError) -> [Int16] {
        var samples = heard.samples
        for stage in stages { samples = try stage.process(samples, of: heard) }
        return samples
    }
}
