/* layout_marks.h - the marks' primitives (layout.c calls them): what the
 * plan placed (plan.h, struct tf_plan_mark), drawn in points.  Each mark
 * is one group of classes "mark KIND" (SVG: "tf-mark tf-KIND") whose title gives its
 * measured numbers and the events it names.
 */
#ifndef TF_LAYOUT_MARKS_H
#define TF_LAYOUT_MARKS_H

#include "model/figure.h"
#include "render/plan.h"
#include "render/scene.h"

/* The ink of a mark without a colour of its own, and a region's band's
 * fill and opacity. */
#define TF_MARK_INK 0x222222u
#define TF_MARK_REGION_FILL 0x7F7F7Fu
#define TF_MARK_REGION_OPACITY 0.16

/* Regions (drawn over the bars, translucent), then every other mark. */
void tf_layout_marks(struct tf_scene *s, const struct tf_figure *f, const struct tf_plan *P);

#endif
