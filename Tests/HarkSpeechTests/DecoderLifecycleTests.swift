import Dispatch
import Foundation
@testable import HarkSpeech
import Testing

/// Decoders are made on several threads at once (the live loop's spotter and recogniser, the
/// benchmarks' workers, parallel tests). sphinxbase keeps one log stream for the process; when
/// each decoder set it, two made at once closed the same stream twice and hung in glibc.
@Suite struct DecoderLifecycleTests {
    @Test func decodersAreMadeAndFreedFromManyThreadsAtOnce() throws {
        let failures = Failures()
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for round in 0..<4 {
                do {
                    let decoder = try Decoder.make(entries: [(word: "yes", phones: "Y EH S")],
                                                   modelDirectory: RecognizerConfiguration.debianModel,
                                                   logFile: "/dev/null", extraArguments: [])
                    if decoder.pronunciation(of: "yes") != "Y EH S" { failures.add("thread \(thread), round \(round): lost its word") }
                } catch {
                    failures.add("thread \(thread), round \(round): \(error)")
                }
            }
        }
        #expect(failures.all.isEmpty, "\(failures.all)")
    }

    private final class Failures: @unchecked Sendable {
        // @unchecked: `list` is only touched under `lock`.
        private let lock = NSLock()
        private var list: [String] = []
        func add(_ failure: String) { lock.lock(); list.append(failure); lock.unlock() }
        var all: [String] { lock.lock(); defer { lock.unlock() }; return list }
    }
}
