import Foundation
@testable import HarkSpeech
import HarkTestSupport
import Testing

/// The noise compensation network's file (`NoiseCompensationNetwork`, read by `NoiseCompensation`)
/// and what it does to each frame.
struct NoiseCompensationNetworkTests {
    /// Context 1, 2 coefficients: the first hidden unit is the frame's own first coefficient, the
    /// second the frame before's; the first correction is the first unit, the second the second
    /// unit plus 0.5, scaled by 2.
    static func file(means: String = "0 0 0 0 0 0", scales: String = "1 1 1 1 1 1", lastLayer: String = "layer 2 2 linear",
                     firstRow: String = "0 1", extra: String = "") -> String {
        """
        hark-noise-compensation-network 1
        context 1 coefficients 2 layers 2
        \(means)
        \(scales)
        1 2
        layer 6 2 relu
        0 0
        \(firstRow)
        0 0
        1 0
        0 0
        0 0
        0 0
        \(lastLayer)
        0 0.5
        1 0
        0 1
        \(extra)
        """
    }

    @Test func eachFrameIsMovedByWhatItsNeighboursPredictTimesTheStrength() throws {
        let compensation = try NoiseCompensation(text: Self.file(), name: "test")
        #expect(compensation.coefficients == 2)
        let cepstra = Cepstra(values: [3, 0, -1, 0, 2, 0], width: 2)
        // Frame 1 (the one before it held at the edge): units 3 and 3, corrections 3 and 3.5 × 2.
        // Frame 2: units 0 (rectified) and 3. Frame 3: units 2 and 0 (the frame before is -1).
        let moved = compensation.compensated(cepstra, strength: 0.5).values
        let expected: [Float] = [4.5, 3.5, -1, 3.5, 3, 0.5]
        for (value, wanted) in zip(moved, expected) { #expect(abs(value - wanted) < 1e-5, "\(moved)") }
        #expect(compensation.compensated(cepstra, strength: 0).values == cepstra.values)
    }

    @Test func theInputsAreStandardisedFirst() throws {
        // Means 1 and scales 2: frame 1's units are (3 − 1) / 2 = 1 each.
        let compensation = try NoiseCompensation(text: Self.file(means: "1 1 1 1 1 1", scales: "2 2 2 2 2 2"), name: "test")
        let moved = compensation.compensated(Cepstra(values: [3, 0], width: 2), strength: 1).values
        #expect(abs(moved[0] - 4) < 1e-5 && abs(moved[1] - 3) < 1e-5, "\(moved)")
    }

    @Test func cepstraOfAnotherWidthAreLeftAsTheyAre() throws {
        let compensation = try NoiseCompensation(text: Self.file(), name: "test")
        let thirteen = Cepstra(values: [Float](repeating: 1, count: 26), width: 13)
        #expect(compensation.compensated(thirteen, strength: 1).values == thirteen.values)
    }

    @Test(arguments: [
        (NoiseCompensationNetworkTests.file().replacingOccurrences(of: "context 1 coefficients 2 layers 2", with: "context 1 coefficients 2"),
         "its second line is not"),
        (NoiseCompensationNetworkTests.file(scales: "1 1 1 0 1 1"), "an input scale is not above 0"),
        (NoiseCompensationNetworkTests.file(scales: "1 1 1 1 1"), "the input scales has 5 numbers, expected 6"),
        (NoiseCompensationNetworkTests.file(firstRow: "0 x"), "\"x\" is not a number"),
        (NoiseCompensationNetworkTests.file(firstRow: "0 1 1"), "layer 1's weights row 1 has 3 numbers, expected 2"),
        (NoiseCompensationNetworkTests.file(lastLayer: "layer 3 2 linear"), "layer 2 does not start with \"layer 2 OUT relu|linear\""),
        (NoiseCompensationNetworkTests.file(lastLayer: "layer 2 2 relu"), "its last layer is not linear with 2 outputs"),
        (NoiseCompensationNetworkTests.file(extra: "1 2 3"), "1 lines after its last layer"),
        (String(NoiseCompensationNetworkTests.file().prefix(80)), "it ends before the input scales"),
    ])
    func aDamagedFileIsRefusedWithWhatIsWrong(_ text: String, _ complaint: String) {
        NoiseCompensationFileTests.expectRefused(text, named: "/tmp/room.network",
                                                 saying: "/tmp/room.network is not a noise compensation network", complaint)
    }
}
