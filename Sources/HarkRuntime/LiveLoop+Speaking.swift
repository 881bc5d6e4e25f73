import Foundation
import HarkAudio
import HarkSpeech

/// Speaking a reply: gated, or heard through the echo canceller while the wake word is
/// listened for, so that it can stop the reply.
extension LiveLoop {
    /// Says a reply: listening for the wake word meanwhile (`.listen`), or deaf to the microphone
    /// until it is over (`.gate`). Returns the wake word that stopped it, if one did.
    func speak(_ reply: AudioClip, onEvent: @Sendable (LiveEvent) -> Void) async throws -> WakeWordDetection? {
        guard listensWhileSpeaking, reply.frameCount > 0 else {
            try play(reply, gated: true, onEvent: onEvent)
            return nil
        }
        return try await speakListening(reply, onEvent: onEvent)
    }

    /// Whether Hark hears the room while it speaks (`LiveSettings.whileSpeaking`), its own voice
    /// taken out, instead of gating the microphone.
    var listensWhileSpeaking: Bool { settings.whileSpeaking == .listen && gatesOwnSpeech }

    /// How far ahead of what the microphone has heard the loudspeaker is handed the reply (s):
    /// enough that a late read never starves it, little enough that stopping drops it all.
    static let playbackLead = 0.1

    /// Says a reply while listening for the wake word in what the microphone hears with the reply
    /// taken out; stops the reply the moment the wake word is heard, and returns it.
    func speakListening(_ reply: AudioClip, onEvent: @Sendable (LiveEvent) -> Void) async throws -> WakeWordDetection? {
        try keepSpotterInStep()
        guard let spotter else { return nil }
        var interruption: WakeWordDetection?
        let echo = try echoPath()
        // What the canceller leaves of the reply is Hark's own voice, garbled: the spotter's
        // mean keeps what it learned from the room and the people in it.
        spotter.holdsMean = true
        spotter.reportsTentative = false
        defer {
            spotter.holdsMean = false
            spotter.reportsTentative = true
        }
        let stopped = try await playHearing(reply, onEvent: onEvent) { (cleaned) throws in
            guard let detection = try spotter.process(cleaned).first,
                  try !echo.isOwnVoice(detection, spotter: spotter) else { return false }
            interruption = detection
            return true
        }
        guard let interruption, let stopped else { return nil }
        let delay = seconds(max(0, stopped - interruption.endSample))
        stopDelays.append(delay)
        summary.interruptions += 1
        onEvent(.interrupted(at: seconds(stopped), afterWakeWord: delay))
        return interruption
    }

    func echoPath() throws -> EchoPath {
        if let echo { return echo }
        let made = try EchoPath()
        echo = made
        return made
    }

    /// Plays `clip` a piece at a time, one piece for each piece the microphone hears, and gives
    /// `hear` each piece heard with the clip taken out of it (`EchoPath`). When `hear` returns
    /// true the clip is silenced at once; returns where (samples on the loop's timeline), or nil
    /// when it played to the end (and `echoTail` after, the room's reflections fading).
    func playHearing(_ reply: AudioClip, onEvent: @Sendable (LiveEvent) -> Void,
                             hear: ([Int16]) throws -> Bool) async throws -> Int? {
        let clip = brain.loudspeaker.applied(to: reply)
        let played = try clip.pipelineSamples()
        let echo = try echoPath()
        var playback: (any LivePlayback)?
        do {
            playback = try sink?.start(clip)
        } catch {
            onEvent(.problem("could not play on the loudspeaker: \(error)"))
        }
        source.loudspeakerPlayed(clip)
        echo.begin(played, queued: playback?.queuedSeconds() ?? 0, at: heard + skipped)
        let cpuAtStart = ProcessClock.cpuSeconds()
        var spoken = 0
        defer {
            echo.end()
            cpuWhileSpeaking += ProcessClock.cpuSeconds() - cpuAtStart
            summary.speakingSeconds += seconds(spoken)
        }
        let lasting = played.count + samples(settings.echoTail)
        while spoken < lasting && !Task.isCancelled {
            do {
                try playback?.play(through: seconds(spoken) + Self.playbackLead)
            } catch {
                onEvent(.problem("could not play on the loudspeaker: \(error)"))
                playback = nil
            }
            let read: [Int16]?
            do {
                read = try await source.read(frames: LiveSettings.chunkSamples)
            } catch is CancellationError {
                break  // stopping (SIGTERM, Ctrl-C): the clip is cut short below
            }
            guard let chunk = read, !chunk.isEmpty else { break }
            spoken += chunk.count
            heard += chunk.count
            let cleaned = echo.clean(chunk)
            recent.append(cleaned, endingAt: heard + skipped)
            guard try hear(cleaned) else { continue }
            let stopped = heard + skipped
            do {
                try playback?.stop()
            } catch {
                onEvent(.problem("could not stop the loudspeaker: \(error)"))
            }
            source.loudspeakerStopped()
            playedClips?.append(clip.prefix(seconds: min(clip.duration, seconds(spoken))))
            return stopped
        }
        playedClips?.append(clip)
        do {
            // Hark is stopping: it does not finish its sentence first.
            if Task.isCancelled { try playback?.stop() } else { try playback?.finish() }
        } catch {
            onEvent(.problem("could not play on the loudspeaker: \(error)"))
        }
        return nil
    }
}
