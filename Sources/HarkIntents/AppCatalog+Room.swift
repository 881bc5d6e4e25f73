import Foundation

extension AppCatalog {
    /// `match` with each parameter its phrase takes from the room that heard it
    /// (`IntentMatch.fromRoom`) set to the value `room` names: a value's id or any way of saying
    /// it ("kitchen", "living-room" for Living Room). A parameter stays unset when no room is known
    /// or the room names none of its values; the dialogue then asks for it.
    public func fillingFromRoom(_ match: IntentMatch, room: String?, reader: ValueReader = ValueReader()) -> IntentMatch {
        guard let room, !match.fromRoom.isEmpty else { return match }
        var filled = match
        let ways = [room, room.replacingOccurrences(of: "-", with: " ").replacingOccurrences(of: "_", with: " ")]
        for name in match.fromRoom where filled.values[name] == nil {
            guard let parameter = match.intent.parameter(named: name) else { continue }
            for way in ways {
                if case .value(let value) = read(preset: way, for: parameter, in: match.app, reader: reader) {
                    filled.values[name] = IntentMatch.Value(value: value, heard: room)
                    break
                }
            }
        }
        return filled
    }
}
