import Foundation

/// How much a client may send in one event. Checked before anything is allocated for it, so a
/// client that claims a huge payload is refused instead of being trusted with the memory.
public struct WyomingLimits: Sendable, Equatable {
    /// The JSON header line, newline excluded.
    public var headerBytes: Int
    /// The extra JSON data after the header (`data_length`).
    public var dataBytes: Int
    /// The binary payload (`payload_length`): a chunk of audio.
    public var payloadBytes: Int

    /// 64 KiB of header (real headers are under 200 bytes), 1 MiB of data (an `info` of a
    /// large server is tens of KiB), 2 MiB of payload (over a second of 192 kHz stereo 32-bit in
    /// one chunk; clients send tens of milliseconds per chunk). Together with the utterance a
    /// connection collects, these bound what one client can make the server hold.
    public init(headerBytes: Int = 64 * 1024, dataBytes: Int = 1024 * 1024, payloadBytes: Int = 2 * 1024 * 1024) {
        self.headerBytes = headerBytes
        self.dataBytes = dataBytes
        self.payloadBytes = payloadBytes
    }
}

/// Reads Wyoming events from a byte stream: a JSON header line
/// (`{"type": …, "data": {…}, "data_length": N, "payload_length": M}`), then N bytes of JSON
/// merged into the data, then M bytes of payload. Bytes arrive in any pieces; the decoder takes
/// what it can and says how much it used. Any malformed input is an error: the connection
/// cannot be resynchronised after it, so the caller ends it.
public struct WyomingFrameDecoder: Sendable {
    public let limits: WyomingLimits

    /// The header of the event whose data and payload are still arriving.
    private var pending: Header?

    private struct Header: Sendable {
        var type: String
        var data: [String: JSONValue]
        var dataLength: Int
        var payloadLength: Int
    }

    public init(limits: WyomingLimits = WyomingLimits()) {
        self.limits = limits
    }

    /// Decodes from the start of `bytes`. Returns how many bytes were used (to be dropped before
    /// the next call) and the event when one was completed; `consumed == 0` and no event means
    /// more bytes are needed.
    public mutating func decode(_ bytes: UnsafeRawBufferPointer) throws(WyomingError) -> (consumed: Int, event: WyomingEvent?) {
        var consumed = 0
        if pending == nil {
            guard let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
                if bytes.count > limits.headerBytes { throw Self.headerTooLong(limits) }
                return (0, nil)
            }
            if newline > limits.headerBytes { throw Self.headerTooLong(limits) }
            pending = try header(UnsafeRawBufferPointer(rebasing: bytes[0..<newline]))
            consumed = newline + 1
        }
        guard let header = pending else { return (consumed, nil) }
        let needed = header.dataLength + header.payloadLength
        guard bytes.count - consumed >= needed else { return (consumed, nil) }

        var data = header.data
        if header.dataLength > 0 {
            let extra = UnsafeRawBufferPointer(rebasing: bytes[consumed..<(consumed + header.dataLength)])
            guard case .object(let fields) = try Self.json(extra, what: "the extra data of a \(header.type) event") else {
                throw WyomingError(.badJSON, "the extra data of a \(header.type) event is not a JSON object")
            }
            // As the reference client does: the extra data's fields win over the header's.
            data.merge(fields) { _, extra in extra }
        }
        let payloadStart = consumed + header.dataLength
        let payload = Array(bytes[payloadStart..<(payloadStart + header.payloadLength)])
        pending = nil
        return (consumed + needed, WyomingEvent(header.type, data: data, payload: payload))
    }

    private func header(_ line: UnsafeRawBufferPointer) throws(WyomingError) -> Header {
        guard case .object(let fields) = try Self.json(line, what: "the event header") else {
            throw WyomingError(.badJSON, "the event header is not a JSON object")
        }
        guard let type = fields["type"]?.stringValue, !type.isEmpty else {
            throw WyomingError(.badJSON, "the event header has no \"type\" string")
        }
        var data: [String: JSONValue] = [:]
        switch fields["data"] {
        case nil, .null?: break
        case .object(let given)?: data = given
        default: throw WyomingError(.badJSON, "the \"data\" of a \(type) event is not a JSON object")
        }
        let dataLength = try length(fields["data_length"], key: "data_length", type: type, limit: limits.dataBytes)
        let payloadLength = try length(fields["payload_length"], key: "payload_length", type: type, limit: limits.payloadBytes)
        return Header(type: type, data: data, dataLength: dataLength, payloadLength: payloadLength)
    }

    private func length(_ value: JSONValue?, key: String, type: String, limit: Int) throws(WyomingError) -> Int {
        guard let value, value != .null else { return 0 }
        guard let length = value.integerValue, length >= 0 else {
            throw WyomingError(.badJSON, "\(key) of a \(type) event must be a whole number of bytes, 0 or more")
        }
        guard length <= limit else {
            throw WyomingError(.tooLarge, "\(key) of a \(type) event is \(length) bytes; at most \(limit) are accepted")
        }
        return length
    }

    private static func headerTooLong(_ limits: WyomingLimits) -> WyomingError {
        WyomingError(.tooLarge, "an event header line is longer than \(limits.headerBytes) bytes")
    }

    private static func json(_ bytes: UnsafeRawBufferPointer, what: String) throws(WyomingError) -> JSONValue {
        do {
            return try JSONDecoder().decode(JSONValue.self, from: Data(bytes))
        } catch {
            throw WyomingError(.badJSON, "\(what) is not valid JSON")
        }
    }
}

/// Writes events as the reference implementation does: a header line with the type, the
/// protocol version and the lengths, then the data as JSON, then the payload.
public enum WyomingFrameEncoder {
    /// The version of the Wyoming reference library whose events Hark follows.
    public static let protocolVersion = "1.10.0"

    public static func encode(_ event: WyomingEvent) throws(WyomingError) -> [UInt8] {
        let data = event.data.isEmpty ? [] : try bytes(of: .object(event.data), type: event.type)
        var header: [String: JSONValue] = ["type": .string(event.type), "version": .string(protocolVersion)]
        if !data.isEmpty { header["data_length"] = .integer(data.count) }
        if !event.payload.isEmpty { header["payload_length"] = .integer(event.payload.count) }
        var frame = try bytes(of: .object(header), type: event.type)
        frame.reserveCapacity(frame.count + 1 + data.count + event.payload.count)
        frame.append(UInt8(ascii: "\n"))
        frame += data
        frame += event.payload
        return frame
    }

    private static func bytes(of value: JSONValue, type: String) throws(WyomingError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return Array(try encoder.encode(value))
        } catch {
            // Only a number that is not finite can fail here; Hark never sends one on purpose.
            throw WyomingError(.failed, "could not write a \(type) event as JSON: \(error)")
        }
    }
}
