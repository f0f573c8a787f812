/* ivfold.h - the folded past of several interval sets (rules/ivset.h):
 * how long each combination of sets was busy at once, before a time.
 *
 * The statistics need, of a figure's lanes, each one's busy time, the
 * busy time of unions of lanes (groups) and the overlap of two unions.
 * All of these are sums over time of "which lanes are busy now", so the
 * part of the sets before a time T that no later slice can reach (a trace
 * read in time order) can be folded into one number per combination of
 * lanes busy together: a sweep over the prefixes adds each stretch of
 * time to the combination then busy.  The sets keep [T, ...) only, and
 * memory is bounded by the combinations that occur (a handful in any
 * trace with a few lanes), not by the slices.
 *
 * A combination is a sorted list of set indexes (the caller's lanes).
 * Everything is exact integer arithmetic: a group's busy time is the
 * folded time of every combination that holds one of its lanes, plus the
 * length of the union of what the sets still hold.
 */
#ifndef TF_IVFOLD_H
#define TF_IVFOLD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "rules/ivset.h"

/* One combination: ids[off .. off + n) of the fold, busy together ns. */
struct tf_ivfold_combo {
    size_t off, n;
    int64_t ns;
};

struct tf_ivfold {
    struct tf_ivfold_combo *combo;
    size_t n_combo, cap_combo;
    uint32_t *ids; /* the combinations' set indexes, each run sorted */
    size_t n_ids, cap_ids;
    size_t *slot; /* open addressing: combination index + 1, 0 empty */
    size_t n_slot;
    bool any;     /* a cut was made */
};

void tf_ivfold_init(struct tf_ivfold *f);
void tf_ivfold_fini(struct tf_ivfold *f);
/* Folds the part of sets[0..n) before `at` (sets normalized, nothing of
 * them before the fold's last cut: `at` only grows) into f; each set keeps
 * its part from `at` on.  A NULL set is skipped.  False when out of
 * memory (the fold is then incomplete: the caller fails). */
bool tf_ivfold_cut(struct tf_ivfold *f, struct tf_ivset *const *sets, size_t n, int64_t at);
/* The folded time in which set `id` was busy. */
int64_t tf_ivfold_len(const struct tf_ivfold *f, uint32_t id);

/* out = in with every set index i renamed map[i] (UINT32_MAX: left out;
 * indexes >= n_map are left out too), the same combinations merged; out
 * is initialized here.  False when out of memory. */
bool tf_ivfold_remap(const struct tf_ivfold *in, const uint32_t *map, size_t n_map,
                     struct tf_ivfold *out);

/* Moves the part of a normalized set before `at` to `out` (cleared
 * first); `s` keeps [at, ...).  False when out of memory (s unchanged). */
bool tf_ivset_take_below(struct tf_ivset *s, int64_t at, struct tf_ivset *out);

#endif
