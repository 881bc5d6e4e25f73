/// Everything the recogniser can fail at, with the pocketsphinx call that failed.
public struct RecognitionError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// The acoustic model or dictionary could not be loaded.
        case modelLoad
        /// Words a grammar uses that no dictionary or pronouncer knows.
        case unknownWords([String])
        /// The grammar could not be compiled or installed.
        case grammar
        /// A call while decoding audio failed.
        case decoding
        /// A pronunciation could not be added.
        case pronunciation
    }

    public var code: Code
    public var message: String
    /// The C return code, where there was one.
    public var returnCode: Int32?

    public init(_ code: Code, _ message: String, returnCode: Int32? = nil) {
        self.code = code
        self.message = message
        self.returnCode = returnCode
    }

    public var description: String {
        if let returnCode { "\(message) (returned \(returnCode))" } else { message }
    }
}
