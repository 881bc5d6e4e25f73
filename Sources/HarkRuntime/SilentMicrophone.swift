import HarkAudio

/// Whether the microphone gives nothing but digital silence: a capture switched off in the
/// mixer, or a device that is not the microphone, hands Hark exact zeros, and Hark would wait
/// for a wake word it can never hear without saying why. Every real microphone hears at least
/// its own hiss, a few units either side of zero.
public struct SilentMicrophone {
    /// Samples this close to zero are digital silence.
    static let silentSample: Int16 = 1
    /// Said after this long of nothing else (s).
    public static let seconds = 10.0

    enum Change: Equatable {
        /// Nothing but digital silence for `seconds`.
        case fellSilent
        /// Sound again after it fell silent.
        case heardAgain
    }

    private var silentSamples = 0
    private var saidSilent = false

    /// Takes the next audio (16 kHz mono); a change worth saying, once each way.
    mutating func observe(_ samples: [Int16]) -> Change? {
        if samples.allSatisfy({ abs(Int32($0)) <= Int32(Self.silentSample) }) {
            silentSamples += samples.count
            guard !saidSilent, Double(silentSamples) >= Self.seconds * Double(PipelineAudio.sampleRate) else { return nil }
            saidSilent = true
            return .fellSilent
        }
        silentSamples = 0
        guard saidSilent else { return nil }
        saidSilent = false
        return .heardAgain
    }
}
