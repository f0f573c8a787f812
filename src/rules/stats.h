/* stats.h - the overlap statistics of a figure's window: interval algebra
 * on the slices a mode keeps, and the numbers every mode reports.
 *
 * Definitions (the man page states them the same way):
 *   busy(L)       of a lane: the length of the union of its slices clipped
 *                 to the window (nested slices count once; slices merged
 *                 into dense spans count with their exact union).
 *   group         a set of lanes; busy(G) is the union over its lanes.
 *   overlap(A,B)  the length of busy(A) intersected with busy(B).
 * Times are integer nanoseconds, so sums and intersections are exact.
 */
#ifndef TF_STATS_H
#define TF_STATS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "model/figure.h"

/* [lo, hi) in ns. */
struct tf_ival {
    int64_t lo, hi;
};

/* A set of disjoint intervals, sorted (caller-owned: _init/_fini). */
struct tf_ivset {
    struct tf_ival *v;
    size_t n, cap;
};

void tf_ivset_init(struct tf_ivset *s);
void tf_ivset_fini(struct tf_ivset *s);
/* Adds [lo, hi) (empty ones are ignored), in any order; false when out of
 * memory.  After adds in any order, call tf_ivset_normalize. */
bool tf_ivset_add(struct tf_ivset *s, int64_t lo, int64_t hi);
/* Sorts and merges touching and overlapping intervals. */
void tf_ivset_normalize(struct tf_ivset *s);
/* Total length. */
int64_t tf_ivset_len(const struct tf_ivset *s);
/* Length of the intersection of two normalized sets. */
int64_t tf_ivset_overlap(const struct tf_ivset *a, const struct tf_ivset *b);
/* out = a | b (normalized inputs, out normalized); false when out of memory. */
bool tf_ivset_union(const struct tf_ivset *a, const struct tf_ivset *b, struct tf_ivset *out);
/* Keeps only [lo, hi) of a normalized set. */
void tf_ivset_clip(struct tf_ivset *s, int64_t lo, int64_t hi);

#endif
