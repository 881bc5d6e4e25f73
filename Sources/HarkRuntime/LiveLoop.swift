public import HarkAudio
import HarkSpeech

/// The first live loop: listen on a capture device, cut utterances by
/// loudness, answer each on the playback device. Capture is closed while Hark
/// speaks, so it never hears its own reply.
public actor LiveLoop {
    private let executor = DedicatedExecutor(label: "hark.live")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    private let assistant: Assistant
    private let input: PCMDeviceSpec
    private let output: PCMDeviceSpec

    public init(assistant: Assistant, input: PCMDeviceSpec, output: PCMDeviceSpec) {
        self.assistant = assistant
        self.input = input
        self.output = output
    }

    public func run() async throws {
        print("Listening on \(input.name). Speak a request; Ctrl-C stops.")
        while !Task.isCancelled {
            let utterance = try listenForUtterance()
            let (report, reply) = try await assistant.answer(samples: utterance, name: "utterance")
            print(report.humanReadable())
            try PlaybackDevice(output).play(reply)
        }
    }

    /// Blocks on the capture device (on this actor's own queue) until one utterance is complete.
    private func listenForUtterance() throws -> [Int16] {
        let capture = try CaptureDevice(input)
        var endpointer = EnergyEndpointer()
        while true {
            let samples = try capture.read(frames: 1600)
            if let utterance = endpointer.feed(samples).first { return utterance }
        }
    }
}
