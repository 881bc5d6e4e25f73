public import Foundation
public import HarkAudio
public import HarkDialogue

/// How loud this device plays, 0–10, changed by voice ("louder", "volume four") and kept in a
/// file so it survives a restart. Applied in software to everything the live loop plays: each
/// step is 3 dB, 10 plays clips as they are and 0 is silent.
///
/// Shared between the loop's thread and whatever answers the request, so it is locked.
public final class LoudspeakerVolume: Sendable {
    public static let fileName = "volume.json"
    public static let decibelsPerStep = 3.0

    /// Where the level is kept; nil keeps it for this run only.
    public let file: URL?
    private let state: LevelBox

    /// Reads the kept level; a file that cannot be read leaves the level at 10 and says why
    /// in `problem`, and the next change writes a good one.
    public init(file: URL?) {
        self.file = file
        var level = LoudnessLevels.highest
        var problem: String?
        if let file, FileManager.default.fileExists(atPath: file.path) {
            do {
                let kept = try JSONDecoder().decode(Kept.self, from: Data(contentsOf: file))
                guard (0...LoudnessLevels.highest).contains(kept.level) else {
                    throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "level \(kept.level) is not 0 to 10"])
                }
                level = kept.level
            } catch {
                problem = "the volume kept in \(file.path) cannot be read (\(error.localizedDescription)); playing at \(level)"
            }
        }
        state = LevelBox(level: level)
        self.problem = problem
    }

    /// Why the kept level was not used, if it was not.
    public let problem: String?

    public var level: Int { state.level }

    /// Makes the change and keeps the new level; returns what to say about it, and what went
    /// wrong keeping it (the level still changes for this run).
    public func change(_ change: VolumeChange) -> (speech: String, problem: String?) {
        let before = level
        let after = switch change {
        case .louder: min(LoudnessLevels.highest, before + 1)
        case .quieter: max(0, before - 1)
        case .level(let level): level
        }
        state.level = after
        var problem: String?
        if let file {
            do {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try JSONEncoder().encode(Kept(level: after)).write(to: file, options: .atomic)
            } catch {
                problem = "the volume could not be kept in \(file.path): \(error.localizedDescription)"
            }
        }
        if change == .louder && before == after { return ("That's as loud as I go.", problem) }
        if change == .quieter && before == after { return ("I'm already silent.", problem) }
        return ("Volume \(after).", problem)
    }

    /// The clip as the loudspeaker should play it at this level.
    public func applied(to clip: AudioClip) -> AudioClip {
        let level = self.level
        guard level < LoudnessLevels.highest else { return clip }
        let gain = level == 0 ? 0 : Float(pow(10, -Self.decibelsPerStep * Double(LoudnessLevels.highest - level) / 20))
        var quieter = clip
        quieter.samples = clip.samples.map { $0 * gain }
        return quieter
    }

    private struct Kept: Codable {
        var level: Int
    }

    private final class LevelBox: @unchecked Sendable {
        // @unchecked: `stored` is only touched under `lock`.
        private let lock = NSLock()
        private var stored: Int
        init(level: Int) { stored = level }
        var level: Int {
            get { lock.withLock { stored } }
            set { lock.withLock { stored = newValue } }
        }
    }
}
