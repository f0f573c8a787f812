/* load_internal.h - helpers shared by the loaders (load_*.c), the only files
 * that include jansson.h.  Every json_t is freed before a loader returns.
 */
#ifndef TF_LOAD_INTERNAL_H
#define TF_LOAD_INTERNAL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "diag.h"
#include "trace.h"

/* "a string", "an object", "null", ... for messages. */
const char *tf_jtype(const json_t *v);

/* Opens `path` ("-": stdin) for reading; reports a missing file, a
 * directory or an unreadable file.  NULL on failure. */
FILE *tf_open_input(const char *path, struct tf_diag *d);
void tf_close_input(FILE *f);

/* Parses one whole JSON document from f, duplicates rejected; syntax errors
 * as "file:LINE:COL: text".  NULL on failure. */
json_t *tf_parse_file(FILE *f, const char *path, struct tf_diag *d);

/* A number (integer or real) that is finite and within TF_MAX_ABS_TIME.
 * `where` names it in messages ("events[3].start_ms"). */
bool tf_jtime(const json_t *v, const char *file, const char *where, double *out,
              struct tf_diag *d);

/* An integer, or a real with an integral value, within +-1e15. */
bool tf_jint(const json_t *v, const char *file, const char *where, long long *out,
             struct tf_diag *d);

/* Optional integer metadata: absent or null leaves out->set false. */
bool tf_jopt_int(const json_t *obj, const char *key, const char *file, struct tf_opt_int *out,
                 struct tf_diag *d);

/* load_timeline.c: one element of "events" into t (or skipped).  idx is its
 * position, for messages.  Shared by the whole-document and streaming paths. */
bool tf_timeline_add_event(const json_t *e, size_t idx, const char *file,
                           struct tf_timeline *t, struct tf_diag *d);
/* The metadata and all events of a parsed pipelined_timeline document. */
bool tf_timeline_from_json(const json_t *root, const char *file, struct tf_timeline *t,
                           struct tf_diag *d);

/* load_chrome.c: a legacy PyTorch Chrome trace from an open file. */
bool tf_load_chrome(FILE *f, const char *path, const struct tf_load_opts *opts,
                    struct tf_pytorch *out, struct tf_diag *d);

#endif
