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

    /// Every reply goes through the normaliser, with a lexicon word in it (handed to espeak-ng as
    /// marked-up phonemes) or without: the written form lasts as long as the words written out
    /// (espeak-ng varies by a few samples from one call to the next), and not as long as
    /// espeak-ng's own reading of it, "dollar two point five zero".
    @Test(arguments: [false, true]) func speaksPricesAsWords(withLexicon: Bool) throws {
        let lexicon = withLexicon ? try SpokenLexicon(arpabet: [(word: "ghoti", phones: "F IH SH")]) : SpokenLexicon()
        let voice = try SpeechSynthesizer(lexicon: lexicon)
        // Measured from first to last sound: the silence espeak-ng pads a synthesis with varies.
        let written = SpokenLexiconTests.spokenLength(try voice.synthesize("ghoti costs $2.50 at 12:00."))
        let words = SpokenLexiconTests.spokenLength(try voice.synthesize("ghoti costs two dollars fifty at noon."))
        let espeakOwn = SpokenLexiconTests.spokenLength(try voice.synthesize("ghoti costs dollar two point five zero at twelve zero zero."))
        #expect(abs(written - words) < words / 100, "\(written) samples against \(words)")
        #expect(abs(written - espeakOwn) > words / 5, "\(written) samples against \(espeakOwn)")
    }

    @Test func phonemizesWords() throws {
        let phonemes = try Phonemizer.phonemes(of: "hello")
        #expect(phonemes.contains("h"))
        #expect(phonemes.contains("_"))
    }
}
