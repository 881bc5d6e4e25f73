public import Foundation
public import HarkAudio
public import HarkVoice

/// Speaks more than one text at once where cores allow: this process's own espeak-ng
/// (`SpeechService`) and up to `workers` speech workers (`hark speak-worker` child processes,
/// each with an espeak-ng of its own, started when first needed). Each text goes to whichever is
/// free, the process's own first. A worker that fails is reported and its text spoken here instead.
public final class SpeechPool: Sendable {
    private let local: SpeechService
    private let workers: [SpeechWorker]
    private let slots: Slots
    private let report: @Sendable (String) -> Void

    /// `executable`: the hark binary the workers run (`speak-worker`). `report`: told when a
    /// worker fails.
    public init(local: SpeechService, executable: URL, workers: Int, report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.local = local
        let setup = SpeechWorkerWire.Setup(voice: local.settings.voice, rate: local.settings.rate, pitch: local.settings.pitch,
                                           lexicon: local.lexicon.mnemonics)
        self.workers = (0..<max(0, workers)).map { _ in SpeechWorker(executable: executable, setup: setup) }
        slots = Slots(count: 1 + max(0, workers))
        self.report = report
    }

    /// Speech workers besides this process's own espeak-ng: one for each other core.
    public static var standardWorkers: Int { max(0, ProcessInfo.processInfo.activeProcessorCount - 1) }

    /// The most texts spoken at once so far.
    public var mostAtOnce: Int { get async { await slots.mostAtOnce } }

    /// `text` in Hark's voice (or `voice`), by whichever speaker is free first.
    public func speak(_ text: String, voice: String? = nil) async throws(VoiceError) -> AudioClip {
        let slot = await slots.take()
        defer { Task { await slots.give(slot) } }
        guard slot > 0 else { return try await local.speak(text, voice: voice) }
        do {
            return try await workers[slot - 1].speak(text, voice: voice)
        } catch where error.code == .synthesis {
            report("speech worker \(slot): \(error.message); spoken in the server's own process instead")
            return try await local.speak(text, voice: voice)
        }
    }

    /// Ends the workers.
    public func stop() async {
        for worker in workers { await worker.stop() }
    }

    /// Which speakers are free; a text waits for one.
    private actor Slots {
        private var free: [Int]
        private var waiting: [CheckedContinuation<Int, Never>] = []
        private var busy = 0
        private(set) var mostAtOnce = 0

        init(count: Int) {
            free = Array((0..<count).reversed())  // the process's own (0) first
        }

        func take() async -> Int {
            if let slot = free.popLast() {
                busy += 1
                mostAtOnce = max(mostAtOnce, busy)
                return slot
            }
            return await withCheckedContinuation { waiting.append($0) }
        }

        func give(_ slot: Int) {
            if waiting.isEmpty {
                busy -= 1
                free.append(slot)
                free.sort(by: >)
            } else {
                waiting.removeFirst().resume(returning: slot)
            }
        }
    }
}
