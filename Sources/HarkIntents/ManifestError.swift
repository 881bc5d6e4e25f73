/// Why a manifest was refused: every problem found, each with its file and line.
public struct ManifestError: Error, Sendable, Equatable, CustomStringConvertible {
    public struct Problem: Sendable, Equatable, CustomStringConvertible {
        public var file: String
        /// 1-based; nil when the problem is the file as a whole.
        public var line: Int?
        public var reason: String

        public init(file: String, line: Int?, reason: String) {
            self.file = file
            self.line = line
            self.reason = reason
        }

        public var description: String {
            if let line { "\(file):\(line): \(reason)" } else { "\(file): \(reason)" }
        }
    }

    public var problems: [Problem]

    public init(problems: [Problem]) {
        self.problems = problems
    }

    public var description: String {
        problems.map(\.description).joined(separator: "\n")
    }
}
