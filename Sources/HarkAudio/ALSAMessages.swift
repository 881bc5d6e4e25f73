internal import CALSA
internal import Foundation

/// alsa-lib's own diagnostics ("Unknown PCM mic", "cannot find card '0'", …), which it would
/// otherwise print on stderr in the middle of Hark's output. HarkAudio installs a handler before
/// its first ALSA call: each message is kept (so an `AudioError` can quote what ALSA said) and
/// passed to the sink, if one is set; nothing reaches stderr.
public enum ALSAMessages {
    public struct Message: Sendable, Equatable, CustomStringConvertible {
        /// The alsa-lib function that reported it, e.g. `snd_pcm_open_noupdate`.
        public var function: String
        public var text: String
        /// Numbered from 1 in arrival order, for "anything since" questions.
        public var sequence: Int

        public var description: String { "\(function): \(text)" }
    }

    /// Receives every message as it arrives, on the thread that made the ALSA call; nil (the
    /// default) only keeps the last one.
    public static func setSink(_ sink: (@Sendable (Message) -> Void)?) throws(AudioError) {
        try install()
        store.setSink(sink)
    }

    /// The most recent message, if ALSA said anything since the process started.
    public static var last: Message? { store.last }

    /// The last message that arrived after `sequence` (the value of `mark` before a call),
    /// preferring one that mentions `subject`: another thread's ALSA call may have spoken since.
    static func since(_ sequence: Int, mentioning subject: String? = nil) -> Message? {
        let recent = store.recent.filter { $0.sequence > sequence }
        if let subject, let match = recent.last(where: { $0.text.contains(subject) }) { return match }
        return recent.last
    }

    /// The sequence number of the last message so far (0 before any).
    static var mark: Int { store.last?.sequence ?? 0 }

    /// Routes alsa-lib's messages here, once per process. snd_lib_error_set_handler only fails
    /// for an invalid handler, but its result is kept and checked like every other.
    static func install() throws(AudioError) {
        let status = installation
        guard status >= 0 else {
            throw AudioError(.device, "cannot capture ALSA's messages: snd_lib_error_set_handler failed: \(ALSA.errorText(status))",
                             underlying: status)
        }
    }

    private static let installation: Int32 = hark_alsa_set_message_sink { function, text in
        let message = Message(function: function.map { String(cString: $0) } ?? "alsa-lib",
                              text: text.map { String(cString: $0) } ?? "", sequence: 0)
        ALSAMessages.store.record(message)
    }

    private static let store = Store()

    /// The last message and the sink, behind a lock: ALSA calls the handler from any thread.
    private final class Store: @unchecked Sendable {
        // @unchecked: every field is read and written only with `lock` held.
        private let lock = NSLock()
        /// The latest messages, oldest first.
        private var kept: [Message] = []
        private var sink: (@Sendable (Message) -> Void)?
        static let keep = 32

        var last: Message? { lock.withLock { kept.last } }
        var recent: [Message] { lock.withLock { kept } }

        func setSink(_ sink: (@Sendable (Message) -> Void)?) {
            lock.withLock { self.sink = sink }
        }

        func record(_ message: Message) {
            let (numbered, sink) = lock.withLock { () -> (Message, (@Sendable (Message) -> Void)?) in
                var numbered = message
                numbered.sequence = (kept.last?.sequence ?? 0) + 1
                kept.append(numbered)
                if kept.count > Self.keep { kept.removeFirst(kept.count - Self.keep) }
                return (numbered, self.sink)
            }
            sink?(numbered)
        }
    }
}
