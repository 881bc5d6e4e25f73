import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// Plain pocketsphinx's keyword search, the baseline of `hark bench-wake --baseline`, on the real
/// wake fixtures (audio-fixtures/wake/real_wakes.wav: three people saying "jarvis", three
/// "athena", three "amelia", each with its span in the sidecar).
@Suite struct PlainKeywordSpotterTests {
    static func detections(_ spotter: PlainKeywordSpotter, _ samples: [Int16]) throws -> [PlainKeywordSpotter.Detection] {
        var detections: [PlainKeywordSpotter.Detection] = []
        for start in stride(from: 0, to: samples.count, by: 1600) {
            detections += try spotter.process(Array(samples[start..<min(start + 1600, samples.count)]))
        }
        return detections + (try spotter.process([Int16](repeating: 0, count: 8_000)))
    }

    /// What it reports lies within a second after a span that says that phrase (pocketsphinx
    /// waits ten frames for a better score, and its voice detector holds audio back), and it
    /// finds some of these clear wake words; heard again from its first state, the same stream
    /// gives the same detections.
    @Test func reportsRealWakeWordsWhereTheyAreSaid() throws {
        let samples = try WakeWordSpotterTests.samples("real_wakes")
        let wakes = try WakeWordSpotterTests.segments("real_wakes").filter { $0.kind == "wake" }
        let spotter = try PlainKeywordSpotter(phrases: ["jarvis", "athena", "amelia"])
        let first = try Self.detections(spotter, samples)
        #expect(!first.isEmpty)
        for detection in first {
            #expect(wakes.contains { $0.text == detection.phrase && $0.start < detection.seconds && detection.seconds <= $0.end + 1 },
                    "\(detection) is not just after a span saying it")
        }
        try spotter.startAfresh()
        #expect(try Self.detections(spotter, samples) == first)
    }

    /// A phrase whose word Debian's dictionary lacks takes the phones it is given, and without
    /// them it is refused by name.
    @Test func wordsTheDictionaryLacksNeedPhones() throws {
        #expect(throws: RecognitionError.self) { try PlainKeywordSpotter(phrases: ["hey chatterbox"]) }
        do {
            _ = try PlainKeywordSpotter(phrases: ["hey chatterbox"])
        } catch {
            #expect(error.message.contains("chatterbox"), "\(error)")
        }
        _ = try PlainKeywordSpotter(phrases: ["hey chatterbox"], pronunciations: ["chatterbox": "CH AE T ER B AA K S"])
    }
}
