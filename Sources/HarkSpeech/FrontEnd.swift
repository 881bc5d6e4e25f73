internal import CPocketSphinx

/// An utterance as the decoders search it: one row of cepstral coefficients for each 10 ms frame
/// the front end kept. Immutable once made, so both passes can read it from their own threads.
struct Cepstra: Sendable {
    /// The rows one after the other.
    let values: [Float]
    /// Coefficients in a row.
    let width: Int

    var frames: Int { width == 0 ? 0 : values.count / width }
}

/// A front end of its own for one place the audio comes from: it turns audio into the cepstra the
/// decoders search, with the same settings as the decoder it was made from.
///
/// Why a separate one: pocketsphinx's front end keeps an estimate of the background noise (its
/// noise removal) from one utterance to the next, and that estimate shapes how the next utterance
/// is heard. Carried over from the same room it helps (see `Decoder.decodeWhole(_:)`); carried
/// over from another room (a hub's satellites, the kitchen's clatter then the bedroom's quiet) it
/// is the wrong room's. Each room's requests go through its own front end, and the features are
/// computed once for both passes instead of once in each decoder.
final class FrontEnd {
    private let frontEnd: OpaquePointer
    /// Coefficients in a frame (13 for Debian's en-us model).
    let width: Int

    /// A front end with `decoder`'s settings (its model's feat.params included), which has heard
    /// nothing yet.
    init(like decoder: Decoder) throws(RecognitionError) {
        guard let made = decoder.makeFrontEnd() else {
            throw RecognitionError(.modelLoad, "fe_init_auto_r could not make a front end with the decoder's settings")
        }
        let width = Int(fe_get_output_size(made))
        guard width > 0 else {
            _ = fe_free(made)
            throw RecognitionError(.modelLoad, "the front end reports \(width) coefficients a frame")
        }
        frontEnd = made
        self.width = width
    }

    deinit {
        _ = fe_free(frontEnd)
    }

    /// Forgets the background the noise removal learnt from the utterances before, as a front
    /// end just made has heard nothing.
    func startStream() {
        fe_start_stream(frontEnd)
    }

    /// The cepstra of one whole utterance, computed as pocketsphinx computes them for a whole
    /// utterance itself (`ps_process_raw` with `full_utt`): the frames the noise removal and voice
    /// activity detection keep, plus the last partial frame.
    func cepstra(of samples: [Int16]) throws(RecognitionError) -> Cepstra {
        var result = fe_start_utt(frontEnd)
        guard result >= 0 else { throw RecognitionError(.decoding, "fe_start_utt failed", returnCode: result) }
        var remaining = samples.count
        var capacity: Int32 = 0
        // With no buffers, fe_process_frames only says how many frames the samples make.
        result = fe_process_frames(frontEnd, nil, &remaining, nil, &capacity, nil)
        guard result >= 0 else { throw RecognitionError(.decoding, "fe_process_frames could not count the frames of \(samples.count) samples", returnCode: result) }
        // One row more for the frame fe_end_utt makes of what is left.
        let rows = Int(capacity) + 1
        var values = [Float](repeating: 0, count: rows * width)
        var made: Int32 = capacity
        var tail: Int32 = 0
        try values.withUnsafeMutableBufferPointer { (buffer) throws(RecognitionError) in
            guard let base = buffer.baseAddress else { return }
            var rowPointers: [UnsafeMutablePointer<Float>?] = (0..<rows).map { base + $0 * width }
            try samples.withUnsafeBufferPointer { (audio) throws(RecognitionError) in
                var next = audio.baseAddress
                remaining = audio.count
                let processed = rowPointers.withUnsafeMutableBufferPointer { pointers in
                    fe_process_frames(frontEnd, &next, &remaining, pointers.baseAddress, &made, nil)
                }
                guard processed >= 0 else {
                    throw RecognitionError(.decoding, "fe_process_frames failed on \(samples.count) samples", returnCode: processed)
                }
            }
            let ended = fe_end_utt(frontEnd, base + Int(made) * width, &tail)
            guard ended >= 0 else { throw RecognitionError(.decoding, "fe_end_utt failed", returnCode: ended) }
        }
        // The rows not filled go, without copying the ones that were.
        values.removeLast(values.count - Int(made + tail) * width)
        return Cepstra(values: values, width: width)
    }
}

/// The front ends of the rooms heard lately, one for each (and one more for the room's audio
/// through the noise suppression, `RequestDenoising`, whose background is the suppressor's
/// leftover, not the room's): a room heard again after `capacity` others were heard since it
/// starts afresh.
struct RoomFrontEnds {
    let capacity: Int
    private var rooms: [(name: String, asItCame: FrontEnd?, suppressed: FrontEnd?)] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// `room`'s front end (for `suppressed` audio, or as it came), made like `decoder`'s the
    /// first time the room is heard that way.
    mutating func frontEnd(for room: String, suppressed: Bool = false, like decoder: Decoder) throws(RecognitionError) -> FrontEnd {
        var entry: (name: String, asItCame: FrontEnd?, suppressed: FrontEnd?) = (room, nil, nil)
        if let index = rooms.firstIndex(where: { $0.name == room }) { entry = rooms[index] }
        let frontEnd: FrontEnd
        if let known = suppressed ? entry.suppressed : entry.asItCame { frontEnd = known } else { frontEnd = try FrontEnd(like: decoder) }
        if suppressed { entry.suppressed = frontEnd } else { entry.asItCame = frontEnd }
        rooms.removeAll { $0.name == room }
        rooms.insert(entry, at: 0)
        if rooms.count > capacity { rooms.removeLast() }
        return frontEnd
    }

    /// The rooms with a front end, the one heard last first.
    var names: [String] { rooms.map(\.name) }
}
