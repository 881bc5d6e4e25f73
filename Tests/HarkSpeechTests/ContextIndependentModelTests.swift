import Foundation
@testable import HarkSpeech
import Testing

/// The phone loop's cut of Debian's model: its phones and senones, the model's own weights.
@Suite struct ContextIndependentModelTests {
    @Test func debiansModelIsCutToItsContextIndependentPhones() throws {
        let model = try #require(try ContextIndependentModel(modelDirectory: RecognizerConfiguration.debianModel))
        let lines = model.modelDefinition.split(separator: "\n")
        #expect(lines.prefix(7) == ["0.3", "42 n_base", "0 n_tri", "168 n_state_map", "126 n_tied_state", "126 n_tied_ci_state", "42 n_tied_tmat"])
        let phones = lines.filter { !$0.hasPrefix("#") }.dropFirst(7)
        #expect(phones.count == 42)
        // The model's own numbering: AA's senones, silence a filler, each phone's states in turn.
        #expect(phones.contains("AA - - - n/a 2 6 7 8 N"))
        #expect(phones.contains { $0.hasPrefix("SIL - - - filler ") })
        let senones = phones.flatMap { $0.split(separator: " ").dropFirst(6).dropLast().compactMap { Int($0) } }
        #expect(senones.sorted() == Array(0..<126))

        // The weights: the dump's header, 128 codewords by 126 senones for each of 3 features, each
        // row the first 126 bytes of the model's own row of 5,126.
        let whole = try Data(contentsOf: URL(fileURLWithPath: RecognizerConfiguration.debianModel).appendingPathComponent("sendump"))
        let header = whole.count - 3 * 128 * 5_126 - 8
        #expect(model.mixtureWeights.count == header + 8 + 3 * 128 * 126)
        #expect(model.mixtureWeights.prefix(header) == whole.prefix(header))
        for row in [0, 1, 200, 383] {
            #expect(model.mixtureWeights[(header + 8 + row * 126)..<(header + 8 + row * 126 + 126)]
                    == whole[(header + 8 + row * 5_126)..<(header + 8 + row * 5_126 + 126)])
        }
    }

    @Test func anotherKindOfModelIsLeftWhole() {
        #expect(ContextIndependentModel.phones(ofBinaryModelDefinition: Data("0.3\n1 n_base\n".utf8)) == nil)
        #expect(ContextIndependentModel.weights(of: 126, inSenoneDump: Data([1, 0, 0, 0])) == nil)
    }
}
