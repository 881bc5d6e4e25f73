import Foundation
import HarkSpeech
import HarkTestSupport
import Testing

/// bench/noisy-reaches.py, which judges a benchmark run's requests again with other noisy-room
/// reaches: run on a report whose margins Hark's own `NoisyConfirmation` judged, so that the
/// script's copy of the shipped reaches is checked against the recogniser's.
@Suite struct NoisyReachesScriptTests {
    static let threshold = Confidence.defaultThreshold
    static let band = Confidence.defaultAskBand

    /// One request as `hark bench --json` reports it, its margin judged as the recogniser judges
    /// one heard `above` the threshold in a room of `signalToNoise` dB.
    static func outcome(_ name: String, above: Double, signalToNoise: Double, suppressed: Bool = false, agreed: Bool = false,
                        telephoneBand: Bool = false, mustReject: Bool = false) -> [String: Any] {
        let heard = threshold + above
        let reach = NoisyConfirmation.askingReach(.standard, signalToNoise: signalToNoise, denoised: suppressed, agreed: agreed,
                                                  telephoneBandReach: telephoneBand ? RecognizerConfiguration.standardTelephoneBandReach : nil)
        let margin = reach.map { NoisyConfirmation.squeezed(heard, threshold: threshold, askBand: band, reach: $0) } ?? heard
        var features: [String: Any] = ["heardMargin": heard, "signalToNoise": signalToNoise, "heardThroughSuppression": suppressed,
                                       "telephoneBand": telephoneBand]
        if suppressed {
            features["otherHearing"] = ["formsPhrase": true, "words": agreed ? ["turn", "on", "the", "lamp"] : ["turn", "off", "the", "lamp"]]
        }
        return ["folder": "snr10", "recording": "\(name).wav", "account": "heard \"turn on the lamp\" as ChangeLightState",
                "understood": true, "mustReject": mustReject, "commandRight": !mustReject, "margin": margin, "features": features]
    }

    static var outcomes: [[String: Any]] { [
        outcome("once-asked", above: 0.3, signalToNoise: 20),          // inside the reach (0.5): asked
        outcome("once-acted", above: 0.7, signalToNoise: 20),
        outcome("suppressed-asked", above: 0.8, signalToNoise: 9, suppressed: true),  // reach 1.0
        outcome("agreed-acted", above: 0.8, signalToNoise: 9, suppressed: true, agreed: true),  // reach 0.65
        outcome("quiet-acted", above: 0.1, signalToNoise: 40),
        outcome("telephone-asked", above: 0.4, signalToNoise: 40, telephoneBand: true),  // reach 0.6
        outcome("to-reject", above: 0.2, signalToNoise: 40, mustReject: true),
    ] }

    static func run(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let report = directory.appendingPathComponent("report.json")
        let json: [String: Any] = ["threshold": threshold, "asking": ["band": band], "outcomes": outcomes]
        try JSONSerialization.data(withJSONObject: json).write(to: report)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Fixtures.root.appendingPathComponent("bench/noisy-reaches.py").path, report.path, directory.path] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let printed = try output.fileHandleForReading.readToEnd() ?? Data()
        let complaints = try errors.fileHandleForReading.readToEnd() ?? Data()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self), String(decoding: complaints, as: UTF8.self))
    }

    /// The printed lines with every run of spaces made one.
    static func lines(_ output: String) -> [String] {
        output.split(separator: "\n").map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }
    }

    @Test func theShippedReachesAreTheRecognisers() throws {
        let outcome = try Self.run([])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = Self.lines(outcome.output)
        #expect(lines.first == "the shipped reaches reproduce the run", "\(outcome.output)")
        // Done right / asked about, heard right / asked about, heard wrong / wrong; false acceptances.
        #expect(lines.contains("snr10 3 / 3 / 0 / 0 of 6; 1 of 1"), "\(outcome.output)")
    }

    @Test func anotherReachIsJudgedBesideThem() throws {
        let outcome = try Self.run(["--try", "agreed=1.0"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let lines = Self.lines(outcome.output)
        let tried = try #require(lines.firstIndex(of: "agreed=1.0: right / asked, right / asked, wrong / wrong; false acceptances"),
                                 "\(outcome.output)")
        // Two agreeing hearings 0.8 above the threshold are asked about now, not done.
        #expect(lines[(tried + 1)...].first == "snr10 2 / 4 / 0 / 0 of 6; 1 of 1", "\(outcome.output)")
        #expect(lines[..<tried].contains("snr10 3 / 3 / 0 / 0 of 6; 1 of 1"), "\(outcome.output)")
    }

    @Test func anUnknownSettingIsRefused() throws {
        let outcome = try Self.run(["--try", "loudness=2"])
        #expect(outcome.status != 0)
        #expect(outcome.errors.contains("'loudness' is none of below, reach, denoised, agreed, phone"), "\(outcome.errors)")
    }
}
