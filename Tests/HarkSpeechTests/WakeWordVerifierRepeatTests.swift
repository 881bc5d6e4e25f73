import Foundation
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// The second look keeps nothing between candidates that could change what it finds: the free
/// phones of the last window are reused only for that very window (the search proposes "jarvis"
/// and "jarvis(2)" over the same frames), and the other-words check makes its searches afresh
/// each time. Each look must come out as a verifier that never looked at anything else finds it.
@Suite struct WakeWordVerifierRepeatTests {
    /// The first real "jarvis" of audio-fixtures/wake/real_wakes.wav, with its quiet around it.
    static func window() throws -> [Int16] {
        let wake = try #require(try WakeWordSpotterTests.segments("real_wakes").first { $0.kind == "wake" && $0.text == "jarvis" })
        let samples = try WakeWordSpotterTests.samples("real_wakes")
        return Array(samples[Int(wake.start * 16_000)..<min(Int(wake.end * 16_000), samples.count)])
    }

    /// A verifier of its own (a new spotter's), that has looked at nothing yet.
    static func freshSecondLook() throws -> WakeWordSecondLook {
        try #require(try WakeWordSpotterTests.realSpotter(otherWords: true).secondLook)
    }

    @Test func eachSpellingIsJudgedAsIfItWereTheOnlyOne() throws {
        let audio = try Self.window()
        let spellings = [["JH", "AA", "R", "V", "AH", "S"], ["JH", "AA", "R", "V", "IH", "S"]]
        let words = try #require(try Self.freshSecondLook().otherWordsBeside["jarvis"])

        // One verifier: each spelling in turn over the same window, the first again, the check twice.
        let shared = try Self.freshSecondLook()
        let (inTurn, again, shorter, gaps) = try shared.look { (verifier) throws(RecognitionError) in
            let window = try verifier.cepstra(of: audio)
            let inTurn = try spellings.map { (phones) throws(RecognitionError) in
                try verifier.evidence(phones: phones, in: window, searchScore: -1)
            }
            let again = try verifier.evidence(phones: spellings[0], in: window, searchScore: -1)
            // A window 100 ms shorter is another window.
            let shorter = try verifier.evidence(phones: spellings[1], in: try verifier.cepstra(of: Array(audio.dropFirst(1_600))),
                                                searchScore: -1)
            let gaps = try (0..<2).map { (_) throws(RecognitionError) in
                try verifier.otherWordsGap(phones: spellings[0], besides: words, in: window, phraseFrames: 60)
            }
            return (inTurn, again, shorter, gaps)
        }
        #expect(inTurn[0].aligned && inTurn[1].aligned)
        #expect(inTurn[0] != inTurn[1], "the two spellings should align differently")
        #expect(again == inTurn[0])
        #expect(gaps[0] == gaps[1])

        let shorterAlone = try Self.freshSecondLook().look { (verifier) throws(RecognitionError) in
            try verifier.evidence(phones: spellings[1], in: try verifier.cepstra(of: Array(audio.dropFirst(1_600))), searchScore: -1)
        }
        #expect(shorter == shorterAlone)
        #expect(shorter != inTurn[1])

        // Fresh verifiers, each asked about one spelling only: the same evidence, the same gap.
        for (index, phones) in spellings.enumerated() {
            let (alone, gap) = try Self.freshSecondLook().look { (verifier) throws(RecognitionError) in
                let window = try verifier.cepstra(of: audio)
                let evidence = try verifier.evidence(phones: phones, in: window, searchScore: -1)
                return (evidence, try verifier.otherWordsGap(phones: phones, besides: words, in: window, phraseFrames: 60))
            }
            #expect(alone == inTurn[index], "spelling \(index + 1)")
            if index == 0 { #expect(gap == gaps[0]) }
        }
    }
}
