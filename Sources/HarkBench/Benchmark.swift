public import Foundation
import HarkAudio
public import HarkSpeech
import HarkIntents
public import HarkRuntime

/// Decodes folders of recordings with sidecars and measures accuracy, speed and memory.
///
/// The assistant must be started with no margin threshold (`rejectionMargin = -infinity`):
/// every recording's margin is kept, and the figures at `threshold` and at every other
/// threshold are worked out from the same decoding.
public struct Benchmark: Sendable {
    public var assistant: Assistant
    /// Resample every recording to this rate first, to measure other input rates.
    public var inputRate: Int?
    /// The threshold the main figures are given at.
    public var threshold: Double
    /// Also decode every recording with plain pocketsphinx (`BaselineRecognizer`).
    public var baseline: Bool
    /// How the live loop listens for the wake word: recordings whose sidecar names a wake phrase
    /// have it spotted so (`SpottedWake`); nil cuts them at `wakeAt` as if it were always heard.
    public var wakeSettings: LiveSettings?
    /// The recogniser's ask band and noisy-room asking (`RecognizerConfiguration.askBand`,
    /// `.noisyConfirmation`): how a request after a tentative wake word is followed up.
    public var askBand = Confidence.defaultAskBand
    public var noisyConfirmation: NoisyConfirmation? = .standard
    /// The recogniser's `RecognizerConfiguration.telephoneBandReach`, for the same follow-up.
    public var telephoneBandReach: Double? = RecognizerConfiguration.standardTelephoneBandReach

    public init(assistant: Assistant, inputRate: Int? = nil, threshold: Double, baseline: Bool = false) {
        self.assistant = assistant
        self.inputRate = inputRate
        self.threshold = threshold
        self.baseline = baseline
    }

    /// Recordings in `directory` that have a sidecar, sorted by name.
    public static func recordings(in directory: URL) throws -> [URL] {
        try WAVFile.files(in: directory)
            .filter { FileManager.default.fileExists(atPath: $0.deletingPathExtension().appendingPathExtension("json").path) }
    }

    /// Runs every recording; `progress` is told after each one (done, total).
    public func run(_ recordings: [URL], progress: (Int, Int) -> Void) async throws -> BenchmarkReport {
        var outcomes: [BenchmarkOutcome] = []
        var latencies: [Double] = []
        var cpuSeconds = 0.0, audioSeconds = 0.0, baselineCPUSeconds = 0.0
        var decodeCPU = DecodeCPU()
        let catalog = await assistant.catalog
        if baseline { try await assistant.recognition.startBaseline() }
        var spotters: [String: WakeWordSpotter] = [:]
        for (index, url) in recordings.enumerated() {
            let sidecarURL = url.deletingPathExtension().appendingPathExtension("json")
            let expected = try JSONDecoder().decode(ExpectedUnderstanding.self, from: Data(contentsOf: sidecarURL))
            var clip = try WAVFile.read(contentsOf: url)
            if let inputRate { clip = try clip.resampled(to: inputRate) }

            let cpuBefore = ProcessClock.cpuSeconds()
            let started = Date()
            let stream = try clip.pipelineSamples()
            var samples = stream, afterWake = stream[...]
            var wake: SpottedWake.Verdict?, wakeConfidence: Double?
            // The room heard before the wake word, as the live loop hears it; none for a recording
            // of the request alone.
            let roomEnd = (expected.wakeStartsAt ?? expected.wakeAt).map {
                min(stream.count, max(0, Int($0 * Double(PipelineAudio.sampleRate))))
            }
            try await assistant.recognition.heardBeforeRequest(
                roomPower: roomEnd.flatMap { RoomBeforeRequest.meanPower(of: stream[..<$0]) })
            if let wakeAt = expected.wakeAt {
                afterWake = stream[min(stream.count, max(0, Int(wakeAt * Double(PipelineAudio.sampleRate))))...]
                if let phrase = expected.wakePhrase, let wakeSettings {
                    var settings = wakeSettings
                    settings.wakePhrase = phrase
                    let spotter = try spotters[phrase] ?? WakeWordSpotter(configuration: settings.wakeWord)
                    spotters[phrase] = spotter
                    let found = try SpottedWake.find(in: stream, startsAt: expected.wakeStartsAt ?? 0, endsAt: wakeAt, spotter: spotter)
                    wake = found.verdict
                    wakeConfidence = found.confidence
                    samples = found.endSample.flatMap {
                        StreamedRequest.cut(stream, roomSeconds: Double($0) / Double(PipelineAudio.sampleRate), dropsWakeTail: true)
                    } ?? []
                } else {
                    samples = StreamedRequest.cut(stream, roomSeconds: wakeAt) ?? []
                }
            }
            var outcome: BenchmarkOutcome
            if wake == .missed {
                outcome = Self.nothingHeard(expected: expected, url: url, because: "wake word missed")
            } else if samples.isEmpty {
                outcome = Self.nothingHeard(expected: expected, url: url)
            } else {
                let (turn, _) = try await assistant.answer(samples: samples, name: url.lastPathComponent, speaks: false)
                decodeCPU = decodeCPU + (turn.timings.decodeCPU ?? DecodeCPU())
                outcome = Self.outcome(turn, expected: expected, url: url, catalog: catalog)
                if wake == .tentative {
                    Self.followTentativeWake(&outcome, words: turn.text.split(separator: " ").count,
                                             threshold: threshold, askBand: askBand, confirmation: noisyConfirmation,
                                             telephoneBandReach: telephoneBandReach)
                }
            }
            outcome.wake = wake?.rawValue
            outcome.wakeConfidence = wakeConfidence
            latencies.append(Date().timeIntervalSince(started))
            let spent = ProcessClock.cpuSeconds() - cpuBefore
            outcome.cpuSeconds = spent
            outcome.audioSeconds = clip.duration
            cpuSeconds += spent
            audioSeconds += clip.duration
            if baseline {
                let before = ProcessClock.cpuSeconds()
                let heard = try await assistant.hearWithBaseline(Array(afterWake))
                baselineCPUSeconds += ProcessClock.cpuSeconds() - before
                let (plain, _) = try await assistant.answer(heard, name: url.lastPathComponent, speaks: false)
                let judged = Self.outcome(plain, expected: expected, url: url, catalog: catalog)
                outcome.baseline = BaselineOutcome(understood: judged.understood, commandRight: judged.commandRight,
                                                   account: judged.account)
            }
            outcomes.append(outcome)
            progress(index + 1, recordings.count)
        }
        var report = BenchmarkReport(outcomes: outcomes, threshold: threshold)
        report.modelLoadSeconds = assistant.loadSeconds
        report.cpuSeconds = cpuSeconds
        report.decodeCPU = decodeCPU
        report.audioSeconds = audioSeconds
        report.baseline?.cpuSeconds = baselineCPUSeconds
        report.baseline?.audioSeconds = audioSeconds
        latencies.sort()
        report.decodeLatencyP50 = ProcessClock.percentile(latencies, 0.5)
        report.decodeLatencyP95 = ProcessClock.percentile(latencies, 0.95)
        report.peakResidentMegabytes = ProcessClock.peakResidentMegabytes()
        return report
    }

    /// Slots by name, so two runs' accounts of the same result read the same.
    static func describe(_ slots: [String: String]) -> String {
        slots.isEmpty ? "[:]" : "[" + slots.sorted { $0.key < $1.key }.map { "\"\($0.key)\": \"\($0.value)\"" }
            .joined(separator: ", ") + "]"
    }

    static func outcome(_ turn: TurnReport, expected: ExpectedUnderstanding, url: URL,
                        catalog: AppCatalog) -> BenchmarkOutcome {
        var outcome = BenchmarkOutcome(
            recording: url.lastPathComponent, folder: url.deletingLastPathComponent().lastPathComponent,
            voice: expected.voice, noise: expected.noise, snr: expected.snr, mustReject: expected.intent == nil,
            margin: turn.margin,
            utteranceMargin: turn.utteranceMargin, weakestWord: turn.weakestWord, wordFits: turn.wordFits, features: turn.features,
            // A phrase of Hark's own ("turn it up") is acted on as surely as an app's intent: speech
            // that must be rejected heard as one is a false acceptance, a command heard as one is
            // misrecognised.
            understood: !turn.rejected && (turn.intent != nil || turn.builtIn != nil), intentRight: false, commandRight: false,
            slotConfusions: [], account: "", builtIn: turn.builtIn)
        let heard = turn.intent.map { "heard \"\(turn.text)\" as \($0) \(Self.describe(turn.slots))" }
            ?? turn.builtIn.map { "heard \"\(turn.text)\" as Hark's own \($0)" }
            ?? "heard \"\(turn.text)\": \(turn.rejection ?? "not understood")"
        guard let intent = expected.intent else {
            outcome.account = heard
            return outcome
        }
        outcome.account = "\(heard), expected \(intent.name) \(Self.describe(expected.slots ?? [:]))"
        guard outcome.understood else { return outcome }
        outcome.intentRight = turn.intent == intent.name
        let match = catalog.apps.first { $0.identifier == turn.app }
        // Two parameters may stand for one slot ("state" and "state_2", imported from Home
        // Assistant): a sidecar names the slot, as Wyoming clients are told it.
        let definition = turn.intent.flatMap { match?.intent(named: $0) }
        let bySlot = Dictionary(turn.slots.map { (definition?.parameter(named: $0.key)?.slotName ?? $0.key, $0.value) }) { first, _ in first }
        for (slot, value) in (expected.slots ?? [:]).sorted(by: { $0.key < $1.key }) {
            let heard = turn.slots[slot] ?? bySlot[slot]
            let spoken = heard.flatMap { identifier in
                match?.types.values.lazy.compactMap { $0.value(identifier: identifier)?.spoken }.first
            }
            if !Self.same(value, heard) && !Self.same(value, spoken) {
                outcome.slotConfusions.append("\(slot): \(value) → \(heard ?? "nothing")")
            }
        }
        outcome.commandRight = outcome.intentRight && outcome.slotConfusions.isEmpty
        return outcome
    }

    /// A request in which the endpointer found no speech after the wake word: the live loop
    /// would have stopped listening, so it is neither understood nor acted on. Its margin is
    /// below every threshold the report judges at.
    static func nothingHeard(expected: ExpectedUnderstanding, url: URL,
                             because reason: String = "no speech found after the wake word") -> BenchmarkOutcome {
        BenchmarkOutcome(recording: url.lastPathComponent, folder: url.deletingLastPathComponent().lastPathComponent,
                         voice: expected.voice, noise: expected.noise, snr: expected.snr, mustReject: expected.intent == nil,
                         margin: unheardMargin, understood: false, intentRight: false, commandRight: false, slotConfusions: [],
                         account: reason
                             + (expected.intent.map { ", expected \($0.name) \(Self.describe(expected.slots ?? [:]))" } ?? ""))
    }

    /// A request after a tentative wake word, as the live loop follows it up
    /// (`TentativeWakeFollowUp`), judged from its margin: acted on when it clears the noisy
    /// room's reach (`Recognition.isClear`); asked about when a noisy room asks about it first
    /// (its margin, already in the ask band, from where the threshold is judged there up); else
    /// dropped in silence, as is a request of too few words. `confirmation`: the recogniser's
    /// (nil when no room asks first), whose reach also says what is clear, as in `Verdict`.
    static func followTentativeWake(_ outcome: inout BenchmarkOutcome, words: Int, threshold: Double, askBand: Double,
                                    confirmation: NoisyConfirmation?, telephoneBandReach: Double? = nil) {
        guard outcome.understood, words >= LiveSettings.tentativeRequestWords else {
            return drop(&outcome)
        }
        let denoised = outcome.features?.heardThroughSuppression ?? false, agreed = outcome.features?.hearingsAgreed ?? false
        let telephoneBandReach = outcome.features?.telephoneBand == true ? telephoneBandReach : nil
        let clear = NoisyConfirmation.clearReach(confirmation, denoised: denoised, agreed: agreed, telephoneBandReach: telephoneBandReach)
        if outcome.margin >= threshold + clear { return }
        // What asked first, and how far up: a noisy room, a telephone-band microphone, or both.
        guard let reach = NoisyConfirmation.askingReach(confirmation, signalToNoise: outcome.features?.signalToNoise,
                                                        denoised: denoised, agreed: agreed, telephoneBandReach: telephoneBandReach),
              outcome.margin >= NoisyConfirmation.squeezed(threshold, threshold: threshold, askBand: askBand, reach: reach),
              outcome.margin < threshold else { return drop(&outcome) }
        outcome.account = "after a tentative wake word, asked about: " + outcome.account
    }

    private static func drop(_ outcome: inout BenchmarkOutcome) {
        outcome.account = "after a tentative wake word, dropped in silence: " + outcome.account
        outcome.margin = unheardMargin
    }

    /// The margin of a request never heard: below every threshold a report judges at.
    static let unheardMargin = -100.0

    /// Equal ignoring case and spacing, as the sidecar format intends.
    static func same(_ expected: String, _ heard: String?) -> Bool {
        guard let heard else { return false }
        func normal(_ text: String) -> String { text.lowercased().filter { !$0.isWhitespace && $0 != "_" } }
        return normal(expected) == normal(heard)
    }
}
