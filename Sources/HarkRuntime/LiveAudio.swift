public import Foundation
public import HarkAudio

/// Where the live loop's audio comes from: a microphone, or a recording played as if it were one.
/// Used from the live loop's own thread only.
public protocol LiveAudioSource: AnyObject {
    /// A name for messages: the device or the file.
    var name: String { get }
    /// The next `frames` samples of 16 kHz mono audio, blocking until they are there; fewer at
    /// the end of a recording, and nil once nothing more will come.
    nonisolated(nonsending) func read(frames: Int) async throws -> [Int16]?
    /// Hark has just spoken for `seconds`: throw away what was heard meanwhile, which is its own
    /// voice, so that it never takes a wake word or a command from its own reply.
    func discard(spokenFor seconds: Double) throws
    /// The loudspeaker has just played `clip` (the loop tells the source before discarding what
    /// was heard meanwhile). A simulated room uses it to put the clip into what is heard.
    func loudspeakerPlayed(_ clip: AudioClip)
    /// The loudspeaker stopped what it was playing, here and now (Hark was interrupted).
    func loudspeakerStopped()
}

extension LiveAudioSource {
    public func loudspeakerPlayed(_ clip: AudioClip) {}
    public func loudspeakerStopped() {}
}

/// Where the live loop's replies and chimes go. Used from the live loop's own thread only.
public protocol LiveAudioSink: AnyObject {
    /// Plays `clip` and returns once it has been played.
    func play(_ clip: AudioClip) throws
    /// Starts playing `clip` and returns at once: the loop hands it on piece by piece while it
    /// listens, and can stop it.
    func start(_ clip: AudioClip) throws -> any LivePlayback
}

/// A reply being played while the loop listens (`LiveAudioSink.start`).
public protocol LivePlayback: AnyObject {
    /// Hands the loudspeaker the clip up to `seconds` into it (blocking only while its buffer is full).
    func play(through seconds: Double) throws
    /// How long a sample handed over now waits before it is heard (s), as far as the device knows.
    func queuedSeconds() -> Double
    /// Silences it at once.
    func stop() throws
    /// Plays the rest and returns once it has been heard.
    func finish() throws
}

extension ClipStream: LivePlayback {}

/// A recording heard as a microphone would hear it. Time passes while Hark speaks: `discard`
/// skips as much of the recording as the reply lasted, as the gate on a live microphone does.
/// With `realTime`, `read` also waits for the wall clock, for measuring CPU at the pace of speech.
/// With an `echo` gain, what the loudspeaker plays comes back into the recording at that gain,
/// as in a room where the microphone sits next to the loudspeaker; with a `room`, it comes back
/// through that room (its delay, gain and reflections) instead.
public final class RecordingSource: LiveAudioSource {
    public let name: String
    public private(set) var position = 0
    private let samples: [Int16]
    private let realTime: Bool
    private let echoGain: Double
    private let room: SimulatedRoom?
    private let started = Date()
    /// Audio added to what the "microphone" hears, by sample position: what a loudspeaker in the
    /// room would put back into it. Tests use it to play Hark's replies back into its input.
    private var heardFromRoom: [Int: [Int16]] = [:]

    public init(samples: [Int16], name: String, realTime: Bool = false, echo: Double = 0, room: SimulatedRoom? = nil) {
        self.samples = samples
        self.name = name
        self.realTime = realTime
        self.echoGain = echo
        self.room = room
    }

    /// Reads a WAV file of any rate and channel count, converted to 16 kHz mono. A file cut short
    /// is played as far as it goes and `report` is told how much is missing.
    public convenience init(contentsOf url: URL, realTime: Bool = false, echo: Double = 0, room: SimulatedRoom? = nil,
                            report: (String) -> Void = { _ in }) throws {
        let (clip, cutShort) = try WAVFile.readNotingDamage(contentsOf: url)
        if let cutShort { report("\(url.lastPathComponent): \(cutShort)") }
        try self.init(samples: clip.pipelineSamples(), name: url.lastPathComponent, realTime: realTime, echo: echo, room: room)
    }

    public var duration: Double { Double(samples.count) / Double(PipelineAudio.sampleRate) }

    nonisolated(nonsending) public func read(frames: Int) async throws -> [Int16]? {
        guard position < samples.count else { return nil }
        let end = min(samples.count, position + frames)
        var chunk = Array(samples[position..<end])
        mixRoom(into: &chunk, at: position)
        position = end
        if realTime {
            let due = Double(position) / Double(PipelineAudio.sampleRate) - Date().timeIntervalSince(started)
            if due > 0 { try await Task.sleep(for: .seconds(due)) }
        }
        return chunk
    }

    public func discard(spokenFor seconds: Double) throws {
        position = min(samples.count, position + Int(seconds * Double(PipelineAudio.sampleRate)))
    }

    /// Puts what the loudspeaker played into what is heard from the current position on.
    public func loudspeakerPlayed(_ clip: AudioClip) {
        guard echoGain > 0 || room != nil, let audio = try? clip.mixedToMono().resampled(to: PipelineAudio.sampleRate) else { return }
        if let room {
            heardFromRoom[position] = room.heard(audio.int16Samples())
        } else {
            heardFromRoom[position] = AudioClip(samples: audio.samples.map { $0 * Float(echoGain) },
                                                sampleRate: audio.sampleRate, channels: 1).int16Samples()
        }
    }

    /// What the loudspeaker was playing ends here; the room's reflections of what it played
    /// still fade out.
    public func loudspeakerStopped() {
        let fade = room?.response.count ?? 0
        for (offset, audio) in heardFromRoom {
            let kept = max(0, position - offset) + fade
            if kept < audio.count {
                var cut = Array(audio.prefix(kept))
                // The reflections decay from here instead of the sound going on.
                for index in max(0, position - offset)..<cut.count {
                    let left = Double(cut.count - index) / Double(max(fade, 1))
                    cut[index] = Int16(Double(cut[index]) * left * left)
                }
                heardFromRoom[offset] = cut
            }
        }
    }

    private func mixRoom(into chunk: inout [Int16], at start: Int) {
        for (offset, audio) in heardFromRoom {
            let overlapStart = max(start, offset), overlapEnd = min(start + chunk.count, offset + audio.count)
            guard overlapStart < overlapEnd else { continue }
            for index in overlapStart..<overlapEnd {
                let mixed = Int(chunk[index - start]) + Int(audio[index - offset])
                chunk[index - start] = Int16(clamping: mixed)
            }
        }
        heardFromRoom = heardFromRoom.filter { $0.key + $0.value.count > start + chunk.count }
    }
}

/// The microphone: an ALSA capture device, opened on first use and reopened after it fails, with
/// waits that grow from a quarter of a second to four seconds, so an unplugged or busy device is
/// found again when it comes back instead of ending Hark.
public final class CaptureSource: LiveAudioSource {
    public let spec: PCMDeviceSpec
    private var device: CaptureDevice?
    private let retry: DeviceRetry
    private let report: (String) -> Void

    /// `report` hears of each failure and when the next attempt comes, for the log.
    public init(_ spec: PCMDeviceSpec, retry: DeviceRetry = DeviceRetry(), report: @escaping (String) -> Void = { _ in }) {
        self.spec = spec
        self.retry = retry
        self.report = report
    }

    public var name: String { spec.name }

    nonisolated(nonsending) public func read(frames: Int) async throws -> [Int16]? {
        while true {
            let device = try await open()
            let result: Result<[Int16], AudioError> = Result { () throws(AudioError) in try device.read(frames: frames) }
            switch result {
            case .success(let samples):
                return samples
            case .failure(let error):
                guard retry.isRetryable(error) else { throw error }
                // The device went away mid-stream: report it, drop it, and wait for it below.
                self.device = nil
                report("the microphone stopped: \(error.message); opening it again")
            }
        }
    }

    public func discard(spokenFor seconds: Double) throws {
        try device?.discardBuffered()
    }

    nonisolated(nonsending) private func open() async throws -> CaptureDevice {
        if let device { return device }
        let spec = self.spec
        let report = self.report
        // A device that was never there is a mistake in the settings, not an outage: say so at
        // start, with the devices there are, instead of trying for ever. One that opened before
        // and went away, or is busy, is waited for.
        var retry = self.retry
        let everOpened = hasOpened
        let isRetryable = retry.isRetryable
        retry.isRetryable = { error in isRetryable(error) && (everOpened || !Self.isUnknownDevice(error)) }
        let opened: CaptureDevice
        do {
            opened = try await retry.run({ () throws(AudioError) in try CaptureDevice(spec) }, onFailure: { failure in
                let next = failure.nextDelay.map { String(format: "trying again in %.2g s", $0) } ?? "giving up"
                report("cannot open the microphone (attempt \(failure.attempt)): \(failure.error.message); \(next)")
            })
        } catch let error as AudioError where !everOpened && Self.isUnknownDevice(error) {
            throw AudioError(.device, "\(error.message). \(Self.captureDevicesList())", underlying: error.underlying)
        }
        device = opened
        hasOpened = true
        return opened
    }

    /// Whether the device has been opened once: from then on its failures are outages.
    private var hasOpened = false

    /// ALSA's answer for a name it has no device for ("Unknown PCM nosuch", no such card).
    static func isUnknownDevice(_ error: AudioError) -> Bool {
        guard let code = error.underlying else { return false }
        return code == -ENOENT || code == -ENODEV || code == -ENXIO
    }

    /// "Capture devices here: default, hw:CARD=…; `hark devices` describes them."
    static func captureDevicesList() -> String {
        do {
            let names = try AudioDevices.captureDevices().map(\.name)
            return names.isEmpty ? "This machine has no capture devices; `hark devices` says what ALSA sees."
                : "Capture devices here: \(names.joined(separator: ", ")); `hark devices` describes them."
        } catch {
            return "Listing the capture devices failed too: \(error.message)"
        }
    }

    /// Overruns recovered on the device open now.
    public var recoveredOverruns: Int { device?.recoveredOverruns ?? 0 }
}

/// The loudspeaker: an ALSA playback device, reopened for the next clip after it fails. A clip
/// that cannot be played is reported by the error; the loop goes on without it.
public final class PlaybackSink: LiveAudioSink {
    public let spec: PCMDeviceSpec
    private var device: PlaybackDevice?

    public init(_ spec: PCMDeviceSpec) {
        self.spec = spec
    }

    public func play(_ clip: AudioClip) throws {
        try withDevice { device throws(AudioError) in try device.play(clip) }
    }

    public func start(_ clip: AudioClip) throws -> any LivePlayback {
        try withDevice { device throws(AudioError) in try device.stream(clip) }
    }

    /// Runs `body` on the device, opening it first; a device that failed is opened afresh next time.
    private func withDevice<T>(_ body: (PlaybackDevice) throws(AudioError) -> T) throws(AudioError) -> T {
        let device: PlaybackDevice
        if let open = self.device { device = open } else { device = try PlaybackDevice(spec) }
        self.device = device
        do throws(AudioError) {
            return try body(device)
        } catch {
            self.device = nil
            throw error
        }
    }
}
