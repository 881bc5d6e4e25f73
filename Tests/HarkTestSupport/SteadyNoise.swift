/// `speech` with a steady noise added (a fan, a running tap), its standard deviation `level` (of
/// 32,768): the sum of four uniform draws from a fixed seed, so every run hears the same room.
public func inSteadyNoise(_ speech: [Int16], level: Double) -> [Int16] {
    var state: UInt64 = 5
    return speech.map { sample -> Int16 in
        var sum = 0.0
        for _ in 0..<4 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            sum += Double(state >> 11) / Double(1 << 53) - 0.5
        }
        return Int16(clamping: Int(sample) + Int(sum * level * 3.0.squareRoot()))
    }
}

/// A steady noise a voice at the test fixtures' level is heard about 16 dB above (by the
/// recogniser's own estimate): a noisy room, in which the wake word is still heard.
public let noisyRoomLevel = 800.0

/// A noise that comes and goes (a cat, clattering dishes): `seconds` seconds, each starting with
/// `share` of a second of steady noise of `level` (as `inSteadyNoise`), then digital quiet.
public func inBursts(seconds: Int, level: Double, share: Double) -> [Int16] {
    let loud = inSteadyNoise([Int16](repeating: 0, count: 16_000), level: level)
    let on = Int(share * 16_000)
    let second = Array(loud[..<on]) + [Int16](repeating: 0, count: 16_000 - on)
    return Array((0..<seconds).map { _ in second }.joined())
}
