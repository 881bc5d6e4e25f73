internal import Foundation

/// SPLICE's mixture (`NoiseCompensation`, the file `hark-noise-compensation 1`): a mixture of
/// Gaussians over noisy frames' cepstra and deltas, each component with its mean correction.
struct SpliceMixture: Sendable {
    /// Cepstral coefficients a frame.
    let coefficients: Int
    /// Components of the mixture.
    let components: Int
    /// Each component's log weight less half its variances' log determinant.
    private let logScales: [Double]
    /// components × 2·coefficients.
    private let means: [Double]
    private let inverseVariances: [Double]
    /// components × coefficients: clean less noisy.
    private let corrections: [Double]

    /// The mixture in `lines`, the file's lines after its first; `problem` words what is wrong.
    init(lines: ArraySlice<Substring>, problem: (String) -> RecognitionError) throws(RecognitionError) {
        var lines = lines
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
