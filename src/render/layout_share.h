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
#include "render/plan.h"
#include "render/scene.h"

/* The most empty space between two bins of one run, in points; doubled
 * (8, 16, ... pt) while a figure would have more than TF_SHARE_RUNS_MAX
 * runs, which keeps a dense figure's SVG light (a run costs about 250
 * bytes: its group, tooltip and data). */
#define TF_SHARE_RUN_GAP_PT 4.0
#define TF_SHARE_RUNS_MAX 100
/* The lone slices (bins of one slice too thin to draw whole) a figure's
 * run tooltips name, a line each: about TF_SHARE_SLICE_LINES in all
 * (some 40 KB), shared among its runs, 4 to 48 a run. */
#define TF_SHARE_SLICE_LINES 480

/* What the share bars need of the layout: the figure as drawn, its plan,
 * the scene, the plot's left and right edges and bottom (points), the
 * axis units across the plot, and the gap of the figure's runs. */
struct tf_share_lay {
    const struct tf_figure *f;
    const struct tf_plan *P;
    struct tf_scene *s;
    double pl, pr, pb, span;
    double gap;
};

/* The gap of a figure's runs: TF_SHARE_RUN_GAP_PT, doubled while the
 * figure would have more than TF_SHARE_RUNS_MAX runs (L->gap unused);
 * how many runs it has at that gap into *runs. */
double tf_share_gap(const struct tf_share_lay *L, size_t *runs);

/* How many share bars from f->bars[i] on (drawn in `row`) are one run:
 * the next ones of the same lane and drawn row, each starting at most
 * L->gap after the last ended. */
size_t tf_share_run(const struct tf_share_lay *L, size_t i, unsigned row);

/* A share bar's boxes into the scene: one per class, stacked from the
 * row's bottom, each as high as its share of the row (a bin that would
 * ink less than the floor: one box the floor high, on the line along the
 * row's bottom). */
void tf_share_boxes(const struct tf_share_lay *L, const struct tf_bar *b, double top,
                    double bottom);

/* The run bars[0..n) (n >= 1, one row, in x order) as one group: its
 * tooltip into *title, its data-busy (each class's share of the run's
 * span, JSON as tf_bar_busy_json writes) into *busy, its start and
 * duration on the trace clock into *start_ms, *dur_ms.  One bar, or bars
 * that all stand for one slice, keep that bar's tooltip; several say
 * "N slices · busy P% of W UNIT at X UNIT (CLASS P%, ...)", a row of a
 * job's overview its ranks in place of the count, then a line for each of
 * its lone slices' own tooltips (at most max_lines, then "… K more
 * slices").  False when out of memory. */
bool tf_share_run_text(const struct tf_figure *f, const struct tf_bar *bars, size_t n,
                       size_t max_lines,
                       struct tf_buf *title, struct tf_buf *busy, double *start_ms,
                       double *dur_ms);

#endif
