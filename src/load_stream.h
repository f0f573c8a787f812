/* load_stream.h - what the loaders share for the large-input path: the
 * per-element hooks the streaming driver (load.c) calls for each element of
 * "traceEvents" / "events" that the scanner (scan.h) found.  Like
 * load_internal.h, only load_*.c include it.
 *
 * Each hook first looks at a few members located by the scanner and returns
 * at once for elements that cannot matter; only the others are parsed with
 * jansson (json_loadb on the element's bytes) and go through the same
 * per-event conversion as the whole-document path, so both paths keep the
 * same events and report the same type errors for them.
 */
#ifndef TF_LOAD_STREAM_H
#define TF_LOAD_STREAM_H

#include "load_internal.h"
#include "scan.h"

/* --- Chrome traces (load_chrome.c) --------------------------------------- */

/* The members of a traceEvents element the relevance test reads. */
enum { TF_CHROME_F_PH, TF_CHROME_F_NAME, TF_CHROME_N_FIELDS };
extern const char *const tf_chrome_field_names[TF_CHROME_N_FIELDS];

/* A Chrome trace being read: the window event, the I/O and compute blocks
 * near it, and the open B events of every thread.  _new/_free. */
struct tf_chrome;
struct tf_chrome *tf_chrome_new(const char *file, const struct tf_load_opts *opts);
void tf_chrome_free(struct tf_chrome *c);

/* One element, parsed (whole-document path) ... */
bool tf_chrome_add_json(struct tf_chrome *c, const json_t *e, size_t idx, struct tf_diag *d);
/* ... or as bytes with its members located (streaming path). */
bool tf_chrome_add_scanned(struct tf_chrome *c, const unsigned char *data, size_t len,
                           const struct tf_scan_field *f, size_t idx, struct tf_diag *d);
/* After the last element: the window must have been found.  Fills *out. */
bool tf_chrome_finish(struct tf_chrome *c, struct tf_pytorch *out, struct tf_diag *d);

/* The whole-document path: a parsed Chrome trace (object with traceEvents,
 * or a bare array). */
bool tf_chrome_from_json(const json_t *root, const char *file, const struct tf_load_opts *opts,
                         struct tf_pytorch *out, struct tf_diag *d);

/* --- pipelined timelines (load_timeline.c) ------------------------------- */

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

/* Which candidates to keep: all, or lo..hi. */
struct tf_tl_filter {
    bool all;
    long long lo, hi;
};

/* The smallest and largest candidate of the usable events seen. */
struct tf_cand_range {
    bool any;
    long long lo, hi;
};

static inline void tf_cand_range_add(struct tf_cand_range *r, long long c)
{
    if (!r->any || c < r->lo)
        r->lo = c;
    if (!r->any || c > r->hi)
        r->hi = c;
    r->any = true;
}

/* One element of "events" as bytes with its members located.  Events the
 * rules use whose candidate is in the filter are converted and kept (via
 * tf_timeline_add_event); the others are only counted (null candidates) or
 * checked as far as the whole-document path would check them.  `scratch`
 * is caller-owned working space (an initialised, empty struct tf_timeline).
 * When `seen` is not NULL the candidate of every usable event is added to
 * it (kept or not). */
bool tf_timeline_add_scanned(const unsigned char *data, size_t len,
                             const struct tf_scan_field *f, size_t idx, const char *file,
                             const struct tf_tl_filter *filter, struct tf_timeline *t,
                             struct tf_timeline *scratch, struct tf_cand_range *seen,
                             struct tf_diag *d);

#endif
