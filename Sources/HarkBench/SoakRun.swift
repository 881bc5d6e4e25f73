import Foundation
import HarkAudio
public import HarkRuntime

/// Many utterances through one assistant, as a device hears them over days: each recording is
/// decoded, understood, carried out and answered in speech, again and again, with donations
/// written to a real database. What it measures is whether anything grows with use: resident
/// memory at each checkpoint, beside the peak.
public struct SoakRun {
    /// Memory after a number of utterances.
    public struct Checkpoint: Sendable, Equatable, Codable {
        public var utterances: Int
        public var residentMegabytes: Double
        public var peakResidentMegabytes: Double
        /// CPU seconds per utterance since the previous checkpoint.
        public var cpuSecondsPerUtterance: Double
    }

    public let assistant: Assistant
    /// 16 kHz mono utterances, said in turn.
    public let utterances: [(name: String, samples: [Int16])]

    public init(assistant: Assistant, utterances: [(name: String, samples: [Int16])]) {
        self.assistant = assistant
        self.utterances = utterances
    }

    /// Says `count` utterances, cycling through the recordings, and measures memory after each
    /// of `checkpoints` (and at the end). `progress` is told after each utterance.
    /// A turn that asks a question is left unanswered: the next utterance starts a new request.
    public func run(count: Int, checkpoints: Set<Int>, progress: (Int, Int) -> Void) async throws
        -> (checkpoints: [Checkpoint], understood: Int, replies: Int) {
        precondition(!utterances.isEmpty, "a soak needs at least one recording")
        var measured: [Checkpoint] = []
        var understood = 0, replies = 0
        var cpuAtLastCheckpoint = ProcessClock.cpuSeconds(), utterancesAtLastCheckpoint = 0
        for index in 0..<count {
            let utterance = utterances[index % utterances.count]
            let (report, reply) = try await assistant.answer(samples: utterance.samples, name: utterance.name)
            if report.intent != nil { understood += 1 }
            if reply.frameCount > 0 { replies += 1 }
            let done = index + 1
            if checkpoints.contains(done) || done == count {
                let cpu = ProcessClock.cpuSeconds()
                let resident = ProcessClock.residentMegabytes()
                // The kernel's peak (ru_maxrss) is counted apart from /proc's resident figure and can
                // lag it by a page or two.
                measured.append(Checkpoint(
                    utterances: done, residentMegabytes: resident,
                    peakResidentMegabytes: max(resident, ProcessClock.peakResidentMegabytes()),
                    cpuSecondsPerUtterance: (cpu - cpuAtLastCheckpoint) / Double(done - utterancesAtLastCheckpoint)))
                cpuAtLastCheckpoint = cpu
                utterancesAtLastCheckpoint = done
            }
            progress(done, count)
        }
        return (measured, understood, replies)
    }
}
