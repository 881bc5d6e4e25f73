/// How deeply a YAML text nests, found by a cheap scan before a YAML parser sees it.
///
/// The parser builds nested nodes by recursion, so a file nested some thousands of levels deep
/// overflows the stack and kills the process with no word of why. Counting the nesting first
/// lets such a file be refused, with its line. The count errs high, never low: each block
/// indentation level, each "- " opening a sequence entry, and each "[" or "{" opening a flow
/// collection is one level; brackets inside quoted or plain text are not counted.
public enum YAMLNesting {
    /// Deeper than any app, settings or shortcut file needs, and far short of the stack's limit.
    public static let limit = 64

    /// Refuses `text` when it nests deeper than `limit`, naming the line where it first does.
    public static func check(_ text: String, file: String) throws(ManifestError) {
        if let line = lineTooDeep(text) {
            throw ManifestError(problems: [.init(file: file, line: line, reason:
                "nested more than \(limit) levels deep; Hark reads no deeper (is this file made by hand?)")])
        }
    }

    /// The 1-based line where `text` first nests deeper than `limit`, or nil.
    public static func lineTooDeep(_ text: String, limit: Int = limit) -> Int? {
        var scanner = Scanner()
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if scanner.scan(Array(line.utf8)) > limit { return index + 1 }
        }
        return nil
    }

    /// The state carried from line to line.
    private struct Scanner {
        /// Indentations of the open block collections.
        var indents: [Int] = []
        var flowDepth = 0
        /// Inside a quoted scalar that goes on past its line ("\"" or "'").
        var openQuote: UInt8?
        /// Inside a block scalar ("|" or ">"): lines indented more than this are its text.
        var blockScalarParent: Int?

        /// Scans one line; returns the deepest nesting on it.
        mutating func scan(_ bytes: [UInt8]) -> Int {
            let space = UInt8(ascii: " ")
            var index = 0
            while index < bytes.count, bytes[index] == space { index += 1 }
            let indent = index
            let blank = index == bytes.count || bytes[index] == UInt8(ascii: "#") || bytes[index] == UInt8(ascii: "\r")
            if let parent = blockScalarParent {
                if blank || indent > parent { return indents.count }
                blockScalarParent = nil
            }
            if openQuote == nil, flowDepth == 0 {
                if blank { return indents.count }
                while let last = indents.last, last >= indent { indents.removeLast() }
                indents.append(indent)
            }
            var deepest = indents.count + flowDepth
            var tokenStart = openQuote == nil
            while index < bytes.count {
                let byte = bytes[index]
                if let quote = openQuote {
                    if byte == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                        index += 2
                        continue
                    }
                    if byte == quote {
                        // '' inside single quotes is a quote, not the end.
                        if quote == UInt8(ascii: "'"), index + 1 < bytes.count, bytes[index + 1] == quote {
                            index += 2
                            continue
                        }
                        openQuote = nil
                        tokenStart = false
                    }
                    index += 1
                    continue
                }
                switch byte {
                case space, UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                    break
                case UInt8(ascii: "#") where index == 0 || bytes[index - 1] == space || bytes[index - 1] == UInt8(ascii: "\t"):
                    return deepest
                case UInt8(ascii: "\""), UInt8(ascii: "'"):
                    if tokenStart { openQuote = byte }
                    tokenStart = false
                case UInt8(ascii: "["), UInt8(ascii: "{"):
                    if tokenStart || flowDepth > 0 {
                        flowDepth += 1
                        deepest = max(deepest, indents.count + flowDepth)
                        tokenStart = true
                    }
                case UInt8(ascii: "]"), UInt8(ascii: "}"):
                    if flowDepth > 0 { flowDepth -= 1 }
                    tokenStart = false
                case UInt8(ascii: ","):
                    tokenStart = flowDepth > 0
                case UInt8(ascii: "-"), UInt8(ascii: "?"), UInt8(ascii: ":"):
                    let followedBySpace = index + 1 == bytes.count || bytes[index + 1] == space
                    if tokenStart || byte == UInt8(ascii: ":") || flowDepth > 0, followedBySpace {
                        let opensEntry = byte == UInt8(ascii: "-") && tokenStart && flowDepth == 0
                        tokenStart = true
                        index += 1
                        while index < bytes.count, bytes[index] == space { index += 1 }
                        // "- - x": each dash opens a sequence one level deeper, its entry at the
                        // column after it (where the entry's next lines are indented to).
                        if opensEntry {
                            indents.append(index)
                            deepest = max(deepest, indents.count + flowDepth)
                        }
                        continue
                    }
                    tokenStart = false
                case UInt8(ascii: "|"), UInt8(ascii: ">"):
                    if tokenStart, flowDepth == 0 {
                        blockScalarParent = indent
                        return deepest
                    }
                    tokenStart = false
                default:
                    tokenStart = false
                }
                index += 1
            }
            return deepest
        }
    }
}
