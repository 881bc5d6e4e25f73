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

    /// Cepstral coefficients a frame.
    public let coefficients: Int
    /// Components of the mixture.
    public let components: Int
    /// Each component's log weight less half its variances' log determinant.
    private let logScales: [Double]
    /// components × 2·coefficients.
    private let means: [Double]
    private let inverseVariances: [Double]
    /// components × coefficients: clean less noisy.
    private let corrections: [Double]
    /// The network a `NoiseCompensationNetwork` file holds, used instead of the mixture.
    private let network: NoiseCompensationNetwork?

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
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        if lines.first?.trimmingCharacters(in: .whitespaces) == NoiseCompensationNetwork.fileHeader {
            let network = try NoiseCompensationNetwork(text: text, name: name)
            self.network = network
            coefficients = network.coefficients
            (components, logScales, means, inverseVariances, corrections) = (0, [], [], [], [])
            return
        }
        network = nil
        guard lines.first?.trimmingCharacters(in: .whitespaces) == Self.fileHeader else {
            throw problem("its first line is neither \"\(Self.fileHeader)\" nor \"\(NoiseCompensationNetwork.fileHeader)\"")
        }
        lines = lines.dropFirst()
        let shape = lines.first?.split(separator: " ") ?? []
        guard shape.count == 4, shape[0] == "components", shape[2] == "coefficients",
              let components = Int(shape[1]), let coefficients = Int(shape[3]),
              (1...4096).contains(components), (1...64).contains(coefficients) else {
            throw problem("its second line is not \"components K coefficients N\" (K up to 4096, N up to 64)")
        }
        lines = lines.dropFirst()
        guard lines.count == components else { throw problem("\(lines.count) components, the file says \(components)") }
        let features = 2 * coefficients
        var logScales: [Double] = [], means: [Double] = [], inverseVariances: [Double] = [], corrections: [Double] = []
        for (index, line) in lines.enumerated() {
            var numbers: [Double] = []
            for field in line.split(whereSeparator: \.isWhitespace) {
                guard let number = Double(field), number.isFinite else {
                    throw problem("component \(index + 1): \"\(field.prefix(20))\" is not a number")
                }
                numbers.append(number)
            }
            guard numbers.count == 1 + 2 * features + coefficients else {
                throw problem("component \(index + 1) has \(numbers.count) numbers, expected \(1 + 2 * features + coefficients)")
            }
            let weight = numbers[0]
            let variances = numbers[(1 + features)..<(1 + 2 * features)]
            guard weight > 0, variances.allSatisfy({ $0 > 0 }) else {
                throw problem("component \(index + 1) has a weight or a variance that is not above 0")
            }
            logScales.append(log(weight) - 0.5 * variances.reduce(0) { $0 + log($1) })
            means += numbers[1..<(1 + features)]
            inverseVariances += variances.map { 1 / $0 }
            corrections += numbers[(1 + 2 * features)...]
        }
        self.coefficients = coefficients
        self.components = components
        self.logScales = logScales
        self.means = means
        self.inverseVariances = inverseVariances
        self.corrections = corrections
    }

    /// `cepstra` with each frame moved by `strength` (0 to 1) of its expected correction.
    /// The deltas the mixture weighs are (c[t+2] − c[t−2]) / 2, held at the utterance's edges.
    func compensated(_ cepstra: Cepstra, strength: Double) -> Cepstra {
        if let network { return network.compensated(cepstra, strength: strength) }
        let width = coefficients, features = 2 * coefficients
        let frames = cepstra.frames
        guard cepstra.width == width, frames > 0, strength > 0 else { return cepstra }
        let values = cepstra.values
        var result = values
        var feature = [Double](repeating: 0, count: features)
        var likelihood = [Double](repeating: 0, count: components)
        for frame in 0..<frames {
            let before = max(frame - 2, 0), after = min(frame + 2, frames - 1)
            for j in 0..<width {
                feature[j] = Double(values[frame * width + j])
                feature[width + j] = (Double(values[after * width + j]) - Double(values[before * width + j])) / 2
            }
            var best = -Double.infinity
            for k in 0..<components {
                var score = logScales[k]
                let base = k * features
                for j in 0..<features {
                    let difference = feature[j] - means[base + j]
                    score -= 0.5 * difference * difference * inverseVariances[base + j]
                }
                likelihood[k] = score
                best = max(best, score)
            }
            var total = 0.0
            for k in 0..<components {
                likelihood[k] = exp(likelihood[k] - best)
                total += likelihood[k]
            }
            let scale = strength / total
            for j in 0..<width {
                var correction = 0.0
                for k in 0..<components { correction += likelihood[k] * corrections[k * width + j] }
                result[frame * width + j] = Float(feature[j] + scale * correction)
            }
        }
        return Cepstra(values: result, width: width)
    }
}
