import Foundation

/// Turns down clicks and bursts that stand alone in the quiet around speech — a microphone
/// opening, a button, a chime's tail, a streamed client's first chunk — before the recogniser
/// hears them.
///
/// A burst of a few tens of milliseconds, far above the room's level, shifts pocketsphinx's
/// noise and level estimates for the whole utterance: on the real-voice corpus (make
/// bench-real), a click 50 ms into otherwise clean recordings cost 10 of 49 home-en commands
/// and 22 of 180 spoken digits, for plain pocketsphinx as for Hark. Speech has bursts too (the
/// release of a "t" or a "k"), but never alone: a stop's burst follows a vowel or leads into
/// one within a few tens of milliseconds. So only a burst with room-level quiet on both sides
/// (`quietBefore`, `quietAfter`; the recording's start counts as quiet) is touched, and it is
/// brought down to the room's level rather than cut out, so timing is unchanged.
public struct TransientSuppressor: Sendable {
    /// 5 ms at 16 kHz: the grain bursts are found at.
    public var blockSamples = 80
    /// A block this far above the room's level (dB) is loud.
    public var loudAbove = 15.0
    /// A burst must reach this far above the room's level somewhere to count as one.
    public var peakAbove = 25.0
    /// A block no more than this above the room's level is quiet.
    public var quietBelow = 10.0
    /// The longest burst touched, fading tail included, in blocks (80 ms).
    public var longestBurst = 16
    /// Quiet needed before and after a burst, in blocks (100 ms and 60 ms).
    public var quietBefore = 20
    public var quietAfter = 12

    public init() {}

    /// What was found and done, for logs and tests.
    public struct Burst: Sendable, Equatable {
        /// Sample range turned down.
        public var samples: Range<Int>
        /// Its loudest block over the room's level, in dB.
        public var peakOverRoom: Double
    }

    /// `samples` with every lone burst turned down to the room's level, and the bursts found.
    public func suppress(_ samples: [Int16]) -> (samples: [Int16], bursts: [Burst]) {
        let levels = blockLevels(samples)
        guard levels.count > quietAfter + 1 else { return (samples, []) }
        let room = Self.roomLevel(levels)
        var output = samples
        var bursts: [Burst] = []
        var block = 0
        while block < levels.count {
            guard levels[block] > room + loudAbove else { block += 1; continue }
            // The burst and its fading tail: every block above quiet, allowing one quiet block inside.
            var end = block
            while end + 1 < levels.count,
                  levels[end + 1] > room + quietBelow || (end + 2 < levels.count && levels[end + 2] > room + quietBelow) {
                end += 1
            }
            let length = end - block + 1
            let peak = levels[block...end].max() ?? room
            let before = levels[max(0, block - quietBefore)..<block]
            let afterEnd = end + 1 + quietAfter
            let isLone = length <= longestBurst && peak > room + peakAbove
                && before.allSatisfy { $0 <= room + quietBelow }
                && afterEnd <= levels.count
                && levels[(end + 1)..<afterEnd].allSatisfy { $0 <= room + quietBelow }
            if isLone {
                let range = (block * blockSamples)..<min((end + 1) * blockSamples, samples.count)
                for index in block...end {
                    // Each block down to the room's level; quieter blocks are left as they are.
                    let gain = pow(10, (room - levels[index]) / 20)
                    guard gain < 1 else { continue }
                    for sample in (index * blockSamples)..<min((index + 1) * blockSamples, samples.count) {
                        output[sample] = Int16((Double(samples[sample]) * gain).rounded())
                    }
                }
                bursts.append(Burst(samples: range, peakOverRoom: peak - room))
            }
            block = end + 1
        }
        return (output, bursts)
    }

    /// Each block's level in dB (of mean square, in 16-bit units).
    func blockLevels(_ samples: [Int16]) -> [Double] {
        stride(from: 0, to: samples.count, by: blockSamples).map { start in
            let end = min(start + blockSamples, samples.count)
            var energy = 0.0
            for index in start..<end { energy += Double(samples[index]) * Double(samples[index]) }
            return 10 * log10(energy / Double(end - start) + 1)
        }
    }

    /// The room's level: the 20th percentile of the blocks' levels (speech and bursts are louder).
    static func roomLevel(_ levels: [Double]) -> Double {
        let sorted = levels.sorted()
        return sorted[min(sorted.count - 1, sorted.count / 5)]
    }
}
