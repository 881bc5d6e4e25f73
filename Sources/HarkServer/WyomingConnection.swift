import Foundation
import HarkWyoming
#if canImport(Glibc)
import Glibc
#endif

/// A Wyoming client connection on a blocking socket, for a satellite talking to its hub from a
/// thread of its own (`HubBrain`'s). Connecting gives up after `connectTimeout`, and a hub that
/// stops answering fails a read after `replyTimeout`, so a lost hub is noticed, never waited on.
final class WyomingConnection {
    static let connectTimeout = 3.0
    static let replyTimeout = 20.0

    private let descriptor: Int32
    private var decoder = WyomingFrameDecoder()
    private var received: [UInt8] = []

    init(_ endpoint: WyomingEndpoint) throws(ServerError) {
        switch endpoint {
        case .tcp(let host, let port):
            descriptor = try Self.connectTCP(host: host, port: port)
        case .unix(let path):
            descriptor = try Self.connectUnix(path: path)
        }
        var timeout = timeval(tv_sec: Int(Self.replyTimeout), tv_usec: 0)
        guard setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0,
              setsockopt(descriptor, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            let message = Self.lastError()
            close(descriptor)
            throw ServerError(.connection, "cannot set the socket's timeouts: \(message)")
        }
    }

    deinit {
        close(descriptor)
    }

    func send(_ event: WyomingEvent) throws(ServerError) {
        let bytes: [UInt8]
        do {
            bytes = try WyomingFrameEncoder.encode(event)
        } catch {
            throw ServerError(.connection, "cannot encode \(event.type): \(error.message)")
        }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw ServerError(.connection, "the hub stopped taking what was sent: \(Self.lastError())") }
            sent += count
        }
    }

    /// The next event; throws when the hub closes the connection, sends something malformed or
    /// says nothing for `replyTimeout`.
    func receive() throws(ServerError) -> WyomingEvent {
        while true {
            let decoded: (consumed: Int, event: WyomingEvent?)
            do {
                decoded = try Self.decode(received, with: &decoder)
            } catch {
                throw ServerError(.connection, "the hub sent something unreadable: \(error.message)")
            }
            received.removeFirst(decoded.consumed)
            if let event = decoded.event { return event }
            if decoded.consumed > 0 { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                throw ServerError(.connection, "the hub did not answer within \(Int(Self.replyTimeout)) s")
            }
            guard count > 0 else {
                throw ServerError(.connection, count == 0 ? "the hub closed the connection" : "reading from the hub: \(Self.lastError())")
            }
            received += chunk[..<count]
        }
    }

    /// The next event, which must be one of `types`; an `error` event is thrown with its text.
    func receive(_ types: Set<String>) throws(ServerError) -> WyomingEvent {
        let event = try receive()
        if event.type == WyomingEventType.error {
            throw ServerError(.refused, "the hub refused: \(event.string("text") ?? "no reason given")")
        }
        guard types.contains(event.type) else {
            throw ServerError(.connection, "the hub sent \(event.type) where \(types.sorted().joined(separator: " or ")) was expected")
        }
        return event
    }

    private static func connectTCP(host: String, port: Int) throws(ServerError) -> Int32 {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw ServerError(.connection, "cannot find \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var problem = "no address"
        var candidate: UnsafeMutablePointer<addrinfo>? = first
        while let address = candidate {
            candidate = address.pointee.ai_next
            let descriptor = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            guard descriptor >= 0 else { problem = lastError(); continue }
            if let failure = connect(descriptor, address.pointee.ai_addr, address.pointee.ai_addrlen) {
                problem = failure
                close(descriptor)
                continue
            }
            return descriptor
        }
        throw ServerError(.connection, "cannot reach the hub at tcp://\(host):\(port): \(problem)")
    }

    private static func connectUnix(path: String) throws(ServerError) -> Int32 {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw ServerError(.connection, "the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw ServerError(.connection, "socket: \(lastError())") }
        let failure = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        if let failure {
            close(descriptor)
            throw ServerError(.connection, "cannot reach the hub at unix://\(path): \(failure)")
        }
        return descriptor
    }

    /// Connects within `connectTimeout` (a host that is down would otherwise hold the satellite
    /// for minutes); nil when connected, else why not.
    private static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> String? {
        let flags = fcntl(descriptor, F_GETFL)
        guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return "fcntl: \(lastError())" }
        if Glibc.connect(descriptor, address, length) != 0 {
            guard errno == EINPROGRESS else { return lastError() }
            var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&waiting, 1, Int32(connectTimeout * 1000))
            guard ready > 0 else { return ready == 0 ? "no answer within \(Int(connectTimeout)) s" : "poll: \(lastError())" }
            var socketError: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &socketError, &size) == 0 else { return "getsockopt: \(lastError())" }
            guard socketError == 0 else { return String(cString: strerror(socketError)) }
        }
        guard fcntl(descriptor, F_SETFL, flags) == 0 else { return "fcntl: \(lastError())" }
        return nil
    }

    private static func decode(_ bytes: [UInt8], with decoder: inout WyomingFrameDecoder) throws(WyomingError)
        -> (consumed: Int, event: WyomingEvent?) {
        var decoded: (consumed: Int, event: WyomingEvent?) = (0, nil)
        var failure: WyomingError?
        bytes.withUnsafeBytes { raw in
            do throws(WyomingError) { decoded = try decoder.decode(raw) } catch { failure = error }
        }
        if let failure { throw failure }
        return decoded
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
