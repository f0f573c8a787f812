/* layout_counters.h - the counter lanes' primitives (layout.c calls
 * them): each counter lane the plan draws, its step line and area in
 * stretches (a stop breaks it), and its scale's labels at the band's
 * right end, in one group "counter" titled with its label and range.
 */
#ifndef TF_LAYOUT_COUNTERS_H
#define TF_LAYOUT_COUNTERS_H

#include "model/figure.h"
#include "render/plan.h"
#include "render/scene.h"

void tf_layout_counters(struct tf_scene *s, const struct tf_figure *f, const struct tf_plan *P);

#endif
