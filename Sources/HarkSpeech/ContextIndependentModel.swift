import Foundation

/// The acoustic model's context-independent phones alone, for a decoder that hears nothing else
/// (the recogniser's free phone loop, `-allphone_ci`).
///
/// pocketsphinx maps each decoder's whole `mdef` (Debian's en-us: 137,095 phones, 2.9 MB) and
/// `sendump` (the mixture weights of 5,126 senones, 1.9 MB) and reads all of both, though the
/// loop uses only the 42 phones' own 126 senones, which the model numbers first. These files hold
/// just those: a text `mdef` of the context-independent phones (the format pocketsphinx itself
/// writes) and a `sendump` of their senones' weights, the model's own bytes. The means, variances
/// and transition matrices stay the model's. Every senone the loop scores has the same number
/// and the same weights, so it hears exactly as with the whole model.
struct ContextIndependentModel {
    /// The text `mdef`.
    let modelDefinition: String
    /// The `sendump`'s bytes.
    let mixtureWeights: Data

    /// Derived from the model in `modelDirectory`; nil when its files are not the kind this reads
    /// (a binary `mdef` of phones with three states each, the context-independent senones first,
    /// and an 8-bit `sendump` without clusters, as Debian's en-us model has), so the caller uses
    /// the whole model.
    init?(modelDirectory: String) throws(RecognitionError) {
        let directory = URL(fileURLWithPath: modelDirectory)
        let mdef: Data, sendump: Data
        do {
            // Mapped, not read into the heap: read, the two buffers raised glibc's threshold for
            // mapping large blocks, and later ones stayed in the heap after they were freed.
            mdef = try Data(contentsOf: directory.appendingPathComponent("mdef"), options: .alwaysMapped)
            sendump = try Data(contentsOf: directory.appendingPathComponent("sendump"), options: .alwaysMapped)
        } catch {
            throw RecognitionError(.modelLoad, "cannot read the acoustic model in \(modelDirectory): \(error.localizedDescription)")
        }
        guard let phones = Self.phones(ofBinaryModelDefinition: mdef),
              let weights = Self.weights(of: phones.senones, inSenoneDump: sendump) else { return nil }
        modelDefinition = phones.text
        mixtureWeights = weights
    }

    /// Runs `body` with the decoder arguments that load these files instead of the model's
    /// own (`-mdef`, `-sendump`), written to temporary files removed after it.
    func withArguments<T>(_ body: ([String]) throws(RecognitionError) -> T) throws(RecognitionError) -> T {
        try PronunciationDictionary.withTemporaryFile(modelDefinition, extension: "mdef") { (mdef) throws(RecognitionError) in
            try PronunciationDictionary.withTemporaryFile(mixtureWeights, extension: "sendump") { (sendump) throws(RecognitionError) in
                try body(["-mdef", mdef, "-sendump", sendump])
            }
        }
    }

    /// Little-endian integers at byte offsets of `data`, nil past its end.
    private struct Reader {
        let data: Data
        func int32(at offset: Int) -> Int? {
            guard offset >= 0, offset + 4 <= data.count else { return nil }
            let start = data.startIndex + offset
            let bits = data[start..<start + 4].enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (8 * UInt32($1.offset)) }
            return Int(Int32(bitPattern: bits))
        }
        func int16(at offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= data.count else { return nil }
            let start = data.startIndex + offset
            return Int(Int16(bitPattern: UInt16(data[start]) | UInt16(data[start + 1]) << 8))
        }
    }

    /// The context-independent phones of a binary `mdef` (bin_mdef.c's format, version 1) as a
    /// text `mdef`, and the number of senones they use; nil for any other kind.
    static func phones(ofBinaryModelDefinition data: Data) -> (text: String, senones: Int)? {
        let reader = Reader(data: data)
        guard data.count > 8, data.prefix(4) == Data("BMDF".utf8), reader.int32(at: 4) == 1,
              let descriptionLength = reader.int32(at: 8), descriptionLength >= 0 else { return nil }
        let header = 12 + descriptionLength
        let fields = (0..<10).compactMap { reader.int32(at: header + 4 * $0) }
        guard fields.count == 10 else { return nil }
        let (ciPhones, phones, states, ciSenones, senoneSequences, treeNodes) = (fields[0], fields[1], fields[2], fields[3], fields[6], fields[8])
        let transitionMatrices = fields[5]
        guard ciPhones > 0, states == 3, ciSenones == ciPhones * states, phones >= ciPhones else { return nil }
        // The phones' names, each ending in a zero byte, then padding to four bytes from the file's start.
        var names: [String] = []
        var offset = header + 40
        for _ in 0..<ciPhones {
            guard let end = data[(data.startIndex + offset)...].firstIndex(of: 0) else { return nil }
            names.append(String(decoding: data[(data.startIndex + offset)..<end], as: UTF8.self))
            offset = end - data.startIndex + 1
        }
        let tree = (offset + 3) & ~3
        let phoneTable = tree + 8 * treeNodes
        // The senone sequences' length (in senones), then the sequences.
        guard reader.int32(at: phoneTable + 12 * phones) == senoneSequences * states else { return nil }
        let sequences = phoneTable + 12 * phones + 4
        var lines = ["0.3", "\(ciPhones) n_base", "0 n_tri", "\(ciPhones * (states + 1)) n_state_map",
                     "\(ciSenones) n_tied_state", "\(ciSenones) n_tied_ci_state", "\(transitionMatrices) n_tied_tmat",
                     "#", "# Columns definitions", "#base lft  rt p attrib tmat      ... state id's ..."]
        for (index, name) in names.enumerated() {
            let entry = phoneTable + 12 * index
            guard let sequence = reader.int32(at: entry), let matrix = reader.int32(at: entry + 4),
                  (0..<senoneSequences).contains(sequence), (0..<transitionMatrices).contains(matrix),
                  entry + 8 < data.count else { return nil }
            let filler = data[data.startIndex + entry + 8] != 0
            let senones = (0..<states).compactMap { reader.int16(at: sequences + 2 * (sequence * states + $0)) }
            guard senones.count == states, senones.allSatisfy({ (0..<ciSenones).contains($0) }) else { return nil }
            lines.append("\(name) - - - \(filler ? "filler" : "n/a") \(matrix) " + senones.map(String.init).joined(separator: " ") + " N")
        }
        return (lines.joined(separator: "\n") + "\n", ciSenones)
    }

    /// The weights of the first `senones` senones of a `sendump` (ptm_mgau.c's format), as a
    /// `sendump` of those alone: the same header, then each feature's and codeword's row cut to
    /// them. nil for a dump with clusters or 4-bit weights.
    static func weights(of senones: Int, inSenoneDump data: Data) -> Data? {
        let reader = Reader(data: data)
        // The title and header strings, each after its length; a zero length ends them.
        var offset = 0
        var features = 1
        while true {
            guard let length = reader.int32(at: offset), length >= 0, offset + 4 + length <= data.count else { return nil }
            offset += 4
            if length == 0 { break }
            let text = String(decoding: data[(data.startIndex + offset)..<(data.startIndex + offset + length)], as: UTF8.self)
                .trimmingCharacters(in: CharacterSet(charactersIn: "\0"))
            if text.hasPrefix("cluster_count "), text != "cluster_count 0" { return nil }
            if text.hasPrefix("cluster_bits "), text != "cluster_bits 8" { return nil }
            if text.hasPrefix("feature_count "), let count = Int(text.dropFirst("feature_count ".count)) { features = count }
            offset += length
        }
        guard let rows = reader.int32(at: offset), let columns = reader.int32(at: offset + 4),
              rows > 0, columns >= senones, features > 0,
              offset + 8 + features * rows * columns == data.count else { return nil }
        var out = data.prefix(offset)
        for value in [Int32(rows), Int32(senones)] {
            withUnsafeBytes(of: value.littleEndian) { out.append(contentsOf: $0) }
        }
        let body = data.startIndex + offset + 8
        for row in 0..<(features * rows) {
            out.append(data[(body + row * columns)..<(body + row * columns + senones)])
        }
        return out
    }
}
