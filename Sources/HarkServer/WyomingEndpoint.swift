/// Where the server listens: `tcp://HOST:PORT` (port 0 picks a free one) or `unix://PATH`.
public enum WyomingEndpoint: Sendable, Equatable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// Home Assistant's Wyoming integration expects this port by convention.
    public static let standard = WyomingEndpoint.tcp(host: "127.0.0.1", port: 10300)

    public init(uri: String) throws(ServerError) {
        if uri.hasPrefix("unix://") {
            let path = String(uri.dropFirst("unix://".count))
            guard !path.isEmpty else { throw ServerError(.address, "\(uri) names no socket file: write unix:///path/to/hark.socket") }
            self = .unix(path: path)
            return
        }
        guard uri.hasPrefix("tcp://") else {
            throw ServerError(.address, "\(uri) is not tcp://HOST:PORT or unix://PATH")
        }
        let address = uri.dropFirst("tcp://".count)
        // An IPv6 address is written in brackets, as in a URL: tcp://[::1]:10300.
        let host: Substring, portText: Substring
        if address.hasPrefix("["), let close = address.firstIndex(of: "]") {
            host = address[address.index(after: address.startIndex)..<close]
            let rest = address[address.index(after: close)...]
            guard rest.hasPrefix(":") else { throw ServerError(.address, "\(uri) has no port: write tcp://[HOST]:PORT") }
            portText = rest.dropFirst()
        } else {
            guard let colon = address.lastIndex(of: ":") else { throw ServerError(.address, "\(uri) has no port: write tcp://HOST:PORT") }
            host = address[..<colon]
            portText = address[address.index(after: colon)...]
        }
        guard !host.isEmpty else { throw ServerError(.address, "\(uri) has no host: write tcp://127.0.0.1:PORT to stay on this machine") }
        guard let port = Int(portText), (0...65_535).contains(port) else {
            throw ServerError(.address, "\(uri): the port must be a number from 0 to 65535")
        }
        self = .tcp(host: String(host), port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "tcp://[\(host)]:\(port)" : "tcp://\(host):\(port)"
        case .unix(let path): "unix://\(path)"
        }
    }

    /// Whether only this machine can connect: a loopback address or a socket file.
    public var isLocalOnly: Bool {
        switch self {
        case .unix: true
        case .tcp(let host, _): host == "localhost" || host == "::1" || host.hasPrefix("127.")
        }
    }
}
