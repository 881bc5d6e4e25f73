import Foundation

/// The power spectrum of a Hann-windowed piece of audio, by a radix-2 fast Fourier transform: what
/// `TelephoneBand` measures the bands with. One instance keeps its window, twiddles and buffers
/// for pieces of one size.
struct PowerSpectrum {
    let size: Int
    private let window: [Double]
    private let cosines: [Double]
    private let sines: [Double]
    private let reversed: [Int]
    private var real: [Double]
    private var imaginary: [Double]

    /// `size`: a power of two.
    init(size: Int) {
        precondition(size >= 2 && size & (size - 1) == 0, "the transform's size must be a power of two")
        self.size = size
        window = (0..<size).map { 0.5 - 0.5 * cos(2 * Double.pi * Double($0) / Double(size)) }
        cosines = (0..<size / 2).map { cos(-2 * Double.pi * Double($0) / Double(size)) }
        sines = (0..<size / 2).map { sin(-2 * Double.pi * Double($0) / Double(size)) }
        let bits = size.trailingZeroBitCount
        reversed = (0..<size).map { index in
            (0..<bits).reduce(0) { result, bit in result | (((index >> bit) & 1) << (bits - 1 - bit)) }
        }
        real = [Double](repeating: 0, count: size)
        imaginary = [Double](repeating: 0, count: size)
    }

    /// The power of each frequency bin from 0 to half the sample rate (`size / 2 + 1` bins) of
    /// `piece`, which holds `size` samples.
    mutating func power(of piece: ArraySlice<Int16>) -> [Double] {
        precondition(piece.count == size, "a piece of \(piece.count) samples for a transform of \(size)")
        for (offset, sample) in piece.enumerated() {
            real[reversed[offset]] = Double(sample) * window[offset]
            imaginary[reversed[offset]] = 0
        }
        var span = 2
        while span <= size {
            let half = span / 2, stride = size / span
            for start in Swift.stride(from: 0, to: size, by: span) {
                for offset in 0..<half {
                    let twiddle = offset * stride
                    let (c, s) = (cosines[twiddle], sines[twiddle])
                    let a = start + offset, b = a + half
                    let re = real[b] * c - imaginary[b] * s
                    let im = real[b] * s + imaginary[b] * c
                    real[b] = real[a] - re
                    imaginary[b] = imaginary[a] - im
                    real[a] += re
                    imaginary[a] += im
                }
            }
            span *= 2
        }
        return (0...size / 2).map { real[$0] * real[$0] + imaginary[$0] * imaginary[$0] }
    }
}
