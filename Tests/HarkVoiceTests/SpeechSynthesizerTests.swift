import HarkAudio
import HarkVoice
import Testing

@Suite(.serialized) struct SpeechSynthesizerTests {
    @Test func speaksTextIntoAudio() throws {
        let voice = try SpeechSynthesizer()
        let clip = try voice.synthesize("Turning on the garage light.")
        #expect(clip.sampleRate == 22_050)
        #expect(clip.channels == 1)
        #expect(clip.duration > 1 && clip.duration < 4, "\(clip.duration) s")
        let peak = clip.samples.map(abs).max() ?? 0
        #expect(peak > 0.1, "speech should be audible, peak \(peak)")
    }

    @Test func aFasterRateSpeaksShorter() throws {
        let text = "The garage door is closed and the bedroom light is on."
        let slow = try SpeechSynthesizer(settings: VoiceSettings(rate: 120)).synthesize(text)
        let fast = try SpeechSynthesizer(settings: VoiceSettings(rate: 300)).synthesize(text)
        #expect(fast.duration < slow.duration * 0.7)
    }

    @Test func refusesAnUnknownVoice() {
        #expect {
            _ = try SpeechSynthesizer(settings: VoiceSettings(voice: "no-such-voice"))
        } throws: { error in
            (error as? VoiceError)?.code == .unknownVoice
        }
    }

    @Test func refusesARateOutOfRange() {
        #expect {
            _ = try SpeechSynthesizer(settings: VoiceSettings(rate: 20))
        } throws: { error in
            (error as? VoiceError)?.code == .badSetting
        }
    }

    @Test func phonemizesWords() throws {
        let phonemes = try Phonemizer.phonemes(of: "hello")
        #expect(phonemes.contains("h"))
        #expect(phonemes.contains("_"))
    }
}
