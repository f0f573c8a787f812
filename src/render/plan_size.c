/* plan_size.c - what a figure's height holds at a size, asked before the
 * figure is made (lib/run_multi.c, run_ranks.c: whether to reduce a job's
 * ranks, how many to a row of its overview).  Above the plan: it starts a
 * fit plan (plan.c) and reads its budget; the plan never calls it.
 */
#include "render/plan_int.h"

#include <string.h>

size_t tf_plan_overview_rows(const struct tf_figure *f, const struct tf_size *size)
{
    static const struct tf_size none;
    struct tf_plan p;
    struct fit F;
    memset(&p, 0, sizeof p);
    memset(&F, 0, sizeof F);
    tf_arena_init(&p.arena);
    p.legend.share_key = true; /* the rows are share bars */
    if (!size)
        size = &none;
    F.f = f;
    F.p = &p;
    size_t rows = 1;
    if (tf_plan_fit_start(&F, size)) {
        double top = F.margin + 0.5 * tf_plan_text_h(p.f_lane, false) + F.header_h + F.lab_line / 2;
        double room = tf_plan_budget(&p, size) - top - F.below_h;
        if (room > TF_PLAN_OV_ROW_MIN)
            rows = (size_t)(room / TF_PLAN_OV_ROW_MIN);
    }
    tf_label_levels_fini(&F.lv);
    tf_plan_fini(&p);
    return rows;
}

size_t tf_plan_lanes_max(const struct tf_size *size)
{
    const struct tf_plan_limits *L = &tf_plan_limits;
    double w = size && size->width_pt > 0 ? size->width_pt : TF_PLAN_DEFAULT_W;
    double budget = size && size->height_pt > 0 ? size->height_pt : L->height_per_w * w;
    if (!(size && size->height_pt > 0))
        budget = budget < L->height_min_pt ? L->height_min_pt
                 : budget > L->height_max_pt ? L->height_max_pt
                                             : budget;
    return (size_t)(budget / 2.0) + 1;
}
