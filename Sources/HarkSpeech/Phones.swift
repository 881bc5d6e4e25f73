/// The phone set of Debian's en-us acoustic model (its `mdef`), without the
/// silence and noise units.
public enum Phones {
    public static let all: [String] = [
        "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH",
        "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH",
        "UH", "UW", "V", "W", "Y", "Z", "ZH",
    ]

    /// One dictionary word per phone, so a grammar can loop over phones to
    /// model speech that is not in it. The prefix keeps them apart from words.
    public static let garbageWordPrefix = "garbage_phone_"

    public static func garbageWord(_ phone: String) -> String {
        garbageWordPrefix + phone.lowercased()
    }

    public static func isGarbageWord(_ word: String) -> Bool {
        word.hasPrefix(garbageWordPrefix)
    }
}
