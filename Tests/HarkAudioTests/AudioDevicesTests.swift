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

@Suite struct SoundCardTests {
    @Test func cardsAgreeWithTheProbe() throws {
        let cards = try AudioDevices.cards()
        #expect(cards.isEmpty == !AudioDevices.hasSoundCard())
        #expect(cards.map(\.index) == cards.map(\.index).sorted())
        #expect(cards.allSatisfy { !$0.name.isEmpty })
    }

    @Test func captureAndPlaybackListsAreSeparate() throws {
        let capture = try AudioDevices.captureDevices()
        let playback = try AudioDevices.playbackDevices()
        #expect(capture.allSatisfy { $0.canCapture })
        #expect(playback.allSatisfy { $0.canPlay })
        #expect(capture.contains { $0.name == "null" })
        #expect(playback.contains { $0.name == "null" })
    }
}
