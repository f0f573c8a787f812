/* plan_zoom.c - where the zoom panels go (plan.h, tf_plan_zooms).
 *
 * The panels share one row under the main panel's axis, in time order,
 * across the main plot's width (the label column is the main panel's:
 * a zoom's lanes are read against it), a gap between two.  Each is the
 * plan of its figure alone (tf_plan_make) at its plot's width, with the
 * main plan's base font and no labels, so that its bars are those of a
 * figure of that range (--from, --to) at that width, bin for bin; its
 * height is that plan's (the rows a figure of that window alone has at
 * that width, in the budget of that width).  Its points are moved onto
 * the canvas by (dx, dy); what the main plan put under its axis (the
 * legend, a panel below, the annotation) moves down by the row's height.
 * Nothing is drawn here (layout.c, json.c).
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "render/metrics.h"
#include "render/plan.h"

/* The gap between two panels and the connectors' run from the main axis
 * title down to the panels' tops, in ems of the base font; the room left
 * under the row. */
#define ZOOM_GAP_EM 1.2
#define ZOOM_DROP_EM 2.2
#define ZOOM_AFTER_EM 0.4

/* Whether a zoom's lanes are the main figure's, in its order: then it
 * needs no labels of its own. */
static bool lanes_line_up(const struct tf_figure *f, const struct tf_figure *z, size_t n)
{
    if (z->n_lanes != n || f->n_lanes < n)
        return false;
    for (size_t i = 0; i < n; i++) {
        const char *a = f->lanes[i].label, *b = z->lanes[i].label;
        if (!a || !b || strcmp(a, b) != 0)
            return false;
    }
    return true;
}

/* The plan of zoom z at a plot plot_w wide: one try at the plot plus the
 * margins a first plan leaves, and a second at the width that gives
 * plot_w exactly when the first's differs. */
static bool plan_at(const struct tf_figure *z, const struct tf_size *s0, double plot_w,
                    struct tf_plan_zoom *pz)
{
    struct tf_size s = *s0;
    double w = plot_w + 2 * (s.font_pt > 0 ? s.font_pt : 8.0);
    for (int k = 0; k < 4; k++) {
        /* a width the JSON model writes exactly (3 decimals), so that a
         * figure of the range alone can be made at it */
        s.width_pt = round(w * 1000.0) / 1000.0;
        tf_plan_fini(&pz->plan);
        if (!tf_plan_make(z, &s, &pz->plan))
            return false;
        double got = pz->plan.plot.x1 - pz->plan.plot.x0;
        if (fabs(got - plot_w) < 0.01)
            break;
        w = s.width_pt + (plot_w - got);
    }
    pz->size = s;
    return true;
}

static double descent_below(const struct tf_plan *q)
{
    return q->axis_base + tf_text_descent(q->f_axis, q->bold);
}

bool tf_plan_zooms(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p)
{
    size_t n = f->n_zooms;
    if (n == 0 || !(f->x_span > 0))
        return true;
    struct tf_plan_zoom *zs = calloc(n, sizeof *zs);
    if (!zs)
        return false;
    for (size_t i = 0; i < n; i++)
        tf_arena_init(&zs[i].plan.arena);
    /* time order: by start, then end */
    size_t order[TF_ZOOMS_MAX];
    for (size_t i = 0; i < n; i++) {
        size_t k = i;
        while (k > 0 && (f->zooms[order[k - 1]].t0 > f->zooms[i].t0 ||
                         (f->zooms[order[k - 1]].t0 == f->zooms[i].t0 &&
                          f->zooms[order[k - 1]].t1 > f->zooms[i].t1))) {
            order[k] = order[k - 1];
            k--;
        }
        order[k] = i;
    }
    struct tf_size s0;
    memset(&s0, 0, sizeof s0);
    if (size)
        s0 = *size;
    s0.given = true;
    s0.height_pt = 0;
    s0.label_w_pt = 0;
    s0.font_pt = p->font;
    double x0 = p->plot.x0, total = p->plot.x1 - p->plot.x0;
    double gap = n > 1 ? ZOOM_GAP_EM * p->font : 0, pw = 0;
    bool ok = true;
    /* Two rounds at most: the panels' margins widen the gap (two panels'
     * texts keep apart) and the last one's must stay on the canvas. */
    for (int round = 0; round < 3 && ok; round++) {
        pw = (total - gap * (double)(n - 1)) / (double)n;
        for (size_t k = 0; k < n && ok; k++) {
            struct tf_plan_zoom *pz = &zs[k];
            pz->zoom = order[k];
            const struct tf_figure *z = f->zooms[order[k]].fig;
            struct tf_size s = s0;
            s.labels = lanes_line_up(f, z, p->n_lanes) ? TF_LABELS_NONE : TF_LABELS_ABOVE;
            ok = plan_at(z, &s, pw, pz);
        }
        if (!ok)
            break;
        double over = 0, right = 0;
        for (size_t k = 0; k < n; k++) {
            const struct tf_plan *q = &zs[k].plan;
            over = fmax(over, q->W - (q->plot.x1 - q->plot.x0));
            right = q->W - q->plot.x1;
        }
        double spill = x0 + total + right - p->W;
        bool wider = n > 1 && over > gap + 1e-6;
        if (!wider && spill <= 1e-6)
            break;
        if (wider)
            gap = over;
        if (spill > 1e-6)
            total -= spill;
    }
    double main_bottom = descent_below(p);
    double row_top = main_bottom + ZOOM_DROP_EM * p->font, row_h = 0;
    for (size_t k = 0; k < n; k++) {
        struct tf_plan_zoom *pz = &zs[k];
        const struct tf_plan *q = &pz->plan;
        double top = q->plot.y0 - q->marks_h;
        pz->dx = x0 + (double)k * (pw + gap) - q->plot.x0;
        pz->dy = row_top - top;
        pz->box = (struct tf_plan_box){q->plot.x0 + pz->dx, q->plot.y0 + pz->dy,
                                       q->plot.x1 + pz->dx, q->plot.y1 + pz->dy};
        pz->top = row_top;
        pz->bottom = descent_below(q) + pz->dy;
        row_h = fmax(row_h, pz->bottom - row_top);
        const struct tf_zoom *zm = &f->zooms[pz->zoom];
        pz->band_x0 = x0 + zm->t0 / f->x_span * total;
        pz->band_x1 = x0 + zm->t1 / f->x_span * total;
    }
    double dz = (row_top - main_bottom) + row_h + ZOOM_AFTER_EM * p->font;
    if (p->bottom_legend)
        p->legend.y0 += dz;
    if (p->panel && p->panel_below) {
        p->pbox.y0 += dz;
        p->pbox.y1 += dz;
        p->ptick_base += dz;
        p->paxis_base += dz;
    }
    if (p->n_annot)
        p->annot_y += dz;
    p->H += dz;
    p->zooms = zs;
    p->n_zooms = n;
    return true;
}

bool tf_plan_make_zoomed(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p)
{
    if (!tf_plan_make(f, size, p) || !tf_plan_zooms(f, size, p))
        return false;
    /* The height budget holds the zooms' row: the main panel gives way
     * (fewer nesting rows, said in its note), but not below half of its
     * own height; a --height given is the author's. */
    if (!p->n_zooms || !p->fit || !size || size->height_pt > 0)
        return true;
    const struct tf_plan_limits *L = &tf_plan_limits;
    double budget = fmin(fmax(L->height_per_w * p->W, L->height_min_pt), L->height_max_pt);
    if (p->H <= budget + 0.5)
        return true;
    /* the main panel alone, as planned: its height and the lanes it cut */
    struct tf_plan first;
    memset(&first, 0, sizeof first);
    tf_arena_init(&first.arena);
    if (!tf_plan_make(f, size, &first)) {
        tf_plan_fini(&first);
        return false;
    }
    double squeeze = p->H - budget, h0 = first.H;
    size_t cut0 = first.cut_lanes;
    tf_plan_fini(&first);
    /* the lowest main panel (of a few tries) that leaves out no more lanes:
     * rows give way, lanes do not */
    static const double share[] = {1.0, 0.75, 0.5, 0.25};
    for (size_t k = 0; k < sizeof share / sizeof share[0]; k++) {
        struct tf_size s = *size;
        s.height_pt = fmax(h0 - share[k] * squeeze, 0.5 * h0);
        struct tf_plan q;
        memset(&q, 0, sizeof q);
        tf_arena_init(&q.arena);
        if (!tf_plan_make(f, &s, &q) || !tf_plan_zooms(f, &s, &q)) {
            tf_plan_fini(&q);
            return false;
        }
        if (q.cut_lanes <= cut0) {
            tf_plan_fini(p);
            *p = q;
            return true;
        }
        tf_plan_fini(&q);
    }
    return true;
}
