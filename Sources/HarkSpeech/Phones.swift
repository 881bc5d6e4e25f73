/// The phone set of Debian's en-us acoustic model (its `mdef`), without the
/// silence and noise units.
public enum Phones {
    public static let all: [String] = [
        "AA", "AE", "AH", "AO", "AW", "AY", "B", "CH", "D", "DH", "EH", "ER", "EY", "F", "G", "HH",
        "IH", "IY", "JH", "K", "L", "M", "N", "NG", "OW", "OY", "P", "R", "S", "SH", "T", "TH",
        "UH", "UW", "V", "W", "Y", "Z", "ZH",
    ]
}
