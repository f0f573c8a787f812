/* plan.c - the layout policy; see plan.h.
 *
 * IMPLEMENTATION NOTES
 *
 * The reference policy reproduces, number for number, the layout the seed
 * modes always had (and the reference script draws): the mode's canvas,
 * grown when lanes would be thinner than MIN_LANE_PT; lanes sharing the
 * plot in proportion to their rows; the bottom legend row legend_y x the
 * plot height; the side panel right of the timeline at 1.75 : 1.05.
 *
 * The fit policy, for a canvas W wide:
 *   1. Text sizes from the base font F (--font-size, else W / 28 within
 *      6 .. 8 pt): lane labels F, ticks and legend 0.875 F, the axis title
 *      F, in-bar names 0.8 F; none below 5 pt.
 *   2. Lane labels (tf_plan_label_levels): the full label; the short one
 *      under a header per process; the short one elided in the middle to
 *      28, 20 and 14 characters, keeping the end that tells it from its
 *      neighbours.  Left of the plot at the first level whose widest label
 *      fits a quarter of the width (--label-width), and never a level
 *      shorter than tf_plan_limits.elide_min_chars; otherwise (and always
 *      below tf_plan_limits.above_below_pt) above their lanes, inside the
 *      plot, which then spans the whole width.
 *   3. Height: the budget is --height, else 1.25 W within 160 .. 400 pt.
 *      Rows have their natural height (row_em x F) when it fits; past the
 *      budget they get thinner down to row_min_em x F, then the nesting
 *      depth drawn is reduced (a GPU stream's annotations give way before
 *      its work: plan_rows.c), then lanes are left out from the bottom,
 *      with a note naming --lanes and --max-lanes; the legend leaves out
 *      a category left without a bar.  With --height the rows fill it.
 *   4. Ticks: the mode's when their labels fit, else the most of the
 *      MaxNLocator sets with 7 .. 2 bins whose labels do not touch.
 *   5. Under the axis title: the legend, right under it, in as many rows
 *      as it needs within the width (an entry wider than the figure is
 *      elided); the side panel goes under the timeline when it would take
 *      more than panel_share of the width beside it; the annotation wraps.
 * Every text is measured as it will be drawn: cleaned (tf_xml_clean),
 * with the built-in metrics of its weight.
 */
#include "render/plan.h"
#include "render/plan_int.h"
#include "render/plan_overview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "render/metrics.h"
#include "render/style.h"
#include "base/ticks.h"

const struct tf_plan_limits tf_plan_limits = {
    .label_share = 0.25,
    .above_below_pt = 150.0,
    .elide_min_chars = 14,
    .panel_share = 0.40,
    .height_max_pt = 400.0,
    .height_per_w = 1.25,
    .height_min_pt = 160.0,
    .row_min_em = 0.375,
    .row_em = 1.1,
    .font_min_pt = 5.0,
    .font_max_pt = 8.0,
    .font_per_w = 28.0,
};

/* --- the reference's constants (layout.c draws with the same) ---------------- */
#define R_TICK_PT 11.44
#define R_LABEL_PT 12.48
#define R_LEGEND_PT 9.0
#define R_INBAR_PT 8.5
#define R_DEFAULT_W 720.0
#define R_DEFAULT_H 216.0
#define R_MIN_LANE_PT 14.0
#define R_MARGIN 6.0
#define R_TOP 14.0
#define R_BOTTOM 8.0
#define R_LANE_LABEL_PAD 6.0
#define R_TICK_LABEL_PAD 4.0
#define R_AXIS_LABEL_PAD 6.0
#define R_RIGHT_MIN 14.4
#define R_PANEL_GAP_FRAC 0.06
#define R_LEGEND_ROW_DEFAULT 0.16
#define R_LEGEND_ROW_MIN 0.10
#define R_LEGEND_ROW_MAX 2.0
#define R_ANNOT_GAP 4.0
static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

static double text_h(double size, bool bold)
{
    return tf_text_ascent(size, bold) + tf_text_descent(size, bold);
}

double tf_plan_default_font(double width_pt)
{
    const struct tf_plan_limits *L = &tf_plan_limits;
    return clampd(width_pt / L->font_per_w, 6.0, L->font_max_pt);
}

bool tf_plan_fits(const struct tf_figure *f, const struct tf_size *size)
{
    if (f->n_marks)
        return true; /* marks are placed by the fit policy */
    return !f->reference_layout || (size && size->given);
}

/* --- shared pieces -------------------------------------------------------------------- */

void tf_plan_fini(struct tf_plan *p)
{
    free(p->lanes);
    free(p->headers);
    free(p->ticks);
    free(p->legend.col_w);
    free(p->legend.text);
    free(p->legend.order);
    free(p->annot);
    tf_plan_bins_free(p->bins);
    for (size_t i = 0; i < p->n_zooms; i++)
        tf_plan_fini(&p->zooms[i].plan);
    free(p->zooms);
    tf_arena_fini(&p->arena);
    memset(p, 0, sizeof *p);
}



static bool alloc_lanes(const struct tf_figure *f, struct tf_plan *p)
{
    p->lanes = calloc(f->n_lanes ? f->n_lanes : 1, sizeof *p->lanes);
    p->headers = calloc(f->n_lanes ? f->n_lanes : 1, sizeof *p->headers);
    p->ticks = calloc(f->axis.n_ticks + TF_TICKS_MAX + 1, sizeof *p->ticks);
    return p->lanes && p->headers && p->ticks;
}

/* A counter lane's scale labels, for its band of height h. */
static bool counter_labels(const struct tf_figure *f, struct tf_plan *p, size_t i, double h)
{
    const struct tf_counter *k = &f->lanes[i].counter;
    struct tf_plan_lane *pl = &p->lanes[i];
    if (!k->has_range)
        return true;
    char v[TF_PLAN_VALUE_MAX];
    if (!(pl->hi_text = tf_arena_strdup(&p->arena, tf_plan_counter_value(v, k->hi, k->unit))))
        return false;
    if (k->hi > k->lo && h >= 2 * text_h(p->f_counter, false) &&
        !(pl->lo_text = tf_arena_strdup(&p->arena, tf_plan_counter_value(v, k->lo, k->unit))))
        return false;
    return true;
}

/* --- the reference policy ------------------------------------------------------------- */

static double r_widest_tick(const struct tf_figure *f)
{
    double w = 0;
    for (size_t i = 0; i < f->axis.n_ticks; i++)
        w = fmax(w, tf_text_width(f->axis.labels[i], R_TICK_PT, true));
    return w;
}

static void thin_ticks(struct tf_plan *p, double size)
{
    double end = -1e300, cx;
    for (size_t i = 0; i < p->n_ticks; i++) {
        struct tf_plan_tick *t = &p->ticks[i];
        double w = tf_plan_text_width(t->label, size, p->bold);
        t->drawn = tf_plan_tick_clear(t->x, w, R_MARGIN, p->W, &end, &cx);
    }
}

/* The reference's fonts and sizes: matplotlib's, in bold. */
static void ref_fonts(const struct tf_figure *f, struct tf_plan *p)
{
    p->fit = false;
    p->bold = true;
    p->margin = R_MARGIN;
    p->font = R_TICK_PT;
    p->f_lane = p->f_tick = R_TICK_PT;
    p->f_header = R_TICK_PT;
    p->f_axis = R_LABEL_PT;
    p->f_legend = p->f_note = R_LEGEND_PT;
    p->f_inbar = R_INBAR_PT;
    p->labels = TF_LABELS_LEFT;
    p->n_lanes = f->n_lanes;
    p->panel = f->has_panel;
    p->depth = 0;
    for (size_t i = 0; i < f->n_lanes; i++)
        if (tf_plan_lane_rows(&f->lanes[i]) > p->depth)
            p->depth = tf_plan_lane_rows(&f->lanes[i]);
    p->W = f->width_pt > 0 ? f->width_pt : R_DEFAULT_W;
    p->H = f->height_pt > 0 ? f->height_pt : R_DEFAULT_H;
}

/* Top to bottom: the plot, the axis, the legend row (legend_y x the
 * plot's height), the annotation; the figure grows when the rows need it. */
static bool ref_height(const struct tf_figure *f, struct tf_plan *p)
{
    unsigned n_rows = tf_figure_rows(f);
    double axis_h = R_TICK_LABEL_PAD + text_h(R_TICK_PT, true) + R_AXIS_LABEL_PAD +
                    text_h(R_LABEL_PT, true);
    p->bottom_legend = !p->panel && f->n_legend > 0;
    const struct tf_style *S = &tf_style;
    if (!tf_plan_legend_init(f, p, R_LEGEND_PT, S->leg_bottom_handle, S->leg_textpad,
                     S->leg_bottom_colspace, S->leg_pad))
        return false;
    double r = 0, need = 0;
    if (p->bottom_legend) {
        if (!tf_plan_legend_grid(f, p, p->W - 2 * R_MARGIN))
            return false;
        r = f->has_legend_y ? clampd(f->legend_y, R_LEGEND_ROW_MIN, R_LEGEND_ROW_MAX)
                            : R_LEGEND_ROW_DEFAULT;
        need = p->legend.h + 4.0;
    }
    double avail = p->H - R_TOP - axis_h - R_BOTTOM;
    double plot_h = avail / (1 + r);
    double leg_h = r * plot_h;
    if (p->bottom_legend && leg_h < need) {
        leg_h = need;
        plot_h = avail - leg_h;
    }
    double min_plot = R_MIN_LANE_PT * (double)n_rows;
    if (plot_h < min_plot) {
        plot_h = min_plot;
        leg_h = p->bottom_legend ? fmax(need, r * plot_h) : 0;
        p->H = R_TOP + plot_h + axis_h + leg_h + R_BOTTOM;
    }
    p->plot.y0 = R_TOP;
    p->plot.y1 = R_TOP + plot_h;
    p->row_h = plot_h / (double)n_rows;
    double legend_row_y = p->plot.y1 + axis_h;
    p->legend.y0 = legend_row_y + (leg_h - p->legend.h) / 2;
    p->annot_y = legend_row_y + leg_h + R_ANNOT_GAP;
    if (f->annotate && f->stats.summary && f->stats.summary[0])
        p->H += R_ANNOT_GAP + text_h(R_LEGEND_PT, true);
    return true;
}

/* Left to right: the lane labels, the plot, the side panel (1.75 : 1.05
 * with a gap); the legend centred under the plot; the axes' baselines. */
static void ref_across(const struct tf_figure *f, struct tf_plan *p)
{
    double label_w = 0;
    for (size_t i = 0; i < f->n_lanes; i++)
        label_w = fmax(label_w, tf_plan_text_width(f->lanes[i].label, R_TICK_PT, true));
    double tick_w = r_widest_tick(f);
    p->label_w = label_w;
    p->plot.x0 = fmax(R_MARGIN + label_w + R_LANE_LABEL_PAD, R_MARGIN + tick_w / 2);
    if (p->panel) {
        double hundred = tf_text_width("100", R_TICK_PT, true);
        p->pbox.x1 = p->W - fmax(R_RIGHT_MIN, R_MARGIN + hundred / 2);
        double sum = (p->pbox.x1 - p->plot.x0) / (1 + R_PANEL_GAP_FRAC);
        double gap = R_PANEL_GAP_FRAC * sum;
        double need_gap = tick_w / 2 + tf_text_width("0", R_TICK_PT, true) / 2 + 3 * tf_style.text_gap_pt;
        if (gap < need_gap) {
            gap = need_gap;
            sum = p->pbox.x1 - p->plot.x0 - gap;
        }
        p->plot.x1 = p->plot.x0 + sum * 1.75 / 2.8;
        p->pbox.x0 = p->plot.x1 + gap;
        p->pbox.y0 = p->plot.y0;
        p->pbox.y1 = p->plot.y1;
    } else {
        p->plot.x1 = p->W - fmax(R_RIGHT_MIN, R_MARGIN + tick_w / 2);
    }
    if (p->bottom_legend) {
        double cx = (p->plot.x0 + p->plot.x1) / 2;
        p->legend.x0 = clampd(cx - p->legend.w / 2, R_MARGIN,
                              fmax(R_MARGIN, p->W - R_MARGIN - p->legend.w));
    }
    p->tick_base = p->plot.y1 + R_TICK_LABEL_PAD + tf_text_ascent(R_TICK_PT, true);
    p->axis_base = p->plot.y1 + R_TICK_LABEL_PAD + text_h(R_TICK_PT, true) + R_AXIS_LABEL_PAD +
                   tf_text_ascent(R_LABEL_PT, true);
    p->ptick_base = p->tick_base;
    p->paxis_base = p->axis_base;
}

/* The lanes (sharing the plot by their rows, labels centred on them), the
 * mode's ticks, and the annotation scaled down to the width. */
static bool ref_lanes(const struct tf_figure *f, struct tf_plan *p)
{
    double above = 0;
    for (size_t i = 0; i < f->n_lanes; i++) {
        struct tf_plan_lane *pl = &p->lanes[i];
        pl->text = pl->tip = f->lanes[i].label;
        pl->rows = tf_plan_lane_rows(&f->lanes[i]);
        pl->top = p->plot.y0 + above * p->row_h;
        double mid = pl->top + (double)pl->rows / 2 * p->row_h;
        pl->label_y = tf_text_center_baseline(mid, R_TICK_PT, true);
        pl->label_x = p->plot.x0 - R_LANE_LABEL_PAD;
        pl->band = pl->top;
        pl->bottom = pl->top + (double)pl->rows * p->row_h;
        above += pl->rows;
    }
    double span = f->x_span > 0 ? f->x_span : 1.0;
    p->n_ticks = f->axis.n_ticks;
    for (size_t i = 0; i < f->axis.n_ticks; i++)
        p->ticks[i] = (struct tf_plan_tick){
            f->axis.ticks[i], p->plot.x0 + f->axis.ticks[i] / span * (p->plot.x1 - p->plot.x0),
            f->axis.labels[i], true};
    thin_ticks(p, R_TICK_PT);
    if (f->annotate && f->stats.summary && f->stats.summary[0]) {
        p->annot = calloc(1, sizeof *p->annot);
        if (!p->annot)
            return false;
        p->annot[0] = f->stats.summary;
        p->n_annot = 1;
        double w = tf_text_width(f->stats.summary, R_LEGEND_PT, true), av = p->W - 2 * R_MARGIN;
        p->annot_size = w > av && w > 0 ? R_LEGEND_PT * av / w : R_LEGEND_PT;
    }
    return true;
}

/* The reference script's layout, number for number. */
static bool plan_reference(const struct tf_figure *f, struct tf_plan *p)
{
    ref_fonts(f, p);
    if (!ref_height(f, p))
        return false;
    ref_across(f, p);
    return ref_lanes(f, p);
}

/* --- the fit policy ---------------------------------------------------------------------- */


/* Whether lane i's label is drawn. */
static bool labeled(const struct fit *F, size_t i)
{
    if (F->mark1 && F->every > 1) {
        size_t m = F->mark1 - 1, d = i > m ? i - m : m - i;
        if (i == m)
            return true;
        if (d < F->every)
            return false;
    }
    return F->every <= 1 || i % F->every == 0;
}

/* Whether lane i must be as tall as its label. */
static bool label_tall(const struct fit *F, size_t i)
{
    return !F->sparse && labeled(F, i);
}

/* The widest label at a level. */
static double widest_at(const struct fit *F, int level, size_t n, double size)
{
    double w = 0;
    for (size_t i = 0; i < n; i++)
        w = fmax(w, tf_plan_text_width(F->lv.text[(size_t)level * F->lv.n + i], size, false));
    return w;
}

/* Labels: where and at which level (plan.h's rules). */
static void choose_labels(struct fit *F, const struct tf_size *size)
{
    struct tf_plan *p = F->p;
    const struct tf_plan_limits *L = &tf_plan_limits;
    size_t n = F->f->n_lanes;
    double cap = size->label_w_pt > 0 ? size->label_w_pt : L->label_share * p->W;
    enum tf_label_place want = size->labels;
    if (n == 0)
        want = TF_LABELS_NONE;
    F->level = -1;
    if (want == TF_LABELS_NONE) {
        p->labels = TF_LABELS_NONE;
        return;
    }
    /* An HPC job's ranks keep their short labels at the left however
     * narrow the figure: above each of 32 thin lanes they would double its
     * height. */
    if (want == TF_LABELS_LEFT ||
        (want == TF_LABELS_AUTO &&
         (p->W >= L->above_below_pt || F->f->rank_lanes || F->f->overview.on))) {
        for (int lv = 0; lv < TF_PLAN_LEVELS; lv++) {
            if (lv >= 2 && TF_PLAN_ELIDE[lv - 2] < L->elide_min_chars && want == TF_LABELS_AUTO)
                break;
            double w = widest_at(F, lv, n, p->f_lane);
            if (w <= cap) {
                F->level = lv;
                p->labels = TF_LABELS_LEFT;
                p->label_w = w;
                return;
            }
        }
        if (want == TF_LABELS_LEFT || F->f->overview.on || F->f->rank_lanes) {
            F->level = TF_PLAN_LEVELS - 1;
            p->labels = TF_LABELS_LEFT;
            p->label_w = fmin(cap, widest_at(F, F->level, n, p->f_lane));
            return;
        }
    }
    p->labels = TF_LABELS_ABOVE;
    F->level = 1;
}

size_t tf_plan_lane_header(const struct fit *F, size_t i)
{
    return F->level >= 1 || F->f->overview.on ? F->lv.header_of[i] : (size_t)-1;
}

double tf_plan_budget(const struct tf_plan *p, const struct tf_size *size)
{
    const struct tf_plan_limits *L = &tf_plan_limits;
    return size->height_pt > 0 ? size->height_pt
                               : clampd(L->height_per_w * p->W, L->height_min_pt, L->height_max_pt);
}

/* The height of the timeline block (plot and its headers) at row height rh,
 * depth d, with the first n lanes. */
static double block_h(const struct fit *F, double rh, unsigned d, size_t n)
{
    const struct tf_plan *p = F->p;
    double h = 0;
    size_t last_header = (size_t)-1;
    for (size_t i = 0; i < n; i++) {
        double lane = (double)tf_plan_rows_at(&F->f->lanes[i], d) * rh;
        if (p->labels == TF_LABELS_LEFT && lane < F->lab_line && label_tall(F, i))
            lane = F->lab_line;
        if (p->labels == TF_LABELS_ABOVE)
            lane += p->label_h;
        size_t hd = tf_plan_lane_header(F, i);
        if (hd != (size_t)-1 && hd != last_header)
            lane += F->header_h;
        last_header = hd;
        h += lane;
    }
    return h;
}

/* The rows of an overview (the figure's lanes are its rows) in `room`:
 * plan_overview.c says how tall, and which are labelled; every one is
 * drawn, one nesting row each. */
static void fit_overview(struct fit *F, double room, double rh0, bool fill)
{
    struct tf_plan *p = F->p;
    if (p->labels != TF_LABELS_NONE && F->f->overview.axis)
        room -= F->header_h;
    if (p->labels == TF_LABELS_LEFT)
        room -= F->lab_line / 2; /* the first label clears the axis (fit_lanes) */
    struct tf_ov_fit o = tf_plan_ov_fit(F->f, room, rh0, F->lab_line, fill);
    p->row_h = o.row_h;
    p->depth = 1;
    p->n_lanes = F->f->n_lanes;
    p->cut_lanes = p->cut_rows = p->cut_annots = 0;
    F->sparse = true;
    F->every = o.every;
    F->mark1 = o.mark1;
}

/* Rows, depth and lanes within the budget (plan.h, rule 3). */
static void fit_height(struct fit *F, const struct tf_size *size, double top)
{
    struct tf_plan *p = F->p;
    const struct tf_plan_limits *L = &tf_plan_limits;
    const struct tf_figure *f = F->f;
    double room = tf_plan_budget(p, size) - top - F->below_h;
    double rh0 = L->row_em * p->font, rmin = fmax(2.0, L->row_min_em * p->font);
    /* The chosen lanes of a job's ranks (lib/run_lanes.c) as thin as the
     * overview's rows. */
    if (f->rank_lanes && f->n_traces > 1)
        rmin = TF_PLAN_OV_ROW_MIN;
    if (f->overview.on) {
        fit_overview(F, room, rh0, size->height_pt > 0);
        return;
    }
    unsigned depth = 1;
    for (size_t i = 0; i < f->n_lanes; i++)
        if (f->lanes[i].kind != TF_LANE_COUNTER && tf_plan_lane_rows(&f->lanes[i]) > depth)
            depth = tf_plan_lane_rows(&f->lanes[i]);
    size_t n = f->n_lanes;
    /* Many traces of one lane each (ranks): lanes may be thinner than a
     * label, which then goes on every k-th lane (below). */
    F->sparse = ((f->n_traces > 1 && f->n_lanes == f->n_traces) || f->rank_lanes) &&
                p->labels == TF_LABELS_LEFT &&
                block_h(F, rh0, depth, n) > room;
    while (depth > 1 && block_h(F, rmin, depth, n) > room)
        depth--;
    while (n > 1 && block_h(F, rmin, depth, n) > room)
        n--;
    double rh = rh0;
    if (block_h(F, rh0, depth, n) > room || size->height_pt > 0) {
        /* The row height that fills the room: block_h grows with rh. */
        double lo = rmin, hi = size->height_pt > 0 ? fmax(rh0, room) : rh0;
        if (block_h(F, lo, depth, n) >= room) {
            hi = lo;
        } else {
            for (int it = 0; it < 50; it++) {
                double mid = (lo + hi) / 2;
                if (block_h(F, mid, depth, n) > room)
                    hi = mid;
                else
                    lo = mid;
            }
        }
        rh = lo;
    }
    p->row_h = rh;
    p->depth = depth;
    p->n_lanes = n;
    if (F->sparse) {
        /* Labels k lanes apart, k a power of two, so that they keep apart. */
        double thin = 0;
        for (size_t i = 0; i < n; i++) {
            double h = (double)tf_plan_rows_at(&f->lanes[i], depth) * rh;
            if (i == 0 || h < thin)
                thin = h;
        }
        F->every = 1;
        while ((double)F->every * thin < F->lab_line && F->every < n)
            F->every *= 2;
    }
    p->cut_lanes = f->n_lanes - n;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane >= n)
            continue;
        const struct tf_lane *ln = &f->lanes[b->lane];
        /* a bar of the critical path is drawn in the last row (tf_plan_bar_row) */
        if (tf_plan_row_drawn(ln, tf_plan_rows_at(ln, depth), b->row) == TF_PLAN_NO_ROW &&
            !b->critical) {
            p->cut_rows++;
            p->cut_annots += b->row < ln->annot_rows;
        }
    }
}

/* The legend without the entries whose every bar the height budget left
 * out (their lanes or rows), and its grid again (it can only get
 * smaller). */
static bool drop_cut_entries(const struct tf_figure *f, struct tf_plan *p)
{
    bool *drawn = calloc(f->n_cats ? f->n_cats : 1, sizeof *drawn);
    if (!drawn)
        return false;
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane < p->n_lanes && b->cat < f->n_cats) {
            const struct tf_lane *ln = &f->lanes[b->lane];
            bool in = tf_plan_row_drawn(ln, tf_plan_rows_at(ln, p->depth), b->row) != TF_PLAN_NO_ROW;
            drawn[b->cat] = drawn[b->cat] || in;
            for (size_t k = 0; in && k < b->n_shares; k++) /* every class with ink */
                if (b->shares[k].cat < f->n_cats)
                    drawn[b->shares[k].cat] = true;
        }
    }
    struct tf_plan_legend *d = &p->legend;
    size_t k = 0;
    for (size_t j = 0; j < d->n; j++)
        if (d->order[j] == f->n_legend || f->legend[d->order[j]].cat >= f->n_cats ||
            drawn[f->legend[d->order[j]].cat])
            d->order[k++] = d->order[j];
    free(drawn);
    if (k == d->n || k == 0)
        return true;
    d->n = k;
    return tf_plan_legend_grid(f, p, p->W - 2 * p->margin);
}

static bool fit_ticks(struct fit *F)
{
    struct tf_plan *p = F->p;
    const struct tf_figure *f = F->f;
    double span = f->x_span > 0 ? f->x_span : 1.0;
    double gap = 0.6 * p->f_tick;
    double sets[TF_PLAN_TICK_SETS][TF_TICKS_MAX];
    size_t ns[TF_PLAN_TICK_SETS], last;
    bool mode;
    size_t n_sets = tf_plan_tick_sets(f, sets, ns, &last, &mode);
    size_t pick = last;
    for (size_t k = 0; k < n_sets; k++) {
        const double *v = sets[k];
        size_t n = ns[k];
        int dec = tf_num_decimals(v, n);
        double end = -1e300;
        bool fits = true;
        for (size_t i = 0; i < n && fits; i++) {
            char buf[TF_NUM_MAX];
            tf_fmt_num(buf, v[i], dec);
            double w = tf_text_width(buf, p->f_tick, false);
            double x = p->plot.x0 + v[i] / span * (p->plot.x1 - p->plot.x0);
            double lo = F->margin + w / 2, hi = p->W - F->margin - w / 2;
            double cx = lo > hi ? p->W / 2 : clampd(x, lo, hi);
            fits = cx - w / 2 >= end + gap;
            end = cx + w / 2;
        }
        if (fits) {
            pick = k;
            break;
        }
    }
    size_t best_n = n_sets ? ns[pick] : 0;
    const double *best_v = sets[pick];
    bool from_mode = n_sets && mode && pick == 0;
    int dec = tf_num_decimals(best_v, best_n);
    p->n_ticks = best_n;
    for (size_t i = 0; i < best_n; i++) {
        char buf[TF_NUM_MAX];
        const char *l = from_mode ? f->axis.labels[i]
                                  : tf_arena_strdup(&p->arena, tf_fmt_num(buf, best_v[i], dec));
        if (!l)
            return false;
        p->ticks[i] = (struct tf_plan_tick){
            best_v[i], p->plot.x0 + best_v[i] / span * (p->plot.x1 - p->plot.x0), l, true};
    }
    return true;
}

/* The side panel's width beside the plot: its legend, its title, its
 * ticks. */
static double panel_need(const struct tf_figure *f, const struct tf_plan *p)
{
    const struct tf_panel *bd = &f->panel;
    double fs = p->f_legend, w = tf_plan_text_width(bd->title, fs, true);
    for (size_t i = 0; i < bd->n_slices; i++)
        w = fmax(w, 1.2 * fs + 0.4 * fs + tf_plan_text_width(bd->slices[i].label, fs, false));
    w += 2 * 0.4 * fs + 2;
    return fmax(w, tf_plan_text_width(bd->axis_title, p->f_axis, false));
}

/* The panel's legend box height. */
static double panel_legend_h(const struct tf_figure *f, const struct tf_plan *p)
{
    double fs = p->f_legend, row = text_h(fs, false), sp = tf_style.leg_labelspace * fs;
    return 2 * 0.4 * fs + row + (double)f->panel.n_slices * (row + sp);
}

/* 1. Text sizes from the base font, and the label level. */
static bool fit_fonts(struct fit *F, const struct tf_size *size)
{
    const struct tf_plan_limits *L = &tf_plan_limits;
    const struct tf_figure *f = F->f;
    struct tf_plan *p = F->p;
    p->fit = true;
    p->bold = false;
    p->W = size->width_pt > 0 ? size->width_pt
           : f->reference_layout ? (f->width_pt > 0 ? f->width_pt : R_DEFAULT_W)
                                 : TF_PLAN_DEFAULT_W;
    double fb = size->font_pt > 0 ? size->font_pt : tf_plan_default_font(p->W);
    double font_min = L->font_min_pt;
    F->fb = fb;
    p->font = fb;
    p->f_lane = fb;
    p->f_header = fb;
    p->f_tick = fmax(font_min, tf_style.font_tick * fb);
    p->f_axis = fmax(p->f_tick, fb);
    p->f_legend = p->f_tick;
    p->f_inbar = fmax(font_min, tf_style.font_inbar * fb);
    p->f_note = p->f_tick;
    p->f_counter = fmax(font_min, tf_style.font_counter * fb);
    F->margin = p->margin = fmax(1.5, 0.25 * fb);
    F->gap = 0.5 * fb;
    if (!tf_plan_label_levels(f, f->n_lanes, &p->arena, &F->lv))
        return false;
    choose_labels(F, size);
    if (p->labels == TF_LABELS_ABOVE)
        p->f_lane = p->f_tick;
    F->lab_line = text_h(p->f_lane, false) + 1.0;
    F->header_h = text_h(p->f_header, true) + 1.0;
    p->label_h = p->labels == TF_LABELS_ABOVE ? text_h(p->f_lane, false) + 0.5 : 0;
    return true;
}

/* What goes under the plot (ticks, axis title, then the legend or the
 * panel, then the annotation): its height, F->below_h. */
static bool fit_below(struct fit *F)
{
    const struct tf_plan_limits *L = &tf_plan_limits;
    const struct tf_figure *f = F->f;
    struct tf_plan *p = F->p;
    double fb = F->fb, m = F->margin;
    F->tick_pad = 0.3 * fb;
    F->title_pad = 0.35 * fb;
    F->axis_h = F->tick_pad + text_h(p->f_tick, false) + F->title_pad + text_h(p->f_axis, false);
    p->panel = f->has_panel;
    p->bottom_legend = !p->panel && f->n_legend > 0;
    if (!tf_plan_legend_init(f, p, p->f_legend, 1.2, 0.4, 1.0, 0.3))
        return false;
    double avail_w = p->W - 2 * m;
    double text_room = avail_w - 2 * p->legend.pad - p->legend.handle_w - p->legend.textpad;
    /* A system trace's CPU legend (its processes, at least 6) in two
     * columns at least: its long texts elided to half the width. */
    bool procs = false;
    for (size_t i = 0; i < f->n_legend; i++)
        procs |= f->legend[i].has_cpu;
    if (procs && f->n_legend > 4)
        text_room = fmin(text_room, (avail_w - 2 * p->legend.pad - p->legend.colspace) / 2 -
                                        p->legend.handle_w - p->legend.textpad);
    for (size_t i = 0; i < f->n_legend; i++)
        if (!(p->legend.text[i] = tf_plan_elide(&p->arena, p->legend.text[i], text_room,
                                                p->f_legend, false, tf_plan_legend_tail(f, i))))
            return false;
    double below = F->axis_h;
    if (p->bottom_legend) {
        if (!tf_plan_legend_grid(f, p, avail_w))
            return false;
        below += 0.5 * fb + p->legend.h;
    }
    /* The panel: beside the plot while it takes at most panel_share. */
    double x0 = p->labels == TF_LABELS_LEFT ? m + p->label_w + F->gap : m;
    F->x0 = fmax(x0, m + tf_text_width("0", p->f_tick, false) / 2);
    F->pneed = 0;
    F->plh = 0;
    if (p->panel) {
        F->pneed = panel_need(f, p);
        F->plh = panel_legend_h(f, p);
        p->panel_below = F->pneed > L->panel_share * (p->W - F->x0);
        if (p->panel_below)
            below += 0.6 * fb + F->plh + 0.5 * fb + 1.6 * fb + F->axis_h;
    }
    F->annotate = f->annotate && f->stats.summary && f->stats.summary[0];
    if (F->annotate) {
        if (!tf_plan_wrap_lines(p, f->stats.summary, p->f_note, avail_w))
            return false;
        p->annot_size = p->f_note;
        below += 0.4 * fb + (double)p->n_annot * text_h(p->f_note, false);
    }
    below += m;
    F->below_h = below;
    return true;
}

/* Horizontal: the plot, the panel beside it, the ticks. */
static bool fit_across(struct fit *F)
{
    const struct tf_figure *f = F->f;
    struct tf_plan *p = F->p;
    double m = F->margin;
    p->plot.x0 = F->x0;
    p->plot.x1 = p->W - m;
    if (p->panel && !p->panel_below) {
        double gap = 1.5 * F->fb;
        double pw = fmax(F->pneed, (p->plot.x1 - F->x0 - gap) * 1.05 / 2.8);
        p->pbox.x1 = p->W - m - 0.5 * tf_text_width("100", p->f_tick, false);
        p->pbox.x0 = p->pbox.x1 - pw;
        p->plot.x1 = p->pbox.x0 - gap;
    }
    if (!fit_ticks(F))
        return false;
    /* The last tick label stays inside: pull the plot's right end in by
     * its overhang, and place the ticks again. */
    if (p->n_ticks && !(p->panel && !p->panel_below)) {
        const struct tf_plan_tick *t = &p->ticks[p->n_ticks - 1];
        double over = t->x + tf_plan_text_width(t->label, p->f_tick, false) / 2 - (p->W - m);
        if (over > 0) {
            double span = f->x_span > 0 ? f->x_span : 1.0;
            double frac = t->v / span;
            if (frac > 0)
                p->plot.x1 -= over / frac;
            if (!fit_ticks(F))
                return false;
        }
    }
    return true;
}

/* Lane i's label: its text at the level drawn, elided to its room, and
 * where it goes; *y moves down past a label above the lane. */
static bool fit_lane_label(struct fit *F, size_t i, double *y)
{
    struct tf_plan *p = F->p;
    struct tf_plan_lane *pl = &p->lanes[i];
    pl->text = F->level >= 0 && labeled(F, i) ? F->lv.text[(size_t)F->level * F->lv.n + i] : NULL;
    if (p->labels == TF_LABELS_LEFT && pl->text &&
        !(pl->text = tf_plan_elide(&p->arena, pl->text, p->label_w, p->f_lane, false, 0)))
        return false;
    if (p->labels == TF_LABELS_ABOVE) {
        if (pl->text && !(pl->text = tf_plan_elide(&p->arena, pl->text,
                                                   p->plot.x1 - p->plot.x0 - 2,
                                                   p->f_lane, false, 0)))
            return false;
        pl->label_x = p->plot.x0 + 1;
        pl->label_y = *y + 0.25 + tf_text_ascent(p->f_lane, false);
        *y += p->label_h;
    }
    return true;
}

/* Vertical: lanes, process headers and labels, from F->top down; the
 * plot's bottom in p->plot.y1. */
static bool fit_lanes(struct fit *F)
{
    const struct tf_figure *f = F->f;
    struct tf_plan *p = F->p;
    double m = F->margin;
    double y = F->top;
    p->plot.y0 = F->top;
    size_t last_header = (size_t)-1;
    for (size_t i = 0; i < p->n_lanes; i++) {
        struct tf_plan_lane *pl = &p->lanes[i];
        const struct tf_lane *ln = &f->lanes[i];
        size_t hd = tf_plan_lane_header(F, i);
        double band_top = y;
        if (hd != (size_t)-1 && hd != last_header && p->labels != TF_LABELS_NONE) {
            struct tf_plan_header *h = &p->headers[p->n_headers++];
            double hx = p->labels == TF_LABELS_ABOVE ? p->plot.x0 + 1 : m;
            if (!(h->text = tf_plan_elide(&p->arena, F->lv.headers[hd], p->W - m - hx,
                                          p->f_header, true, 0)))
                return false;
            h->first = i;
            h->y = y + 0.5 + tf_text_ascent(p->f_header, true);
            y += F->header_h;
        }
        if (hd != (size_t)-1 && p->n_headers && p->headers[p->n_headers - 1].first <= i)
            p->headers[p->n_headers - 1].n = i - p->headers[p->n_headers - 1].first + 1;
        last_header = hd;
        pl->band = band_top;
        pl->tip = ln->label;
        pl->rows = tf_plan_rows_at(ln, p->depth);
        if (!fit_lane_label(F, i, &y))
            return false;
        double lane_h = (double)pl->rows * p->row_h;
        /* An overview's first label, centred on a thin row, clears the
         * rank axis above it. */
        if (f->overview.on && i == 0 && p->labels == TF_LABELS_LEFT && lane_h < F->lab_line)
            y += (F->lab_line - lane_h) / 2;
        if (p->labels == TF_LABELS_LEFT && lane_h < F->lab_line && label_tall(F, i))
            lane_h = F->lab_line;
        pl->top = y;
        if (p->labels == TF_LABELS_LEFT) {
            pl->label_x = p->plot.x0 - F->gap;
            pl->label_y = tf_text_center_baseline(y + lane_h / 2, p->f_lane, false);
        }
        y += lane_h;
        pl->bottom = y;
        if (ln->kind == TF_LANE_COUNTER && !counter_labels(f, p, i, lane_h))
            return false;
    }
    /* An overview's last row ends over the axis, which would hide its ink. */
    if (f->overview.on)
        y += tf_style.spine_pt;
    p->plot.y1 = y;
    if (f->overview.on && p->n_lanes)
        p->plot.y0 = p->lanes[0].top; /* the rank axis above the rows */
    if (p->panel && !p->panel_below) {
        p->pbox.y0 = p->plot.y0;
        p->pbox.y1 = p->plot.y1;
    }
    return true;
}

/* The bottom stack under the plot, and the figure's height. */
static void fit_bottom(struct fit *F, const struct tf_size *size)
{
    struct tf_plan *p = F->p;
    double fb = F->fb, m = F->margin, y = p->plot.y1;
    double tick_pad = F->tick_pad, title_pad = F->title_pad;
    p->tick_base = y + tick_pad + tf_text_ascent(p->f_tick, false);
    p->axis_base = y + tick_pad + text_h(p->f_tick, false) + title_pad +
                   tf_text_ascent(p->f_axis, false);
    y += F->axis_h;
    if (p->bottom_legend) {
        y += 0.5 * fb;
        double cx = (p->plot.x0 + p->plot.x1) / 2;
        p->legend.x0 = clampd(cx - p->legend.w / 2, m, fmax(m, p->W - m - p->legend.w));
        p->legend.y0 = y;
        y += p->legend.h;
    }
    if (p->panel) {
        p->ptick_base = p->tick_base;
        p->paxis_base = p->axis_base;
        if (p->panel_below) {
            y += 0.6 * fb;
            p->pbox.x0 = p->plot.x0;
            p->pbox.x1 = fmin(p->plot.x1, p->W - m - tf_text_width("100", p->f_tick, false) / 2);
            p->pbox.y0 = y;
            y += F->plh + 0.5 * fb + 1.6 * fb;
            p->pbox.y1 = y;
            p->ptick_base = y + tick_pad + tf_text_ascent(p->f_tick, false);
            p->paxis_base = y + tick_pad + text_h(p->f_tick, false) + title_pad +
                            tf_text_ascent(p->f_axis, false);
            y += F->axis_h;
        }
    }
    if (F->annotate) {
        y += 0.4 * fb;
        p->annot_y = y;
        y += (double)p->n_annot * text_h(p->f_note, false);
    }
    y += m;
    p->H = size->height_pt > 0 ? fmax(size->height_pt, y) : y;
}

/* The note that names what was left out to fit the height (none: true). */
static bool fit_note(struct tf_plan *p, const struct tf_figure *f)
{
    char note[300];
    if (f->overview.on)
        return !tf_plan_ov_note(f, note, sizeof note) ||
               (p->note = tf_arena_strdup(&p->arena, note)) != NULL;
    if (!p->cut_lanes && !p->cut_rows)
        return true;
    if (p->cut_lanes)
        snprintf(note, sizeof note,
                 "%zu more lane%s not drawn to fit the figure's height: choose with "
                 "--lanes or --max-lanes, or give --height",
                 p->cut_lanes, p->cut_lanes == 1 ? "" : "s");
    else if (p->cut_annots)
        snprintf(note, sizeof note,
                 "%zu slice%s not drawn to fit the figure's height in %u row%s per lane, "
                 "annotations of GPU work first: --depth, --lanes or --height",
                 p->cut_rows, p->cut_rows == 1 ? "" : "s", p->depth, p->depth == 1 ? "" : "s");
    else
        snprintf(note, sizeof note,
                 "%zu slice%s nested deeper than %u rows not drawn to fit the figure's "
                 "height: --depth, --lanes or --height",
                 p->cut_rows, p->cut_rows == 1 ? "" : "s", p->depth);
    return (p->note = tf_arena_strdup(&p->arena, note)) != NULL;
}

/* The fit policy (the notes at the top of this file), step by step. */
static bool plan_fit(struct fit *F, const struct tf_figure *f, const struct tf_size *size,
                     struct tf_plan *p)
{
    F->f = f;
    F->p = p;
    if (!fit_fonts(F, size) || !fit_below(F))
        return false;
    F->top = F->margin + (p->labels == TF_LABELS_ABOVE ? 0 : 0.5 * text_h(p->f_lane, false));
    if (f->n_marks) { /* the spans' rows above the plot need its width */
        if (!fit_across(F) || !tf_plan_marks_rows(F))
            return false;
        F->top += p->marks_h;
    }
    fit_height(F, size, F->top);
    if ((p->cut_rows || p->cut_lanes) && p->bottom_legend && !drop_cut_entries(f, p))
        return false;
    if (!fit_across(F) || !fit_lanes(F))
        return false;
    fit_bottom(F, size);
    if (f->n_marks && !tf_plan_marks_place(F))
        return false;
    return fit_note(p, f) && tf_plan_marks_note(p);
}

bool tf_plan_fit_start(struct fit *F, const struct tf_size *size)
{
    return alloc_lanes(F->f, F->p) && fit_fonts(F, size) && fit_below(F);
}

static bool plan_once(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p,
                      bool share_key, struct tf_binned **reuse, double reuse_w)
{
    static const struct tf_size none;
    memset(p, 0, sizeof *p);
    tf_arena_init(&p->arena);
    p->legend.share_key = share_key;
    if (!size)
        size = &none;
    if (!alloc_lanes(f, p))
        return false;
    if (!tf_plan_fits(f, size))
        return plan_reference(f, p) &&
               tf_plan_bins(f, p->plot.x1 - p->plot.x0, &p->bins, reuse, reuse_w);
    struct fit F;
    memset(&F, 0, sizeof F);
    bool ok = plan_fit(&F, f, size, p);
    tf_label_levels_fini(&F.lv);
    return ok && tf_plan_bins(f, p->plot.x1 - p->plot.x0, &p->bins, reuse, reuse_w);
}

/* Whether the plan draws a share bar. */
static bool draws_shares(const struct tf_figure *f, const struct tf_plan *p)
{
    struct tf_figure tmp;
    const struct tf_figure *g = tf_plan_drawn(p, f, &tmp);
    for (size_t i = 0; i < g->n_bars; i++)
        if (g->bars[i].shape == TF_SHAPE_DENSE)
            return true;
    return false;
}

bool tf_plan_make(const struct tf_figure *f, const struct tf_size *size, struct tf_plan *p)
{
    /* The bins follow the plot's width, which the legend does not change:
     * a figure with share bars is planned again with the key in its
     * legend (figures without keep their plan, byte for byte). */
    struct tf_binned *none = NULL;
    if (!plan_once(f, size, p, false, &none, 0))
        return false;
    if (!p->bottom_legend || f->n_legend == 0 || !draws_shares(f, p))
        return true;
    /* The second plan takes the first's bins when its plot is as wide. */
    struct tf_binned *bins = p->bins;
    double w = p->plot.x1 - p->plot.x0;
    p->bins = NULL;
    tf_plan_fini(p);
    bool ok = plan_once(f, size, p, true, &bins, w);
    tf_plan_bins_free(bins);
    return ok;
}
