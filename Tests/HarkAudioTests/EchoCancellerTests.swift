import Foundation
@testable import HarkAudio
import HarkTestSupport
import Testing

/// speexdsp's canceller in a `SimulatedRoom`: a real recording played through a loudspeaker
/// 37 ms and a reverberant room away from the microphone.
@Suite struct EchoCancellerTests {
    static func speech() throws -> [Int16] {
        let one = try WAVFile.read(contentsOf: Fixtures.audio("home-en/turn_on_the_garage_light.wav")).pipelineSamples()
        let two = try WAVFile.read(contentsOf: Fixtures.audio("home-en/how_cold_is_it.wav")).pipelineSamples()
        return one + two + one
    }

    static func energy(_ samples: ArraySlice<Int16>) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
    }

    @Test func theDelayIsFoundInTheAudio() throws {
        let played = try Self.speech()
        let captured = SimulatedRoom(delay: 592, gain: 0.5).heard(played)
        let found = try #require(EchoDelay.estimate(captured: captured, played: played))
        // Kept 20 ms short of the 37 ms, to a frame.
        #expect((592 - 320 - 160...592 - 320 + 160).contains(found.samples), "\(found)")
        #expect(found.correlation > 0.8)
        #expect(EchoDelay.estimate(captured: captured, played: [Int16](repeating: 0, count: played.count)) == nil)
    }

    @Test func theLoudspeakersSoundIsTakenOut() throws {
        let played = try Self.speech()
        let captured = SimulatedRoom(delay: 592, gain: 0.5).heard(played)
        // Aligned as the loop aligns it: the played audio shifted by the delay found.
        let delay = try #require(EchoDelay.estimate(captured: captured, played: played)).samples
        let aligned = [Int16](repeating: 0, count: delay) + played.dropLast(delay)
        let canceller = try EchoCanceller()
        let cleaned = canceller.cancel(captured: captured, played: aligned)
        // Echo return loss enhancement once the filter has learnt the room (after 2 s).
        let settled = 32_000..<captured.count
        let enhancement = 10 * log10(Self.energy(captured[settled]) / max(Self.energy(cleaned[settled]), 1))
        #expect(enhancement > 15, "ERLE \(enhancement) dB")
    }

    @Test func aPersonSpeakingOverTheLoudspeakerIsKept() throws {
        let played = try Self.speech()
        // Someone else saying "Jarvis" (audio-fixtures/wake: real people), as a person interrupting would.
        let wakes = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav")).pipelineSamples()
        let person = Array(wakes[16_000..<Int(4.07 * 16_000)])
        let echo = SimulatedRoom(delay: 592, gain: 0.5).heard(played)
        // The person speaks in the last part, over the reply.
        let start = played.count - person.count - 8_000
        var captured = echo
        for (offset, sample) in person.enumerated() {
            captured[start + offset] = Int16(max(-32_768, min(32_767, Int(captured[start + offset]) + Int(sample))))
        }
        let delay = try #require(EchoDelay.estimate(captured: captured, played: played)).samples
        let aligned = [Int16](repeating: 0, count: delay) + played.dropLast(delay)
        let cleaned = try EchoCanceller().cancel(captured: captured, played: aligned)
        let during = start..<(start + person.count)
        // What is left there is the person, with the echo well down: the difference from the
        // person alone is far below the echo that was there, and the person's level is kept.
        let residue = zip(cleaned[during], person).map { Int16(clamping: Int($0) - Int($1)) }
        let echoDown = 10 * log10(Self.energy(echo[during]) / max(Self.energy(residue[...]), 1))
        let personLevel = 10 * log10(Self.energy(cleaned[during]) / Self.energy(person[...]))
        #expect(echoDown > 6, "\(echoDown) dB")
        #expect(abs(personLevel) < 3, "\(personLevel) dB")
    }
}
