/// A failure of speech synthesis, naming the espeak-ng call.
public struct VoiceError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        case initialisation
        case unknownVoice
        case badSetting
        case synthesis
        /// A pronunciation to speak from is not in the model's phones.
        case pronunciation
    }

    public var code: Code
    public var message: String
    /// espeak-ng's status code, where it gave one.
    public var status: Int32?

    public init(_ code: Code, _ message: String, status: Int32? = nil) {
        self.code = code
        self.message = message
        self.status = status
    }

    public var description: String {
        if let status { "\(message) (espeak-ng status \(status))" } else { message }
    }
}
