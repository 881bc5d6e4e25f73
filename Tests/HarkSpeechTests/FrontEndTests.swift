import Foundation
import HarkAudio
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// Each room's front end (real pocketsphinx on real recordings): features computed by it decode
/// exactly as the decoder's own front end decodes the audio, and what one room heard does not
/// change how another is heard.
@Suite struct FrontEndTests {
    static func samples(_ fixture: String) throws -> [Int16] {
        try WAVFile.read(contentsOf: Fixtures.audio(fixture)).pipelineSamples()
    }

    /// Four seconds of a real kitchen (doing the dishes) with wake words spoken over it at 10 dB.
    static func kitchen() throws -> [Int16] {
        Array(try samples("wake/real_wakes_noisy.wav").prefix(4 * 16_000))
    }

    static func phoneLoopDecoder() throws -> Decoder {
        let decoder = try Decoder.make(entries: [], modelDirectory: RecognizerConfiguration.debianModel,
                                       logFile: "/dev/null", extraArguments: ["-allphone_ci", "yes"])
        try decoder.installPhoneLoop(name: "loop")
        try decoder.activate("loop")
        return decoder
    }

    /// A quiet request, the kitchen, the request again: at each step the cepstra of a front end
    /// made like the decoder give the very score and phones the decoder's own front end gives,
    /// background estimate carried over included.
    @Test func cepstraDecodeAsTheDecodersOwnFrontEndDoes() throws {
        let fromAudio = try Self.phoneLoopDecoder()
        let fromCepstra = try Self.phoneLoopDecoder()
        let frontEnd = try FrontEnd(like: fromCepstra)
        let request = try Self.samples("home-en/how_cold_is_it.wav")
        var scores: [Double] = []
        for utterance in [request, try Self.kitchen(), request] {
            let expected = try fromAudio.decodeWhole(utterance)
            let cepstra = try frontEnd.cepstra(of: utterance)
            #expect(cepstra.width == 13)
            let heard = try fromCepstra.decodeWhole(cepstra)
            #expect(heard.score == expected.score)
            #expect(heard.words == expected.words)
            #expect(heard.frames == expected.frames)
            scores.append(heard.score)
        }
        // The kitchen in between changed how the same request was heard.
        #expect(scores[0] != scores[2])
    }

    /// The same request in the bedroom is heard the same whether or not the kitchen spoke in
    /// between; heard in the same room after the kitchen, it is not.
    @Test func whatOneRoomHeardDoesNotChangeHowAnotherIsHeard() throws {
        let recognizer = try Recognizer()
        try recognizer.use(RecognizerTests.home)
        let request = try Self.samples("home-en/what_time_is_it.wav")
        let kitchen = try Self.kitchen()

        // The bedroom alone: its first request, then the same again (its background learnt once).
        let first = try recognizer.recognize(request, heardIn: "bedroom")
        let again = try recognizer.recognize(request, heardIn: "bedroom")
        #expect(first.text == "what time is it")

        // Another bedroom, with the kitchen speaking between its two requests.
        let otherFirst = try recognizer.recognize(request, heardIn: "guest room")
        for _ in 0..<3 { _ = try recognizer.recognize(kitchen, heardIn: "kitchen") }
        let otherAgain = try recognizer.recognize(request, heardIn: "guest room")
        #expect(otherFirst.margin == first.margin)
        #expect(otherAgain.margin == again.margin)
        #expect(otherAgain.text == "what time is it")

        // One room hearing both: the kitchen's noise shapes the request after it.
        _ = try recognizer.recognize(request, heardIn: "hall")
        for _ in 0..<3 { _ = try recognizer.recognize(kitchen, heardIn: "hall") }
        let afterTheKitchen = try recognizer.recognize(request, heardIn: "hall")
        #expect(afterTheKitchen.margin != again.margin)
        #expect(recognizer.roomsHeard == ["hall", "guest room", "kitchen", "bedroom"])
    }

    /// Only the rooms heard lately are remembered; one heard again after it was forgotten starts
    /// afresh.
    @Test func theRoomHeardLongestAgoIsForgottenFirst() throws {
        let decoder = try Self.phoneLoopDecoder()
        var rooms = RoomFrontEnds(capacity: 2)
        let kitchen = try rooms.frontEnd(for: "kitchen", like: decoder)
        _ = try rooms.frontEnd(for: "hall", like: decoder)
        #expect(try rooms.frontEnd(for: "kitchen", like: decoder) === kitchen)
        #expect(rooms.names == ["kitchen", "hall"])
        _ = try rooms.frontEnd(for: "study", like: decoder)
        #expect(rooms.names == ["study", "kitchen"])
        _ = try rooms.frontEnd(for: "hall", like: decoder)
        #expect(rooms.names == ["hall", "study"])
        #expect(try rooms.frontEnd(for: "kitchen", like: decoder) !== kitchen)
    }

    /// A room's audio through the noise suppression has a front end of its own, remembered with
    /// the room's and forgotten with it.
    @Test func aRoomsSuppressedAudioHasAFrontEndOfItsOwn() throws {
        let decoder = try Self.phoneLoopDecoder()
        var rooms = RoomFrontEnds(capacity: 2)
        let kitchen = try rooms.frontEnd(for: "kitchen", like: decoder)
        let suppressed = try rooms.frontEnd(for: "kitchen", suppressed: true, like: decoder)
        #expect(suppressed !== kitchen)
        #expect(try rooms.frontEnd(for: "kitchen", like: decoder) === kitchen)
        #expect(try rooms.frontEnd(for: "kitchen", suppressed: true, like: decoder) === suppressed)
        #expect(rooms.names == ["kitchen"])
        _ = try rooms.frontEnd(for: "hall", suppressed: true, like: decoder)
        #expect(rooms.names == ["hall", "kitchen"])
        _ = try rooms.frontEnd(for: "study", like: decoder)
        #expect(rooms.names == ["study", "hall"])
        #expect(try rooms.frontEnd(for: "kitchen", suppressed: true, like: decoder) !== suppressed)
    }
}
