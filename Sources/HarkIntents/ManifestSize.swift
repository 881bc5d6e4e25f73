import Yams

/// A cap on how much one app may ask Hark to listen for, counted on the parsed YAML before
/// any phrase is read or expanded: every phrase and value becomes part of the recogniser's
/// grammar, and an app of 100,000 phrases took half a gigabyte and many seconds to load,
/// far beyond the service's 160 MB memory cap (packaging/hark.service).
enum ManifestSize {
    /// Phrases (intents' and App Shortcuts') and values (with their synonyms) one app may have
    /// together. At this size `hark run` (release build) loads and answers in 0.35 s within
    /// 85 MB; at 100,000 it took 9 s and 440 MB.
    static let maximumPhrasesAndValues = 5_000

    static func check(_ top: Node.Mapping, file: String) throws(ManifestError) {
        var phrases = 0
        var values = 0
        if let types = top["types"]?.mapping {
            for (_, type) in types {
                for value in type.mapping?["values"]?.sequence ?? [] {
                    values += 1 + (value.mapping?["synonyms"]?.sequence?.count ?? 0)
                }
            }
        }
        if let intents = top["intents"]?.mapping {
            for (_, intent) in intents {
                phrases += intent.mapping?["phrases"]?.sequence?.count ?? 0
            }
        }
        phrases += top["shortcuts"]?.sequence?.count ?? 0
        guard phrases + values > maximumPhrasesAndValues else { return }
        throw ManifestError(problems: [.init(
            file: file, line: nil,
            reason: "the app has \(phrases) phrases and \(values) values and synonyms; an app may have at most "
                + "\(maximumPhrasesAndValues) together, so that Hark loads quickly and within its memory limit: list fewer")])
    }
}
