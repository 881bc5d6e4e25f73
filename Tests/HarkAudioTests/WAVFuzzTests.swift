import Testing
@testable import HarkAudio

/// Any byte array must decode to a clip or fail with an AudioError: never trap.
@Suite struct WAVFuzzTests {
    /// Valid files of several layouts to mutate.
    static func seeds() -> [[UInt8]] {
        var seeds: [[UInt8]] = []
        for encoding in WAVFile.Encoding.allCases {
            for channels in [1, 2, 3] {
                let clip = Signals.sine(frequency: 440, rate: 8000, seconds: 0.005, channels: channels)
                seeds.append([UInt8](WAVFile.encode(clip, as: encoding)))
            }
        }
        var withChunks = WAVBuilder()
        withChunks.add("LIST", [1, 2, 3])
        withChunks.add("fmt ", WAVBuilder.fmt(tag: 1, channels: 1, rate: 8000, bits: 8))
        withChunks.add("data", [1, 2, 3, 4, 5])
        withChunks.add("cue ", [7])
        seeds.append(withChunks.bytes())
        return seeds
    }

    /// Decodes and checks the invariants a returned clip must satisfy.
    func survive(_ bytes: [UInt8]) -> Bool {
        do {
            let clip = try WAVFile.decode(bytes, name: "fuzz.wav")
            return clip.channels > 0 && clip.sampleRate > 0 && clip.frameCount > 0
                && clip.samples.count % clip.channels == 0
        } catch {
            return !error.message.isEmpty
        }
    }

    @Test func randomBytes() {
        var rng = SeededRandom(seed: 1)
        for _ in 0..<2000 {
            let count = Int.random(in: 0..<200, using: &rng)
            var bytes = (0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Half of them get a valid RIFF/WAVE start so the chunk parser is exercised.
            if Bool.random(using: &rng) {
                bytes = Array("RIFF".utf8) + [0, 0, 0, 0] + Array("WAVE".utf8) + bytes
            }
            #expect(survive(bytes))
        }
    }

    @Test func mutatedFiles() {
        var rng = SeededRandom(seed: 2)
        let seeds = Self.seeds()
        var decoded = 0, rejected = 0
        for iteration in 0..<6000 {
            var bytes = seeds[iteration % seeds.count]
            switch Int.random(in: 0..<5, using: &rng) {
            case 0: // bit flips, mostly in the header where they matter
                for _ in 0..<Int.random(in: 1...4, using: &rng) {
                    let index = Int.random(in: 0..<min(bytes.count, 80), using: &rng)
                    bytes[index] ^= UInt8(1) << UInt8.random(in: 0...7, using: &rng)
                }
            case 1: // truncation at any point
                bytes = Array(bytes.prefix(Int.random(in: 0...bytes.count, using: &rng)))
            case 2: // a garbled size field: RIFF, fmt or data
                let offsets = [4, 16, 40, 44, 56, 60].filter { $0 + 4 <= bytes.count }
                if let offset = offsets.randomElement(using: &rng) {
                    let value = [UInt32.max, 0, 1, 0x7FFF_FFFF, UInt32.random(in: 0...UInt32.max, using: &rng)]
                        .randomElement(using: &rng) ?? 0
                    bytes.replaceSubrange(offset..<offset + 4, with: WAVBuilder.le32(value))
                }
            case 3: // fmt fields replaced with extremes (tag, channels, rate, blockAlign, bits)
                let field = [20, 22, 24, 32, 34].randomElement(using: &rng) ?? 22
                let value = [UInt16(0), 1, 3, 7, 0xFFFE, 0xFFFF, UInt16.random(in: 0...0xFFFF, using: &rng)]
                    .randomElement(using: &rng) ?? 0
                if field + 2 <= bytes.count { bytes.replaceSubrange(field..<field + 2, with: WAVBuilder.le16(value)) }
            default: // random bytes inserted or appended
                let junk = (0..<Int.random(in: 1...9, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
                bytes.insert(contentsOf: junk, at: Int.random(in: 12...bytes.count, using: &rng))
            }
            do {
                let clip = try WAVFile.decode(bytes, name: "fuzz.wav")
                #expect(clip.frameCount > 0 && clip.samples.count % clip.channels == 0)
                decoded += 1
            } catch {
                #expect(error.message.hasPrefix("fuzz.wav: "))
                rejected += 1
            }
        }
        // Both outcomes happen, so the mutations reach past the first check.
        #expect(decoded > 500 && rejected > 500)
    }
}
