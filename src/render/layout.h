/* layout.h - figure model -> scene (scene.h): where everything goes.
 *
 * tf_layout() is a pure function of the figure model: same model, same
 * scene, byte for byte, on every machine (text is measured with the
 * built-in metrics table of metrics.h, never with a font at run time).
 * Every drawing back-end (SVG, cairo PDF/PNG) draws the scene it returns.
 */
#ifndef TF_LAYOUT_H
#define TF_LAYOUT_H

#include <stdbool.h>

#include "model/figure.h"
#include "render/plan.h"
#include "render/scene.h"

/* Fills `out`, which the caller has tf_scene_init()ed and later
 * tf_scene_fini()s, with what the plan (tf_plan_make of this figure)
 * places.  Returns false only when out of memory. */
bool tf_layout_plan(const struct tf_figure *f, const struct tf_plan *plan, struct tf_scene *out);

/* The plan for `size` (NULL: no size option), then its scene. */
bool tf_layout_sized(const struct tf_figure *f, const struct tf_size *size, struct tf_scene *out);
/* tf_layout_sized at the default size. */
bool tf_layout(const struct tf_figure *f, struct tf_scene *out);

#endif
