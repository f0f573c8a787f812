/* plan_ticks.c - the tick rules the plan and the TikZ writer share: the
 * candidate sets of ticks, and which tick labels are drawn (plan.h). */
#include "render/plan.h"

#include <string.h>

#include "base/ticks.h"
#include "render/style.h"

/* Tick labels left to right; a label that would touch the previous one is
 * not drawn (the reference's MaxNLocator never makes one, but a hostile
 * window might). */
bool tf_plan_tick_clear(double x, double w, double margin, double W, double *end, double *cx)
{
    double lo = margin + w / 2, hi = W - margin - w / 2;
    *cx = lo > hi ? W / 2 : (x < lo ? lo : x > hi ? hi : x);
    if (*cx - w / 2 < *end + tf_style.tick_gap_boxes * tf_style.text_gap_pt)
        return false;
    *end = *cx + w / 2;
    return true;
}

/* The candidate tick sets, in the order the plan tries them (plan.h). */
size_t tf_plan_tick_sets(const struct tf_figure *f, double (*sets)[TF_TICKS_MAX], size_t *ns,
                         size_t *last, bool *mode)
{
    const struct tf_style *S = &tf_style;
    size_t n_sets = 0;
    *last = 0;
    *mode = f->axis.n_ticks >= S->tick_min_n && f->axis.n_ticks <= TF_TICKS_MAX;
    if (*mode) {
        memcpy(sets[0], f->axis.ticks, f->axis.n_ticks * sizeof(double));
        ns[n_sets++] = f->axis.n_ticks;
    }
    double span = f->x_span > 0 ? f->x_span : 1.0;
    for (int nb = S->tick_bins_max; nb >= 1 && n_sets < TF_PLAN_TICK_SETS; nb--) {
        size_t n = tf_nice_ticks(0.0, span, nb, sets[n_sets], TF_TICKS_MAX);
        if (n == 0 || (n < S->tick_min_n && nb > 1))
            continue;
        size_t same = n_sets;
        for (size_t k = 0; k < n_sets && same == n_sets; k++)
            if (ns[k] == n && memcmp(sets[k], sets[n_sets], n * sizeof(double)) == 0)
                same = k;
        if (same == n_sets)
            ns[n_sets++] = n;
        if (nb == 1)
            *last = same;
    }
    return n_sets;
}
