public import Foundation

/// Moves a noisy room's cepstra toward what the same speech gives in a quiet room, before the
/// decoders search them: SPLICE (stereo-based piecewise linear compensation for environments).
///
/// Why: Debian's model describes speech recorded in quiet rooms, and household noise moves every
/// frame's cepstra away from it, most where the speech is faint. A mixture of Gaussians over
/// noisy frames (their cepstra and deltas) splits them into kinds of sound in kinds of noise; for
/// each kind the file holds the mean difference between the clean and the noisy cepstra of the
/// same recordings (`bench/estimate-noise-compensation.py`, from make adapt's recordings mixed with
/// household noise). A frame is moved by its kinds' corrections, weighed by how likely each kind
/// is, times `strength`. It is frame by frame, so it follows a noise that comes and goes, where a
/// noise spectrum estimated in the pauses did not (docs/benchmarks.md).
///
/// The file is text: the line `hark-noise-compensation 1`, the line `components K coefficients N`,
/// then one line for each component: its weight, its 2N means (the N cepstra, then their N deltas),
/// its 2N variances, and its N corrections. A file that starts `hark-noise-compensation-network 1`
/// holds a network that predicts each frame's correction from the frames around it instead
/// (`NoiseCompensationNetwork`); it is used the same way.
public struct NoiseCompensation: Sendable {
    public static let fileHeader = "hark-noise-compensation 1"

    /// What a file holds: SPLICE's mixture or a network.
    private enum Method: Sendable {
        case mixture(SpliceMixture)
        case network(NoiseCompensationNetwork)
    }
    private let method: Method

    /// Cepstral coefficients a frame.
    public var coefficients: Int {
        switch method {
        case .mixture(let mixture): mixture.coefficients
        case .network(let network): network.coefficients
        }
    }
    /// Components of the mixture; nil for a network.
    public var components: Int? {
        if case .mixture(let mixture) = method { mixture.components } else { nil }
    }

    /// Reads a compensation file; throws with its name and what is wrong unless it is one.
    public init(contentsOf url: URL) throws(RecognitionError) {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.modelLoad, "cannot read the noise compensation \(url.path): \(error.localizedDescription)")
        }
        try self.init(text: text, name: url.path)
    }

    init(text: String, name: String) throws(RecognitionError) {
        func problem(_ what: String) -> RecognitionError {
            RecognitionError(.modelLoad, "\(name) is not a noise compensation (\(Self.fileHeader)): \(what)")
        }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        switch lines.first?.trimmingCharacters(in: .whitespaces) {
        case NoiseCompensationNetwork.fileHeader:
            method = .network(try NoiseCompensationNetwork(text: text, name: name))
        case Self.fileHeader:
            method = .mixture(try SpliceMixture(lines: lines.dropFirst(), problem: problem))
        default:
            throw problem("its first line is neither \"\(Self.fileHeader)\" nor \"\(NoiseCompensationNetwork.fileHeader)\"")
        }
    }

    /// `cepstra` with each frame moved by `strength` (0 to 1) of its expected correction.
    func compensated(_ cepstra: Cepstra, strength: Double) -> Cepstra {
        switch method {
        case .mixture(let mixture): mixture.compensated(cepstra, strength: strength)
        case .network(let network): network.compensated(cepstra, strength: strength)
        }
    }
}
