/* plan_overview.c - the rows of a job's overview (model/overview.h made
 * them; plan.c calls this step in place of its own for the lanes' height).
 *
 * The rows were made to fit (no fewer than TF_PLAN_OV_ROW_MIN points each,
 * tf_plan_overview_rows): every one is drawn, one nesting row each, as
 * tall as a row's natural height or thinner, so that they fill the room
 * the budget leaves (all of it with --height).  Their labels go left of
 * the plot on every k-th row, k a power of two so that labels keep a
 * line apart, and the rank axis (the header over the rows) says what the
 * rows hold.  A note says when ranks share rows.  It draws nothing.
 */
#include "render/plan_int.h"

#include <stdio.h>
#include <string.h>

void tf_plan_fit_overview(struct fit *F, const struct tf_size *size, double top)
{
    struct tf_plan *p = F->p;
    const struct tf_figure *f = F->f;
    const struct tf_plan_limits *L = &tf_plan_limits;
    size_t n = f->n_lanes;
    double room = tf_plan_budget(p, size) - top - F->below_h;
    if (p->labels != TF_LABELS_NONE && f->overview.axis)
        room -= F->header_h;
    if (p->labels == TF_LABELS_LEFT)
        room -= F->lab_line / 2; /* the first label clears the axis (fit_lanes) */
    double rh0 = L->row_em * p->font;
    double rh = n ? room / (double)n : rh0;
    if (rh > rh0 && !(size->height_pt > 0))
        rh = rh0;
    if (rh < 0.25)
        rh = 0.25; /* a row never vanishes; the caller fitted them */
    p->row_h = rh;
    p->depth = 1;
    p->n_lanes = n;
    p->cut_lanes = p->cut_rows = p->cut_annots = 0;
    F->sparse = true;
    F->every = 1;
    while ((double)F->every * rh < F->lab_line && F->every < n)
        F->every *= 2;
    /* The straggler's row is named, whichever it is. */
    const struct tf_overview *o = &f->overview;
    for (size_t i = 0; o->has_last && i < o->n_ranks; i++)
        if (o->ranks[i].rank == o->last_rank && o->ranks[i].row < n) {
            F->mark1 = o->ranks[i].row + 1;
            break;
        }
}

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


bool tf_plan_overview_note(struct tf_plan *p, const struct tf_figure *f)
{
    const struct tf_overview *o = &f->overview;
    if (o->per_row <= 1)
        return true;
    char note[300];
    snprintf(note, sizeof note,
             "%zu ranks share %zu rows, %zu a row: each row inks its ranks' mean busy share "
             "per class (--ranks draws fewer ranks, --height more rows)",
             o->n_ranks, f->n_lanes, o->per_row);
    return (p->note = tf_arena_strdup(&p->arena, note)) != NULL;
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
