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

/* The same in two steps, for several traces whose windows are chosen
 * together (run_multi.c).  tf_load_begin reads what can be read before the
 * window is chosen, and closes the file: a generic Chrome trace's first
 * pass (the mode's index), and every other kind whole.  When a second pass
 * is left, *job holds what it needs (a few KB per trace: the index of the
 * blocks) and the mode's state (out->generic_state) can be asked for its
 * window and told another; tf_load_finish opens the file again for that
 * pass and frees *job, tf_load_cancel frees it instead.  `path` must
 * outlive *job; a path that cannot be opened twice (standard input) is the
 * caller's to refuse. */
struct tf_load_job;
bool tf_load_begin(const char *path, const struct tf_keep *keep, struct tf_trace *out,
                   struct tf_load_job **job, struct tf_diag *d);
bool tf_load_finish(struct tf_load_job *job, struct tf_trace *out, struct tf_diag *d);
void tf_load_cancel(struct tf_load_job *job);

/* A candidate_breakdown_v1 file. */
bool tf_load_breakdown(const char *path, struct tf_breakdown_in *out, struct tf_diag *d);

#endif
