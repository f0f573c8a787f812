/* seed.h - what the two modes of the seed script (timeline.c, pytorch.c)
 * share: the reference's figure geometry and constants, its axis, and the
 * tooltips of its bars. */
#ifndef TF_SEED_H
#define TF_SEED_H

#include <stdbool.h>

#include "model/figure.h"
#include "rules/mode.h"

/* Constants of the reference's figure rules. */
#define TF_MAIN_MIN_MS 1.0
#define TF_LABEL_MIN_MS 40.0
#define TF_EDGE_CLIP_EPS_MS 0.5
#define TF_ZIGZAG_AMP_FRAC 0.012
#define TF_ZIGZAG_AMP_MIN_MS 6.0
#define TF_ZIGZAG_AMP_MAX_MS 14.0
#define TF_WINDOW_PAD_FRAC 0.03
#define TF_DEFAULT_NUM_CANDIDATES 3
#define TF_IN_BAR_LABEL_MIN_PCT 10.0
#define TF_WHITE_TEXT_MIN_PCT 20.0 /* strictly above: white text */
#define TF_MIN_BAR_VIS_PCT 1.2

/* The reference's figure: 10 in wide; 2.2 in tall, + 0.55 in with a main
 * lane, + 0.42 in.  Lanes beyond four add 30 pt each (the height of a lane
 * in the four-lane figure), so lanes never get thinner. */
#define TF_FIG_WIDTH_IN 10.0
#define TF_FIG_BASE_HEIGHT_IN 2.2
#define TF_FIG_MAIN_EXTRA_IN 0.55
#define TF_FIG_BOTTOM_EXTRA_IN 0.42
#define TF_FIG_EXTRA_LANE_PT 30.0

/* Sets the canvas size, the x axis ("Time (ms)", ms, MaxNLocator ticks of
 * 0 .. tick_span) and the clock (ms) of a seed figure whose lanes are set.
 * False when out of memory. */
bool tf_seed_frame(struct tf_figure *f, bool has_main_lane, double tick_span);

/* The human name of a bar's event ("hdf5_io" -> "HDF5 read"). */
const char *tf_seed_bar_title(const char *name);

/* Sets b->title: "HDF5 read · candidate 6 · 280.9 ms" (candidate < 0
 * and !has_candidate: without it).  False when out of memory. */
bool tf_seed_bar_tooltip(struct tf_figure *f, struct tf_bar *b, bool has_candidate,
                         long long candidate);

/* The category of the first category with this colour (the legend swatch
 * of a colour the bars already use), else a new one called key. */
size_t tf_seed_legend_cat(struct tf_figure *f, uint32_t color, const char *key);

/* The overlap statistics of a seed figure whose bars are set (x in ms):
 * lane busy time from the drawn bars, the groups main (lane "main"), io
 * (lane "io") and gpu (lanes "gpu", "gpu0", "gpu1", ...; a group only when
 * one of its lanes is drawn), the --group groups, I/O hidden and GPU idle,
 * each candidate's I/O time no GPU work covers (the I/O bars with a
 * candidate), and the summary line.  False when out of memory. */
bool tf_seed_stats(struct tf_figure *f, const struct tf_opts *o);

#endif
