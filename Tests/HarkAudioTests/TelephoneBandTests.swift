import Foundation
import HarkTestSupport
import Testing
@testable import HarkAudio

/// `TelephoneBand` on real voices: full-band recordings, the same voices through 8 kHz, and
/// digits recorded at 8 kHz (the Free Spoken Digit Dataset, audio-fixtures/digits). Not every
/// telephone-band recording is told (george's "nine" measures 44 dB, and a voice near the floor of
/// its 16-bit samples fills the high band with their rounding), so the tests hold the cases the
/// limit was chosen on.
@Suite struct TelephoneBandTests {
    static let fullBand = ["home-en/how_cold_is_it.wav", "home-en/turn_on_the_garage_light.wav", "home-en/make_bedroom_light_blue.wav"]
    static let recordedAt8kHz = ["digits/digit-lucas-4-17.wav", "digits/digit-yweweler-4-17.wav", "digits/digit-yweweler-4-34.wav"]

    func samples(_ fixture: String) throws -> [Int16] {
        try WAVFile.read(contentsOf: Fixtures.audio(fixture)).pipelineSamples()
    }

    @Test(arguments: fullBand)
    func aFullBandVoiceIsNotTelephoneBand(fixture: String) throws {
        let shortfall = try #require(TelephoneBand.highBandShortfall(try samples(fixture)))
        #expect(shortfall < TelephoneBand.limit - 5, "\(fixture): \(shortfall) dB")
        #expect(!TelephoneBand.isTelephoneBand(try samples(fixture)))
    }

    @Test(arguments: fullBand)
    func theSameVoiceThroughEightKilohertzIs(fixture: String) throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio(fixture))
        let narrow = try clip.resampled(to: 8_000).resampled(to: 16_000).pipelineSamples()
        let shortfall = try #require(TelephoneBand.highBandShortfall(narrow))
        #expect(shortfall >= TelephoneBand.limit, "\(fixture): \(shortfall) dB")
    }

    @Test(arguments: recordedAt8kHz)
    func digitsRecordedAtEightKilohertzAre(fixture: String) throws {
        #expect(TelephoneBand.isTelephoneBand(try samples(fixture)))
    }

    @Test func audioTooShortOrSilentIsNotMeasured() {
        #expect(TelephoneBand.highBandShortfall([Int16](repeating: 300, count: 1000)) == nil)
        #expect(TelephoneBand.highBandShortfall([Int16](repeating: 0, count: 16_000)) == nil)
        #expect(!TelephoneBand.isTelephoneBand([]))
    }

    @Test func theSpectrumPutsAToneInItsBin() {
        // 2 kHz at 16 kHz in pieces of 512: bin 64 exactly.
        let tone = (0..<512).map { Int16(10_000 * sin(2 * Double.pi * 2_000 * Double($0) / 16_000)) }
        var spectrum = PowerSpectrum(size: 512)
        let power = spectrum.power(of: tone[...])
        #expect(power.count == 257)
        #expect(power.indices.max { power[$0] < power[$1] } == 64)
        let elsewhere = power.enumerated().filter { abs($0.offset - 64) > 2 }.map(\.element).max() ?? 0
        #expect(elsewhere < power[64] * 1e-6)
    }
}
