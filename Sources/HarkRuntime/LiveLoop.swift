import Foundation
public import HarkAudio
import HarkSpeech
import HarkShortcuts
import HarkDialogue

/// The device loop: idle → wake word → listen → recognise with the grammar of the turn →
/// dialogue → speak → when the dialogue asked a question, listen again without the wake word →
/// idle.
///
/// Hark never takes its own voice for a person's. By default (`LiveSettings.whileSpeaking`
/// `.listen`) it listens while it speaks: what it plays is taken out of what the microphone
/// hears (`EchoPath`), and the wake word heard in what is left stops the reply at once and
/// starts a request ("Jarvis, stop"; "Jarvis, what time is it?"). Only the wake word is
/// listened for while speaking, so the rest of a reply cannot answer its own question. Once a
/// reply has taught the canceller the room, the acknowledgement after the wake word (the chime,
/// or "Yes?") is taken out the same way, and what is said over it is the start of the request.
/// With `.gate`, audio captured while it speaks, and for `echoTail` after, is thrown away
/// (`LiveAudioSource.discard`), and so is audio captured under a spoken "Yes?" before the
/// canceller knows the room. The chime is never gated: it is short and quiet, and dropping the
/// audio under it would clip a command said straight after the wake word.
///
/// Runs on its own thread: audio reads and playback block, and the wake-word spotter scores
/// audio inline.
public actor LiveLoop {
    private let executor = DedicatedExecutor(label: "hark.live")
    public nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

    let brain: any LiveBrain
    let settings: LiveSettings
    let source: any LiveAudioSource
    let sink: (any LiveAudioSink)?
    /// Whether capture is gated while Hark speaks; only a test proving the gate turns it off.
    let gatesOwnSpeech: Bool
    /// Everything played, in order, when asked for (`keepsPlayed`).
    var playedClips: [AudioClip]?

    private enum Phase {
        case waiting
        case listening(Listening)
    }

    /// Listening for a request (after the wake word) or for an answer.
    private struct Listening {
        var endpointer: EnergyEndpointer
        /// Where listening began (samples heard).
        var since: Int
        var isAnswer: Bool
        /// The pause under way was already looked at for a finished phrase.
        var checkedPause = false
        /// What was recognised early in the pause under way, when it is a finished phrase:
        /// the answer once the pause has lasted `earlyEndSilence`.
        var speculation: Speculation?
        /// The pause's early look found a whole phrase but too little quiet after its last sound
        /// to be sure: look again once the pause has lasted `earlyEndSilence`.
        var looksAgain = false
        /// Samples still to search for the end of the wake word's last sound: the spotter finds
        /// the phrase a little before its final consonant fades, and that tail is not the request.
        var wakeTailLeft = 0
        /// Whether this device answers the wake word that began listening (a hub decides when
        /// other rooms heard it too); nil for an answer to a question.
        var claim: WakeClaim?
        /// Listening after a tentative wake word: the request must start promptly and be
        /// understood clearly, or Hark stays silent.
        var isTentative = false
    }

    /// A phrase recognised at `quiet` seconds into a pause, recognition having started at `started`.
    private struct Speculation {
        var heard: HeardUtterance
        var quiet: Double
        var started: Date
    }

    /// Frames of quiet after the last sound that an early look needs: the pause must still
    /// last until `earlyEndSilence` before the reply, which makes up the rest of the
    /// recogniser's usual margin (`Recognizer.quietFramesAfterFinishedPhrase`).
    static let speculativeQuietFrames = 5

    /// What listens for the wake word, and what it needs to start a request; set by `run`.
    var spotter: WakeWordSpotter?
    private var ambient: EnergyEndpointer
    /// The room heard while waiting, for judging the request after a wake word (`RoomBeforeRequest`).
    private var roomBefore = RoomBeforeRequest()
    private var silentMicrophone = SilentMicrophone()
    var recent = RecentAudio(seconds: 2)
    private var acknowledgement: (clip: AudioClip, isSpeech: Bool)?
    /// Hark's own voice taken out while it speaks; made at the first reply spoken that way.
    var echo: EchoPath?
    var stopDelays: [Double] = []
    var cpuWhileSpeaking = 0.0

    /// Samples read from the source (not counting what was discarded while Hark spoke).
    var heard = 0
    /// Samples discarded while Hark spoke.
    var skipped = 0
    /// When (samples heard) the automations were last looked at: once a second while waiting.
    private var lastAutomationCheck = 0
    var summary = LiveSummary()
    private var latencies: [LiveLatency] = []

    /// `sink` nil plays nothing (a recording answered silently). `keepsPlayed` keeps a copy of
    /// everything played, for `played()`.
    public init(assistant: Assistant, settings: LiveSettings, source: sending any LiveAudioSource,
                sink: sending (any LiveAudioSink)?, keepsPlayed: Bool = false) {
        self.init(brain: assistant, settings: settings, source: source, sink: sink, keepsPlayed: keepsPlayed,
                  gatesOwnSpeech: true)
    }

    /// A loop that sends what it hears to `brain` (a hub, for a satellite) instead of the assistant
    /// on this device.
    public init(brain: any LiveBrain, settings: LiveSettings, source: sending any LiveAudioSource,
                sink: sending (any LiveAudioSink)?, keepsPlayed: Bool = false) {
        self.init(brain: brain, settings: settings, source: source, sink: sink, keepsPlayed: keepsPlayed,
                  gatesOwnSpeech: true)
    }

    init(brain: any LiveBrain, settings: LiveSettings, source: sending any LiveAudioSource,
         sink: sending (any LiveAudioSink)?, keepsPlayed: Bool, gatesOwnSpeech: Bool) {
        self.brain = brain
        self.settings = settings
        self.source = source
        self.sink = sink
        self.gatesOwnSpeech = gatesOwnSpeech
        self.playedClips = keepsPlayed ? [] : nil
        self.ambient = EnergyEndpointer(settings: settings.endpointer)
    }

    /// The clips played so far, as played (when kept).
    var playedClipsForTesting: [AudioClip]? { playedClips }

    /// Everything played so far, one clip after another at the first clip's rate; nil when
    /// nothing was played or the loop was not asked to keep it.
    public func played() throws -> AudioClip? {
        guard let clips = playedClips, let first = clips.first else { return nil }
        var samples: [Float] = []
        for clip in clips {
            samples += try clip.mixedToMono().resampled(to: first.sampleRate).samples
        }
        return AudioClip(samples: samples, sampleRate: first.sampleRate, channels: 1)
    }

    /// Runs until the source ends (a recording) or the task is cancelled (SIGTERM, Ctrl-C), and
    /// returns the run's figures. Throws only what the loop cannot go on from: a wake word the
    /// dictionary cannot spell, a source that fails in a way no retry helps.
    public func run(onEvent: @Sendable (LiveEvent) -> Void) async throws -> LiveSummary {
        let spotter = try WakeWordSpotter(configuration: settings.wakeWord)
        self.spotter = spotter
        acknowledgement = try await acknowledgementClip()
        let cpuAtStart = ProcessClock.cpuSeconds()
        var phase = Phase.waiting
        onEvent(.started(source: source.name, wakePhrase: settings.wakePhrase))

        while !Task.isCancelled {
            let read: [Int16]?
            do {
                read = try await source.read(frames: LiveSettings.chunkSamples)
            } catch is CancellationError {
                break  // stopped while waiting for audio or for a device
            }
            guard let chunk = read, !chunk.isEmpty else { break }
            heard += chunk.count
            recent.append(chunk, endingAt: heard + skipped)
            if let change = silentMicrophone.observe(chunk) {
                onEvent(.microphone(silent: change == .fellSilent, at: seconds(heard + skipped)))
            }
            switch phase {
            case .waiting:
                ambient.observe(chunk)
                roomBefore.observe(chunk, endingAt: heard + skipped)
                if heard - lastAutomationCheck >= PipelineAudio.sampleRate {
                    lastAutomationCheck = heard
                    let before = heard + skipped
                    if let interrupted = try await speakDueAutomations(onEvent: onEvent) {
                        phase = interrupted
                        break
                    }
                    // This piece was heard before the automations were said: stale now.
                    if heard + skipped != before { continue }
                }
                // After an automation said with the microphone gated, the spotter starts afresh.
                try keepSpotterInStep()
                guard let detection = try spotter.process(chunk).first else { continue }
                phase = try await woke(detection, onEvent: onEvent)
            case .listening(var listening):
                phase = try await listen(to: chunk, &listening, onEvent: onEvent)
            }
            if case .waiting = phase { try keepSpotterInStep() }
        }
        return finish(cpuAtStart: cpuAtStart)
    }

    /// The spotter missed what was heard while listening and what was spoken over: start it
    /// afresh, keeping its positions on the same timeline.
    func keepSpotterInStep() throws {
        guard let spotter, spotter.samplesProcessed < heard + skipped else { return }
        try spotter.reset(skipping: heard + skipped - spotter.samplesProcessed)
    }

    /// The wake word was heard (while waiting, or over Hark's own voice): acknowledges it and
    /// listens for the request, starting with what was said after it and already read.
    private func woke(_ detection: WakeWordDetection, onEvent: @Sendable (LiveEvent) -> Void) async throws -> Phase {
        var request = recent.samples(from: detection.endSample)
        do {
            try await brain.heardBeforeRequest(roomPower: roomBefore.meanPower(before: detection.startSample))
        } catch {
            onEvent(.problem("the room before the wake word could not be noted: \(error)"))
        }
        if detection.isTentative {
            summary.tentativeWakes += 1
            onEvent(.tentativeWake(at: seconds(detection.endSample), confidence: detection.confidence))
            var listening = Listening(endpointer: EnergyEndpointer(settings: settings.endpointer, room: ambient),
                                      since: heard, isAnswer: false, wakeTailLeft: samples(Self.longestWakeTail))
            listening.isTentative = true
            return try await listen(to: request, &listening, onEvent: onEvent)
        }
        summary.wakeWords += 1
        onEvent(.wake(at: seconds(detection.endSample), score: detection.score, confidence: detection.confidence))
        if let acknowledgement {
            if listensWhileSpeaking, echo?.knowsTheRoom == true {
                // Taken out of what is heard, like a reply; what is said over it starts the request.
                // Not before a reply has taught the canceller the room: a first "Yes?" left in
                // would be heard as the start of the request.
                _ = try await playHearing(acknowledgement.clip, onEvent: onEvent) { (cleaned) in
                    request += cleaned
                    return false
                }
            } else {
                // A spoken "Yes?" is gated like any reply; the chime is not (see above).
                try play(acknowledgement.clip, gated: acknowledgement.isSpeech, onEvent: onEvent)
            }
        }
        var listening = Listening(endpointer: EnergyEndpointer(settings: settings.endpointer, room: ambient),
                                  since: heard, isAnswer: false, wakeTailLeft: samples(Self.longestWakeTail),
                                  claim: WakeClaim(brain: brain, phrase: detection.phrase,
                                                   signalToNoise: Self.signalToNoise(of: detection, in: recent, background: ambient.background),
                                                   confidence: detection.confidence))
        return try await listen(to: request, &listening, onEvent: onEvent)
    }

    /// How far the wake word stood above the room's background (dB): how well this device heard
    /// it, beside other rooms that heard the same words.
    static func signalToNoise(of detection: WakeWordDetection, in recent: RecentAudio, background: Double) -> Double {
        let phrase = recent.samples(from: detection.startSample).prefix(max(0, detection.endSample - detection.startSample))
        return EnergyEndpointer.level(phrase) - background
    }

    /// The wake word's last sound fades within this long (s) of where the spotter ends it.
    public static let longestWakeTail = 0.5

    /// Feeds audio heard while listening; answers when the utterance is over (or nothing was said
    /// in time) and says what comes next.
    private func listen(to audio: [Int16], _ listening: inout Listening,
                        onEvent: @Sendable (LiveEvent) -> Void) async throws -> Phase {
        if listening.claim?.answers == false {
            onEvent(.yielded(at: seconds(heard + skipped)))
            return .waiting
        }
        var tailLeft = listening.wakeTailLeft
        let audio = listening.endpointer.droppingSoundTail(audio, left: &tailLeft)
        listening.wakeTailLeft = tailLeft
        if let utterance = listening.endpointer.feed(audio).first {
            return try await answer(utterance, trailing: listening.endpointer.lastTrailingQuiet,
                                    isAnswer: listening.isAnswer, claim: listening.claim,
                                    tentative: listening.isTentative, onEvent: onEvent)
        }
        let endpointer = listening.endpointer
        let speculativeSilence = min(settings.speculativeSilence, settings.earlyEndSilence)
        if endpointer.isInSpeech && endpointer.quietSoFar >= speculativeSilence && !listening.checkedPause {
            // A pause: if what was said so far is a whole phrase nothing continues, it is over once
            // the pause reaches earlyEndSilence, and waiting for the full end silence would only
            // delay the reply. Recognition starts now so that its result is ready by then.
            listening.checkedPause = true
            let started = Date()
            // A recognition that fails here fails again, and is reported, when the utterance ends.
            if let early = try? await brain.hearEarly(endpointer.utteranceSoFar, continuing: listening.isAnswer),
               early.isWholePhrase {
                if Recognizer.saidInFull(early.recognition, quietFrames: Self.speculativeQuietFrames) {
                    listening.speculation = Speculation(heard: early, quiet: endpointer.quietSoFar, started: started)
                } else {
                    listening.looksAgain = true
                }
            }
        }
        if endpointer.isInSpeech && endpointer.quietSoFar >= settings.earlyEndSilence,
           let speculation = listening.speculation, let utterance = listening.endpointer.endNow() {
            return try await answer(utterance, recognized: speculation.heard, since: speculation.started,
                                    trailing: speculation.quiet, confirmedQuiet: endpointer.quietSoFar,
                                    isAnswer: listening.isAnswer, claim: listening.claim,
                                    tentative: listening.isTentative, onEvent: onEvent)
        }
        if endpointer.isInSpeech && endpointer.quietSoFar >= settings.earlyEndSilence && listening.looksAgain {
            listening.looksAgain = false
            let paused = Date()
            let trailing = endpointer.quietSoFar
            if let early = try? await brain.hearEarly(endpointer.utteranceSoFar, continuing: listening.isAnswer),
               early.endsPhrase, let utterance = listening.endpointer.endNow() {
                return try await answer(utterance, recognized: early, since: paused, trailing: trailing,
                                        isAnswer: listening.isAnswer, claim: listening.claim,
                                    tentative: listening.isTentative, onEvent: onEvent)
            }
        } else if listening.isTentative && !endpointer.isInSpeech && heard - listening.since >= samples(settings.tentativeSpeechWithin) {
            onEvent(.dismissed(at: seconds(heard + skipped), heard: ""))
            return .waiting
        } else if !endpointer.isInSpeech && heard - listening.since >= samples(settings.noSpeechTimeout) {
            summary.noSpeech += 1
            onEvent(.noSpeech(at: seconds(heard + skipped), inConversation: listening.isAnswer))
            // A question unanswered is the dialogue's to handle (ask once more, or let go);
            // a wake word with nothing after it just goes back to waiting.
            return listening.isAnswer ? try await answer([], trailing: 0, isAnswer: true, onEvent: onEvent) : .waiting
        } else if endpointer.quietSoFar < speculativeSilence {
            // Speech resumed after a pause: the next pause gets its own look.
            listening.checkedPause = false
            listening.speculation = nil
            listening.looksAgain = false
        }
        return .listening(listening)
    }

    /// Recognises and answers one utterance (empty: nothing was said), speaks the reply, and says
    /// what to do next: listen for an answer, or wait for the wake word. `early` is the utterance
    /// already recognised (at a pause), `since` when its end was found or its recognition began,
    /// `trailing` the quiet heard by then; `confirmedQuiet` the quiet the reply waited for after
    /// an early recognition. `claim`: the wake word's, which must be this device's to answer.
    private func answer(_ utterance: [Int16], recognized early: HeardUtterance? = nil, since endpointed: Date = Date(),
                        trailing: Double, confirmedQuiet: Double? = nil, isAnswer: Bool, claim: WakeClaim? = nil,
                        tentative: Bool = false, onEvent: @Sendable (LiveEvent) -> Void) async throws -> Phase {
        var early = early
        if tentative {
            guard let borneOut = await tentativeRequest(utterance, heardEarly: early, onEvent: onEvent) else { return .waiting }
            early = borneOut
        }
        if let claim, await !claim.decision() {
            onEvent(.yielded(at: seconds(heard + skipped)))
            return .waiting
        }
        let decided = Date()
        let turnNumber = summary.turns + 1
        saveUtterance(utterance, turn: turnNumber, onEvent: onEvent)
        let report: TurnReport, reply: AudioClip
        do {
            (report, reply) = try await brain.respond(to: utterance, early: early, continuing: isAnswer, name: "turn \(turnNumber)")
        } catch {
            onEvent(.problem("turn \(turnNumber) could not be understood: \(error)"))
            return .waiting
        }
        // On a microphone the audio after an early recognition arrives while it runs; on a recording
        // read faster than real time it does not, so the quiet still to be confirmed is counted
        // as the time it takes to hear when that is longer.
        var processing = Date().timeIntervalSince(endpointed)
        if let confirmedQuiet {
            processing = max(processing, confirmedQuiet - trailing + Date().timeIntervalSince(decided))
        }
        let latency = LiveLatency(endSilence: trailing, processing: processing)
        if !utterance.isEmpty {
            summary.turns += 1
            latencies.append(latency)
        }
        onEvent(.turn(LiveTurn(report: report, endedAt: seconds(heard + skipped), isAnswer: isAnswer, latency: latency)))
        if let interruption = try await speak(reply, onEvent: onEvent) {
            // A new request: a question the reply asked is dropped with it.
            return try await woke(interruption, onEvent: onEvent)
        }
        guard report.expectsAnswer else { return .waiting }
        // The answer is listened for in the room as it was before the wake word: started from a
        // quiet room's level, a loud room's noise would count as speech from the first frame.
        return .listening(Listening(endpointer: EnergyEndpointer(settings: settings.endpointer, room: ambient),
                                    since: heard, isAnswer: true))
    }

    /// What followed a tentative wake word, when it bears the wake word out
    /// (`TentativeWakeFollowUp`): acted on when understood clearly, asked about when a noisy
    /// room asks first; nil after saying it was dismissed.
    /// A brain that does not hear early (a hub) cannot say, so nothing is acted on.
    private func tentativeRequest(_ utterance: [Int16], heardEarly: HeardUtterance?,
                                  onEvent: @Sendable (LiveEvent) -> Void) async -> HeardUtterance? {
        var recognized = heardEarly
        if recognized == nil, !utterance.isEmpty {
            do {
                recognized = try await brain.hearEarly(utterance, continuing: false)
            } catch {
                onEvent(.problem("what followed a tentative wake word could not be recognised: \(error)"))
            }
        }
        guard let request = recognized, TentativeWakeFollowUp(request.recognition) != .dismiss else {
            onEvent(.dismissed(at: seconds(heard + skipped), heard: recognized?.recognition.text ?? ""))
            return nil
        }
        summary.wakeWords += 1
        summary.tentativeAnswered += 1
        return request
    }

    /// Plays a clip; when `gated`, throws away what the microphone heard meanwhile.
    func play(_ heard: AudioClip, gated: Bool, onEvent: @Sendable (LiveEvent) -> Void) throws {
        guard heard.frameCount > 0 else { return }
        let clip = brain.loudspeaker.applied(to: heard)
        playedClips?.append(clip)
        do {
            try sink?.play(clip)
            source.loudspeakerPlayed(clip)
        } catch {
            onEvent(.problem("could not play on the loudspeaker: \(error)"))
        }
        guard gated && gatesOwnSpeech else { return }
        let spoken = clip.duration + settings.echoTail
        try source.discard(spokenFor: spoken)
        skipped += samples(spoken)
    }

    /// Runs the automations that are due (a shortcut set for 7:30 on weekdays) and says their
    /// results; the listening a wake word said over them started (the results not yet said are
    /// left unsaid), or nil.
    private func speakDueAutomations(onEvent: @Sendable (LiveEvent) -> Void) async throws -> Phase? {
        let due: [(phrase: String, speech: String, clip: AudioClip)]
        do {
            due = try await brain.whileWaiting()
        } catch {
            onEvent(.problem("automations could not be run: \(error)"))
            return nil
        }
        for result in due {
            onEvent(.automation(phrase: result.phrase, reply: result.speech))
            if let interruption = try await speak(result.clip, onEvent: onEvent) {
                return try await woke(interruption, onEvent: onEvent)
            }
        }
        return nil
    }

    /// Keeps the audio of a turn when asked (`utteranceDirectory`), for tuning and bug reports.
    private func saveUtterance(_ utterance: [Int16], turn: Int, onEvent: @Sendable (LiveEvent) -> Void) {
        guard let directory = settings.utteranceDirectory, !utterance.isEmpty else { return }
        let file = directory.appendingPathComponent("turn-\(turn).wav")
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try WAVFile.write(AudioClip(int16: utterance, sampleRate: PipelineAudio.sampleRate, channels: 1), to: file)
        } catch {
            onEvent(.problem("could not save \(file.path): \(error)"))
        }
    }

    private func acknowledgementClip() async throws -> (clip: AudioClip, isSpeech: Bool) {
        switch settings.acknowledgement {
        case .chime: (Chime.clip(), false)
        case .speech: (try await brain.speak("Yes?"), true)
        case .none: (AudioClip(samples: [], sampleRate: PipelineAudio.sampleRate, channels: 1), false)
        }
    }

    private func finish(cpuAtStart: Double) -> LiveSummary {
        summary.audioSeconds = seconds(heard + skipped)
        let processing = latencies.map(\.processing).sorted(), totals = latencies.map(\.total).sorted()
        summary.processingP50 = ProcessClock.percentile(processing, 0.5)
        summary.processingP95 = ProcessClock.percentile(processing, 0.95)
        summary.totalLatencyP50 = ProcessClock.percentile(totals, 0.5)
        summary.totalLatencyP95 = ProcessClock.percentile(totals, 0.95)
        summary.cpuPerAudioSecond = summary.audioSeconds > 0 ? (ProcessClock.cpuSeconds() - cpuAtStart) / summary.audioSeconds : 0
        summary.peakResidentMegabytes = ProcessClock.peakResidentMegabytes()
        summary.cpuPerSpeakingSecond = summary.speakingSeconds > 0 ? cpuWhileSpeaking / summary.speakingSeconds : 0
        let delays = stopDelays.sorted()
        summary.stopDelayP50 = ProcessClock.percentile(delays, 0.5)
        summary.stopDelayP95 = ProcessClock.percentile(delays, 0.95)
        return summary
    }

    func seconds(_ samples: Int) -> Double { Double(samples) / Double(PipelineAudio.sampleRate) }
    func samples(_ seconds: Double) -> Int { Int(seconds * Double(PipelineAudio.sampleRate)) }
}
