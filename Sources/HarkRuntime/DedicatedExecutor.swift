import Dispatch

/// A serial executor with its own queue, so blocking C calls (decoding,
/// synthesis, ALSA reads) never occupy a thread of the shared cooperative pool.
public final class DedicatedExecutor: SerialExecutor, @unchecked Sendable {
    // @unchecked: the queue is the only state, and DispatchQueue is thread-safe.
    private let queue: DispatchQueue

    public init(label: String) {
        queue = DispatchQueue(label: label, qos: .userInitiated)
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    public func asUnownedSerialExecutor() -> UnownedSerialExecutor {
        UnownedSerialExecutor(ordinary: self)
    }
}
