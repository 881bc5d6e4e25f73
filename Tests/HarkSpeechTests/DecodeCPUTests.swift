import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// Each recognition says what CPU each of its stages took (real pocketsphinx, real recordings),
/// so that `hark bench` can show where its real-time factor goes.
@Suite(.serialized) struct DecodeCPUTests {
    static func processCPUSeconds() throws -> Double {
        var time = timespec()
        try #require(clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time) == 0)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// A request whose deciding word has rivals ("on" against "off"): the audio, the grammar, the
    /// phone loop and the rival contest are charged; the other words, never searched for a phrase
    /// this long, are not. Together they are no more than the process spent meanwhile.
    @Test func aRequestIsChargedForEachStageThatRan() throws {
        let recognizer = try OtherWordsRecognizerTests.recognizer(otherWords: true)
        let samples = try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")
        let before = try Self.processCPUSeconds()
        let heard = try recognizer.recognize(samples)
        let spent = try Self.processCPUSeconds() - before
        #expect(heard.text == "turn on the garage light", "\(heard.rejection ?? heard.text)")
        let cpu = heard.decodeCPU
        #expect(cpu.audio > 0 && cpu.grammar > 0 && cpu.phoneLoop > 0, "\(cpu)")
        #expect(heard.features?.rival != nil)
        #expect(cpu.rivals > 0, "\(cpu)")
        #expect(heard.features?.checkedAgainstOtherWords == false)
        #expect(cpu.otherWords == 0)
        #expect(cpu.total <= spent, "\(cpu.total) s charged, \(spent) s spent")
    }

    /// A lone digit heard unsurely in a quiet room is searched again beside the other words
    /// (`OtherWordsRecognizerTests`), and charged for that search.
    @Test func aLoneWordSearchedBesideTheOtherWordsIsChargedForIt() throws {
        let (said, samples) = try OtherWordsRecognizerTests.digit("digits/digit-lucas-4-17")
        let heard = try OtherWordsRecognizerTests.recognizer(otherWords: true).recognize(samples)
        #expect(heard.text == said, "\(heard.rejection ?? heard.text)")
        #expect(heard.features?.checkedAgainstOtherWords == true)
        #expect(heard.decodeCPU.otherWords > 0, "\(heard.decodeCPU)")
    }

    /// Without the confidence pass there is no phone loop and no rival contest to charge.
    @Test func stagesThatDoNotRunAreChargedNothing() throws {
        var configuration = RecognizerConfiguration()
        configuration.measuresConfidence = false
        let recognizer = try Recognizer(configuration: configuration)
        try recognizer.use(RecognizerTests.home)
        let heard = try recognizer.recognize(try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav"))
        #expect(heard.text == "turn on the garage light", "\(heard.rejection ?? heard.text)")
        #expect(heard.decodeCPU.grammar > 0)
        #expect(heard.decodeCPU.phoneLoop == 0 && heard.decodeCPU.rivals == 0, "\(heard.decodeCPU)")
    }

    @Test func stagesAddUpAndAreListedDearestFirst() {
        var one = DecodeCPU()
        one.audio = 0.1
        one.grammar = 0.2
        one.phoneLoop = 0.4
        var other = DecodeCPU()
        other.rivals = 0.2
        other.otherWords = 0.05
        other.grammar = 0.1
        let sum = one + other
        #expect(abs(sum.total - 1.05) < 1e-9)
        #expect(abs(sum.grammar - 0.3) < 1e-9)
        #expect(sum.stages.map(\.name) == ["phone loop", "grammar", "rival words", "audio and front end", "other words"])
    }
}
