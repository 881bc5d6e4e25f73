public import Foundation
import HarkAudio
import HarkSpeech
import HarkVoice
import HarkRuntime

/// Wake words said while Hark speaks, in a simulated room: Hark's reply comes back into the
/// microphone through a loudspeaker 37 ms and a reverberant room away (a fixed impulse
/// response: the direct path, then reflections decaying to -60 dB in 0.2 s), at a chosen level
/// relative to the person, and the person's real recording lands 3 s into it. Each recording
/// is heard three ways by the same spotter: said in a quiet room, over the echo, and over the
/// echo as `hark listen` hears it while speaking (`EchoPath`: the canceller and the delay it
/// measured on the replies before, kept from one recording to the next as the loop keeps them
/// from one reply to the next, and the check that a wake word was not Hark's own voice). The echo
/// return loss enhancement is measured with a fresh canceller aligned on the 3 s before. With
/// `noises`, household noise goes on throughout, in the quiet room too; the enhancement then
/// counts the noise, which no canceller takes out, as what is left.
public struct EchoBenchmark {
    /// What Hark says meanwhile: long, and naming the wake word, which must not wake it.
    public static let reply = "Jarvis is my name. Here is the weather for today. It will be cloudy in the morning, "
        + "with sunny spells in the afternoon and a light breeze from the west. The high will be eighteen degrees, "
        + "and tonight it will fall to nine. Tomorrow looks much the same, with a chance of rain in the evening."
    /// The person starts this long into the reply.
    public static let personAt = 3.0

    public struct Row: Sendable, Codable {
        public var echoDecibels: Double
        public var recordings = 0
        public var foundAlone = 0
        public var foundOverEcho = 0
        public var foundCancelled = 0
        /// Echo return loss enhancement over the reply before the person speaks (dB), median.
        public var enhancementMedian = 0.0
        /// Wakes anywhere but the person's words: Hark's own voice waking it.
        public var ownVoiceWakesOverEcho = 0
        public var ownVoiceWakesCancelled = 0
        /// Hours of Hark's reply heard (for the own-voice wakes).
        public var replyHours = 0.0
        /// From the wake word's end to the 30 ms piece in which the loop, listening while
        /// speaking, was sure of the wake word and stopped the reply (s), for each wake word found
        /// that way. The end is where a forced alignment of the phrase in the person's own
        /// recording puts its last phone's end (`WakeWordSpotter.alignedPhrase`). The recording's
        /// last sound, the end used before, counts a breath or a click after the word as the word.
        public var stopDelays: [Double] = []
        /// Wake words found while speaking in recordings the phrase could not be aligned in.
        public var stopsWithoutEnd = 0
        /// The same through another canceller (`externalCanceller`), when one was given: wake
        /// words found, wakes by Hark's own voice, and its enhancement (median, dB).
        public var foundExternal = 0
        public var ownVoiceWakesExternal = 0
        public var enhancementExternalMedian = 0.0
    }

    public var recordings: [URL]
    public var echoLevels: [Double] = [0, -6, -12]
    /// A program that cancels the echo another way, for comparison (e.g. bench/webrtc-aec.cc):
    /// run as `PROGRAM CAPTURED.raw PLAYED.raw CLEANED.raw DELAY_MS` (16 kHz mono 16-bit raw),
    /// with the delay measured on the 3 s before the person speaks.
    public var externalCanceller: URL?
    /// Household noise heard throughout (in the quiet room too), each recording taking the next
    /// noise, from a different place in it; none: a quiet room.
    public var noises: [[Int16]] = []
    /// How far the noise stays below the person's speech (dB): SNR as bench/make-wake-corpus.py
    /// defines it, the speech's power being the mean of its 20 ms frames within 30 dB of its loudest.
    public var noiseSNR = 10.0
    /// Common words a likely wake word is checked against, as `hark listen` checks it
    /// (`WakeWordConfiguration.otherWords`); none: not checked.
    public var otherWords: [String] = []
    /// The adaptation of the acoustic model the spotter hears through, as `hark listen`'s wake
    /// word does (`WakeWordConfiguration.acousticTransform`); nil: Debian's model as it is.
    public var acousticTransform: URL?

    public init(recordings: [URL]) {
        self.recordings = recordings
    }

    public func run(progress: (String) -> Void) async throws -> [Row] {
        let voice = try SpeechService(settings: VoiceSettings())
        let spoken = try await voice.speak(Self.reply).pipelineSamples()
        let echoOfReply = SimulatedRoom(delay: 592, gain: 1).heard(spoken)
        var listening = WakeWordConfiguration(keyPhrase: "jarvis")
        listening.otherWords = otherWords
        listening.acousticTransform = acousticTransform
        let spotter = try WakeWordSpotter(configuration: listening)
        let echoPath = try EchoPath()
        // Each person's recording, read once for every level, and where the phrase ends in it,
        // as a forced alignment puts it.
        var people: [(samples: [Int16], phraseEnd: Int?)] = []
        for url in recordings {
            let samples = try WAVFile.read(contentsOf: url).pipelineSamples()
            people.append((samples, try spotter.alignedPhrase(in: samples)?.upperBound))
        }
        var rows: [Row] = []
        for level in echoLevels {
            var row = Row(echoDecibels: level)
            var enhancements: [Double] = [], externalEnhancements: [Double] = []
            for (index, (person, phraseEnd)) in people.enumerated() {
                progress("echo \(Int(level)) dB: \(index + 1)/\(people.count)")
                let start = Int(Self.personAt * 16_000)
                guard start + person.count < spoken.count else { continue }
                row.recordings += 1
                // The echo at `level` dB relative to the person's speech.
                let gain = pow(10, level / 20) * (Self.rms(person[...]) / max(Self.rms(echoOfReply[start..<(start + person.count)]), 1))
                let echo = echoOfReply.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
                var alone = [Int16](repeating: 0, count: start) + person + [Int16](repeating: 0, count: 16_000)
                var captured = Array(echo.prefix(start + person.count + 16_000))
                for (offset, sample) in person.enumerated() {
                    captured[start + offset] = Int16(clamping: Int(captured[start + offset]) + Int(sample))
                }
                if !noises.isEmpty {
                    let room = Self.looped(noises[index % noises.count], count: captured.count, from: index * 7_919,
                                           power: Self.speechPower(person) / pow(10, noiseSNR / 10))
                    alone = Self.mixed(alone, room)
                    captured = Self.mixed(captured, room)
                }
                let played = Array(spoken.prefix(captured.count)) + [Int16](repeating: 0, count: max(0, captured.count - spoken.count))
                let before = Array(captured.prefix(start)), playedBefore = Array(played.prefix(start))
                let delay = EchoDelay.estimate(captured: before, played: playedBefore)?.samples ?? 0
                let aligned = [Int16](repeating: 0, count: delay) + played.dropLast(delay)
                let cleaned = try EchoCanceller().cancel(captured: captured, played: aligned)
                enhancements.append(10 * log10(Self.energy(captured[16_000..<start]) / max(Self.energy(cleaned[16_000..<start]), 1)))
                let span = start..<(start + person.count + 8_000)
                func wakes(_ audio: [Int16]) throws -> (person: Bool, own: Int) {
                    try spotter.reset()
                    // The spotter's positions run on across resets: count from where this stream starts.
                    let origin = spotter.samplesProcessed
                    let ends = try spotter.process(audio).map { $0.endSample - origin }
                    return (ends.contains { span.contains($0) }, ends.filter { !span.contains($0) }.count)
                }
                // The person is at the same place in every stream: where the phrase ends in
                // their own recording is where it ends in each.
                let wordEnd = phraseEnd.map { start + $0 }
                if try wakes(alone).person { row.foundAlone += 1 }
                /// As the loop hears it while speaking: 30 ms pieces through the echo path.
                func wakesWhileSpeaking(_ audio: [Int16]) throws -> (person: Bool, own: Int) {
                    try spotter.reset()
                    let origin = spotter.samplesProcessed
                    echoPath.begin(played, queued: 0, at: origin)
                    spotter.holdsMean = true
                    defer { echoPath.end(); spotter.holdsMean = false }
                    var ends: [Int] = []
                    for piece in stride(from: 0, to: audio.count, by: LiveSettings.chunkSamples) {
                        let pieceEnd = min(piece + LiveSettings.chunkSamples, audio.count)
                        let heard = echoPath.clean(Array(audio[piece..<pieceEnd]))
                        for detection in try spotter.process(heard) where try !echoPath.isOwnVoice(detection, spotter: spotter) {
                            let end = detection.endSample - origin
                            if span.contains(end) && !ends.contains(where: { span.contains($0) }) {
                                if let wordEnd {
                                    row.stopDelays.append(Double(pieceEnd - wordEnd) / 16_000)
                                } else {
                                    row.stopsWithoutEnd += 1
                                }
                            }
                            ends.append(end)
                        }
                    }
                    return (ends.contains { span.contains($0) }, ends.filter { !span.contains($0) }.count)
                }
                let over = try wakes(captured), clean = try wakesWhileSpeaking(captured)
                if over.person { row.foundOverEcho += 1 }
                if clean.person { row.foundCancelled += 1 }
                if let externalCanceller {
                    let other = try Self.cancel(captured: captured, played: played, delay: delay, with: externalCanceller)
                    externalEnhancements.append(10 * log10(Self.energy(captured[16_000..<start]) / max(Self.energy(other[16_000..<start]), 1)))
                    let heard = try wakes(other)
                    if heard.person { row.foundExternal += 1 }
                    row.ownVoiceWakesExternal += heard.own
                }
                row.ownVoiceWakesOverEcho += over.own
                row.ownVoiceWakesCancelled += clean.own
                row.replyHours += Double(captured.count - person.count) / 16_000 / 3_600
            }
            enhancements.sort()
            row.enhancementMedian = enhancements.isEmpty ? 0 : enhancements[enhancements.count / 2]
            externalEnhancements.sort()
            row.enhancementExternalMedian = externalEnhancements.isEmpty ? 0 : externalEnhancements[externalEnhancements.count / 2]
            rows.append(row)
        }
        return rows
    }

    /// The comparison with another canceller, when one was given.
    public static func externalTable(_ rows: [Row], name: String) -> String {
        var lines = ["echo vs person | wakes found: Hark's canceller as the loop listens | \(name) | ERLE median: Hark's | \(name) | own-voice wakes through \(name)"]
        for row in rows {
            lines.append(String(format: "%+4.0f dB | %d/%d | %d/%d | %.1f dB | %.1f dB | %d", row.echoDecibels, row.foundCancelled, row.recordings,
                                row.foundExternal, row.recordings, row.enhancementMedian, row.enhancementExternalMedian, row.ownVoiceWakesExternal))
        }
        return lines.joined(separator: "\n")
    }

    public static func table(_ rows: [Row]) -> String {
        var lines = ["echo vs person | wakes found: quiet room | over the echo | while speaking (cancelled, own voice checked) | ERLE median | Hark's own voice woke it (raw / cancelled, per hour of reply) | wake word's end (aligned) to the reply stopping: p50 / p95 (stops measured)"]
        for row in rows {
            let perHour = { (count: Int) in row.replyHours > 0 ? Double(count) / row.replyHours : 0 }
            let delays = row.stopDelays.sorted()
            lines.append(String(format: "%+4.0f dB | %d/%d | %d/%d | %d/%d | %.1f dB | %d / %d (%.1f / %.1f) | %.0f / %.0f ms (%d)",
                                row.echoDecibels, row.foundAlone, row.recordings, row.foundOverEcho, row.recordings,
                                row.foundCancelled, row.recordings, row.enhancementMedian, row.ownVoiceWakesOverEcho,
                                row.ownVoiceWakesCancelled, perHour(row.ownVoiceWakesOverEcho), perHour(row.ownVoiceWakesCancelled),
                                ProcessClock.percentile(delays, 0.5) * 1000, ProcessClock.percentile(delays, 0.95) * 1000, delays.count)
                + (row.stopsWithoutEnd > 0 ? ", \(row.stopsWithoutEnd) more where the phrase could not be aligned" : ""))
        }
        return lines.joined(separator: "\n")
    }

    /// Runs `program` on the audio through temporary raw files; its output, as long as the input.
    static func cancel(captured: [Int16], played: [Int16], delay: Int, with program: URL) throws -> [Int16] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hark-echo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = ["captured", "played", "cleaned"].map { folder.appendingPathComponent("\($0).raw") }
        try captured.withUnsafeBytes { try Data($0).write(to: files[0]) }
        try played.withUnsafeBytes { try Data($0).write(to: files[1]) }
        let process = Process()
        process.executableURL = program
        process.arguments = files.map(\.path) + [String(delay * 1000 / 16_000)]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw EchoBenchmarkError(message: "\(program.path) failed with status \(process.terminationStatus)")
        }
        let data = try Data(contentsOf: files[2])
        var cleaned = data.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        // It works in whole 10 ms frames: the last partial frame is passed through.
        if cleaned.count < captured.count { cleaned += captured[cleaned.count...] }
        return Array(cleaned.prefix(captured.count))
    }

    /// Where the last sound of a recording ends (samples): the end of its last 10 ms frame within
    /// 35 dB of its loudest (a recording's own quiet tail is not the word).
    static func endOfLastSound(_ samples: [Int16]) -> Int {
        let frame = 160
        let energies = stride(from: 0, to: samples.count - frame + 1, by: frame).map { energy(samples[$0..<($0 + frame)]) }
        guard let loudest = energies.max(), loudest > 0 else { return samples.count }
        let last = energies.lastIndex { $0 >= loudest * pow(10, -3.5) } ?? (energies.count - 1)
        return (last + 1) * frame
    }

    /// The mean power of the 20 ms frames within 30 dB of the loudest: the speech, not the
    /// quiet around it.
    static func speechPower(_ samples: [Int16]) -> Double {
        let powers = stride(from: 0, to: samples.count - 320 + 1, by: 320).map { energy(samples[$0..<($0 + 320)]) }
        guard let loudest = powers.max(), loudest > 0 else { return 0 }
        let loud = powers.filter { $0 >= loudest / 1_000 }
        return loud.reduce(0, +) / Double(loud.count)
    }

    /// `count` samples of `noise` from `from` on, going round when it ends, at mean power `power`.
    static func looped(_ noise: [Int16], count: Int, from: Int, power: Double) -> [Int16] {
        guard !noise.isEmpty else { return [Int16](repeating: 0, count: count) }
        let piece = (0..<count).map { noise[(from + $0) % noise.count] }
        let gain = (power / max(energy(piece[...]), 1)).squareRoot()
        return piece.map { Int16(clamping: Int((Double($0) * gain).rounded())) }
    }

    static func mixed(_ a: [Int16], _ b: [Int16]) -> [Int16] {
        zip(a, b).map { Int16(clamping: Int($0) + Int($1)) }
    }

    static func energy(_ samples: ArraySlice<Int16>) -> Double {
        samples.reduce(0) { $0 + Double($1) * Double($1) } / Double(max(samples.count, 1))
    }

    static func rms(_ samples: ArraySlice<Int16>) -> Double {
        energy(samples).squareRoot()
    }
}

struct EchoBenchmarkError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
