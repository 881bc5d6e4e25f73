/// The one error type of HarkAudio: a code to branch on, a one-line message for people
/// (naming the file, device or C call and the system's own explanation), and the
/// underlying numeric code when a C library gave one.
public struct AudioError: Error, CustomStringConvertible, Sendable, Equatable {
    public enum Code: Sendable, Equatable {
        /// The bytes do not start with a RIFF/WAVE header.
        case notWAV
        /// Zero bytes, or a well-formed file with no samples.
        case empty
        /// The file ends inside its header or in the middle of a sample frame.
        case truncated
        /// The header is present but inconsistent (zero channels, impossible block size...).
        case malformed
        /// A real encoding this reader does not decode (µ-law, ADPCM, MP3...).
        case unsupportedEncoding
        /// Reading or writing a file failed.
        case io
        /// An ALSA call failed.
        case device
        /// libsamplerate failed or was asked for an impossible ratio.
        case resampling
        /// An audio-processing library (WebRTC's noise suppression) could not be set up or failed.
        case processing
    }

    public var code: Code
    public var message: String
    /// The errno, negative ALSA code or libsamplerate code behind the failure, if any.
    public var underlying: Int32?

    public init(_ code: Code, _ message: String, underlying: Int32? = nil) {
        self.code = code
        self.message = message
        self.underlying = underlying
    }

    public var description: String { message }
}
