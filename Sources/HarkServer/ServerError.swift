/// A failure to start or run the server (an address that cannot be read or bound), or of a
/// satellite's connection to its hub.
public struct ServerError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: Sendable, Equatable {
        /// A `--uri` that is not tcp://HOST:PORT or unix://PATH.
        case address
        /// The address could not be bound (in use, not permitted, no such interface).
        case bind
        /// The service could not be announced on the local network (no avahi-publish).
        case zeroconf
        /// A satellite's hub could not be reached, or the connection to it broke.
        case connection
        /// The hub answered with an `error` event.
        case refused
    }

    public var code: Code
    public var message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
