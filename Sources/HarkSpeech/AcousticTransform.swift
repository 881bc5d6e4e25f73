public import Foundation

/// An MLLR transform of the acoustic model's means (sphinxtrain's `mllr_solve` output), as the
/// recogniser loads it with pocketsphinx's `-mllr`.
///
/// The file is checked here before pocketsphinx sees it: its reader allocates whatever sizes
/// the file's first numbers claim and ps_init then reports only that the model did not load, so
/// a wrong or damaged file would crash or say nothing useful. The layout is text: the number of
/// classes, the number of feature streams, then for each stream its length followed, for every
/// class, by the matrix A (length × length), the bias b (length) and the variance scale h (length).
public enum AcousticTransform {
    /// The streams of Debian's en-us model (its feat.params: `-svspec 0-12/13-25/26-38`).
    public static let modelStreams = [13, 13, 13]

    /// How benchmarks name the model heard through `transform` (nil: none).
    public static func modelDescription(_ transform: URL?) -> String {
        transform.map { "en-us adapted by \($0.path)" } ?? "en-us as Debian ships it"
    }

    /// Throws with the file's name and what is wrong unless `url` holds a transform for a model
    /// whose streams are `streams` long.
    public static func check(_ url: URL, streams: [Int] = modelStreams) throws(RecognitionError) {
        let text: String
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw RecognitionError(.modelLoad, "cannot read the acoustic adaptation \(url.path): \(error.localizedDescription)")
        }
        func problem(_ what: String) -> RecognitionError {
            RecognitionError(.modelLoad, "\(url.path) is not an acoustic adaptation (an MLLR transform from mllr_solve): \(what)")
        }
        let fields = text.split(whereSeparator: \.isWhitespace)
        var numbers: [Double] = []
        numbers.reserveCapacity(fields.count)
        for field in fields {
            guard let number = Double(field), number.isFinite else { throw problem("\"\(field.prefix(20))\" is not a number") }
            numbers.append(number)
        }
        guard numbers.count >= 2 else { throw problem("it is too short") }
        let classes = numbers[0], streamCount = numbers[1]
        guard classes >= 1, classes <= 64, classes == classes.rounded() else {
            throw problem("\(numbers[0]) classes (expected a whole number from 1 to 64)")
        }
        guard streamCount == Double(streams.count) else {
            throw problem("\(numbers[1]) feature streams, the model has \(streams.count)")
        }
        // Each stream: its length, then A, b and h of every class.
        var at = 2
        var lengths: [Int] = []
        for _ in streams {
            guard at < numbers.count else { throw problem("\(numbers.count) numbers, cut short") }
            // Int(_:) traps on a number out of its range: whatever the file says is checked first.
            let length = numbers[at] == numbers[at].rounded() && abs(numbers[at]) <= 4096 ? Int(numbers[at]) : -1
            lengths.append(length)
            guard streams.starts(with: lengths) else { break }
            at += 1 + Int(classes) * (length * length + 2 * length)
        }
        guard lengths == streams else {
            throw problem("a stream of \(lengths.last ?? 0), the model's are \(streams.map(String.init).joined(separator: "/"))")
        }
        let expected = 2 + streams.reduce(0) { $0 + 1 + Int(classes) * ($1 * $1 + 2 * $1) }
        guard numbers.count == expected else { throw problem("\(numbers.count) numbers, expected \(expected)") }
    }
}
