internal import Foundation
internal import HarkAudio

extension Recognizer {
    /// The compensation `configuration` names, read and checked against the cepstra `decoder`'s
    /// front end makes.
    static func loadNoiseCompensation(_ configuration: RecognizerConfiguration,
                                      for decoder: Decoder) throws(RecognitionError) -> NoiseCompensation? {
        guard let file = configuration.noiseCompensation else { return nil }
        let strength = configuration.compensationStrength
        guard strength > 0, strength <= 1 else {
            throw RecognitionError(.modelLoad, "the noise compensation's strength \(strength) is not above 0 and at most 1")
        }
        let compensation = try NoiseCompensation(contentsOf: file)
        let width = try FrontEnd(like: decoder).width
        guard compensation.coefficients == width else {
            throw RecognitionError(.modelLoad, "\(file.path) compensates \(compensation.coefficients) cepstral coefficients a frame; the model's front end makes \(width)")
        }
        return compensation
    }

    /// `cepstra` compensated for the room's noise when it was heard as it came in a room noisier
    /// than `compensatesBelow`, through a full-band microphone (`heardSamples`, the audio as it
    /// came, tell which). Audio through the noise suppression is left as it is: its leftover noise
    /// is not the household noise the compensation learnt, and compensating it too heard fewer
    /// requests right at 5 dB (docs/benchmarks.md). So is telephone-band audio (`TelephoneBand`):
    /// the compensation learnt full-band speech, and took telephone-band digits wrong that were
    /// heard right without it.
    func compensated(_ cepstra: Cepstra, suppressed: Bool, signalToNoise: Double?, heardSamples: [Int16]) -> Cepstra {
        guard let noiseCompensation, !suppressed, let signalToNoise, signalToNoise < configuration.compensatesBelow,
              !TelephoneBand.isTelephoneBand(heardSamples) else { return cepstra }
        return noiseCompensation.compensated(cepstra, strength: configuration.compensationStrength)
    }
}
