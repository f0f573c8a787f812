/* load.h - reading inputs: the only code that sees JSON.
 *
 * Loaders return true on success; on failure they report one located
 * message through *d and leave *out empty (still safe to _fini).  `path`
 * names the input in messages; "-" is standard input.
 *
 * Two ways to read a trace, with the same results: the whole document
 * through jansson (small regular files), or the streaming scanner (larger
 * files and pipes).  TRACEFIG_LOAD=whole or =stream in the environment
 * forces one of them (the tests compare the two).
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
