import Foundation
import HarkAudio
import HarkTestSupport
import Testing
@testable import HarkSpeech

/// `MicrophoneCheck` (`hark mic-check`) on a real voice (home-en) in rooms made to measure: every
/// figure is checked against the room and the voice as they were made.
@Suite struct MicrophoneCheckTests {
    let voice: [Int16]

    init() throws {
        let said = try WAVFile.read(contentsOf: Fixtures.audio("home-en/how_cold_is_it.wav")).pipelineSamples()
        // A little of a quiet room around the words, as a microphone hears someone start and stop.
        let pause = [Int16](repeating: 0, count: 4_800)
        voice = pause + said + pause
    }

    /// `seconds` of a steady room whose samples have standard deviation `level`.
    func room(seconds: Int, level: Double) -> [Int16] {
        inSteadyNoise([Int16](repeating: 0, count: seconds * 16_000), level: level)
    }

    func decibels(meanSquareOf samples: [Int16]) -> Double {
        10 * log10(samples.reduce(0.0) { $0 + Double($1) * Double($1) } / Double(samples.count) / (32_768.0 * 32_768.0))
    }

    @Test func aVoiceWellAboveAQuietRoomFindsNothingToFix() throws {
        let quiet = room(seconds: 5, level: 30)
        let check = try MicrophoneCheck(room: quiet, speech: inSteadyNoise(voice, level: 30))
        #expect(abs(check.roomMeanLevel - decibels(meanSquareOf: quiet)) < 0.2)
        #expect(abs(check.roomLevel - check.roomMeanLevel) < 1, "a steady room's quiet moments are its average")
        #expect(check.roomLoudestLevel - check.roomLevel < 2)
        let above = try #require(check.voiceAboveRoom)
        #expect(above > 35)
        #expect(check.findings.isEmpty, "\(check.findings)")
        #expect(check.clippedShare == 0)
    }

    @Test func aSteadyNoiseIsHeardThroughSuppressionAndAskedAboutFirst() throws {
        let check = try MicrophoneCheck(room: room(seconds: 5, level: noisyRoomLevel),
                                        speech: inSteadyNoise(voice, level: noisyRoomLevel))
        // -32 dBFS: above the spotter's line (-55).
        #expect(abs(check.roomMeanLevel - 20 * log10(noisyRoomLevel / 32_768)) < 0.5)
        let above = try #require(check.voiceAboveRoom)
        #expect(above > 10 && above < 20, "\(above)")
        #expect(check.findings == [.wakeWordHeardThroughSuppression, .noisyRoom, .asksFirst])
        // With asking first set to never, and the suppression line above this room, neither is said.
        let never = try MicrophoneCheck(room: room(seconds: 5, level: noisyRoomLevel),
                                        speech: inSteadyNoise(voice, level: noisyRoomLevel),
                                        settings: .init(wakeDenoisesAbove: -20, confirmsBelow: nil))
        #expect(never.findings == [.noisyRoom])
    }

    @Test func aNoiseThatComesAndGoesCountsByItsAverage() throws {
        let bursts = inBursts(seconds: 5, level: noisyRoomLevel, share: 0.3)
        let check = try MicrophoneCheck(room: bursts, speech: voice)
        #expect(check.findings.contains(.noiseComesAndGoes))
        #expect(check.roomLoudestLevel - check.roomLevel > 30)
        #expect(abs(check.roomMeanLevel - decibels(meanSquareOf: bursts)) < 0.2)
        // The speech alone, in its quiet room, stands far higher above its own quiet pieces.
        let own = try #require(SignalToNoise.estimate(voice))
        let above = try #require(check.voiceAboveRoom)
        #expect(own - above > 20, "own \(own), against the room's average \(above)")
        #expect(check.findings.contains(.asksFirst))
    }

    @Test func aVoiceCutFlatIsCalledClipped() throws {
        let loud = voice.map { Int16(clamping: Int($0) * 12) }
        let check = try MicrophoneCheck(room: room(seconds: 2, level: 30), speech: loud)
        #expect(check.clippedShare >= 0.001)
        #expect(check.findings.contains(.clipped))
        let asSaid = try MicrophoneCheck(room: room(seconds: 2, level: 30), speech: voice)
        #expect(!asSaid.findings.contains(.clipped))
    }

    @Test func aFaintVoiceIsCalledFaint() throws {
        let faint = voice.map { Int16(Double($0) / 300) }
        let check = try MicrophoneCheck(room: room(seconds: 2, level: 0.5), speech: inSteadyNoise(faint, level: 0.5))
        let level = try #require(check.voiceLevel)
        #expect(level < FaintVoiceGain.quietestUsualVoice)
        #expect(check.findings.contains(.faintVoice))
    }

    @Test func aVoiceThroughATelephoneBandIsSaidToBe() throws {
        let clip = try WAVFile.read(contentsOf: Fixtures.audio("home-en/how_cold_is_it.wav"))
        let narrow = try clip.resampled(to: 8_000).resampled(to: 16_000).pipelineSamples()
        let check = try MicrophoneCheck(room: room(seconds: 2, level: 5), speech: inSteadyNoise(narrow, level: 5))
        #expect(check.findings.contains(.telephoneBand))
    }

    @Test func theRoomAloneIsNoVoice() throws {
        let check = try MicrophoneCheck(room: room(seconds: 3, level: noisyRoomLevel),
                                        speech: room(seconds: 2, level: noisyRoomLevel))
        #expect(check.voiceLevel == nil && check.voiceAboveRoom == nil)
        #expect(check.findings.last == .noVoice)
    }

    /// A real "jarvis" (audio-fixtures/wake/real_wakes.wav, the second of its recordings) before the request.
    func jarvisThenRequest() throws -> [Int16] {
        let wakes = try WAVFile.read(contentsOf: Fixtures.audio("wake/real_wakes.wav")).pipelineSamples()
        return Array(wakes[Int(5.572 * 16_000)..<Int(8.644 * 16_000)]) + voice
    }

    @Test func theWakeWordIsListenedForAsHarkListens() throws {
        let configuration = WakeWordConfiguration(keyPhrase: "jarvis")
        let quiet = room(seconds: 5, level: 30)
        let said = try MicrophoneCheck(room: quiet, speech: inSteadyNoise(try jarvisThenRequest(), level: 30), wakeWord: configuration)
        let heard = try #require(said.wakeWord)
        #expect(heard.phrase == "jarvis" && heard.sure && !heard.tentative)
        #expect((heard.odds ?? -.infinity) >= WakeWordSpotter.threshold(sensitivity: configuration.sensitivity))
        #expect(said.findings.isEmpty, "\(said.findings)")
        // The request alone, no wake word in it.
        let unsaid = try MicrophoneCheck(room: quiet, speech: inSteadyNoise(voice, level: 30), wakeWord: configuration)
        #expect(unsaid.wakeWord?.sure == false)
        #expect(unsaid.findings.contains(.wakeWordMissed) || unsaid.findings.contains(.wakeWordFaint))
        // Not listened for unless asked.
        let notAsked = try MicrophoneCheck(room: quiet, speech: inSteadyNoise(try jarvisThenRequest(), level: 30))
        #expect(notAsked.wakeWord == nil)
    }

    @Test func aMutedCaptureIsDigitalSilence() throws {
        let check = try MicrophoneCheck(room: [Int16](repeating: 0, count: 32_000), speech: [Int16](repeating: 0, count: 32_000))
        #expect(check.findings == [.digitalSilence])
        #expect(check.voiceLevel == nil)
        // The quietest real room is not.
        let hiss = try MicrophoneCheck(room: room(seconds: 2, level: 2), speech: room(seconds: 2, level: 2))
        #expect(hiss.findings == [.noVoice])
    }

    @Test func tooLittleAudioIsRefusedSayingWhich() throws {
        #expect(throws: MicrophoneCheck.Problem.tooShort(part: "room", seconds: 0.5, needed: 1)) {
            try MicrophoneCheck(room: [Int16](repeating: 0, count: 8_000), speech: self.voice)
        }
        #expect(throws: MicrophoneCheck.Problem.tooShort(part: "speech", seconds: 0.25, needed: 0.5)) {
            try MicrophoneCheck(room: self.room(seconds: 2, level: 30), speech: [Int16](repeating: 0, count: 4_000))
        }
    }

    /// The room and the voice recorded through ALSA (its `file` plugin), as the command records them.
    @Test func theRoomAndTheVoiceAsAMicrophoneGivesThem() throws {
        let directory = try temporaryDirectory()
        let raw = directory.appendingPathComponent("microphone.raw")
        let quiet = room(seconds: 2, level: 30), spoken = inSteadyNoise(voice, level: 30)
        try ALSATestDevices.writeRawInt16(quiet + spoken, to: raw)
        let capture = try CaptureDevice(ALSATestDevices.fileInput(raw))
        let heardRoom = try capture.read(frames: quiet.count)
        let heardSpeech = try capture.read(frames: spoken.count)
        let check = try MicrophoneCheck(room: heardRoom, speech: heardSpeech)
        let direct = try MicrophoneCheck(room: quiet, speech: spoken)
        #expect(abs(check.roomMeanLevel - direct.roomMeanLevel) < 0.1)
        #expect(abs((check.voiceAboveRoom ?? 0) - (direct.voiceAboveRoom ?? 0)) < 0.5)
        #expect(check.findings == direct.findings)
    }
}
