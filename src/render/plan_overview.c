/* plan_overview.c - the rows of a job's overview (model/overview.h made
 * them; plan.c takes this step in place of its own for the lanes'
 * height); see plan_overview.h.
 *
 * The rows were made to fit (no fewer than TF_PLAN_OV_ROW_MIN points each,
 * tf_plan_overview_rows): every one is drawn, one nesting row each, as
 * tall as a row's natural height or thinner, so that they fill the room
 * the budget leaves (all of it with --height).  Their labels go left of
 * the plot on every k-th row, k a power of two so that labels keep a
 * line apart, and the rank axis (the header over the rows) says what the
 * rows hold.  A note says when ranks share rows.  It draws nothing, and
 * calls nothing of the plan: plan.c hands it the room and the sizes.
 */
#include "render/plan_overview.h"

#include <stdio.h>

struct tf_ov_fit tf_plan_ov_fit(const struct tf_figure *f, double room, double rh0,
                                double lab_line, bool fill)
{
    struct tf_ov_fit r = {0, 1, 0};
    size_t n = f->n_lanes;
    double rh = n ? room / (double)n : rh0;
    if (rh > rh0 && !fill)
        rh = rh0;
    if (rh < 0.25)
        rh = 0.25; /* a row never vanishes; the caller fitted them */
    r.row_h = rh;
    while ((double)r.every * rh < lab_line && r.every < n)
        r.every *= 2;
    /* The straggler's row is named, whichever it is. */
    const struct tf_overview *o = &f->overview;
    for (size_t i = 0; o->has_last && i < o->n_ranks; i++)
        if (o->ranks[i].rank == o->last_rank && o->ranks[i].row < n) {
            r.mark1 = o->ranks[i].row + 1;
            break;
        }
    return r;
}

bool tf_plan_ov_note(const struct tf_figure *f, char *out, size_t len)
{
    const struct tf_overview *o = &f->overview;
    if (o->per_row <= 1)
        return false;
    snprintf(out, len,
             "%zu ranks share %zu rows, %zu a row: each row inks its ranks' mean busy share "
             "per class (--ranks draws fewer ranks, --height more rows)",
             o->n_ranks, f->n_lanes, o->per_row);
    return true;
}
