// Phonetically-tied Gaussian scoring for pocketsphinx 5prealpha, giving every senone the score
// the library's own evaluation gives it, with each codebook's densities weighed a vector at a
// time.
//
// Why: four-fifths of Hark's CPU is the library scoring Gaussians. For each active codebook and
// feature stream it weighs the 128 densities one by one, abandoning a density as soon as it falls
// below the current n-th best, which keeps the loop scalar and branchy. Here every density's
// distance is computed in full, in the same operations and order (so in the same floating-point
// values: contraction into fused multiply-adds is off), lane by lane over densities that are
// stored dimension by dimension; the top-n are then picked from them in the library's order with
// its insertion rule. A density the library abandons early is below the n-th best in full too
// (each dimension only takes away), so both keep the same top-n, and everything after them
// (normalising, mixture weights, senone scores) is done as the library does it.
//
// The library does not export its scoring structures, so the leading fields it reads are
// mirrored below. Before anything is changed they are checked against what the public API says
// about the same decoder (its configuration, log tables, feature computer and front end, the
// model's sizes and settings); a decoder that does not match is left to the library.

#include "hark_fast_scoring.h"

#include <pocketsphinx.h>
#include <sphinxbase/bitvec.h>
#include <sphinxbase/cmd_ln.h>
#include <sphinxbase/fe.h>
#include <sphinxbase/feat.h>
#include <sphinxbase/logmath.h>

#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#pragma STDC FP_CONTRACT OFF

// Constants of the library's scoring (hmm.h, tied_mgau_common.h).
enum { SENSCR_SHIFT = 10, MAX_NEG_ASCR = 96, MAX_STREAMS = 8, MAX_STREAM_LENGTH = 64, MAX_DENSITIES = 1024 };
static const int32 WORST_SCORE = (int32)0xE0000000;

// --- Mirrors of the library's private structures (leading fields only where that suffices) ---

typedef struct mirror_mgau mirror_mgau;
typedef struct {
    const char *name;
    int (*frame_eval)(mirror_mgau *mgau, int16 *senone_scores, uint8 *senone_active, int32 n_senone_active,
                      mfcc_t **features, int32 frame, int32 compute_all);
    int (*transform)(mirror_mgau *mgau, void *mllr);
    void (*free)(mirror_mgau *mgau);
} mirror_mgau_functions;

struct mirror_mgau {
    mirror_mgau_functions *vt;
    int frame_idx;
};

typedef struct {
    cmd_ln_t *config;
    logmath_t *lmath;
    void *strings;
    fe_t *fe;
    feat_t *fcb;
    void *mdef;
    void *tmat;
    mirror_mgau *mgau;
} mirror_acmod;

typedef struct {
    cmd_ln_t *config;
    int refcount;
    mirror_acmod *acmod;
    void *dict;
    void *d2p;
    logmath_t *lmath;
} mirror_decoder;

typedef struct {
    mfcc_t ****mean;
    mfcc_t ****var;
    mfcc_t ***det;
    logmath_t *lmath;
    int32 n_mgau;
    int32 n_feat;
    int32 n_density;
    int32 *featlen;
} mirror_gauden;

typedef struct {
    int32 cw;
    int32 score;
} topn_entry;

typedef struct {
    topn_entry ***topn;
    bitvec_t *mgau_active;
} fast_eval;

typedef struct {
    mirror_mgau base;
    cmd_ln_t *config;
    mirror_gauden *g;
    int32 n_sen;
    uint8 *sen2cb;
    uint8 ***mixw;
    void *sendump_mmap;
    uint8 *mixw_cb;
    int16 max_topn;
    int16 ds_ratio;
    fast_eval *hist;
    fast_eval *f;
    int n_fast_hist;
    logmath_t *lmath_8b;
    logmath_t *lmath;
} mirror_ptm;

// --- The means and variances dimension by dimension, shared by decoders of the same model ---

typedef struct transposed {
    struct transposed *next;
    int references;
    uint64_t hash;
    int32 n_mgau, n_feat, n_density;
    int32 featlen[MAX_STREAMS];
    size_t floats;
    float *means;
    float *variances;
} transposed;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static transposed *cache;

static size_t block_offset(const transposed *t, int codebook, int stream) {
    size_t per_codebook = 0, before = 0;
    for (int f = 0; f < t->n_feat; ++f) {
        if (f < stream) before += (size_t)t->featlen[f];
        per_codebook += (size_t)t->featlen[f];
    }
    return ((size_t)codebook * per_codebook + before) * (size_t)t->n_density;
}

static uint64_t fnv1a(uint64_t hash, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    for (size_t i = 0; i < count; ++i) hash = (hash ^ p[i]) * 1099511628211ULL;
    return hash;
}

static void release(transposed *t) {
    if (!t) return;
    pthread_mutex_lock(&cache_lock);
    if (--t->references == 0) {
        for (transposed **link = &cache; *link; link = &(*link)->next) {
            if (*link == t) { *link = t->next; break; }
        }
        free(t->means);
        free(t->variances);
        free(t);
    }
    pthread_mutex_unlock(&cache_lock);
}

// The model's means and variances as they are now (after any adaptation), dimension by
// dimension; one copy for every decoder whose model holds the same values.
static transposed *transposed_copy(const mirror_gauden *g) {
    transposed *t = calloc(1, sizeof *t);
    if (!t) return NULL;
    t->references = 1;
    t->n_mgau = g->n_mgau;
    t->n_feat = g->n_feat;
    t->n_density = g->n_density;
    size_t per_codebook = 0;
    for (int f = 0; f < g->n_feat; ++f) {
        t->featlen[f] = g->featlen[f];
        per_codebook += (size_t)g->featlen[f];
    }
    t->floats = (size_t)g->n_mgau * per_codebook * (size_t)g->n_density;
    t->means = malloc(t->floats * sizeof(float));
    t->variances = malloc(t->floats * sizeof(float));
    if (!t->means || !t->variances) {
        free(t->means);
        free(t->variances);
        free(t);
        return NULL;
    }
    for (int cb = 0; cb < g->n_mgau; ++cb) {
        for (int f = 0; f < g->n_feat; ++f) {
            const int length = g->featlen[f], n = g->n_density;
            const mfcc_t *mean = g->mean[cb][f][0], *var = g->var[cb][f][0];
            float *means = t->means + block_offset(t, cb, f), *variances = t->variances + block_offset(t, cb, f);
            for (int k = 0; k < n; ++k) {
                for (int j = 0; j < length; ++j) {
                    means[(size_t)j * n + k] = mean[(size_t)k * length + j];
                    variances[(size_t)j * n + k] = var[(size_t)k * length + j];
                }
            }
        }
    }
    uint64_t hash = 14695981039346656037ULL;
    hash = fnv1a(hash, t->means, t->floats * sizeof(float));
    hash = fnv1a(hash, t->variances, t->floats * sizeof(float));
    t->hash = hash;

    pthread_mutex_lock(&cache_lock);
    for (transposed *other = cache; other; other = other->next) {
        if (other->hash == hash && other->floats == t->floats && other->n_mgau == t->n_mgau && other->n_feat == t->n_feat
            && other->n_density == t->n_density && memcmp(other->featlen, t->featlen, sizeof t->featlen) == 0
            && memcmp(other->means, t->means, t->floats * sizeof(float)) == 0
            && memcmp(other->variances, t->variances, t->floats * sizeof(float)) == 0) {
            other->references += 1;
            pthread_mutex_unlock(&cache_lock);
            free(t->means);
            free(t->variances);
            free(t);
            return other;
        }
    }
    t->next = cache;
    cache = t;
    pthread_mutex_unlock(&cache_lock);
    return t;
}

// --- The hooked scoring: a function table of its own, the library's kept beside it ---

typedef struct {
    mirror_mgau_functions functions;  // first: the model's table pointer points here
    mirror_mgau_functions *original;
    transposed *model;
    float *distances;                  // one per density, for the codebook being weighed
} hooked;

static hooked *hook_of(mirror_mgau *mgau) { return (hooked *)mgau->vt; }

// Every density's full weighted distance from `z`, in the library's operations and order. On
// x86-64 a second build for AVX2 is chosen at load time where the processor has it.
#if defined(__x86_64__)
__attribute__((target_clones("avx2", "default")))
#endif
static void weigh_densities(const mfcc_t *det, const float *means, const float *variances, const mfcc_t *z, int length,
                            int n, float *restrict d) {
    for (int k = 0; k < n; ++k) d[k] = det[k];
    for (int j = 0; j < length; ++j) {
        const float observed = z[j];
        const float *restrict mean = means + (size_t)j * n;
        const float *restrict var = variances + (size_t)j * n;
        for (int k = 0; k < n; ++k) {
            const float diff = observed - mean[k];
            const float square = diff * diff;
            const float weighed = square * var[k];
            d[k] = d[k] - weighed;
        }
    }
}

// The previous frame's top-n of one codebook and stream, weighed again and reordered.
static void weigh_previous_best(mirror_ptm *s, int cb, int stream, const mfcc_t *z) {
    topn_entry *topn = s->f->topn[cb][stream];
    const int length = s->g->featlen[stream];
    for (int i = 0; i < s->max_topn; ++i) {
        const int cw = topn[i].cw;
        const mfcc_t *mean = s->g->mean[cb][stream][0] + (size_t)cw * length;
        const mfcc_t *var = s->g->var[cb][stream][0] + (size_t)cw * length;
        mfcc_t d = s->g->det[cb][stream][cw];
        for (int j = 0; j < length; ++j) {
            const mfcc_t diff = z[j] - mean[j];
            const mfcc_t square = diff * diff;
            const mfcc_t weighed = square * var[j];
            d = d - weighed;
        }
        const int32 score = (int32)d;
        topn[i].score = score;
        if (i == 0) continue;
        const topn_entry moved = topn[i];
        int j = i - 1;
        for (; j >= 0 && score > topn[j].score; --j) topn[j + 1] = topn[j];
        topn[j + 1] = moved;
    }
}

// One codebook and stream: every density weighed, the top-n updated in the library's order.
static void weigh_codebook(mirror_ptm *s, hooked *h, int cb, int stream, const mfcc_t *z) {
    topn_entry *best = s->f->topn[cb][stream];
    topn_entry *worst = best + (s->max_topn - 1);
    const transposed *model = h->model;
    const size_t offset = block_offset(model, cb, stream);
    const int n = s->g->n_density;
    weigh_densities(s->g->det[cb][stream], model->means + offset, model->variances + offset, z, s->g->featlen[stream], n,
                    h->distances);
    for (int cw = 0; cw < n; ++cw) {
        const mfcc_t d = h->distances[cw];
        if (d < (mfcc_t)worst->score) continue;
        int i = 0;
        while (i < s->max_topn && best[i].cw != cw) ++i;
        if (i < s->max_topn) continue;
        const int32 score = (int32)d;
        topn_entry *cur = worst - 1;
        for (; cur >= best && score >= cur->score; --cur) cur[1] = cur[0];
        ++cur;
        cur->cw = cw;
        cur->score = score;
    }
}

static void mark_active_codebooks(mirror_ptm *s, const uint8 *senone_active, int32 n_senone_active, int32 compute_all) {
    if (compute_all) {
        bitvec_set_all(s->f->mgau_active, s->g->n_mgau);
        return;
    }
    bitvec_clear_all(s->f->mgau_active, s->g->n_mgau);
    for (int i = 0, sen = 0; i < n_senone_active; ++i) {
        sen += senone_active[i];
        bitvec_set(s->f->mgau_active, s->sen2cb[sen]);
    }
}

static void normalise(mirror_ptm *s) {
    for (int j = 0; j < s->g->n_feat; ++j) {
        int32 norm = WORST_SCORE;
        for (int i = 0; i < s->g->n_mgau; ++i) {
            if (bitvec_is_clear(s->f->mgau_active, i)) continue;
            if (norm < s->f->topn[i][j][0].score >> SENSCR_SHIFT) norm = s->f->topn[i][j][0].score >> SENSCR_SHIFT;
        }
        for (int i = 0; i < s->g->n_mgau; ++i) {
            if (bitvec_is_clear(s->f->mgau_active, i)) continue;
            for (int k = 0; k < s->max_topn; ++k) {
                topn_entry *entry = &s->f->topn[i][j][k];
                entry->score >>= SENSCR_SHIFT;
                entry->score -= norm;
                entry->score = -entry->score;
                if (entry->score > MAX_NEG_ASCR) entry->score = MAX_NEG_ASCR;
            }
        }
    }
}

// -log(exp(-x) + exp(-y)) for the small negated scores of one mixture (the library's own table).
static inline int add_negated(const logmath_t *lmath_8b, int x, int y) {
    const uint8 *table = (const uint8 *)LOGMATH_TABLE(lmath_8b)->table;
    return x > y ? y - table[x - y] : x - table[y - x];
}

static void score_senones(mirror_ptm *s, int16 *senone_scores, const uint8 *senone_active, int32 n_senone_active,
                          int32 compute_all) {
    memset(senone_scores, 0, (size_t)s->n_sen * sizeof *senone_scores);
    if (compute_all) n_senone_active = s->n_sen;
    int best = 0x7fffffff;
    for (int i = 0, last = 0; i < n_senone_active; ++i) {
        const int sen = compute_all ? i : senone_active[i] + last;
        last = sen;
        const int cb = s->sen2cb[sen];
        if (bitvec_is_clear(s->f->mgau_active, cb)) {
            for (int f = 0; f < s->g->n_feat; ++f) {
                for (int j = 0; j < s->max_topn; ++j) s->f->topn[cb][f][j].score = MAX_NEG_ASCR;
            }
        }
        int score = 0;
        for (int f = 0; f < s->g->n_feat; ++f) {
            const topn_entry *topn = s->f->topn[cb][f];
            int density = 0;
            for (int j = 0; j < s->max_topn; ++j) {
                int weight;
                if (s->mixw_cb) {
                    int coded = s->mixw[f][topn[j].cw][sen / 2];
                    coded = (coded & 1) ? coded >> 4 : coded & 0x0f;
                    weight = s->mixw_cb[coded];
                } else {
                    weight = s->mixw[f][topn[j].cw][sen];
                }
                density = j == 0 ? weight + topn[j].score : add_negated(s->lmath_8b, density, weight + topn[j].score);
            }
            score += density;
        }
        if (score < best) best = score;
        senone_scores[sen] = (int16)score;
    }
    for (int i = 0; i < s->n_sen; ++i) senone_scores[i] = (int16)(senone_scores[i] - best);
}

static int fast_frame_eval(mirror_mgau *mgau, int16 *senone_scores, uint8 *senone_active, int32 n_senone_active,
                           mfcc_t **features, int32 frame, int32 compute_all) {
    mirror_ptm *s = (mirror_ptm *)mgau;
    hooked *h = hook_of(mgau);
    const int index = frame % s->n_fast_hist;
    s->f = s->hist + index;
    if (frame >= mgau->frame_idx) {
        const fast_eval *last = s->hist + (index == 0 ? s->n_fast_hist - 1 : index - 1);
        memcpy(s->f->topn[0][0], last->topn[0][0],
               (size_t)s->g->n_mgau * (size_t)s->g->n_feat * (size_t)s->max_topn * sizeof(topn_entry));
        mark_active_codebooks(s, senone_active, n_senone_active, compute_all);
        for (int cb = 0; cb < s->g->n_mgau; ++cb) {
            for (int f = 0; f < s->g->n_feat; ++f) weigh_previous_best(s, cb, f, features[f]);
        }
        if (frame % s->ds_ratio == 0) {
            for (int cb = 0; cb < s->g->n_mgau; ++cb) {
                if (bitvec_is_clear(s->f->mgau_active, cb)) continue;
                for (int f = 0; f < s->g->n_feat; ++f) weigh_codebook(s, h, cb, f, features[f]);
            }
        }
        normalise(s);
    }
    score_senones(s, senone_scores, senone_active, n_senone_active, compute_all);
    return 0;
}

static void unhook(mirror_mgau *mgau) {
    hooked *h = hook_of(mgau);
    mgau->vt = h->original;
    release(h->model);
    free(h->distances);
    free(h);
}

// An adaptation moves the means: the library applies it, then the copy is taken again. Should
// that fail, the decoder goes back to the library's scoring, which holds the adapted means.
static int fast_transform(mirror_mgau *mgau, void *mllr) {
    hooked *h = hook_of(mgau);
    const int result = h->original->transform(mgau, mllr);
    transposed *fresh = transposed_copy(((mirror_ptm *)mgau)->g);
    if (!fresh) {
        unhook(mgau);
        return result;
    }
    release(h->model);
    h->model = fresh;
    return result;
}

static void fast_free(mirror_mgau *mgau) {
    mirror_mgau_functions *original = hook_of(mgau)->original;
    unhook(mgau);
    original->free(mgau);
}

// --- Installing, after checking the mirrors against what the public API says ---

static int laid_out_as_expected(ps_decoder_t *ps, mirror_ptm **out) {
    const mirror_decoder *d = (const mirror_decoder *)ps;
    cmd_ln_t *config = ps_get_config(ps);
    logmath_t *lmath = ps_get_logmath(ps);
    feat_t *fcb = ps_get_feat(ps);
    if (!config || !lmath || !fcb || d->config != config || d->lmath != lmath) return 0;
    const mirror_acmod *acmod = d->acmod;
    if (!acmod || acmod->config != config || acmod->lmath != lmath || acmod->fcb != fcb || acmod->fe != ps_get_fe(ps)) return 0;
    mirror_mgau *mgau = acmod->mgau;
    if (!mgau || !mgau->vt || !mgau->vt->name || strcmp(mgau->vt->name, "ptm") != 0) return 0;
    mirror_ptm *s = (mirror_ptm *)mgau;
    const mirror_gauden *g = s->g;
    if (s->config != config || s->lmath != lmath || !g || g->lmath != lmath) return 0;
    if (g->n_mgau < 1 || g->n_mgau > 256 || g->n_density < 1 || g->n_density > MAX_DENSITIES) return 0;
    if (g->n_feat < 1 || g->n_feat > MAX_STREAMS || g->n_feat != feat_dimension1(fcb) || !g->featlen) return 0;
    for (int f = 0; f < g->n_feat; ++f) {
        if (g->featlen[f] < 1 || g->featlen[f] > MAX_STREAM_LENGTH || g->featlen[f] != (int32)feat_dimension2(fcb, f)) return 0;
    }
    if (s->max_topn != cmd_ln_int32_r(config, "-topn") || s->max_topn < 1 || s->max_topn > g->n_density) return 0;
    if (s->ds_ratio != cmd_ln_int32_r(config, "-ds") || s->ds_ratio < 1) return 0;
    if (s->n_fast_hist != cmd_ln_int32_r(config, "-pl_window") + 2 || !s->hist) return 0;
    if (s->f < s->hist || s->f >= s->hist + s->n_fast_hist) return 0;
    if (s->n_sen < 1 || !s->sen2cb || !s->mixw || !s->lmath_8b) return 0;
    const logadd_t *table = LOGMATH_TABLE(s->lmath_8b);
    if (table->width != 1 || table->table_size < 256 || !table->table) return 0;
    *out = s;
    return 1;
}

int hark_fast_scoring_installed(struct ps_decoder_s *decoder) {
    mirror_ptm *s = NULL;
    // An installed table keeps the library's name, so the same checks find it.
    if (!decoder || !laid_out_as_expected((ps_decoder_t *)decoder, &s)) return 0;
    return s->base.vt->frame_eval == fast_frame_eval;
}

int hark_fast_scoring_install(struct ps_decoder_s *decoder) {
    mirror_ptm *s = NULL;
    if (!decoder || !laid_out_as_expected((ps_decoder_t *)decoder, &s)) return 0;
    if (s->base.vt->frame_eval == fast_frame_eval) return 1;
    hooked *h = calloc(1, sizeof *h);
    if (!h) return -1;
    h->distances = malloc((size_t)s->g->n_density * sizeof(float));
    h->model = transposed_copy(s->g);
    if (!h->distances || !h->model) {
        release(h->model);
        free(h->distances);
        free(h);
        return -1;
    }
    h->original = s->base.vt;
    h->functions = *s->base.vt;
    h->functions.frame_eval = fast_frame_eval;
    h->functions.transform = fast_transform;
    h->functions.free = fast_free;
    s->base.vt = &h->functions;
    return 1;
}
