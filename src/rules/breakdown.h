/* breakdown.h - the GPU runtime breakdown panel of the pipelined mode. */
#ifndef TF_BREAKDOWN_H
#define TF_BREAKDOWN_H

#include <stdbool.h>

#include "model/figure.h"
#include "model/trace.h"

/* Fills f->panel from a candidate_breakdown_v1 file and sets
 * f->has_panel; leaves it false when the panel is hidden (total <= 0).
 * False when out of memory. */
bool tf_breakdown_panel(const struct tf_breakdown_in *bd, double min_runtime_pct,
                        struct tf_figure *f);

#endif
