@testable import HarkSpeech
import Testing

/// Word fits from made-up segments: natural-log scores are the raw numbers here (ln = score / 1000),
/// so the arithmetic can be checked by hand.
struct WordFitTests {
    static func segment(_ word: String, _ start: Int, _ end: Int, _ acoustic: Int32) -> Decoder.Segment {
        Decoder.Segment(word: word, startFrame: start, endFrame: end, probability: 0, acoustic: acoustic)
    }
    static func naturalLog(_ score: Int32) -> Double { Double(score) / 1000 }

    @Test func comparesEachWordWithThePhoneLoopOverTheSameFrames() {
        // Phone loop: 10 frames at -10 per frame, then 10 at -20 per frame.
        let loop = [Self.segment("SIL", 0, 9, -100), Self.segment("AA", 10, 19, -200)]
        let path = [Self.segment("<sil>", 0, 4, -50), Self.segment("on", 5, 14, -160), Self.segment("off(2)", 15, 19, -150)]
        let fits = WordFit.fits(grammarPath: path, phoneLoop: loop, naturalLog: Self.naturalLog)
        #expect(fits.map(\.word) == ["on", "off"])
        #expect(fits.map(\.frames) == [10, 5])
        // "on": -160 against 5×-10 + 5×-20 = -150 over 10 frames → -1 per frame (in thousandths).
        #expect(abs(fits[0].margin - (-1)) < 1e-9)
        // "off": -150 against 5×-20 = -100 over 5 frames → -10 per frame.
        #expect(abs(fits[1].margin - (-10)) < 1e-9)
    }

    @Test func wordsPastTheEndOfThePhoneLoopDoNotCrash() {
        let loop = [Self.segment("SIL", 0, 4, -50)]
        let path = [Self.segment("on", 3, 12, -100), Self.segment("off", 20, 25, -60), Self.segment("(NULL)", 26, 25, 0)]
        let fits = WordFit.fits(grammarPath: path, phoneLoop: loop, naturalLog: Self.naturalLog)
        #expect(fits.map(\.word) == ["on", "off"])
        // Only frames 3 and 4 lie within the loop: -100 against -20 over 10 frames.
        #expect(abs(fits[0].margin - (-8)) < 1e-9)
        #expect(abs(fits[1].margin - (-10)) < 1e-9)
        #expect(WordFit.fits(grammarPath: path, phoneLoop: [], naturalLog: Self.naturalLog).count == 2)
    }
}
