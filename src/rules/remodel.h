/* remodel.h - a figure model read back (load/model.h) made whole again by
 * the rules of the mode that drew it: tooltips, in-bar names, label
 * colours, the zigzag, the canvas and the description. */
#ifndef TF_RULES_REMODEL_H
#define TF_RULES_REMODEL_H

#include <stdbool.h>

#include "model/figure.h"

/* False when out of memory. */
bool tf_remodel(struct tf_figure *f);

#endif
