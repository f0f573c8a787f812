/* load.h - reading inputs: the only code that sees JSON.
 *
 * Loaders return true on success; on failure they report one located
 * message through *d and leave *out empty (still safe to _fini).  `path`
 * names the input in messages; "-" is standard input.
 *
 * Traces are read by the streaming scanner; TRACEFIG_LOAD=whole in the
 * environment reads a pipelined timeline through jansson's whole-document
 * parse instead, with the same results (the tests compare the two).
 */
#ifndef TF_LOAD_H
#define TF_LOAD_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/trace.h"

/* A trace of any kind; what is kept of it is `keep` (the mode's filter for
 * each kind).  out->kind tells which kind it was. */
bool tf_load_trace(const char *path, const struct tf_keep *keep, struct tf_trace *out,
                   struct tf_diag *d);

/* A candidate_breakdown_v1 file. */
bool tf_load_breakdown(const char *path, struct tf_breakdown_in *out, struct tf_diag *d);

#endif
