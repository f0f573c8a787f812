/* plan_overview.h - the rows of a job's overview in the plan: the step
 * that plan.c's fit policy takes in place of its own for the lanes'
 * height, and the overview's note (plan_overview.c).  Pure functions of
 * the figure model and numbers plan.c hands in: they call nothing of the
 * plan.
 */
#ifndef TF_RENDER_PLAN_OVERVIEW_H
#define TF_RENDER_PLAN_OVERVIEW_H

#include <stdbool.h>
#include <stddef.h>

#include "model/figure.h"

/* What the overview's rows get: their height, a label on every `every`-th
 * row, and the row of the last rank to end (labelled whatever `every`
 * says; 0: none, else its index + 1). */
struct tf_ov_fit {
    double row_h;
    size_t every;
    size_t mark1;
};

/* The rows of f's overview (its lanes) in `room` points: as tall as a
 * row's natural height rh0 or thinner, so that they fill the room (all
 * of it when `fill`, a height asked), never thinner than 0.25 pt (the
 * caller made them to fit); labels of line height lab_line keep apart. */
struct tf_ov_fit tf_plan_ov_fit(const struct tf_figure *f, double room, double rh0,
                                double lab_line, bool fill);

/* The note of an overview whose ranks share rows into out (len bytes);
 * false when they do not (no note). */
bool tf_plan_ov_note(const struct tf_figure *f, char *out, size_t len);

#endif
