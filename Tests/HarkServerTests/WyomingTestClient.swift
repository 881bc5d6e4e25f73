import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A Wyoming client of the plainest kind: a blocking socket and framing of its own (not the
/// server's codec, so a mistake there cannot hide itself), as a script talking to Hark would be.
/// Blocking calls belong off the cooperative pool: use it inside `onOwnThread`.
final class WyomingTestClient {
    /// @unchecked: the data is what JSONSerialization made, read and never changed.
    struct Event: @unchecked Sendable {
        var type: String
        var data: [String: Any]
        var payload: [UInt8]
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    private let socketDescriptor: Int32
    private var received: [UInt8] = []

    init(port: Int) throws {
        socketDescriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try finishConnecting(status, to: "127.0.0.1:\(port)")
    }

    init(unixPath: String) throws {
        socketDescriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard socketDescriptor >= 0 else { throw Failure(description: "socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(unixPath.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw Failure(description: "socket path too long") }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        let status = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socketDescriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        try finishConnecting(status, to: unixPath)
    }

    private func finishConnecting(_ status: Int32, to address: String) throws {
        guard status == 0 else {
            let message = String(cString: strerror(errno))
            close(socketDescriptor)
            throw Failure(description: "connect to \(address): \(message)")
        }
        // Nothing in these tests takes 60 s: a server that stops answering fails the test, not hangs it.
        var timeout = timeval(tv_sec: 60, tv_usec: 0)
        guard setsockopt(socketDescriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            throw Failure(description: "setsockopt SO_RCVTIMEO: \(String(cString: strerror(errno)))")
        }
    }

    deinit {
        close(socketDescriptor)
    }

    func send(_ type: String, _ data: [String: Any] = [:], payload: [UInt8] = []) throws {
        var header: [String: Any] = ["type": type]
        var body: [UInt8] = []
        if !data.isEmpty {
            body = Array(try JSONSerialization.data(withJSONObject: data))
            header["data_length"] = body.count
        }
        if !payload.isEmpty { header["payload_length"] = payload.count }
        try sendRaw(Array(try JSONSerialization.data(withJSONObject: header)) + [10] + body + payload)
    }

    func sendRaw(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(socketDescriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            // Another test's child process exiting may interrupt the call: try again.
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { throw Failure(description: "send: \(String(cString: strerror(errno)))") }
            sent += count
        }
    }

    /// The next event, or nil when the server closed the connection.
    func receive() throws -> Event? {
        guard let line = try readLine() else { return nil }
        guard let header = try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
              let type = header["type"] as? String else {
            throw Failure(description: "not an event header: \(String(decoding: line, as: UTF8.self))")
        }
        var data = header["data"] as? [String: Any] ?? [:]
        if let length = header["data_length"] as? Int, length > 0 {
            guard let extra = try JSONSerialization.jsonObject(with: Data(try read(length))) as? [String: Any] else {
                throw Failure(description: "the data of \(type) is not an object")
            }
            data.merge(extra) { _, extra in extra }
        }
        let payloadLength = header["payload_length"] as? Int ?? 0
        return Event(type: type, data: data, payload: payloadLength > 0 ? try read(payloadLength) : [])
    }

    /// The next event, which must be there.
    func expect(_ type: String) throws -> Event {
        guard let event = try receive() else { throw Failure(description: "the server closed the connection; expected \(type)") }
        guard event.type == type else { throw Failure(description: "expected \(type), got \(event.type) \(event.data)") }
        return event
    }

    private func fill() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        var count: Int
        repeat {
            count = chunk.withUnsafeMutableBytes { recv(socketDescriptor, $0.baseAddress, $0.count, 0) }
        } while count < 0 && errno == EINTR
        if count == 0 { return false }
        guard count > 0 else { throw Failure(description: "recv: \(String(cString: strerror(errno)))") }
        received += chunk[0..<count]
        return true
    }

    private func readLine() throws -> [UInt8]? {
        while true {
            if let newline = received.firstIndex(of: 10) {
                let line = Array(received[..<newline])
                received.removeFirst(newline + 1)
                return line
            }
            guard try fill() else {
                if received.isEmpty { return nil }
                throw Failure(description: "the connection closed inside an event header")
            }
        }
    }

    private func read(_ count: Int) throws -> [UInt8] {
        while received.count < count {
            guard try fill() else { throw Failure(description: "the connection closed inside an event") }
        }
        let bytes = Array(received[..<count])
        received.removeFirst(count)
        return bytes
    }
}

/// Runs blocking client code on a thread of its own: the server's sessions run on the
/// cooperative pool (two threads on a two-core machine), which a blocked test must not occupy.
func onOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
    }
}
