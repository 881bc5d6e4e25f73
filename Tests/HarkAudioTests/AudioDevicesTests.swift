import Testing
import HarkAudio

@Suite struct AudioDevicesTests {
    @Test func soundCardProbeAnswers() {
        // No expectation on the answer: build machines have no card, desks do.
        _ = AudioDevices.hasSoundCard()
    }

    @Test func listsTheNullDevice() throws {
        let all = try AudioDevices.list()
        let null = try #require(all.first { $0.name == "null" })
        #expect(null.canPlay && null.canCapture)
        #expect(!null.description.isEmpty)
        #expect(try AudioDevices.list(.capture).allSatisfy(\.canCapture))
        #expect(try AudioDevices.list(.playback).allSatisfy(\.canPlay))
    }
}
