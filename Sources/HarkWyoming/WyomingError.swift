/// Why a client's input was refused; sent back as an `error` event whose `code` is the raw value.
public struct WyomingError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable, Equatable {
        /// A header line or extra data that is not a JSON object of the expected shape.
        case badJSON = "bad-json"
        /// A header line, data or payload longer than the server accepts.
        case tooLarge = "too-large"
        /// An event type Hark does not serve.
        case unknownEvent = "unknown-event"
        /// An event that makes no sense where it came (audio-stop with no audio-start).
        case unexpectedEvent = "unexpected-event"
        /// Audio in a format Hark cannot read, or a payload that is not whole frames.
        case badAudio = "bad-audio"
        /// A field missing or of the wrong kind.
        case badData = "bad-data"
        /// A language other than the ones Hark understands.
        case unsupportedLanguage = "unsupported-language"
        /// Hark failed to do what was asked (recognition or synthesis failed).
        case failed = "failed"
        /// The client sent nothing for the server's idle timeout.
        case idleTimeout = "idle-timeout"
        /// The server already serves as many connections as it takes.
        case tooManyConnections = "too-many-connections"
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
