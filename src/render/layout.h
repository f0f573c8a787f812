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
#include "render/scene.h"

/* Fills `out`, which the caller has tf_scene_init()ed and later
 * tf_scene_fini()s.  Returns false only when out of memory. */
bool tf_layout(const struct tf_figure *f, struct tf_scene *out);

#endif
