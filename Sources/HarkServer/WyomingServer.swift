import Foundation
import CMalloc
public import HarkWyoming
public import Logging
import NIOCore
import NIOPosix
import Synchronization

/// A Wyoming server: each connection gets its own `WyomingSession`, running as a task of its
/// own, so one client's long transcription never holds up another's describe or synthesis
/// (decoding itself runs on the recogniser's dedicated thread, never on NIO's event loops).
/// A client that sends something malformed, says nothing for the idle timeout, or comes when
/// the server is full (`WyomingConnectionLimits`) is told why in an `error` event and
/// disconnected; everyone else is served on.
public final class WyomingServer: Sendable {
    /// Where it listens, with the port the system chose when port 0 was asked for.
    public let endpoint: WyomingEndpoint

    private typealias Connection = NIOAsyncChannel<WyomingEvent, WyomingEvent>
    private let listener: NIOAsyncChannel<Connection, Never>
    private let hark: WyomingAssistant
    private let logger: Logger
    private let connectionLimits: WyomingConnectionLimits
    /// Connections being served now.
    private let served = Mutex(0)
    /// Connections refused since the last line logged about them, and when that was.
    private let refusals = Mutex((count: 0, lastLogged: Date.distantPast))
    /// Refusals are logged at most this often: a client opening connections in a loop would
    /// otherwise fill the journal.
    static let refusalLogInterval = 10.0

    /// Binds the address (a socket file left by an earlier run is replaced); serving starts with `run()`.
    public static func bind(_ endpoint: WyomingEndpoint, serving hark: WyomingAssistant, limits: WyomingLimits = WyomingLimits(),
                            connections: WyomingConnectionLimits = WyomingConnectionLimits(),
                            logger: Logger) async throws(ServerError) -> WyomingServer {
        let bootstrap = ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.backlog, value: 64)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        let initializer: @Sendable (any Channel) -> EventLoopFuture<Connection> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(WyomingEventDecoder(limits: limits)))
                try channel.pipeline.syncOperations.addHandler(MessageToByteHandler(WyomingEventEncoder()))
                if let idle = connections.idleTimeout {
                    // Reads and writes both count: a client waiting while its reply streams is not idle.
                    try channel.pipeline.syncOperations.addHandler(IdleStateHandler(allTimeout: .milliseconds(Int64(idle * 1000))))
                    try channel.pipeline.syncOperations.addHandler(IdleConnectionCloser(timeout: idle))
                }
                // Half-closure: the last events (an error's explanation) are flushed before the socket closes.
                return try Connection(wrappingChannelSynchronously: channel,
                                      configuration: .init(isOutboundHalfClosureEnabled: true))
            }
        }
        let listener: NIOAsyncChannel<Connection, Never>
        do {
            switch endpoint {
            case .tcp(let host, let port):
                listener = try await bootstrap.bind(host: host, port: port, childChannelInitializer: initializer)
            case .unix(let path):
                listener = try await bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true,
                                                    childChannelInitializer: initializer)
            }
        } catch {
            throw ServerError(.bind, "cannot listen on \(endpoint): \(error)")
        }
        var bound = endpoint
        if case .tcp(let host, _) = endpoint, let port = listener.channel.localAddress?.port { bound = .tcp(host: host, port: port) }
        return WyomingServer(endpoint: bound, listener: listener, hark: hark, connectionLimits: connections, logger: logger)
    }

    private init(endpoint: WyomingEndpoint, listener: NIOAsyncChannel<Connection, Never>, hark: WyomingAssistant,
                 connectionLimits: WyomingConnectionLimits, logger: Logger) {
        self.endpoint = endpoint
        self.listener = listener
        self.hark = hark
        self.connectionLimits = connectionLimits
        self.logger = logger
    }

    /// Stops taking connections: `run` then ends once the connections being served have. Called
    /// beside cancelling `run`'s task, so that a stop ends `run` whatever it was waiting on.
    public func stop() {
        listener.channel.close(promise: nil)
    }

    /// Accepts and serves connections until the task running it is cancelled (or `stop`); then
    /// the listening socket is closed and open connections are ended.
    public func run() async throws {
        try await listener.executeThenClose { connections in
            try await withThrowingDiscardingTaskGroup { group in
                for try await connection in connections {
                    let admitted = served.withLock { count in
                        guard count < connectionLimits.maximumConnections else { return false }
                        count += 1
                        return true
                    }
                    guard admitted else {
                        group.addTask { await self.refuse(connection) }
                        continue
                    }
                    group.addTask {
                        await self.serve(connection)
                        self.served.withLock { $0 -= 1 }
                    }
                }
            }
        }
    }

    private func serve(_ connection: Connection) async {
        let peer = connection.channel.remoteAddress?.description ?? "a client"
        logger.debug("\(peer) connected")
        // What the connection held (a wake-word search, a long utterance) goes back to the
        // system once it is gone; without this the heap keeps the high-water mark of the busiest
        // moment for good.
        defer { malloc_trim(0) }
        do {
            try await connection.executeThenClose { events, replies in
                var session = WyomingSession(hark)
                do {
                    for try await event in events {
                        if event.type == WyomingEventType.synthesize {
                            // Streamed: the first sentence plays while the rest is made.
                            try await session.speak(try WyomingSession.text(event, "text"), voice: try WyomingSession.voiceName(event)) {
                                try await replies.write(contentsOf: $0)
                            }
                        } else {
                            try await replies.write(contentsOf: try await session.respond(to: event))
                        }
                    }
                } catch let refused as WyomingError {
                    // A silent client is routine (an integration that went away); bad input is not.
                    let level: Logger.Level = refused.code == .idleTimeout ? .notice : .warning
                    logger.log(level: level, "\(peer): \(refused.message); closing the connection")
                    try await replies.write(WyomingEvent(refused))
                }
            }
            logger.debug("\(peer) disconnected")
        } catch {
            // The client went away mid-event or mid-reply: nothing is left to tell it.
            logger.info("\(peer): the connection ended: \(error)")
        }
    }

    /// Tells a client the server is full and closes its connection; logs it, at most once every
    /// `refusalLogInterval` seconds with the number refused meanwhile.
    private func refuse(_ connection: Connection) async {
        let limit = connectionLimits.maximumConnections
        let logged: Int? = refusals.withLock { state in
            state.count += 1
            guard Date().timeIntervalSince(state.lastLogged) >= Self.refusalLogInterval else { return nil }
            defer { state = (0, Date()) }
            return state.count
        }
        if let logged {
            logger.warning("refused \(logged == 1 ? "a connection" : "\(logged) connections"): already serving \(limit) connections at once (--max-connections)")
        }
        let error = WyomingError(.tooManyConnections, "the server already serves \(limit) connections; try again later")
        do {
            try await connection.executeThenClose { _, replies in
                try await replies.write(WyomingEvent(error))
            }
        } catch {
            // It went away before hearing why: nothing is left to tell it.
            logger.debug("a refused client left before it was told why: \(error)")
        }
    }
}
