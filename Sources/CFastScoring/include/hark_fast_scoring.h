#ifndef HARK_FAST_SCORING_H
#define HARK_FAST_SCORING_H

struct ps_decoder_s;

/// Makes a pocketsphinx 5prealpha decoder score its phonetically-tied Gaussians with
/// `hark_fast_scoring.c`'s evaluation, which gives every senone the same score as the library's
/// own and weighs each codebook's densities a vector at a time.
///
/// Returns 1 when installed, 0 when the decoder is not one this can serve (not a PTM model, or
/// the library's private structures are not laid out as expected: the decoder is then left
/// exactly as it was), and -1 when memory ran out (the decoder is left as it was).
int hark_fast_scoring_install(struct ps_decoder_s *decoder);

/// Whether `decoder` scores through the fast evaluation.
int hark_fast_scoring_installed(struct ps_decoder_s *decoder);

#endif
