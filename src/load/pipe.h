/* pipe.h - the scanner on a thread of its own: the elements of a large
 * events array are validated and located there (scan.h) and handed, copied
 * in batches, to the converters, which run on the caller's thread.
 *
 * Why: on a large trace the scan (validating every byte, locating the
 * members) and the conversion (numbers, ids, the rules) each take a large
 * part of the time; on two cores they overlap.  Nothing else changes: the
 * converters see the same elements, with the same bytes and members, in
 * the same order, and an error of the scan is reported after every element
 * before it was converted, as when one thread does both.
 *
 * The producer (a function the caller gives, run on the pipe's thread)
 * owns the scan while the pipe runs: it scans and calls tf_pipe_put for
 * each element; the scan's diag (and its input's) is a private one then,
 * whose error tf_pipe_finish passes on.  The consumer (the caller) takes
 * the elements with tf_pipe_get.  Memory: a few batches of about 1 MB
 * (more only for an element larger than that, which the scan holds whole
 * anyway).
 *
 * TRACEFIG_PIPE=off keeps one thread, and so does a machine with one
 * processor; TRACEFIG_PIPE=on uses a pipe for every events array (tests run
 * the suites both ways).
 */
#ifndef TF_PIPE_H
#define TF_PIPE_H

#include <stdbool.h>
#include <stddef.h>

#include "load/scan.h"

struct tf_pipe;

/* Scans elements and puts them; returns the scan's result (false on a
 * scan error).  When tf_pipe_put returns false it returns at once. */
typedef bool (*tf_pipe_produce)(void *ctx, struct tf_pipe *p);

/* When a pipe is used for input `in`: TRACEFIG_PIPE=off never; =on always
 * (tests run every suite so); else (auto) for large arrays when a
 * processor is free for it: two or more, three for a gzip'd input, whose
 * inflater has a thread of its own already (on two, the three threads
 * measured slower than two). */
enum tf_pipe_mode { TF_PIPE_OFF, TF_PIPE_AUTO, TF_PIPE_ON };
struct tf_input;
enum tf_pipe_mode tf_pipe_mode(const struct tf_input *in);

/* Starts produce(ctx) on a new thread over the scan s, for elements with
 * nf located members; NULL when that cannot be done (no memory, no
 * thread): the caller then scans on its own thread, nothing lost. */
struct tf_pipe *tf_pipe_start(struct tf_scan *s, size_t nf, tf_pipe_produce produce,
                              void *ctx);

/* Producer: the element data[0 .. len) with its members f[0 .. nf) and,
 * when mark is not NULL, where it starts.  False when the consumer has
 * stopped (or memory ran out: the consumer then gets a "failed" end). */
bool tf_pipe_put(struct tf_pipe *p, const unsigned char *data, size_t len,
                 const struct tf_scan_field *f, size_t idx, const struct tf_scan_mark *mark);

/* One element for the consumer: valid until the next tf_pipe_get. */
struct tf_pipe_elem {
    const unsigned char *data;
    size_t len, idx;
    bool has_mark;
    struct tf_scan_mark mark;
};

/* Consumer: the next element, its members written to f[0 .. nf) (whose
 * names stay as they are); false after the last one.  f is the same array
 * at every call, every member absent (zeroed) before the first: only the
 * members the last element had are cleared. */
bool tf_pipe_get(struct tf_pipe *p, struct tf_pipe_elem *e, struct tf_scan_field *f);

/* Consumer: ends the pipe (stopping the producer when the consumer leaves
 * before the end: `early`), gives the scan back its diag and frees the
 * pipe.  Returns the producer's result; its error is passed to the scan's
 * diag unless the consumer left early (then the scan never got there). */
bool tf_pipe_finish(struct tf_pipe *p, bool early);

#endif
