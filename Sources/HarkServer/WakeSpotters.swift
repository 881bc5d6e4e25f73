import Foundation
import HarkSpeech

/// Makes the wake-word spotters of a server's clients, all of one configuration, so that they
/// share one second look (`WakeWordSecondLook`): each stream then costs its own keyword search
/// only, not a verifier's copy of the acoustic model besides. The look has a verifier per core at
/// most, so streams hearing the same words at once are checked side by side.
final class WakeSpotters: @unchecked Sendable {
    // @unchecked: `shared` is read and written only under `lock`.
    private let lock = NSLock()
    private var shared: WakeWordSecondLook?

    /// A spotter for one stream. Made under the lock, so that the first client's second look is
    /// there for every client after it, even those that ask at the same moment.
    func spotter(_ configuration: WakeWordConfiguration) throws(RecognitionError) -> WakeWordSpotter {
        lock.lock()
        defer { lock.unlock() }
        let spotter = try WakeWordSpotter(configuration: configuration, sharing: shared)
        if shared == nil, let look = spotter.secondLook {
            look.allowLooks(atOnce: ProcessInfo.processInfo.activeProcessorCount)
            shared = look
        }
        return spotter
    }
}
