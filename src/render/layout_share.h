/* layout_share.h - the tooltip and data of a run of share bars (layout.c).
 *
 * layout.c draws a row's share bars (busy shares, plan_busy.c) as runs:
 * consecutive bars of one drawn row whose bins are at most a gap apart
 * (TF_SHARE_RUN_GAP_PT, or more, below).  Each run is one scene group,
 * marked `disjoint` (its boxes do not overlap), with the run's tooltip and
 * data attributes, so a back-end writes one title per run, not one per bin.
 */
#ifndef TF_LAYOUT_SHARE_H
#define TF_LAYOUT_SHARE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/buf.h"
#include "model/figure.h"

/* The most empty space between two bins of one run, in points; doubled
 * (8, 16, ... pt) while a figure would have more than TF_SHARE_RUNS_MAX
 * runs, which keeps a dense figure's SVG light (a run costs about 250
 * bytes: its group, tooltip and data). */
#define TF_SHARE_RUN_GAP_PT 4.0
#define TF_SHARE_RUNS_MAX 100

/* The run bars[0..n) (n >= 1, one row, in x order) as one group: its
 * tooltip into *title, its data-busy (each class's share of the run's
 * span, JSON as tf_bar_busy_json writes) into *busy, its start and
 * duration on the trace clock into *start_ms, *dur_ms.  One bar, or bars
 * that all stand for one slice, keep that bar's tooltip; several say
 * "N slices · busy P% of W UNIT at X UNIT (CLASS P%, ...)", a row of a
 * job's overview its ranks in place of the count.  False when out of
 * memory. */
bool tf_share_run_text(const struct tf_figure *f, const struct tf_bar *bars, size_t n,
                       struct tf_buf *title, struct tf_buf *busy, double *start_ms,
                       double *dur_ms);

#endif
