import Foundation
import Synchronization
import Testing
@testable import HarkAudio

@Suite(.serialized) struct ALSAMessagesTests {
    final class Received: Sendable {
        let messages = Mutex<[ALSAMessages.Message]>([])
    }

    @Test func aSinkReceivesALSAsMessagesInsteadOfStderr() throws {
        let received = Received()
        try ALSAMessages.setSink { message in received.messages.withLock { $0.append(message) } }
        defer { try? ALSAMessages.setSink(nil) }
        _ = try? PlaybackDevice(PCMDeviceSpec(name: "hark_no_speaker_here"))
        let messages = received.messages.withLock { $0 }
        let message = try #require(messages.first { $0.text.contains("hark_no_speaker_here") })
        #expect(message.text == "Unknown PCM hark_no_speaker_here")
        #expect(message.function.hasPrefix("snd_pcm_open"))
        #expect(message.sequence > 0)
        #expect((ALSAMessages.last?.sequence ?? 0) >= message.sequence)
    }

    @Test func messagesAreKeptWithoutASink() throws {
        try ALSAMessages.setSink(nil)
        let before = ALSAMessages.mark
        _ = try? CaptureDevice(PCMDeviceSpec(name: "hark_no_mic_here"))
        let said = try #require(ALSAMessages.since(before))
        #expect(said.text.contains("hark_no_mic_here"))
    }

    @Test func theMessageAboutTheDeviceIsPreferredOverALaterOne() throws {
        let before = ALSAMessages.mark
        _ = try? CaptureDevice(PCMDeviceSpec(name: "hark_first_mic"))
        _ = try? CaptureDevice(PCMDeviceSpec(name: "hark_second_mic"))
        #expect(ALSAMessages.since(before, mentioning: "hark_first_mic")?.text == "Unknown PCM hark_first_mic")
        #expect(ALSAMessages.since(before, mentioning: "hark_second_mic")?.text == "Unknown PCM hark_second_mic")
    }
}
