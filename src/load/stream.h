/* stream.h - the streaming load path (stream.c), for load.c. */
#ifndef TF_LOAD_STREAM_H
#define TF_LOAD_STREAM_H

#include <stdbool.h>

#include "base/diag.h"
#include "load/input.h"
#include "model/trace.h"

/* Reads the trace in `in` with the scanner; see stream.c. */
bool tf_load_stream(struct tf_input *in, const char *path, const struct tf_keep *keep,
                    struct tf_trace *out, struct tf_diag *d);

/* The same in two steps, for traces whose windows are chosen together
 * (load.h, tf_load_begin): tf_stream_first reads all but the generic
 * mode's second pass of a Chrome trace and sets *rest to what that pass
 * needs (NULL: nothing is left); `in` may be closed then.  tf_stream_second
 * runs that pass on `in`, the same file opened again; tf_stream_free frees
 * *rest (after either, or instead). */
struct tf_stream;
bool tf_stream_first(struct tf_input *in, const char *path, const struct tf_keep *keep,
                     struct tf_trace *out, struct tf_stream **rest, struct tf_diag *d);
bool tf_stream_second(struct tf_stream *rest, struct tf_input *in, struct tf_diag *d);
void tf_stream_free(struct tf_stream *rest);

#endif
