internal import CALSA
#if canImport(Glibc)
internal import Glibc
#endif

/// An ALSA PCM the system configuration offers.
public struct PCMDeviceInfo: Sendable, Equatable {
    /// The name to put in a `PCMDeviceSpec`.
    public var name: String
    /// ALSA's description, possibly several lines (card, then device).
    public var description: String
    public var canPlay: Bool
    public var canCapture: Bool

    public init(name: String, description: String, canPlay: Bool, canCapture: Bool) {
        self.name = name
        self.description = description
        self.canPlay = canPlay
        self.canCapture = canCapture
    }
}

/// A sound card the kernel's ALSA driver knows (`/proc/asound/cards`).
public struct SoundCard: Sendable, Equatable {
    /// The card number, as in `hw:0`.
    public var index: Int
    /// The short name, e.g. "HDA Intel PCH".
    public var name: String
    /// The long name, e.g. "HDA Intel PCH at 0xf7f10000 irq 33".
    public var longName: String

    public init(index: Int, name: String, longName: String) {
        self.index = index
        self.name = name
        self.longName = longName
    }
}

/// Discovery of sound cards and PCM names.
public enum AudioDevices {
    public enum Direction: Sendable { case playback, capture }

    /// Whether ALSA sees at least one sound card (false in containers and on build machines).
    public static func hasSoundCard() -> Bool {
        var card: Int32 = -1
        return snd_card_next(&card) >= 0 && card >= 0
    }

    /// The sound cards, in card-number order (empty on a machine without one).
    public static func cards() throws(AudioError) -> [SoundCard] {
        try ALSAMessages.install()
        var cards: [SoundCard] = []
        var card: Int32 = -1
        while true {
            let status = snd_card_next(&card)
            guard status >= 0 else {
                throw AudioError(.device, "cannot list sound cards: snd_card_next failed: \(ALSA.errorText(status))", underlying: status)
            }
            guard card >= 0 else { return cards }
            cards.append(SoundCard(index: Int(card),
                                   name: try cardText(card, "snd_card_get_name", snd_card_get_name),
                                   longName: try cardText(card, "snd_card_get_longname", snd_card_get_longname)))
        }
    }

    /// The PCMs usable for recording (microphones, line inputs, and software devices such as `null`).
    public static func captureDevices() throws(AudioError) -> [PCMDeviceInfo] {
        try list(.capture)
    }

    /// The PCMs usable for playing.
    public static func playbackDevices() throws(AudioError) -> [PCMDeviceInfo] {
        try list(.playback)
    }

    /// snd_card_get_name and snd_card_get_longname hand out a malloc'd string.
    private static func cardText(_ card: Int32, _ call: String,
                                 _ get: (Int32, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> Int32) throws(AudioError) -> String {
        var text: UnsafeMutablePointer<CChar>?
        let status = get(card, &text)
        guard status >= 0, let text else {
            throw AudioError(.device, "cannot read the name of sound card \(card): \(call) failed: \(ALSA.errorText(status))", underlying: status)
        }
        defer { free(text) }
        return String(cString: text)
    }

    /// The PCM names ALSA's configuration offers (from `snd_device_name_hint`), optionally only
    /// those usable in one direction.
    public static func list(_ direction: Direction? = nil) throws(AudioError) -> [PCMDeviceInfo] {
        try ALSAMessages.install()
        var hints: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
        let status = snd_device_name_hint(-1, "pcm", &hints)
        guard status >= 0, let hints else {
            throw AudioError(.device, "cannot list ALSA devices: snd_device_name_hint failed: \(ALSA.errorText(status))", underlying: status)
        }
        // Freeing only fails for a NULL list, which the guard above rules out.
        defer { _ = snd_device_name_free_hint(hints) }

        var devices: [PCMDeviceInfo] = []
        var index = 0
        while let hint = hints[index] {
            index += 1
            guard let name = hintValue(hint, "NAME") else { continue }
            // IOID is absent for devices usable both ways.
            let ioid = hintValue(hint, "IOID")
            let info = PCMDeviceInfo(name: name, description: hintValue(hint, "DESC") ?? "",
                                     canPlay: ioid == nil || ioid == "Output",
                                     canCapture: ioid == nil || ioid == "Input")
            switch direction {
            case .playback? where !info.canPlay: continue
            case .capture? where !info.canCapture: continue
            default: devices.append(info)
            }
        }
        return devices
    }

    /// snd_device_name_get_hint returns a malloc'd copy (or NULL when the field is absent).
    private static func hintValue(_ hint: UnsafeMutableRawPointer, _ field: String) -> String? {
        guard let value = snd_device_name_get_hint(hint, field) else { return nil }
        defer { free(value) }
        return String(cString: value)
    }
}
