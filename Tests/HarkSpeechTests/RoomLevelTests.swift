@testable import HarkSpeech
import Testing

/// The room's level as the wake-word spotter's switch to noise suppression judges it.
struct RoomLevelTests {
    /// 100 ms of a square wave of amplitude `amplitude` (its level is exactly 20 log10(a/32768)).
    static func piece(_ amplitude: Int16) -> [Int16] {
        (0..<1_600).map { $0 % 2 == 0 ? amplitude : -amplitude }
    }

    @Test func isTheLevelAFifthOfTheLastFiveSecondsAreQuieterThan() throws {
        var room = RoomLevel()
        #expect(room.level == nil)
        // Four seconds of speech-like bursts over a room at -50 dBFS: ten quiet pieces in fifty.
        let quiet = Int16(32768 * 0.00316), loud = Int16(32768 * 0.1)
        for index in 0..<50 { room.observe(Self.piece(index % 5 == 0 ? quiet : loud)) }
        let level = try #require(room.level)
        #expect(abs(level - (-50)) < 0.1, "\(level)")
        // Five seconds of the loud pieces push the quiet ones out: the room is now that loud.
        for _ in 0..<50 { room.observe(Self.piece(loud)) }
        #expect(abs(try #require(room.level) - (-20)) < 0.1)
    }

    /// Audio in pieces that do not fall on 100 ms measures as it does in whole pieces.
    @Test func takesAudioInAnyChunkSize() {
        let audio = (0..<30).flatMap { Self.piece($0 % 3 == 0 ? 100 : 3_000) }
        var whole = RoomLevel(), chunked = RoomLevel()
        whole.observe(audio)
        var start = 0
        for size in [7, 480, 1_599, 1_601, 160] {
            var offset = start
            while offset < audio.count {
                let end = min(offset + size, audio.count)
                chunked.observe(audio[offset..<end])
                offset = end
                if offset - start >= 9_600 { break }
            }
            start = offset
        }
        chunked.observe(audio[start...])
        #expect(whole.level == chunked.level)
        #expect(whole.level != nil)
    }
}
