/* critpath_marks.h - the critical path drawn (tracefig(1), CRITICAL PATH):
 * what --critical-path adds to a figure once rules/critpath.h found the
 * path.
 *
 *   bars    each event on the path is a bar of its own ("critical": true),
 *           never merged into busy shares, at any nesting depth: the
 *           rules ask tf_cp_set_has while they place a slice
 *           (rules/chrome/rows.c), the plan keeps such bars whole
 *           (render/plan_busy.c);
 *   fading  every other bar is faded as --highlight fades it
 *           (rules/marks.c, tf_marks_apply: a critical bar is kept);
 *   arrows  the path's edges that join two lanes (a launch, a
 *           synchronisation, a dependency across lanes) are thin arrows
 *           (struct tf_arrow, critical true; TikZ style tracefig/critical,
 *           SVG class tf-critical), those between the same two lanes
 *           closer than TF_CP_ARROW_MERGE of the window to the last one
 *           drawn left out;
 *   span    a span above the plot over the path, "critical path 41.2 ms"
 *           (its length in the axis unit).
 */
#ifndef TF_RULES_CRITPATH_MARKS_H
#define TF_RULES_CRITPATH_MARKS_H

#include <stdbool.h>
#include <stdint.h>

#include "base/diag.h"
#include "model/figure.h"
#include "rules/critpath.h"

/* An arrow whose two ends are both within this share of the window of
 * the last arrow drawn between the same two lanes (same direction) is
 * left out: at 3.3 in, about two points. */
#define TF_CP_ARROW_MERGE (1.0 / 80)

/* The events on the path, by start, to ask while slices are placed. */
struct tf_cp_set;

/* From cp after tf_cp_run; NULL when out of memory. */
struct tf_cp_set *tf_cp_set_new(const struct tf_cp *cp);
void tf_cp_set_free(struct tf_cp_set *s);
/* Whether the slice [t0, t1) (ns, trace clock) named `name` is on the
 * path (within HTA's rounding to whole microseconds). */
bool tf_cp_set_has(const struct tf_cp_set *s, int64_t t0, int64_t t1, const char *name);

/* The span and the arrows of f->stats.critical (none: nothing); false
 * (out of memory) in d. */
bool tf_cp_marks(struct tf_figure *f, struct tf_diag *d);

#endif
