/// One Wyoming event: its type, its data (the header's `data` with the extra data merged in)
/// and its binary payload (PCM audio for `audio-chunk`, empty for most events).
public struct WyomingEvent: Sendable, Equatable {
    public var type: String
    public var data: [String: JSONValue]
    public var payload: [UInt8]

    public init(_ type: String, data: [String: JSONValue] = [:], payload: [UInt8] = []) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    /// A string field of the data, nil when absent or not a string.
    public func string(_ key: String) -> String? {
        data[key]?.stringValue
    }
}

/// The event types Hark reads and writes, as the protocol spells them.
public enum WyomingEventType {
    public static let describe = "describe"
    public static let info = "info"
    public static let ping = "ping"
    public static let pong = "pong"
    public static let selectProgram = "select-program"
    public static let transcribe = "transcribe"
    public static let transcript = "transcript"
    public static let audioStart = "audio-start"
    public static let audioChunk = "audio-chunk"
    public static let audioStop = "audio-stop"
    public static let synthesize = "synthesize"
    public static let recognize = "recognize"
    public static let intent = "intent"
    public static let notRecognized = "not-recognized"
    public static let handle = "handle"
    public static let handled = "handled"
    public static let notHandled = "not-handled"
    public static let detect = "detect"
    public static let detection = "detection"
    public static let notDetected = "not-detected"
    public static let error = "error"
    /// Hark's own: a hub's answer to a satellite's `detection`, saying whether that room answers
    /// the wake word (`answer`) and which room does (`winner`).
    public static let wakeArbitration = "wake-arbitration"
}

extension WyomingEvent {
    /// The `error` event a client is sent before its connection is closed.
    public init(_ error: WyomingError) {
        self.init(WyomingEventType.error, data: ["text": .string(error.message), "code": .string(error.code.rawValue)])
    }
}
