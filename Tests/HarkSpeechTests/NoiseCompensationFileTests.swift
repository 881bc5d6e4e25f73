import Foundation
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// The noise compensation's file (`NoiseCompensation`) and what it does to a frame.
struct NoiseCompensationFileTests {
    /// A file of `components` lines for 2 coefficients: weight, 4 means, 4 variances, 2 corrections.
    static func file(_ components: [[Double]], header: String = NoiseCompensation.fileHeader,
                     shape: String? = nil) -> String {
        ([header, shape ?? "components \(components.count) coefficients 2"]
            + components.map { $0.map { String($0) }.joined(separator: " ") }).joined(separator: "\n") + "\n"
    }

    static let lowComponent: [Double] = [0.5, -10, 0, 0, 0, 1, 1, 1, 1, 3, -1]
    static let highComponent: [Double] = [0.5, 10, 0, 0, 0, 1, 1, 1, 1, -2, 4]

    @Test func aFrameIsMovedByItsComponentsCorrectionTimesTheStrength() throws {
        let compensation = try NoiseCompensation(text: Self.file([Self.lowComponent, Self.highComponent]), name: "test")
        #expect(compensation.components == 2 && compensation.coefficients == 2)
        // Three frames near the first component's mean, then three near the second's: each is
        // all but certainly of its own component.
        let cepstra = Cepstra(values: [-10, 0, -10, 0, -10, 0, 10, 0, 10, 0, 10, 0], width: 2)
        let half = compensation.compensated(cepstra, strength: 0.5).values
        let expected: [Float] = [-8.5, -0.5, -8.5, -0.5, -8.5, -0.5, 9, 2, 9, 2, 9, 2]
        for (value, wanted) in zip(half, expected) { #expect(abs(value - wanted) < 1e-3, "\(half)") }
        #expect(compensation.compensated(cepstra, strength: 0).values == cepstra.values)
    }

    @Test func aFrameBetweenTwoComponentsTakesBothCorrections() throws {
        let compensation = try NoiseCompensation(text: Self.file([Self.lowComponent, Self.highComponent]), name: "test")
        // Halfway between the means, with no change over time: equally likely to be either.
        let moved = compensation.compensated(Cepstra(values: [0, 0], width: 2), strength: 1).values
        #expect(abs(moved[0] - 0.5) < 1e-4 && abs(moved[1] - 1.5) < 1e-4, "\(moved)")
    }

    @Test func cepstraOfAnotherWidthAreLeftAsTheyAre() throws {
        let compensation = try NoiseCompensation(text: Self.file([Self.lowComponent]), name: "test")
        let thirteen = Cepstra(values: [Float](repeating: 1, count: 26), width: 13)
        #expect(compensation.compensated(thirteen, strength: 1).values == thirteen.values)
    }

    @Test(arguments: [
        (NoiseCompensationFileTests.file([NoiseCompensationFileTests.lowComponent], header: "hark-noise-compensation 2"), "its first line is neither"),
        (NoiseCompensationFileTests.file([NoiseCompensationFileTests.lowComponent], shape: "components 2 coefficients 2"), "1 components, the file says 2"),
        (NoiseCompensationFileTests.file([NoiseCompensationFileTests.lowComponent], shape: "components one coefficients 2"), "its second line is not"),
        (NoiseCompensationFileTests.file([Array(NoiseCompensationFileTests.lowComponent.dropLast())]), "has 10 numbers, expected 11"),
        (NoiseCompensationFileTests.file([[0] + NoiseCompensationFileTests.lowComponent.dropFirst()]), "a weight or a variance that is not above 0"),
        (NoiseCompensationFileTests.file([[0.5, -10, 0, 0, 0, 1, 0, 1, 1, 3, -1]]), "a weight or a variance that is not above 0"),
        (NoiseCompensationFileTests.file([NoiseCompensationFileTests.lowComponent]).replacingOccurrences(of: "-10.0", with: "nan"), "\"nan\" is not a number"),
    ])
    func aDamagedFileIsRefusedWithWhatIsWrong(_ text: String, _ complaint: String) {
        Self.expectRefused(text, named: "/tmp/room.splice", saying: "/tmp/room.splice is not a noise compensation", complaint)
    }

    /// Expects `text`, read as the compensation file `name`, refused as a model that cannot load,
    /// with `refusal` and `complaint` in the message.
    static func expectRefused(_ text: String, named name: String, saying refusal: String, _ complaint: String,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        do {
            _ = try NoiseCompensation(text: text, name: name)
            Issue.record("a damaged file was taken", sourceLocation: sourceLocation)
        } catch {
            #expect(error.code == .modelLoad, sourceLocation: sourceLocation)
            #expect(error.message.contains(refusal), "\(error.message)", sourceLocation: sourceLocation)
            #expect(error.message.contains(complaint), "\(error.message)", sourceLocation: sourceLocation)
        }
    }

    @Test func aMissingFileIsNamed() {
        do {
            _ = try NoiseCompensation(contentsOf: URL(fileURLWithPath: "/nonexistent/en-us.splice"))
            Issue.record("a missing file was taken")
        } catch {
            #expect(error.message.contains("cannot read the noise compensation /nonexistent/en-us.splice"), "\(error.message)")
        }
    }

    @Test func theShippedFileIsACompensationForTheModelsCepstra() throws {
        let shipped = try NoiseCompensation(contentsOf: Fixtures.root.appendingPathComponent("models/en-us.noise-network"))
        #expect(shipped.coefficients == 13)
        // A frame of a quiet room's speech is moved, by less than the spread of its coefficients.
        let frame: [Float] = [60, -5, -10, 5, -5, 0, -5, 0, -3, 0, -2, 0, -1]
        let moved = shipped.compensated(Cepstra(values: frame + frame + frame, width: 13), strength: 0.5).values
        #expect(moved != frame + frame + frame)
        #expect(zip(moved, frame + frame + frame).allSatisfy { abs($0 - $1) < 20 }, "\(moved)")
    }
}
