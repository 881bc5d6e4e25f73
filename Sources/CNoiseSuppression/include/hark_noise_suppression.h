#ifndef HARK_NOISE_SUPPRESSION_H
#define HARK_NOISE_SUPPRESSION_H
// A C face for WebRTC's noise suppression (Debian's libwebrtc-audio-processing, a C++ library),
// so that Swift can call it: high-pass filter and noise suppression on 16 kHz mono audio, 10 ms
// at a time. No gain control, no echo cancellation.
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Samples in the one frame size the module takes: 10 ms at 16 kHz.
#define HARK_NS_FRAME_SAMPLES 160

typedef struct hark_ns hark_ns;

/// A new suppressor at `level`, 0 (low) to 3 (very high); NULL if the module could not be made
/// or refused a setting, with `error` (if not NULL) set to the module's code or -1.
hark_ns *hark_ns_create(int level, int *error);
/// Suppresses the noise in one frame of HARK_NS_FRAME_SAMPLES samples, in place. Returns the
/// module's code: 0 for success.
int hark_ns_process(hark_ns *suppressor, int16_t *frame);
void hark_ns_free(hark_ns *suppressor);

#ifdef __cplusplus
}
#endif
#endif
