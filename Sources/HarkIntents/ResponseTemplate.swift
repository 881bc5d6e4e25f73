import Foundation

/// A reply with `${placeholder}` slots, filled from parameter values and a few
/// values Hark supplies itself (`${clock.time}`, `${clock.date}`, `${app}`).
public struct ResponseTemplate: Sendable, Equatable, CustomStringConvertible {
    public enum Piece: Sendable, Equatable {
        case text(String)
        case placeholder(String)
    }

    public let source: String
    public let pieces: [Piece]

    /// Placeholders Hark fills whatever the intent.
    public static let systemPlaceholders: Set<String> = ["clock.time", "clock.date", "app"]

    public struct SyntaxError: Error, Equatable, Sendable {
        public let reason: String
    }

    public init(_ source: String) throws(SyntaxError) {
        var pieces: [Piece] = []
        var text = ""
        var rest = Substring(source)
        while let start = rest.range(of: "${") {
            text += rest[rest.startIndex..<start.lowerBound]
            let afterOpen = rest[start.upperBound...]
            guard let close = afterOpen.firstIndex(of: "}") else {
                throw SyntaxError(reason: "\"${\" without a closing \"}\"")
            }
            let name = afterOpen[afterOpen.startIndex..<close].trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw SyntaxError(reason: "empty placeholder \"${}\"") }
            if !text.isEmpty { pieces.append(.text(text)) }
            text = ""
            pieces.append(.placeholder(name))
            rest = afterOpen[afterOpen.index(after: close)...]
        }
        text += rest
        if !text.isEmpty { pieces.append(.text(text)) }
        self.source = source
        self.pieces = pieces
    }

    public var placeholders: [String] {
        pieces.compactMap { if case .placeholder(let name) = $0 { name } else { nil } }
    }

    public var description: String { source }

    /// The reply with each placeholder replaced; a placeholder with no value
    /// is left out rather than spoken as code.
    public func render(_ values: [String: String]) -> String {
        var spoken = ""
        for piece in pieces {
            switch piece {
            case .text(let text):
                // A value that ends a sentence itself ("Running late.") takes the template's full stop.
                if text.hasPrefix("."), let last = spoken.last, ".!?".contains(last) {
                    spoken += text.dropFirst()
                } else {
                    spoken += text
                }
            case .placeholder(let name):
                spoken += values[name] ?? ""
            }
        }
        return spoken.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }
}
