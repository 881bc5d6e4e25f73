/// The loudspeaker's levels: 0 (silent) to `highest` (as loud as the device plays).
public enum LoudnessLevels {
    public static let highest = 10
}

/// What the person asked of the loudspeaker's volume.
public enum VolumeChange: Sendable, Equatable {
    case louder
    case quieter
    /// A level from 0 to `LoudnessLevels.highest`.
    case level(Int)

    /// The change a built-in command's tag stands for (`TurnGrammar.Tag`), nil for any other.
    init?(tag: String, level: String?) {
        switch tag {
        case TurnGrammar.Tag.louder: self = .louder
        case TurnGrammar.Tag.quieter: self = .quieter
        case TurnGrammar.Tag.volume:
            guard let level = level.flatMap(Int.init), (0...LoudnessLevels.highest).contains(level) else { return nil }
            self = .level(level)
        default: return nil
        }
    }

    /// As a network peer is told it (`handled`'s `volume`): "louder", "quieter" or the level.
    public var wireValue: String {
        switch self {
        case .louder: "louder"
        case .quieter: "quieter"
        case .level(let level): String(level)
        }
    }

    public init?(wireValue: String) {
        switch wireValue {
        case "louder": self = .louder
        case "quieter": self = .quieter
        default:
            guard let level = Int(wireValue), (0...LoudnessLevels.highest).contains(level) else { return nil }
            self = .level(level)
        }
    }
}
