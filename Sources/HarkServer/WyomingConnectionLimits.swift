import Foundation
public import HarkWyoming
import NIOCore

/// How long a server waits on a silent client, and how many it serves at once. A household
/// leaves the server running for months: without these, clients that connect and never speak
/// (a crashed integration, a port scanner) pile up until the descriptors run out and everyone waits.
public struct WyomingConnectionLimits: Sendable, Equatable {
    /// A connection on which nothing is read or written for this long (seconds) is closed, with an
    /// error event saying why; nil: never.
    public var idleTimeout: Double?
    /// Connections served at once; more are refused with an error event.
    public var maximumConnections: Int

    public static let standardIdleTimeout = 60.0
    public static let standardMaximumConnections = 64

    public init(idleTimeout: Double? = WyomingConnectionLimits.standardIdleTimeout,
                maximumConnections: Int = WyomingConnectionLimits.standardMaximumConnections) {
        self.idleTimeout = idleTimeout
        self.maximumConnections = maximumConnections
    }

    /// "2 s", "60 s", "0.5 s".
    static func seconds(_ value: Double) -> String { String(format: "%g s", value) }
}

/// Turns the idle handler's event into the error that ends the connection's inbound stream, as
/// a malformed event does: the session then tells the client why and closes.
final class IdleConnectionCloser: ChannelInboundHandler, Sendable {
    typealias InboundIn = WyomingEvent
    typealias InboundOut = WyomingEvent

    private let timeout: Double

    init(timeout: Double) {
        self.timeout = timeout
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard event is IdleStateHandler.IdleStateEvent else {
            context.fireUserInboundEventTriggered(event)
            return
        }
        context.fireErrorCaught(WyomingError(.idleTimeout, "said nothing for \(WyomingConnectionLimits.seconds(timeout))"))
    }
}
