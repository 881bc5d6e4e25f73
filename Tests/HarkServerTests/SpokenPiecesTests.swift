@testable import HarkServer
import Testing

/// How a reply is cut into the pieces Hark speaks one at a time.
@Suite struct SpokenPiecesTests {
    @Test func cutsAtSentenceEndsAndKeepsEveryWord() {
        let text = "It's 3.5 degrees outside. Take a coat!\nAnything else?  "
        let pieces = SpokenPieces.split(text)
        #expect(pieces == ["It's 3.5 degrees outside.", "Take a coat!", "Anything else?"])
        #expect(pieces.joined(separator: " ").split(separator: " ") == text.split(whereSeparator: \.isWhitespace))
    }

    @Test func cutsALongSentenceAtACommaOrASpace() {
        let clause = "the lamp in the hall, "
        let text = String(repeating: clause, count: 40) + "and the porch"
        let pieces = SpokenPieces.split(text)
        #expect(pieces.count > 1)
        #expect(pieces.allSatisfy { $0.count <= SpokenPieces.longest })
        #expect(pieces.dropLast().allSatisfy { $0.hasSuffix(",") })
        #expect(pieces.joined(separator: " ").split(whereSeparator: \.isWhitespace) == text.split(whereSeparator: \.isWhitespace))
        let unbroken = String(repeating: "x", count: 700)
        #expect(SpokenPieces.split(unbroken).map(\.count) == [300, 300, 100])
        #expect(SpokenPieces.split("   \n ").isEmpty)
    }
}
