/* nsys_pipe.h - the rows of an export, from the code that reads them (SQLite
 * stepping its statements: load/nsys.c) to the converter (nsys_rows.h),
 * on one thread or on two.
 *
 * Reading a row and converting it cost about the same, so an export can
 * be read on a second thread while this one converts: the reader fills
 * blocks of rows, the converter takes them in the order they were filled,
 * so the converter sees the very rows, in the very order, that one thread
 * would give it (the figure's bytes do not depend on the threads).  A
 * row's strings that are not clean_names (SQLite's text, valid until its
 * next step) are copied into the row's block.
 */
#ifndef TF_LOAD_NSYS_PIPE_H
#define TF_LOAD_NSYS_PIPE_H

#include <stdbool.h>

#include "base/diag.h"
#include "load/nsys_rows.h"

/* The reader: the next row in *r (*any false at the end); its strings
 * stay valid until the next call.  False with its message in d. */
typedef bool (*tf_nsys_next_fn)(void *ctx, struct tf_nsys_row *r, bool *any, struct tf_diag *d);
/* The converter: one row; false with its message in d. */
typedef bool (*tf_nsys_take_fn)(void *ctx, const struct tf_nsys_row *r, struct tf_diag *d);

/* Every row next() gives, to take(), until the end or the first failure
 * (its message in d; `file` names the export in an out-of-memory one).
 * With `threaded`, next() runs on a thread of its own, which has ended
 * when this returns; without, or when no thread can be had, both run
 * here. */
bool tf_nsys_pipe_run(bool threaded, const char *file, tf_nsys_next_fn next, void *next_ctx,
                      tf_nsys_take_fn take, void *take_ctx, struct tf_diag *d);

/* Whether an SQLite loader reads its rows on a second thread: when
 * TRACEFIG_PIPE is "on" (as for the Chrome scanner's thread, load/pipe.h).
 * Not by default: on the shared 2-core machine this was measured on
 * (issue 24), the thread gained no wall time and cost some CPU, as no core
 * was free for it; a machine with a free core may differ (make bench
 * measures both). */
bool tf_nsys_pipe_wanted(void);

#endif
