/* overview.h - a job of many ranks in one figure: each rank's lane reduced
 * to a strip of busy shares, then the figure's rows, one per rank or one
 * per run of consecutive ranks (in the order asked), each inked with the
 * mean busy share of its ranks per class (figure.h, struct tf_overview).
 *
 * Two steps, so that memory follows the figure and not the ranks' events:
 *
 *   strip   one rank's lane (a figure's lane: slices, dense bars) as the
 *           time each class covers in each of TF_OV_BINS bins across that
 *           figure's own axis, each moment once (the innermost slice's
 *           class); a GPU stream's annotations of its work are not work.
 *           A strip is a few KB; the figure it came from can go.
 *   rows    the strips, in order, `per_row` to a row, resampled onto the
 *           figure's axis (each rank's x = x * k + dx) and averaged: one
 *           dense bar per bin of the figure with ink, its shares the mean
 *           of its ranks' (render/plan_busy.c then draws them at 1 pt).
 *
 * Pure functions of model structs: who reads the ranks (lib/run_multi.c,
 * the Chrome mode for an OTF2 archive) and how many rows fit (the plan)
 * are the callers' business.
 */
#ifndef TF_MODEL_OVERVIEW_H
#define TF_MODEL_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "model/figure.h"
#include "model/ov_set.h"

/* The strip of lane `lane` of f (zeroed first; tf_ov_strip_fini after,
 * also on failure).  False when out of memory. */
bool tf_ov_strip_make(const struct tf_figure *f, size_t lane, struct tf_ov_strip *s);

/* Which of a rank's lanes [first, first + n) of f its row draws: with
 * `picked` (--lanes chose them) the first lane of slices; otherwise its
 * busiest GPU stream (a lane labelled "GPU ..."), else its main thread
 * (the lane whose tid is its pid), else its first lane of slices.
 * SIZE_MAX: it has no lane of slices. */
size_t tf_ov_pick(const struct tf_figure *f, size_t first, size_t n, bool picked);
/* The same words, for the model's "overview" ("lane"). */
#define TF_OV_PICK_TEXT "the busiest GPU stream of each rank, else its main thread"
#define TF_OV_PICKED_TEXT "the first lane --lanes picks of each rank"

/* Sorts the members into the order of the rows (rank, finish: when each
 * one's last slice ends on the figure's axis, those with none first;
 * busy: its busy share of its own axis, the least first; ties by rank). */
void tf_ov_order(struct tf_ov_member *m, size_t n, enum tf_rank_order order);

/* The figure's rows: lanes for rows of per_row members each (in m's
 * order), labelled "rank 17" or "ranks 16–19", with one dense bar per bin
 * of `bins` across the axis that holds ink, and f->overview (the ranks in
 * order, the spread; axis and lane texts from the caller: `lane_text`).
 * f has its axis (x_span, axis.unit) and the categories the strips name.
 * False when out of memory. */
bool tf_ov_rows(struct tf_figure *f, const struct tf_ov_member *m, size_t n, size_t per_row,
                size_t bins, enum tf_rank_order order, const char *lane_text);

/* f's legend without the classes none of the strips of m inks (a GPU
 * stream's annotations, which are not work); false when out of memory. */
bool tf_ov_prune_legend(struct tf_figure *f, const struct tf_ov_member *m, size_t n);

/* The ranks a row holds as --ranks writes them ("3,5-7,17", sorted), or
 * as a label says them ("ranks 3, 5–7, 17"; "rank 17" for one). */
void tf_ov_ranks_list(struct tf_buf *out, const long long *ranks, size_t n, bool label);

/* Whether `rank` is in the --ranks list (n 0: every rank is). */
bool tf_ov_rank_in(const struct tf_rank_range *r, size_t n, long long rank);
/* Parses a --ranks LIST ("0-7,769,1000-1023") into *out (malloc'd, *n
 * ranges); false with a message in err (at least 160 bytes) when it is
 * not one, or when out of memory. */
bool tf_ov_parse_ranks(const char *s, struct tf_rank_range **out, size_t *n, char *err,
                       size_t err_len);

#endif
