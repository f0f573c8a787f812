/* timeline.h - pipelined_timeline_v1/_v2 events, for both load paths: a
 * parsed element (whole document) or an element's bytes with its members
 * located by the scanner (streaming).  Both go through the same conversion,
 * so both keep the same events and report the same errors.  What is kept is
 * the mode's filter (model/trace.h) and the candidates it allows.
 */
#ifndef TF_LOAD_TIMELINE_H
#define TF_LOAD_TIMELINE_H

#include "load/jsonutil.h"
#include "load/scan.h"

/* Which candidates to keep: all, or lo..hi. */
struct tf_cand_filter {
    bool all;
    long long lo, hi;
};

/* The smallest and largest candidate of the usable events seen. */
struct tf_cand_range {
    bool any;
    long long lo, hi;
};

/* The metadata of a parsed document (version from its format, which the
 * caller has checked) into t. */
bool tf_load_timeline_meta(const json_t *obj, const char *file, struct tf_timeline *t,
                           struct tf_diag *d);

/* One element of "events" (position idx): checked as far as the filter
 * uses it, then kept in t when its candidate passes `cands`.  Null
 * candidates are counted in t->n_null_candidate; with `seen`, the
 * candidate of every usable event is added to it. */
bool tf_load_timeline_event(const json_t *e, size_t idx, const char *file,
                            const struct tf_timeline_filter *flt,
                            const struct tf_cand_filter *cands, struct tf_timeline *t,
                            struct tf_cand_range *seen, struct tf_diag *d);

/* The members of an element the streaming path locates. */
enum {
    TF_TL_F_LANE,
    TF_TL_F_NAME,
    TF_TL_F_CANDIDATE,
    TF_TL_F_START,
    TF_TL_F_DUR,
    TF_TL_F_BUFFER,
    TF_TL_N_FIELDS
};
extern const char *const tf_tl_field_names[TF_TL_N_FIELDS];

/* The same for an element as bytes: decided from the located members when
 * they are plain (the common case), else parsed with jansson. */
bool tf_load_timeline_scanned(const unsigned char *data, size_t len,
                              const struct tf_scan_field *f, size_t idx, const char *file,
                              const struct tf_timeline_filter *flt,
                              const struct tf_cand_filter *cands, struct tf_timeline *t,
                              struct tf_cand_range *seen, struct tf_diag *d);

#endif
