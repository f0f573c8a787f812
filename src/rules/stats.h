/* stats.h - the overlap statistics of a figure's window: the numbers every
 * mode reports, from interval sets (rules/ivset.h) of the slices it keeps.
 *
 * Definitions (the man page states them the same way):
 *   busy(L)       of a lane: the length of the union of its slices clipped
 *                 to the window (nested slices count once; slices merged
 *                 into dense spans count with their exact union).
 *   group         a set of lanes; busy(G) is the union over its lanes.
 *   overlap(A,B)  the length of busy(A) intersected with busy(B).
 * Times are integer nanoseconds, so sums and intersections are exact.
 *
 * How a mode uses this file: it adds the clipped extent of every slice it
 * draws to one struct tf_ivset per lane (tf_ivset_add, then
 * tf_ivset_normalize and tf_ivset_clip to the window), names its groups
 * (struct tf_stats_group_in) and calls tf_stats_fill, which fills the
 * figure's struct tf_stats: window, lane and group busy time, the overlap
 * matrix, and the user's --group groups.  The pipelined modes then add
 * their derived figures (I/O hidden, GPU idle) and tf_stats_summary; a
 * mode with GPU kernels fills stats.gpu with tf_stats_gpu_breakdown.
 * Nothing here allocates more than the intervals it is given: the cost is
 * O(n log n) in the slices drawn, never in the trace.
 */
#ifndef TF_STATS_H
#define TF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/figure.h"
#include "rules/ivfold.h"
#include "rules/ivset.h"
#include "rules/kernels.h"
#include "rules/mode.h"

/* --- the statistics of a figure ------------------------------------------------ */

/* The integer clock of a figure's statistics: ticks_per_ms ticks to the
 * millisecond, and the window [lo, hi) in ticks.  A tick is a nanosecond
 * (ticks_per_ms 1e6); only a window longer than about 73 years (whose tick
 * counts would not fit in 61 bits) gets coarser ticks, by powers of ten.
 * Interval ends a mode adds stay within +-2^61 ticks (tf_stats_ticks
 * clamps to that). */
struct tf_stats_clock {
    double ticks_per_ms;
    int64_t lo, hi;
};

/* A clock whose tick 0 is the window start, for a window span_ms long. */
void tf_stats_clock_init(struct tf_stats_clock *c, double span_ms);
/* ms from the window start as ticks (rounded to the nearest; NaN as 0,
 * values beyond +-2^61 clamped to it). */
int64_t tf_stats_ticks(const struct tf_stats_clock *c, double ms);
/* ticks as ms. */
double tf_stats_ms(const struct tf_stats_clock *c, int64_t ticks);

/* Adds the drawn extent (tf_bar_drawn_extent: clipped to the window) of
 * every slice bar to the set of its lane (`lanes`: f->n_lanes sets), with
 * x in axis units of ms_per_unit ms each, and normalizes the sets.
 * Instants cover no time.  A dense span (TF_SHAPE_DENSE) is drawn wider
 * than the slices it stands for, so it is NOT added: a mode that merges
 * slices adds their exact extents itself.  False when out of memory. */
bool tf_stats_bar_sets(const struct tf_figure *f, const struct tf_stats_clock *c,
                       double ms_per_unit, struct tf_ivset *lanes);

/* out = the union of lanes[idx[0..n)] (normalized inputs); false when out
 * of memory. */
bool tf_stats_union_lanes(const struct tf_ivset *lanes, const size_t *idx, size_t n,
                          struct tf_ivset *out);

/* A group of lanes a mode reports: its label and its lanes (indexes into
 * the figure's lanes; both copied by tf_stats_fill). */
struct tf_stats_group_in {
    const char *label;
    const size_t *lanes;
    size_t n_lanes;
};

/* Fills f->stats (on, window_ms, lane_busy_ms, groups with their lanes and
 * busy_ms, overlap_ms) from `lanes`: one normalized interval set per
 * figure lane (f->n_lanes of them), already clipped to [c->lo, c->hi).
 * The groups are `groups`, then one per --group option of `o` (o may be
 * NULL): the lanes whose label matches any of its globs (fnmatch), in lane
 * order, counter lanes left out; a group that matches no lane is kept,
 * with busy 0.  (stats.counters is the mode's to fill.)  The
 * pipelined figures, the GPU breakdown and the summary are left as they
 * are.  False when out of memory (f->stats may then be partly filled; the
 * figure's fini frees it). */
bool tf_stats_fill(struct tf_figure *f, const struct tf_stats_clock *c,
                   const struct tf_ivset *lanes, const struct tf_stats_group_in *groups,
                   size_t n_groups, const struct tf_opts *o);
/* The same, with the lanes' folded past (NULL: none): its set indexes are
 * figure lane indexes, and all of its time lies before every interval
 * still in `lanes` (rules/ivfold.h), so each busy and overlap time is the
 * folded part plus the sets' part. */
bool tf_stats_fill_folded(struct tf_figure *f, const struct tf_stats_clock *c,
                          const struct tf_ivset *lanes, const struct tf_ivfold *fold,
                          const struct tf_stats_group_in *groups, size_t n_groups,
                          const struct tf_opts *o);

/* The pipelined figures from the busy sets of the I/O and GPU groups
 * (normalized, clipped): stats.pipelined, io_hidden_pct =
 * 100 |io & gpu| / |io| (has_io_hidden false when |io| is 0), gpu_idle_ms =
 * window - |gpu|. */
void tf_stats_pipelined(struct tf_figure *f, const struct tf_stats_clock *c,
                        const struct tf_ivset *io, const struct tf_ivset *gpu);

/* Appends a candidate's I/O time (`io`: its clipped I/O slices) and the
 * part of it no GPU work covers (|io| - |io & gpu|).  False when out of
 * memory. */
bool tf_stats_add_candidate(struct tf_figure *f, const struct tf_stats_clock *c,
                            long long candidate, const struct tf_ivset *io,
                            const struct tf_ivset *gpu);

/* HTA's temporal breakdown from interval sets (normalized, clipped to the
 * scope): `all` every counted GPU event, `compute` and `comm` those of
 * their class.  kernel_span = first start to last end of `all`; idle =
 * span - |all|; compute = |compute|; non_compute = span - compute - idle;
 * comm_comp_overlap_pct = 100 |comm & compute| / |comm| (has_comm false
 * when there is no communication).  Sets f->stats.has_gpu; scope_trace is
 * the caller's. */
void tf_stats_gpu_breakdown(struct tf_figure *f, const struct tf_stats_clock *c,
                            const struct tf_ivset *all, const struct tf_ivset *compute,
                            const struct tf_ivset *comm);

/* What the GPU breakdown's sets held before a time and gave up (a trace
 * read in time order folds them as it goes): the lengths of all, compute
 * and comm and of comm & compute there, and the first start and last end
 * of `all` there (any: something was given up). */
struct tf_stats_gpu_past {
    int64_t all, compute, comm, comm_compute;
    int64_t lo, hi;
    bool any;
};
/* Moves the part of the three sets (normalized) before `at` into *p. */
bool tf_stats_gpu_fold(struct tf_stats_gpu_past *p, struct tf_ivset *all,
                       struct tf_ivset *compute, struct tf_ivset *comm, int64_t at);
/* tf_stats_gpu_breakdown of the past *p (NULL: none) and the sets, which
 * hold what came after it. */
void tf_stats_gpu_breakdown_folded(struct tf_figure *f, const struct tf_stats_clock *c,
                                   const struct tf_ivset *all, const struct tf_ivset *compute,
                                   const struct tf_ivset *comm,
                                   const struct tf_stats_gpu_past *p);

/* stats.summary for --annotate, from the pipelined figures: "I/O hidden
 * 81 %, GPU idle 7 %" (percentages rounded to integers; the I/O part only
 * when has_io_hidden).  Other modes may set their own line.  False when
 * out of memory. */
bool tf_stats_summary(struct tf_figure *f);

#endif
