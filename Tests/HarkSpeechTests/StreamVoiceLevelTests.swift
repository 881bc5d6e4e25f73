import Foundation
@testable import HarkSpeech
import Testing

/// The voice level the wake-word spotter keeps its noise floor beneath.
struct StreamVoiceLevelTests {
    /// 100 ms of a square wave at about `level` dBFS: the amplitude is rounded to whole samples,
    /// within 0.4 dB of the level down to -72, and at least one sample (-90 dBFS).
    static func piece(_ level: Double) -> [Int16] {
        let amplitude = Int16((32768 * pow(10, level / 20)).rounded())
        return (0..<1_600).map { $0 % 2 == 0 ? amplitude : -amplitude }
    }

    /// Feeds `count` pieces at `level`; returns what the last one reported.
    @discardableResult
    static func hear(_ count: Int, at level: Double, by voice: inout StreamVoiceLevel) -> Double? {
        var last: Double?
        for _ in 0..<count { last = voice.observe(piece(level)) }
        return last
    }

    @Test func aSteadyRoomIsNoVoice() {
        var voice = StreamVoiceLevel()
        #expect(Self.hear(1, at: -50, by: &voice) == nil)
        #expect(Self.hear(200, at: -50, by: &voice) == nil)
    }

    /// A faint voice after a near-silent room is known from its first piece, so the floor can
    /// be beneath it from the first syllable.
    @Test func aFaintVoiceCountsFromItsFirstPiece() throws {
        var voice = StreamVoiceLevel()
        Self.hear(30, at: -90, by: &voice)
        let heard = voice.observe(Self.piece(-72))
        let level = try #require(heard)
        #expect(abs(level - (-72)) < 0.5, "\(level)")
    }

    /// The loudest voice piece of the last ten seconds holds through the quieter pieces and
    /// pauses after it, and is forgotten after ten seconds.
    @Test func theLoudestOfTheLastTenSecondsHolds() throws {
        var voice = StreamVoiceLevel()
        Self.hear(30, at: -90, by: &voice)
        Self.hear(1, at: -65, by: &voice)
        let held = try #require(Self.hear(5, at: -75, by: &voice))
        #expect(abs(held - (-65)) < 0.5, "\(held)")
        // 94 pieces after the loud one it is still within ten seconds; the quieter ones remain
        // after it goes.
        let stillHeld = try #require(Self.hear(89, at: -90, by: &voice))
        #expect(abs(stillHeld - (-65)) < 0.5, "\(stillHeld)")
        let after = try #require(Self.hear(6, at: -90, by: &voice))
        #expect(abs(after - (-75)) < 0.5, "\(after)")
        #expect(Self.hear(100, at: -90, by: &voice) == nil)
    }

    /// A window heard on its own measures as its loudest voice piece, the quiet after it included.
    @Test func aWindowMeasuresAsItsLoudestVoicePiece() throws {
        let window = (0..<10).flatMap { _ in Self.piece(-90) } + Self.piece(-66) + Self.piece(-72)
            + (0..<5).flatMap { _ in Self.piece(-90) }
        let level = try #require(StreamVoiceLevel.of(window))
        #expect(abs(level - (-66)) < 0.5, "\(level)")
        #expect(StreamVoiceLevel.of((0..<20).flatMap { _ in Self.piece(-50) }) == nil)
    }

    /// The gain the spotter hears a stream with: none for a usual voice or none heard, and a
    /// faint one brought up to a usual level.
    @Test func onlyAFaintVoiceIsBroughtUp() throws {
        var voice = StreamVoiceLevel()
        Self.hear(30, at: -90, by: &voice)
        #expect(FaintVoiceGain.decibels(forVoiceAt: voice.observe(Self.piece(-26))) == 0)
        #expect(FaintVoiceGain.decibels(forVoiceAt: nil) == 0)
        var faint = StreamVoiceLevel()
        Self.hear(30, at: -90, by: &faint)
        let piece = Self.piece(-70)
        let decibels = FaintVoiceGain.decibels(forVoiceAt: faint.observe(piece))
        #expect(abs(decibels - 45) < 0.5, "\(decibels)")
        let level = EnergyEndpointer.level(FaintVoiceGain.amplified(piece, by: decibels))
        #expect(abs(level - FaintVoiceGain.usualVoice) < 0.1, "\(level)")
    }

    /// A loud sound after a faint voice is clipped at full scale, not wrapped around.
    @Test func theGainClipsRatherThanWrapsAround() {
        let amplified = FaintVoiceGain.amplified([1_000, -1_000, 3], by: 40)
        #expect(amplified == [32_767, -32_768, 300])
    }
}
