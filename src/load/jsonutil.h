/* jsonutil.h - the jansson helpers the loaders share.  Only files in load/
 * include jansson.h; every json_t is freed before a loader returns.
 */
#ifndef TF_JSONUTIL_H
#define TF_JSONUTIL_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "base/diag.h"
#include "model/trace.h"

/* "a string", "an object", "null", ... for messages. */
const char *tf_jtype(const json_t *v);

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

#endif
