/* marks_file.h - a --marks file (tracefig(1), MARKS): a JSON array of
 * mark objects, read with the same care as a trace (bad JSON as
 * file:line:col, every field checked, one message naming its place:
 * "marks.json: [2].from.edge: expected "start" or "end"").
 */
#ifndef TF_LOAD_MARKS_FILE_H
#define TF_LOAD_MARKS_FILE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "base/diag.h"
#include "model/marks.h"

/* The marks of the file at `path` (json NULL), or of the JSON text `json`
 * named `path` in messages, appended to *v (n, cap; TF_GROW), their
 * strings in arena a.  False with a message (TF_EBADINPUT, TF_EIO). */
bool tf_load_marks(const char *path, const char *json, struct tf_arena *a,
                   struct tf_mark_spec **v, size_t *n, size_t *cap, struct tf_diag *d);

#endif
