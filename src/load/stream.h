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

#endif
