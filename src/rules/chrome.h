/* chrome.h - the generic Chrome mode (rules/chrome/): any Trace Event
 * Format trace, a figure of the window the author picks.  Its entry is
 * tf_mode_chrome in mode.h; these are its defaults, for --help and tests. */
#ifndef TF_RULES_CHROME_H
#define TF_RULES_CHROME_H

#include "rules/mode.h"

/* Lanes drawn at most, unless --max-lanes or --lanes says otherwise. */
#define TF_CHROME_MAX_LANES 24
/* Lanes drawn at most of an HPC job's trace (an OTF2 archive): a job of up
 * to 64 ranks is drawn whole, one thin lane each. */
#define TF_CHROME_MAX_RANK_LANES 64
/* From this many lanes an HPC job's figure draws them thin, with labels
 * kept left and thinned to what fits (fewer are drawn as any trace's). */
#define TF_CHROME_RANK_THIN 16
/* Counter tracks drawn at most, unless --max-counters or --lanes says
 * otherwise. */
#define TF_CHROME_MAX_COUNTERS 8
/* Counter series a trace may hold; the samples of more are counted and
 * left out. */
#define TF_CHROME_MAX_SERIES 1024
/* Nesting rows drawn per lane, unless --depth says otherwise. */
#define TF_CHROME_DEPTH 6
/* The level of detail, in points of the plot: slices, instants, marks
 * and counter samples closer than this are binned or merged by the plan
 * at its real width (render/plan_busy.c, plan_counters.c). */
#define TF_CHROME_LOD_PT 1.0
/* Bars a figure holds at most: beyond, the merging threshold doubles until
 * it fits (an SVG stays well under 300 KB, TikZ compiles in a second). */
#define TF_CHROME_MAX_BARS 1500
/* "12.5ms", "300us", "1.2s", "450000ns", or a bare number of ms, as ns.
 * False when it is none of these. */
bool tf_chrome_parse_time(const char *s, int64_t *ns);

/* The name a slice shows inside its bar: a C++ function's name without
 * its scope, template arguments and parameters
 * ("void at::native::vectorized_elementwise_kernel<4, ...>(...)" ->
 * "vectorized_elementwise_kernel"); other names unchanged.  Writes at most
 * n bytes (NUL-terminated) to out. */
void tf_chrome_short_name(const char *name, char *out, size_t n);

/* A figure model of this mode read back (rules/remodel.h): in-bar names,
 * tooltips (without args), NCCL kernels' category, times, canvas and
 * description made again.  False when out of memory. */
bool tf_chrome_remodel(struct tf_figure *f);

/* A figure of several traces (run_multi.c): its categories of this mode
 * coloured again as one figure's (the spare colours of unknown categories
 * are chosen over all of them), and the bars drawn in their category's
 * colour with it.  False when out of memory. */
bool tf_chrome_recolor(struct tf_figure *f);

/* The colours by name, in the order classes take them (n into *n). */
const uint32_t *tf_chrome_name_palette(size_t *n);

#endif
