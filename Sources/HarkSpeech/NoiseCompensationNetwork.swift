internal import Foundation

/// Moves a noisy room's cepstra toward what the same speech gives in a quiet room with a small
/// network: each frame's correction (clean less noisy cepstra) is predicted from the noisy frames
/// around it, `context` on each side.
///
/// Why beside SPLICE (`NoiseCompensation`): SPLICE moves a frame by the mean correction of the
/// kind of frame it is, one frame at a time; household noise comes and goes within a syllable,
/// and the frames around a frame tell how much of it is the noise's. Learnt by
/// `bench/estimate-noise-network.py` from SPLICE's stereo recordings and more voices.
///
/// The file is text: the line `hark-noise-compensation-network 1`, the line
/// `context C coefficients N layers L`, the inputs' (2C+1)·N means and scales and the N output
/// scales (a line each), then for each layer the line `layer IN OUT relu|linear`, a line of its OUT
/// biases and IN lines of OUT weights. The last layer is linear with N outputs.
struct NoiseCompensationNetwork: Sendable {
    static let fileHeader = "hark-noise-compensation-network 1"

    struct Layer: Sendable {
        let inputs: Int, outputs: Int
        let rectified: Bool
        let biases: [Float]
        /// inputs × outputs, row by row.
        let weights: [Float]
    }

    let context: Int
    let coefficients: Int
    let inputMeans: [Float], inputScales: [Float]
    let outputScales: [Float]
    let layers: [Layer]

    init(text: String, name: String) throws(RecognitionError) {
        func problem(_ what: String) -> RecognitionError {
            RecognitionError(.modelLoad, "\(name) is not a noise compensation network (\(Self.fileHeader)): \(what)")
        }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.popFirst()?.trimmingCharacters(in: .whitespaces) == Self.fileHeader else {
            throw problem("its first line is not \"\(Self.fileHeader)\"")
        }
        let shape = (lines.popFirst() ?? "").split(separator: " ")
        guard shape.count == 6, shape[0] == "context", shape[2] == "coefficients", shape[4] == "layers",
              let context = Int(shape[1]), let coefficients = Int(shape[3]), let layerCount = Int(shape[5]),
              (0...50).contains(context), (1...64).contains(coefficients), (1...8).contains(layerCount) else {
            throw problem("its second line is not \"context C coefficients N layers L\" (C up to 50, N up to 64, L up to 8)")
        }
        func numbers(_ what: String, count: Int) throws(RecognitionError) -> [Float] {
            guard let line = lines.popFirst() else { throw problem("it ends before \(what)") }
            var values: [Float] = []
            values.reserveCapacity(count)
            for field in line.split(separator: " ") {
                guard let value = Float(field), value.isFinite else { throw problem("\(what): \"\(field.prefix(20))\" is not a number") }
                values.append(value)
            }
            guard values.count == count else { throw problem("\(what) has \(values.count) numbers, expected \(count)") }
            return values
        }
        let width = (2 * context + 1) * coefficients
        inputMeans = try numbers("the input means", count: width)
        inputScales = try numbers("the input scales", count: width)
        outputScales = try numbers("the output scales", count: coefficients)
        guard inputScales.allSatisfy({ $0 > 0 }) else { throw problem("an input scale is not above 0") }
        var layers: [Layer] = []
        var inputs = width
        for number in 1...layerCount {
            let header = (lines.popFirst() ?? "").split(separator: " ")
            guard header.count == 4, header[0] == "layer", Int(header[1]) == inputs, let outputs = Int(header[2]),
                  (1...4096).contains(outputs), header[3] == "relu" || header[3] == "linear" else {
                throw problem("layer \(number) does not start with \"layer \(inputs) OUT relu|linear\"")
            }
            let biases = try numbers("layer \(number)'s biases", count: outputs)
            var weights: [Float] = []
            weights.reserveCapacity(inputs * outputs)
            for row in 0..<inputs { weights += try numbers("layer \(number)'s weights row \(row + 1)", count: outputs) }
            layers.append(Layer(inputs: inputs, outputs: outputs, rectified: header[3] == "relu", biases: biases, weights: weights))
            inputs = outputs
        }
        guard inputs == coefficients, layers.last?.rectified == false else {
            throw problem("its last layer is not linear with \(coefficients) outputs")
        }
        guard lines.isEmpty else { throw problem("\(lines.count) lines after its last layer") }
        self.context = context
        self.coefficients = coefficients
        self.layers = layers
    }

    /// `cepstra` with each frame moved by `strength` (0 to 1) of its predicted correction. The
    /// frames around the utterance's first and last are taken as those frames again.
    func compensated(_ cepstra: Cepstra, strength: Double) -> Cepstra {
        let width = coefficients, frames = cepstra.frames
        guard cepstra.width == width, frames > 0, strength > 0 else { return cepstra }
        let values = cepstra.values
        var result = values
        let inputWidth = (2 * context + 1) * width
        var input = [Float](repeating: 0, count: inputWidth)
        var activations: [[Float]] = layers.map { [Float](repeating: 0, count: $0.outputs) }
        let scale = Float(strength)
        for frame in 0..<frames {
            for offset in -context...context {
                let source = min(max(frame + offset, 0), frames - 1) * width
                let target = (offset + context) * width
                for j in 0..<width {
                    input[target + j] = (values[source + j] - inputMeans[target + j]) / inputScales[target + j]
                }
            }
            for (index, layer) in layers.enumerated() {
                let previous = index == 0 ? input : activations[index - 1]
                Self.apply(layer, to: previous, into: &activations[index])
            }
            let correction = activations[layers.count - 1]
            for j in 0..<width {
                result[frame * width + j] = values[frame * width + j] + scale * correction[j] * outputScales[j]
            }
        }
        return Cepstra(values: result, width: width)
    }

    /// out = layer's biases + inputᵀ · weights, rectified if the layer is.
    private static func apply(_ layer: Layer, to input: [Float], into output: inout [Float]) {
        let outputs = layer.outputs
        layer.weights.withUnsafeBufferPointer { weights in
            output.withUnsafeMutableBufferPointer { out in
                for k in 0..<outputs { out[k] = layer.biases[k] }
                for i in 0..<layer.inputs {
                    let x = input[i]
                    if x == 0 { continue }
                    let row = i * outputs
                    for k in 0..<outputs { out[k] += x * weights[row + k] }
                }
                if layer.rectified { for k in 0..<outputs { out[k] = max(0, out[k]) } }
            }
        }
    }
}
