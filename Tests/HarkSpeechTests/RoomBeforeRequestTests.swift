import Foundation
import HarkSpeech
import HarkTestSupport
import Testing

/// The room heard before a request: a noise that comes and goes counts as the room's, the wake
/// word does not, and a noisy room's asking first judges the request by it.
@Suite struct RoomBeforeRequestTests {
    @Test func aNoiseThatComesAndGoesCountsByItsMeanPower() throws {
        let noise = inBursts(seconds: 5, level: 1_000, share: 0.2)
        let power = try #require(RoomBeforeRequest.meanPower(of: noise))
        // A fifth of the time at 1,000 RMS: a mean square of about 200,000.
        #expect(abs(power - 200_000) < 20_000, "\(power)")
        // The utterance's own estimate takes its quietest pieces: digital quiet.
        let ownRoom = SignalToNoise.estimate(noise) ?? 0
        #expect(ownRoom > 60, "\(ownRoom)")
    }

    @Test func onlyTheSecondsBeforeThePositionCount() throws {
        var room = RoomBeforeRequest()
        let quiet = [Int16](repeating: 0, count: 16_000), loud = inSteadyNoise(quiet, level: 1_000)
        var heard = 0
        // Six quiet seconds, then a loud one (the wake word), read in the live loop's pieces.
        for chunk in [quiet, quiet, quiet, quiet, quiet, quiet, loud] {
            for start in stride(from: 0, to: chunk.count, by: 480) {
                let piece = chunk[start..<min(start + 480, chunk.count)]
                heard += piece.count
                room.observe(piece, endingAt: heard)
            }
        }
        let beforeWake = try #require(room.meanPower(before: 6 * 16_000))
        #expect(beforeWake < 1, "\(beforeWake)")
        let withWake = try #require(room.meanPower(before: heard))
        #expect(withWake > 150_000, "\(withWake)")
        // Less than a second heard before the position says nothing.
        #expect(room.meanPower(before: 8_000) == nil)
        #expect(RoomBeforeRequest.meanPower(of: quiet.prefix(12_000)) == nil)
    }

    /// A request said in a moment of quiet, after seconds of a noise that came and went, is
    /// asked about as in a noisy room; the same request after a quiet room is acted on, and a room
    /// heard before one request is not another room's.
    @Test func aRequestAfterANoisyRoomIsAskedAbout() throws {
        var asking = RecognizerConfiguration()
        // A reach wide enough that whatever margin the request gets, a noisy room asks about it.
        asking.noisyConfirmation = NoisyConfirmation(below: 30, reach: 10)
        let recognizer = try Recognizer(configuration: asking)
        try recognizer.use(RecognizerTests.home)
        let silence = [Int16](repeating: 0, count: 16_000)
        let request = silence + (try RecognizerTests.samples("home-en/turn_on_the_garage_light.wav")) + silence
        let voice = try #require(SignalToNoise.voiceLevel(request))
        #expect(try #require(SignalToNoise.estimate(request)) > 40)
        // The room before it 15 dB under the voice.
        let roomPower = 32_768.0 * 32_768.0 * pow(10, (voice - 15) / 10)

        // Each room is heard for the first time, as each learns its own background from its utterances.
        let acted = try recognizer.recognize(request, heardIn: "quiet")
        try #require(!acted.isRejected && acted.text == "turn on the garage light", "\(acted.rejection ?? "")")
        #expect(acted.features?.signalToNoiseWithRoomBefore == nil)

        recognizer.heardBeforeRequest(roomPower: roomPower, heardIn: "noisy")
        let asked = try recognizer.recognize(request, heardIn: "noisy")
        #expect(asked.isRejected && asked.isAskedForTheRoom, "\(asked.rejection ?? "")")
        #expect(asked.guess == acted.words)
        #expect(asked.isInNoisyRoom)
        // Heard the same: only the room it is judged in differs.
        #expect(asked.features?.heardMargin == acted.features?.heardMargin)
        #expect(asked.features?.signalToNoise == acted.features?.signalToNoise)
        let judgedIn = try #require(asked.features?.signalToNoiseWithRoomBefore)
        #expect(abs(judgedIn - 15) < 0.01, "\(judgedIn)")
        // The room before the next request is judged again: the noise has gone.
        recognizer.heardBeforeRequest(roomPower: nil, heardIn: "noisy")
        #expect(try !recognizer.recognize(request, heardIn: "noisy").isRejected)

        // Another room's request is judged by its own.
        #expect(try recognizer.recognize(request, heardIn: "kitchen").margin == acted.margin)
        // A room quieter than the request's own changes nothing.
        recognizer.heardBeforeRequest(roomPower: 1e-6, heardIn: "still")
        let afterStill = try recognizer.recognize(request, heardIn: "still")
        #expect(!afterStill.isRejected && afterStill.margin == acted.margin)
    }
}
