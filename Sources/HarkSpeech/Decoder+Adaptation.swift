internal import CPocketSphinx

extension Decoder {
    /// Moves the model's means by the MLLR transform in `path` (sphinxtrain's `mllr_solve`
    /// format), as `-mllr` does when a decoder is made: adapting a decoder already listening,
    /// without making it again. The decoder keeps the transform; the next utterance is heard
    /// through it. Fast scoring (`CFastScoring`) takes the moved means as they come.
    func adapt(toTransformAt path: String) throws(RecognitionError) {
        guard let transform = ps_mllr_read(path) else {
            throw RecognitionError(.modelLoad, "ps_mllr_read could not read the acoustic adaptation \(path)")
        }
        // The decoder takes the transform over (and frees the one it held).
        guard ps_update_mllr(decoder, transform) != nil else {
            _ = ps_mllr_free(transform)
            throw RecognitionError(.modelLoad, "ps_update_mllr could not apply the acoustic adaptation \(path)")
        }
    }
}
