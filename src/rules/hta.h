/* hta.h - `--stats-compat hta`: the GPU temporal breakdown and the
 * communication/computation overlap exactly as Holistic Trace Analysis'
 * TraceAnalysis computes them (get_temporal_breakdown,
 * get_comm_comp_overlap), and HTA's kernel classes, which tracefig's own
 * definitions share (rules/stats.h).
 *
 * What HTA does, and so what this module does (tracefig(1), STATISTICS):
 *   rows       every element of traceEvents with a dur and a category
 *              (not "Trace"); args.stream read as pandas' to_numeric does
 *              (strings of numbers count, the rest is -1), truncated to an
 *              integer; args.correlation as given; absent args give -1.
 *   rounding   when any ts is fractional (or absent), starts are rounded
 *              up and ends (ts + dur, in floating point) down to whole us.
 *   steps      with two or more distinct ProfilerStep#N names: the last
 *              step is dropped.  CPU rows that start before the last step
 *              stay, and the GPU rows whose correlation is one of theirs
 *              (once per matching CPU row, as HTA's inner merge repeats
 *              them).  On MTIA (distributedInfo.backend mtia:hccl, or a
 *              runFunction launch) HTA's MTIA rule instead: the CPU events
 *              inside the steps, their kernels, and the memory kernels
 *              inside a step, whose stream is their tid when they have none.
 *   kernels    the rows kept whose stream is not -1 (kernels, memory
 *              copies, synchronisation rows that carry a stream), in the
 *              order pandas and NumPy 1.24 put them (a quicksort on ts),
 *              which decides how a sub-microsecond kernel that rounding
 *              made negative joins its neighbours.
 * The numbers: span = the merged kernels' first start to the last merged
 * interval's end; idle = span - the merged length; compute = the merged
 * length of the COMPUTATION kernels; non-compute = span - compute - idle;
 * overlap = the time communication and computation both run / the merged
 * communication time.  Where HTA raises an exception on a trace,
 * tf_hta_finish says which and why, in one line.
 *
 * Memory: the rows that can count (those with a stream or a correlation,
 * the steps and memory kernels), about 48 bytes each, and the start of each
 * CPU row that has no correlation and starts after the latest step seen.
 */
#ifndef TF_HTA_H
#define TF_HTA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/figure.h"
#include "model/trace.h"
#include "rules/kernels.h"

struct tf_hta;

/* A collector (NULL when out of memory); tf_hta_free frees it. */
struct tf_hta *tf_hta_new(void);
void tf_hta_free(struct tf_hta *h);

/* The loader's hooks, pass 1 (model/trace.h, struct tf_tef_sink): the
 * columns to fill, the value of the top-level "distributedInfo", and each
 * record (false when out of memory). */
struct tf_tef_columns *tf_hta_columns(struct tf_hta *h);
void tf_hta_top(void *h, const unsigned char *val, size_t len);
bool tf_hta_rec(struct tf_hta *h, const struct tf_tef_rec *r);

/* After pass 1: HTA's rows, and with trace_scope its numbers.  False with
 * a message (no file name) when HTA raises on this trace: always for what
 * fails HTA's loading, only with trace_scope for what fails the breakdown
 * (no GPU kernels, a negative non-compute time). */
bool tf_hta_finish(struct tf_hta *h, bool trace_scope, struct tf_diag *d);

/* f->stats.gpu and f->stats.compat: HTA's numbers (trace_scope), or its
 * rows clipped to the window [w0, w1) (ns on the trace clock) with
 * tracefig's interval rules; nothing when the window holds none.  False
 * when out of memory. */
bool tf_hta_fill(const struct tf_hta *h, struct tf_figure *f, bool trace_scope, int64_t w0,
                 int64_t w1);

/* --- the parts, for hta_calc.c and the unit tests ------------------------------ */

/* NumPy 1.24's argsort(kind="quicksort") of v[0..n): idx gets 0..n-1 in
 * the order NumPy gives (its introsort: ties come out as it leaves them). */
void tf_hta_argsort(const double *v, size_t *idx, size_t n);

/* An interval of HTA's merge (us). */
struct tf_hta_iv {
    double ts, end;
};

/* HTA's merge_kernel_intervals: `in` (n rows) sorted as tf_hta_argsort
 * sorts their starts (that order into `order` when not NULL), merged where
 * a start is not after every earlier end (a negative interval that starts
 * after them stays apart), into out (room for n), sorted again by start;
 * returns the count (SIZE_MAX when out of memory). */
size_t tf_hta_merge(const struct tf_hta_iv *in, size_t n, struct tf_hta_iv *out, size_t *order);

/* The results of HTA's two functions on the kernel rows `k` (n, in HTA's
 * row order) with their types. */
struct tf_hta_numbers {
    bool assert_failed;     /* HTA's breakdown asserts would fail */
    double kernel_us, idle_us, compute_us, non_compute_us;
    double comm_us;         /* the merged communication time */
    bool has_overlap;       /* false: HTA's ratio is NaN or infinite */
    double overlap_pct;
};
bool tf_hta_numbers(const struct tf_hta_iv *k, const unsigned char *type, size_t n,
                    struct tf_hta_numbers *out);

#endif
