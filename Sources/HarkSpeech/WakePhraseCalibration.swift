public import Foundation

/// How much to add to the verifier's log odds for each wake phrase measured on real speech, so
/// that one sensitivity means about as many false wakes whatever the phrase. The verifier is one
/// model for every phrase, but phrases differ: "athena"'s sounds are common in speech and wake
/// Hark more often at the same odds, while "amelia" or "hey chatterbox" are seldom heard by
/// mistake and are missed most. A phrase not in the table keeps the verifier's odds as they are.
///
/// The file (models/wake-phrases.tsv) holds one phrase a line: the phrase, a tab, the offset in
/// log odds; `#` starts a comment. The offsets are chosen on the tune half of `make bench-wake`
/// (bench/calibrate-wake-phrases.py) and judged on its test half (docs/benchmarks.md).
public struct WakePhraseCalibration: Sendable, Equatable {
    /// Offsets by phrase (`normalised`).
    public private(set) var offsets: [String: Double] = [:]
    /// No offset may move odds further than this: beyond it, a phrase's measurement is not trusted.
    public static let largestOffset = 5.0

    public init(offsets: [String: Double] = [:]) {
        for (phrase, offset) in offsets { self.offsets[Self.normalised(phrase)] = offset }
    }

    /// The offset for `phrase` (0 when it was not measured).
    public func offset(for phrase: String) -> Double { offsets[Self.normalised(phrase)] ?? 0 }

    /// "Hey  Chatterbox" and "hey-chatterbox" are one phrase: lower case, words parted by one space.
    static func normalised(_ phrase: String) -> String {
        phrase.lowercased().split { $0.isWhitespace || $0 == "-" }.joined(separator: " ")
    }

    /// Reads the table at `url`; a line it cannot read is refused with its number.
    public static func read(_ url: URL) throws(RecognitionError) -> WakePhraseCalibration {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.modelLoad, "the wake-phrase calibration \(url.path) could not be read: \(error.localizedDescription)")
        }
        var calibration = WakePhraseCalibration()
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            let fields = line.split(separator: "\t").map { $0.trimmingCharacters(in: .whitespaces) }
            let where_ = "\(url.path):\(index + 1)"
            guard fields.count == 2, !fields[0].isEmpty, let offset = Double(fields[1]), offset.isFinite else {
                throw RecognitionError(.modelLoad, "\(where_): expected a phrase, a tab and an offset in log odds, not \"\(line)\"")
            }
            guard abs(offset) <= largestOffset else {
                throw RecognitionError(.modelLoad, "\(where_): the offset \(fields[1]) is beyond ±\(largestOffset)")
            }
            let phrase = normalised(fields[0])
            guard calibration.offsets[phrase] == nil else {
                throw RecognitionError(.modelLoad, "\(where_): \"\(phrase)\" is given twice")
            }
            calibration.offsets[phrase] = offset
        }
        return calibration
    }
}
