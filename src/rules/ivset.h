/* ivset.h - sets of disjoint intervals [lo, hi) in integer ticks (ns):
 * the interval algebra under the overlap statistics (rules/stats.h) and
 * HTA's busy times (rules/hta.c).  Nothing here knows about figures. */
#ifndef TF_IVSET_H
#define TF_IVSET_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

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
/* Empties the set, keeping its memory. */
void tf_ivset_clear(struct tf_ivset *s);
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
