import Foundation
import HarkAudio
import HarkDialogue
import HarkExampleApps
@testable import HarkRuntime
import HarkSpeech
import HarkTestSupport
import Testing

/// "Louder", "quieter", "volume four": the loudspeaker's level, set by voice, kept across
/// restarts, and applied to everything the live loop plays.
@Suite(.serialized) struct VolumeTests {
    static func assistant(data: URL) async throws -> Assistant {
        // espeak-ng's voice is heard without the noise floor and the adaptation, and with the
        // threshold that admits it (it scores below the one chosen on people), as elsewhere.
        var recognizer = RecognizerConfiguration()
        recognizer.noiseFloor = nil
        recognizer.rejectionMargin = -4
        // Nor asked about first as in a noisy room: without the floor, espeak-ng's voice was
        // estimated at 22 dB in some runs (what it said before moves its edges), and up to 30 dB
        // Hark asks "Did you say volume four?". What is tested here is the level.
        recognizer.noisyConfirmation = nil
        var configuration = AssistantConfiguration(
            appsDirectory: Fixtures.root.appendingPathComponent("apps"),
            modelsDirectory: Fixtures.root.appendingPathComponent("models"), recognizer: recognizer,
            inProcessHandlers: ExampleApps.handlers, authenticator: FixedPIN("1234"), dataDirectory: data)
        configuration.recognizer.acousticTransform = nil
        configuration.donates = false
        return try await Assistant.start(configuration)
    }

    @Test func theLevelChangesByStepsIsKeptAndSaysItsLimits() throws {
        let file = try temporaryDirectory().appendingPathComponent("volume.json")
        let volume = LoudspeakerVolume(file: file)
        #expect(volume.level == 10 && volume.problem == nil)
        #expect(volume.change(.louder).speech == "That's as loud as I go.")
        #expect(volume.change(.quieter).speech == "Volume 9.")
        #expect(volume.change(.level(2)).speech == "Volume 2.")
        #expect(LoudspeakerVolume(file: file).level == 2)
        #expect(volume.change(.level(0)).speech == "Volume 0.")
        #expect(volume.change(.quieter).speech == "I'm already silent.")
        // A file that cannot be read: played as loud as it comes, and said why.
        try Data("{\"level\": 42}".utf8).write(to: file)
        let damaged = LoudspeakerVolume(file: file)
        #expect(damaged.level == 10 && damaged.problem?.contains("is not 0 to 10") == true)
    }

    @Test func eachStepIsThreeDecibels() {
        let volume = LoudspeakerVolume(file: nil)
        let clip = AudioClip(samples: [0.5, -0.25, 1], sampleRate: 16_000, channels: 1)
        #expect(volume.applied(to: clip) == clip)
        _ = volume.change(.level(8))
        let quieter = volume.applied(to: clip).samples
        for (played, original) in zip(quieter, clip.samples) {
            #expect(abs(20 * log10(Double(played / original)) + 6) < 0.01)
        }
        _ = volume.change(.level(0))
        #expect(volume.applied(to: clip).samples.allSatisfy { $0 == 0 })
    }

    /// Said to the real recogniser in Hark's own voice: "volume four" sets the level, which a
    /// restarted assistant (the same data folder) still has; "louder" goes one up.
    @Test func aSpokenLevelIsSetAndSurvivesARestart() async throws {
        let data = try temporaryDirectory()
        let assistant = try await Self.assistant(data: data)
        func say(_ text: String) async throws -> TurnReport {
            let spoken = try await assistant.speech.speak(text)
            return try await assistant.answer(samples: try spoken.pipelineSamples(), name: text).report
        }
        let set = try await say("volume four")
        #expect(set.text == "volume four" && set.reply == "Volume 4." && !set.expectsAnswer, "\(set.text)")
        #expect(assistant.loudspeaker.level == 4)
        let louder = try await say("louder")
        #expect(louder.reply == "Volume 5.", "\(louder.text)")
        let restarted = try await Self.assistant(data: data)
        #expect(restarted.loudspeaker.level == 5)
    }

    /// The live loop plays everything at the level: the chime after "Jarvis" in the live fixture
    /// comes out 15 dB down at level 5.
    @Test func theLoopPlaysAtTheLevel() async throws {
        let assistant = try await Self.assistant(data: try temporaryDirectory())
        _ = assistant.loudspeaker.change(.level(5))
        let recording = try WAVFile.read(contentsOf: Fixtures.audio("live/session.wav"))
        let samples = Array(try recording.pipelineSamples()[..<Int(2.6 * 16_000)])
        let loop = LiveLoop(assistant: assistant, settings: LiveSettings(), source: RecordingSource(samples: samples, name: "wake"),
                            sink: nil, keepsPlayed: true)
        _ = try await loop.run(onEvent: { _ in })
        let chime = try #require(await loop.playedClipsForTesting?.first)
        let original = Chime.clip()
        #expect(chime.frameCount == original.frameCount)
        let peak = { (clip: AudioClip) in clip.samples.map(abs).max() ?? 0 }
        #expect(abs(20 * log10(Double(peak(chime) / peak(original))) + 15) < 0.01)
    }
}
