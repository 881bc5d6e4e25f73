import Testing
import HarkAudio

@Suite struct DeviceRetryTests {
    static let missing = AudioError(.device, "ALSA device 'mic': cannot open for capture: snd_pcm_open failed: No such file or directory",
                                    underlying: -2)

    @Test func delaysDoubleUpToTheCap() {
        let retry = DeviceRetry()
        let delays = (1...8).map { retry.delay(afterAttempt: $0) }
        #expect(delays == [0.25, 0.5, 1, 2, 4, 4, 4, 4])
        #expect(retry.delay(afterAttempt: 10_000) == 4)
    }

    @Test func theLastAttemptHasNoDelay() {
        let retry = DeviceRetry(maximumAttempts: 3, initialDelay: 1, maximumDelay: 3)
        #expect(retry.delay(afterAttempt: 1) == 1)
        #expect(retry.delay(afterAttempt: 2) == 2)
        #expect(retry.delay(afterAttempt: 3) == nil)
    }

    @Test func retriesUntilTheDeviceComesBack() async throws {
        var failuresLeft = 3
        var slept: [Double] = []
        var reported: [(Int, Double?)] = []
        let value = try await DeviceRetry().run({ () throws(AudioError) -> String in
            if failuresLeft > 0 {
                failuresLeft -= 1
                throw Self.missing
            }
            return "opened"
        }, onFailure: { reported.append(($0.attempt, $0.nextDelay)) }, sleep: { slept.append($0) })
        #expect(value == "opened")
        #expect(slept == [0.25, 0.5, 1])
        #expect(reported.map(\.0) == [1, 2, 3])
        #expect(reported.map(\.1) == [0.25, 0.5, 1])
    }

    @Test func givesUpAfterTheLastAttemptWithItsError() async {
        var attempts = 0
        var reported: [DeviceRetry.Failure] = []
        await #expect {
            try await DeviceRetry(maximumAttempts: 2).run({ () throws(AudioError) -> Int in
                attempts += 1
                throw Self.missing
            }, onFailure: { reported.append($0) }, sleep: { _ in })
        } throws: { error in
            (error as? AudioError) == Self.missing
        }
        #expect(attempts == 2)
        #expect(reported.map(\.attempt) == [1, 2])
        #expect(reported.last?.nextDelay == nil)
    }

    @Test func errorsThatAreNotAboutTheDeviceAreNotRetried() async {
        var attempts = 0
        await #expect {
            try await DeviceRetry().run({ () throws(AudioError) -> Int in
                attempts += 1
                throw AudioError(.resampling, "src_new failed")
            }, sleep: { _ in Issue.record("must not wait") })
        } throws: { error in
            (error as? AudioError)?.code == .resampling
        }
        #expect(attempts == 1)
    }

    @Test func cancellationStopsTheWaiting() async {
        let task = Task {
            try await DeviceRetry(initialDelay: 30, maximumDelay: 30).run { () throws(AudioError) -> Int in throw Self.missing }
        }
        task.cancel()
        let result = await task.result
        #expect(throws: CancellationError.self) { try result.get() }
    }
}
