import Foundation

/// Which candidates get a second look while listening (`listensFrom`, `proposalFloor`), and the
/// verifier's look at audio the search did not propose: what Hark's own voice said when a wake
/// word was heard over it, and where a phrase lies in a recording.
extension WakeWordSpotter {
    /// The lowest confidence a candidate is reported from while listening: the threshold, or the
    /// tentative odds below it.
    var listensFrom: Double {
        reportsTentative ? min(threshold, configuration.tentativeOdds ?? threshold) : threshold
    }

    /// The search score (per frame) a candidate needs for a second look: the configuration's
    /// `proposalThreshold`, and while listening for odds of `listeningFloorHoldsFrom` or more (the
    /// default's tentative wake words, or only sure ones) at least `listeningProposalThreshold`.
    /// A benchmark that reports every candidate, to sweep thresholds, looks at them all.
    var proposalFloor: Double {
        guard !configuration.reportsCandidates, listensFrom >= Self.listeningFloorHoldsFrom else {
            return configuration.proposalThreshold
        }
        return max(configuration.proposalThreshold, Self.listeningProposalThreshold)
    }

    /// How sure the verifier is that `audio` says `detection`'s phrase (its log odds, the best
    /// of the phrase's spellings): for checking what Hark itself was saying at the moment a wake
    /// word was heard over its reply. `audio` should span the detection with the verifier's
    /// margins (`verifierMargins`). The search never scored `audio`, so the verifier is told the
    /// lowest score a proposal has by default (`proposalThreshold`, whatever the configuration
    /// proposes from: `EchoPath.ownVoiceOdds` was measured at it): judged on the phrase's
    /// alignment alone (the detection's own score would lend the person's clear phrase to
    /// whatever Hark said meanwhile). The check against other words is not made: it can only
    /// lower the odds, and here lower odds would take Hark's own voice for the person. nil
    /// without a verifier.
    public func confidence(of detection: WakeWordDetection, in audio: [Int16]) throws(RecognitionError) -> Double? {
        guard let secondLook else { return nil }
        let heard = heardApart(audio)
        let phones = spellings.values.filter { $0.phrase == detection.phrase }.map(\.phones)
        return try secondLook.look { (verifier) throws(RecognitionError) in
            let window = try verifier.cepstra(of: heard)
            var best = -Double.infinity
            for spelling in phones {
                let evidence = try verifier.evidence(phones: spelling, in: window, searchScore: Self.proposalThreshold)
                best = max(best, secondLook.model.logOdds(evidence))
            }
            return best
        }
    }

    /// Where a wake phrase lies in `audio` (samples, from its first phone's start to its last
    /// phone's end), as a forced alignment puts it: each spelling of each phrase is aligned
    /// between free phones, as the verifier aligns a candidate, and the best-scoring alignment
    /// wins. For measuring how soon something follows the phrase's end, from the phrase's own
    /// phones rather than the recording's last sound (which can be a breath or a click after
    /// it). Assumes `audio` holds a phrase: an alignment is forced. nil without a verifier, or
    /// when no spelling could be aligned.
    public func alignedPhrase(in audio: [Int16]) throws(RecognitionError) -> Range<Int>? {
        guard secondLook != nil else { return nil }
        // The verifier's own decoder drops silence before it decodes (pocketsphinx's default),
        // which moves every frame after a pause; this one numbers frames as the audio runs.
        let aligner: WakeWordVerifier
        if let made = self.aligner {
            aligner = made
        } else {
            let adaptation = try Recognizer.adaptationArguments(configuration.acousticTransform)
            aligner = try WakeWordVerifier(modelDirectory: configuration.modelDirectory, logFile: configuration.logFile,
                                           extraArguments: ["-remove_silence", "no"] + adaptation)
            self.aligner = aligner
        }
        let heard = heardApart(audio)
        let window = try aligner.cepstra(of: heard)
        var best: (frames: ClosedRange<Int>, score: Double)?
        for spelling in spellings.values.sorted(by: { $0.phones.lexicographicallyPrecedes($1.phones) }) {
            if let aligned = try aligner.phraseFrames(phones: spelling.phones, in: window),
               aligned.score > (best?.score ?? -.infinity) {
                best = aligned
            }
        }
        guard let frames = best?.frames else { return nil }
        return frames.lowerBound * Self.frameSamples..<min((frames.upperBound + 1) * Self.frameSamples, audio.count)
    }

    /// A window heard apart from the stream, as a spotter hearing it afresh would: brought up by
    /// the gain its own voice asks for (its loudest 100 ms), and with the hiss added.
    func heardApart(_ audio: [Int16]) -> [Int16] {
        let window = configuration.amplifiesFaintVoices
            ? FaintVoiceGain.amplified(audio, by: FaintVoiceGain.decibels(forVoiceAt: StreamVoiceLevel.of(audio)))
            : audio
        var floor = configuration.noiseFloor.map { NoiseFloor(level: $0) }
        return floor?.adding(to: window[...]) ?? window
    }

    /// Samples the verifier hears before a candidate's start and after its end.
    public static var verifierMargins: (before: Int, after: Int) { (windowBefore, windowAfter) }
}
