#ifndef HARK_CPOCKETSPHINX_SHIM_H
#define HARK_CPOCKETSPHINX_SHIM_H
// pocketsphinx 5prealpha with sphinxbase (Debian 12). pocketsphinx.h includes
// <cmdln_macro.h> directly, which is why pkg-config adds -I/usr/include/pocketsphinx.
#include <pocketsphinx.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/err.h>
#include <sphinxbase/fsg_model.h>
#include <sphinxbase/logmath.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/cmn.h>

/// fsg_model_t's start and final states are plain fields set after
/// fsg_model_init; these keep the struct layout out of Swift.
static inline void hark_fsg_set_start_final(fsg_model_t *fsg, int32 start, int32 final_state) {
    fsg->start_state = start;
    fsg->final_state = final_state;
}

/// The live cepstral-mean normaliser of a decoder, for saving and restoring the mean.
static inline cmn_t *hark_ps_cmn(ps_decoder_t *ps) {
    feat_t *feat = ps_get_feat(ps);
    return feat ? feat->cmn_struct : NULL;
}

static inline int hark_ps_cmn_veclen(ps_decoder_t *ps) {
    cmn_t *cmn = hark_ps_cmn(ps);
    return cmn ? cmn->veclen : 0;
}

/// The live normaliser's whole state: the mean it subtracts, and the running sum and frame
/// count its next mean comes from (cmn_live_set would also invent a history of 500 frames).
/// `mean` and `sum` hold veclen values each.
static inline void hark_cmn_get_state(const cmn_t *cmn, mfcc_t *mean, mfcc_t *sum, int32 *frames) {
    for (int i = 0; i < cmn->veclen; i++) {
        mean[i] = cmn->cmn_mean[i];
        sum[i] = cmn->sum[i];
    }
    *frames = cmn->nframe;
}

static inline void hark_cmn_set_state(cmn_t *cmn, const mfcc_t *mean, const mfcc_t *sum, int32 frames) {
    for (int i = 0; i < cmn->veclen; i++) {
        cmn->cmn_mean[i] = mean[i];
        cmn->sum[i] = sum[i];
    }
    cmn->nframe = frames;
}
#endif
