import Foundation
import HarkAudio
@testable import HarkRuntime
import HarkTestSupport
import Testing

/// A microphone that gives nothing but digital silence (a capture switched off in the mixer) is
/// said, once, and so is its sound coming back; the loop hears on.
@Suite(.serialized) struct SilentMicrophoneTests {
    static let second = 16_000

    @Test func digitalSilenceIsSaidOnceAfterTenSecondsAndSoundAgainOnce() {
        var watch = SilentMicrophone()
        let zeros = [Int16](repeating: 0, count: Self.second / 10)
        // 9.9 s: not yet.
        for _ in 0..<99 { #expect(watch.observe(zeros) == nil) }
        #expect(watch.observe(zeros) == .fellSilent)
        for _ in 0..<50 { #expect(watch.observe(zeros) == nil) }
        // A real microphone's own hiss, a few units either side of zero, is sound.
        let hiss = inSteadyNoise(zeros, level: 3)
        #expect(watch.observe(hiss) == .heardAgain)
        #expect(watch.observe(hiss) == nil)
        // Quiet for less than ten seconds again says nothing.
        for _ in 0..<60 { #expect(watch.observe(zeros) == nil) }
    }

    @Test func aQuietRoomIsNotSilence() {
        var watch = SilentMicrophone()
        let quietRoom = inSteadyNoise([Int16](repeating: 0, count: 20 * Self.second), level: 2)
        #expect(watch.observe(quietRoom) == nil)
    }

    @Test func theLoopSaysSoAndGoesOnToAnswer() async throws {
        let session = try WAVFile.read(contentsOf: LiveLoopTests.session).pipelineSamples()
        // Twelve seconds of a muted capture, then the session's first request.
        let muted = [Int16](repeating: 0, count: 12 * Self.second)
        let source = RecordingSource(samples: muted + Array(session[..<(9 * Self.second)]), name: "muted, then unmuted")
        let loop = LiveLoop(assistant: try await LiveLoopTests.assistant(), settings: LiveSettings(), source: source, sink: nil)
        let (events, _) = try await LiveLoopTests.run(loop)
        let changes = events.all.compactMap { event -> (silent: Bool, at: Double)? in
            if case .microphone(let silent, let at) = event { (silent, at) } else { nil }
        }
        #expect(changes.map(\.silent) == [true, false])
        #expect(abs((changes.first?.at ?? 0) - SilentMicrophone.seconds) < 0.2)
        // Sound comes back where the session's own first sound is (it starts with a little digital silence).
        let firstSound = Double(try #require(session.firstIndex { abs(Int32($0)) > 1 })) / Double(Self.second)
        #expect(abs((changes.last?.at ?? 0) - (12 + firstSound)) < 0.2)
        #expect(events.turns.first?.report.text == "turn on the garage light", "problems: \(events.problems)")
    }
}
