/* layout.c - figure model + plan -> scene of primitives in points; see
 * layout.h.
 *
 * IMPLEMENTATION NOTES
 *
 * What it does: places what the plan (plan.h) decided: the canvas, the
 * plot rectangle, each lane's rows and label, the headers, the ticks, the
 * legend grid, the side panel's box, the annotation's lines.  It maps data
 * units (ms, %) to points, draws bar outlines with tf_bar_outline() (the
 * reference's zigzag geometry), and fits in-bar names into their bars.
 * What it does not do: decide WHAT is drawn (the rules did that: figure.h),
 * decide where anything goes (plan.c), or write any output format.
 *
 * In-bar labels that do not fit inside their bar at the plan's in-bar size
 * shrink (to 7.5 and 6.5 pt in the reference's layout, to 5 pt in a fit
 * one); when they still do not fit, or would touch a previous label, they
 * are left out (the bar's tooltip still names it).  Bars of lanes or rows
 * the plan leaves out (the height budget) are not drawn.
 *
 * Draw order follows the reference's z-order: grid, bars (+ labels), spines,
 * lane labels and headers, tick labels, axis labels, legend; then the panel
 * in the same order.
 */
#include "render/layout.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/num.h"
#include "render/layout_counters.h"
#include "render/layout_marks.h"
#include "render/layout_share.h"
#include "render/metrics.h"
#include "render/plan.h"
#include "render/style.h"

/* The share key's two classes (a legend swatch, grey on white). */
#define SHARE_KEY_LOW 0x777777u
#define SHARE_KEY_HIGH 0xBBBBBBu

/* The panel's vertical shape: ylim 0..0.72, bar centred at 0.2, 0.28 high. */
#define PANEL_YMAX 0.72
#define PANEL_BAR_Y 0.20
#define PANEL_BAR_H 0.28

struct box {
    double x0, y0, x1, y1;
};

struct lay {
    const struct tf_figure *f;
    const struct tf_plan *P;
    struct tf_scene *s;
    double W, H;
    double pl, pr, pt, pb; /* timeline plot rectangle */
    double span;           /* axis units across pl..pr */
    double row_h;          /* height of one lane row */
    double share_gap;      /* the most space between two bins of a run (layout_share.h) */
    size_t share_lines;    /* the most lone slices a run's tooltip names */
    double ql, qr, qt, qb; /* the side panel's plot */
    struct box *inbar; /* in-bar labels placed so far (heap) */
    size_t n_inbar, cap_inbar;
};

/* --- primitives ---------------------------------------------------------- */

static double text_h(const struct lay *L, double size)
{
    return tf_text_ascent(size, L->P->bold) + tf_text_descent(size, L->P->bold);
}

/* Text enters the scene clean (tf_xml_clean, then tab/LF/CR as spaces) and
 * is measured as it will be drawn. */
static void put_text_w(struct lay *L, const char *raw, double x, double baseline, double size,
                       bool bold, enum tf_anchor anchor, uint32_t color, const char *cls)
{
    tf_scene_label(L->s, (struct tf_text){.s = raw, .x = x, .y = baseline, .size = size,
                                          .bold = bold, .anchor = anchor, .color = color,
                                          .cls = cls});
}

/* Text in the plan's weight. */
static void put_text(struct lay *L, const char *raw, double x, double baseline, double size,
                     enum tf_anchor anchor, uint32_t color, const char *cls)
{
    put_text_w(L, raw, x, baseline, size, L->P->bold, anchor, color, cls);
}

static void put_line(struct lay *L, double x0, double y0, double x1, double y1, uint32_t color,
                     double opacity, double width, const double *dash, size_t n_dash,
                     const char *cls)
{
    double xs[2] = {x0, x1}, ys[2] = {y0, y1};
    struct tf_path p = {
        .xs = xs,
        .ys = ys,
        .n = 2,
        .has_stroke = true,
        .stroke = color,
        .stroke_opacity = opacity,
        .stroke_width = width,
        .n_dash = n_dash,
        .cls = cls,
    };
    for (size_t i = 0; i < n_dash && i < TF_SCENE_MAX_DASH; i++)
        p.dash[i] = dash[i];
    tf_scene_path(L->s, &p);
}

static void put_rect(struct lay *L, double x0, double y0, double x1, double y1, uint32_t fill,
                     double edge_w, const char *cls)
{
    double xs[4] = {x0, x1, x1, x0}, ys[4] = {y1, y1, y0, y0};
    struct tf_path p = {
        .xs = xs,
        .ys = ys,
        .n = 4,
        .closed = true,
        .has_fill = true,
        .fill = fill,
        .fill_opacity = 1.0,
        .has_stroke = edge_w > 0,
        .stroke = TF_COLOR_BLACK,
        .stroke_opacity = 1.0,
        .stroke_width = edge_w,
        .cls = cls,
    };
    tf_scene_path(L->s, &p);
}

/* A legend frame: matplotlib's "round" box (radius 0.2 em), white at 0.8
 * opacity, light grey edge.  Corners are two segments each. */
static void put_frame(struct lay *L, double x0, double y0, double x1, double y1, double r)
{
    static const double c45 = 0.29289321881345248; /* 1 - cos 45° */
    double xs[12], ys[12];
    size_t n = 0;
#define P(X, Y) (xs[n] = (X), ys[n] = (Y), n++)
    P(x0 + r, y0);
    P(x1 - r, y0);
    P(x1 - r * c45, y0 + r * c45);
    P(x1, y0 + r);
    P(x1, y1 - r);
    P(x1 - r * c45, y1 - r * c45);
    P(x1 - r, y1);
    P(x0 + r, y1);
    P(x0 + r * c45, y1 - r * c45);
    P(x0, y1 - r);
    P(x0, y0 + r);
    P(x0 + r * c45, y0 + r * c45);
#undef P
    struct tf_path p = {
        .xs = xs,
        .ys = ys,
        .n = n,
        .closed = true,
        .has_fill = true,
        .fill = TF_COLOR_WHITE,
        .fill_opacity = 0.8,
        .has_stroke = true,
        .stroke = tf_style.frame,
        .stroke_opacity = 1.0,
        .stroke_width = tf_style.frame_pt,
        .cls = "frame",
    };
    tf_scene_path(L->s, &p);
}

/* A colour 35 % darker, for edges that separate bars of one colour. */
static uint32_t darker(uint32_t rgb)
{
    uint32_t r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
    uint32_t k = tf_style.flame_edge_pct;
    return ((r * k / 100) << 16) | ((g * k / 100) << 8) | (b * k / 100);
}

static double clampd(double v, double lo, double hi)
{
    return v < lo ? lo : v > hi ? hi : v;
}

/* Centre x for a text of width w so it stays inside the canvas margins. */
static double keep_inside(const struct lay *L, double cx, double w)
{
    double m = L->P->margin;
    double lo = m + w / 2, hi = L->W - m - w / 2;
    return lo > hi ? L->W / 2 : clampd(cx, lo, hi);
}

/* --- the timeline ---------------------------------------------------------- */

static double xpt(const struct lay *L, double ms)
{
    return L->pl + ms / L->span * (L->pr - L->pl);
}

static bool box_overlaps(const struct box *a, const struct box *b)
{
    return a->x0 < b->x1 + tf_style.text_gap_pt && b->x0 < a->x1 + tf_style.text_gap_pt && a->y0 < b->y1 &&
           b->y0 < a->y1;
}

/* The vertical centre of a lane's rows (a counter lane's band), and the top
 * of one of its rows. */
static double lane_mid(const struct lay *L, size_t i)
{
    if (L->f->lanes[i].kind == TF_LANE_COUNTER)
        return (L->P->lanes[i].top + L->P->lanes[i].bottom) / 2;
    return L->P->lanes[i].top + (double)L->P->lanes[i].rows / 2 * L->row_h;
}

static double row_top(const struct lay *L, size_t lane, unsigned row)
{
    return L->P->lanes[lane].top + (double)row * L->row_h;
}

/* The row the plan draws this row of this lane in, TF_PLAN_NO_ROW when
 * none. */
static unsigned drawn_row(const struct lay *L, size_t lane, unsigned row)
{
    return tf_plan_row(L->P, L->f, lane, row);
}

/* A CSS class name: letters, digits, '-' and '_', not starting with a
 * digit or "--". */
static bool css_ident(const char *s)
{
    if (!s || !*s || (*s >= '0' && *s <= '9') || (s[0] == '-' && s[1] == '-'))
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
              *s == '-' || *s == '_'))
            return false;
    return true;
}

static void lane_grid(struct lay *L)
{
    const struct tf_figure *f = L->f;
    /* Horizontal grid through lane centres (seaborn whitegrid), solid; in
     * a flame chart, lines between the lanes instead. */
    for (size_t i = 0; i < L->P->n_lanes; i++) {
        if (f->flame) {
            /* an overview's thin rows: a line over each labelled one */
            if (i == 0 || (f->overview.on && !L->P->lanes[i].text))
                continue;
            double y = L->P->lanes[i].band;
            put_line(L, L->pl, y, L->pr, y, tf_style.spine, 1.0, tf_style.hgrid_pt, NULL, 0, "hgrid");
            continue;
        }
        double y = lane_mid(L, i);
        put_line(L, L->pl, y, L->pr, y, tf_style.spine, 1.0, tf_style.hgrid_pt, NULL, 0, "hgrid");
    }
    /* Vertical grid at the x ticks: grey, 0.3, dashed (matplotlib's dash
     * pattern 3.7/1.6 scaled by the 0.8 pt width). */
    static const double dash[2] = {2.96, 1.28};
    for (size_t i = 0; i < L->P->n_ticks; i++) {
        double x = L->P->ticks[i].x;
        put_line(L, x, L->pt, x, L->pb, tf_style.grid, 0.3, tf_style.grid_pt, dash, 2, "grid");
    }
}

/* Room an in-bar label leaves above and below it within its row: renderers
 * round the font's ascent and descent to their pixels (Chromium's box of a
 * 5.44 pt label is 0.3 pt taller than the metrics' one), and a label that
 * fills its row exactly then overlaps its neighbours'. */
#define INBAR_SLACK_PT 0.5

static void bar_label(struct lay *L, const struct tf_bar *b, double x0, double x1, double yc)
{
    /* The plan's size when it fits (the reference's 8.5 pt), else a little
     * smaller, else none; never taller than the row, with INBAR_SLACK_PT to
     * spare. */
    const struct tf_plan *P = L->P;
    double sizes[3] = {P->f_inbar, 7.5, 6.5};
    if (P->fit)
        sizes[1] = sizes[2] = fmax(5.0, P->f_inbar * 0.85);
    double inset = (b->clip_left || b->clip_right) ? 2.0 : 1.0;
    double size = 0, w = 0;
    long units = tf_text_units(b->label, P->bold);
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0] && size == 0; i++) {
        w = tf_text_units_width(units, sizes[i]);
        if (w <= x1 - x0 - 2 * inset &&
            (!P->fit || text_h(L, sizes[i]) + INBAR_SLACK_PT <= L->row_h))
            size = sizes[i];
    }
    if (size == 0)
        return; /* does not fit inside its bar */
    double cx = (x0 + x1) / 2;
    double base = tf_text_center_baseline(yc, size, P->bold);
    struct box bx = {cx - w / 2, base - tf_text_ascent(size, P->bold), cx + w / 2,
                     base + tf_text_descent(size, P->bold)};
    /* Labels sit inside their bars, so only labels of overlapping bars can
     * collide; a figure of thousands of bars checks the recent ones. */
    size_t from = L->n_inbar > 512 ? L->n_inbar - 64 : 0;
    for (size_t i = from; i < L->n_inbar; i++)
        if (box_overlaps(&bx, &L->inbar[i]))
            return;
    if (!TF_GROW(L->inbar, L->n_inbar, L->cap_inbar)) {
        L->s->oom = true;
        return;
    }
    L->inbar[L->n_inbar++] = bx;
    put_text(L, b->label, cx, base, size, TF_ANCHOR_MIDDLE, b->label_color, "inbar");
}

/* A bar of a flame chart: a thin edge in a darker shade, at least
 * tf_style.min_bar_pt wide; a dense span lighter and without edge; an instant a
 * vertical stroke. */
static void flame_shape(struct lay *L, const struct tf_bar *b, struct tf_path *p, double top,
                        double bottom)
{
    p->stroke_width = tf_style.flame_edge_pt;
    p->stroke = darker(b->color);
    if (b->shape == TF_SHAPE_INSTANT) {
        double *xs = (double *)p->xs, *ys = (double *)p->ys;
        xs[0] = xs[1] = p->xs[0];
        ys[0] = top + 1;
        ys[1] = bottom - 1;
        p->n = 2;
        p->closed = false;
        p->has_fill = false;
        p->stroke = b->color;
        p->stroke_width = tf_style.instant_pt;
        return;
    }
    if (b->shape == TF_SHAPE_DENSE) {
        p->fill_opacity = tf_style.dense_opacity;
        p->has_stroke = false;
    }
    /* Widen a bar too thin to see, keeping its left edge (its outline is a
     * plain rectangle then: nothing that thin is torn). */
    double x0 = p->xs[0], x1 = p->xs[1];
    if (x1 - x0 < tf_style.min_bar_pt && p->n >= 4) {
        double *xs = (double *)p->xs, *ys = (double *)p->ys;
        x1 = x0 + tf_style.min_bar_pt;
        xs[0] = x0, ys[0] = bottom;
        xs[1] = x1, ys[1] = bottom;
        xs[2] = x1, ys[2] = top;
        xs[3] = x0, ys[3] = top;
        p->n = 4;
        (void)L;
    }
}

/* Whether category cat of the figure is that of lost events (TF_LOST_CAT). */
static bool lost_cat(const struct lay *L, size_t cat)
{
    const struct tf_category *c = cat < L->f->n_cats ? &L->f->cats[cat] : NULL;
    return c && c->name && strcmp(c->name, TF_LOST_CAT) == 0;
}

/* A range where the trace's events were lost, or its legend swatch:
 * hatched over its face, lines at 45 degrees every 3 pt, so the figure
 * claims neither work nor idle there. */
static void hatch(struct lay *L, double x0, double x1, double top, double bottom)
{
    if (x1 <= x0)
        return;
    double h = bottom - top, step = 3.0;
    for (double sx = x0 - h; sx < x1; sx += step) {
        double ax = sx, ay = bottom, bx = sx + h, by = top;
        if (ax < x0) {
            ay -= x0 - ax;
            ax = x0;
        }
        if (bx > x1) {
            by += bx - x1;
            bx = x1;
        }
        if (bx <= ax)
            continue;
        double xs[2] = {ax, bx}, ys[2] = {ay, by};
        struct tf_path p = {.xs = xs, .ys = ys, .n = 2, .has_stroke = true,
                            .stroke = 0x555555, .stroke_opacity = 1.0, .stroke_width = 0.4};
        tf_scene_path(L->s, &p);
    }
}

/* The share bars' view of the layout (layout_share.h). */
static struct tf_share_lay share_lay(const struct lay *L)
{
    return (struct tf_share_lay){L->f, L->P, L->s, L->pl, L->pr, L->pb, L->span, L->share_gap};
}

static void bars(struct lay *L)
{
    const struct tf_figure *f = L->f;
    double xs[TF_BAR_OUTLINE_MAX], ys[TF_BAR_OUTLINE_MAX];
    char start[TF_NUM_MAX], dur[TF_NUM_MAX];
    struct tf_buf cls;
    tf_buf_init(&cls);
    struct tf_attr *attrs = NULL;
    size_t cap_attrs = 0;
    struct tf_buf busy;
    tf_buf_init(&busy);
    struct tf_buf tip;
    tf_buf_init(&tip);
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane >= f->n_lanes)
            continue;
        const struct tf_lane *ln = &f->lanes[b->lane];
        struct tf_bar at = *b;
        at.row = b->row < (ln->rows ? ln->rows : 1) ? b->row : 0;
        unsigned row = tf_plan_bar_row(L->P, L->f, &at);
        if (row == TF_PLAN_NO_ROW)
            continue;
        bool shares = f->flame && b->shape == TF_SHAPE_DENSE;
        /* Share bars: the run of them from here (layout_share.h). */
        struct tf_share_lay sl = share_lay(L);
        size_t run = shares ? tf_share_run(&sl, i, row) : 1;
        double top = row_top(L, b->lane, row);
        double bottom = top + L->row_h;
        size_t n = tf_bar_outline(f, b, bottom, top, xs, ys);
        for (size_t k = 0; k < n; k++)
            xs[k] = xpt(L, xs[k]);

        /* Classes: "bar", the lane's key, and the event's name when it is
         * an identifier other than the key. */
        tf_buf_clear(&cls);
        tf_buf_puts(&cls, "bar");
        if (css_ident(ln->key)) {
            tf_buf_putc(&cls, ' ');
            tf_buf_puts(&cls, ln->key);
        }
        if (css_ident(b->name) && !(ln->key && strcmp(ln->key, b->name) == 0)) {
            tf_buf_putc(&cls, ' ');
            tf_buf_puts(&cls, b->name);
        }
        size_t n_attrs = 0;
        if (!TF_GROW(attrs, b->n_props + 5, cap_attrs)) {
            L->s->oom = true;
            break;
        }
        if (ln->key)
            attrs[n_attrs++] = (struct tf_attr){"lane", ln->key};
        for (size_t k = 0; k < b->n_props; k++)
            if (b->props[k].value)
                attrs[n_attrs++] = (struct tf_attr){b->props[k].key, b->props[k].value};
        double start_ms = b->start_ms, dur_ms = b->dur_ms;
        const char *title = b->title;
        if (shares) {
            if (!tf_share_run_text(f, b, run, L->share_lines, &tip, &busy, &start_ms,
                                   &dur_ms)) {
                L->s->oom = true;
                break;
            }
            title = tip.data;
        }
        attrs[n_attrs++] = (struct tf_attr){"start-ms", tf_fmt_num(start, start_ms, 3)};
        attrs[n_attrs++] = (struct tf_attr){"dur-ms", tf_fmt_num(dur, dur_ms, 3)};
        if (shares)
            attrs[n_attrs++] = (struct tf_attr){"busy", busy.data};
        if (b->critical) /* --critical-path: on the path (rules/critpath_marks.h) */
            attrs[n_attrs++] = (struct tf_attr){"critical", "true"};
        if (b->faded)
            attrs[n_attrs++] = (struct tf_attr){"faded", "true"};
        struct tf_group g = {
            .cls = cls.oom ? "bar" : cls.data,
            .title = title,
            .attrs = attrs,
            .n_attrs = n_attrs,
            .disjoint = shares,
        };
        tf_scene_group_begin(L->s, &g);

        struct tf_path p = {
            .xs = xs,
            .ys = ys,
            .n = n,
            .closed = true,
            .has_fill = true,
            .fill = b->color,
            .fill_opacity = 1.0,
            .has_stroke = true,
            .stroke = TF_COLOR_BLACK,
            .stroke_opacity = 1.0,
            .stroke_width = tf_style.bar_edge_pt,
        };
        for (size_t k = 0; shares && k < run; k++)
            tf_share_boxes(&sl, &b[k], top, bottom);
        if (shares)
            i += run - 1;
        else if (f->flame)
            flame_shape(L, b, &p, top, bottom);
        if (!shares)
            tf_scene_path(L->s, &p);
        if (!shares && b->shape == TF_SHAPE_SLICE && n >= 2) {
            double hx0 = xs[0], hx1 = xs[0];
            for (size_t k = 1; k < n; k++) {
                hx0 = xs[k] < hx0 ? xs[k] : hx0;
                hx1 = xs[k] > hx1 ? xs[k] : hx1;
            }
            if (lost_cat(L, b->cat))
                hatch(L, hx0, hx1, top, bottom);
        }
        if (b->label && b->label[0] && b->shape == TF_SHAPE_SLICE &&
            !tf_plan_row_under(L->P, f, b->lane, b->row)) {
            double x0, x1;
            tf_bar_drawn_extent(f, b, &x0, &x1);
            bar_label(L, b, xpt(L, x0), xpt(L, x1), (top + bottom) / 2);
        }
        tf_scene_group_end(L->s);
    }
    free(attrs);
    tf_buf_fini(&cls);
    tf_buf_fini(&busy);
    tf_buf_fini(&tip);
}

/* Flow arrows: a line from one row to another, with a small head. */
static void arrows(struct lay *L)
{
    const struct tf_figure *f = L->f;
    if (!f->n_arrows)
        return;
    tf_scene_group_begin(L->s, &(struct tf_group){.cls = "arrows"});
    for (size_t i = 0; i < f->n_arrows; i++) {
        const struct tf_arrow *a = &f->arrows[i];
        unsigned r0 = drawn_row(L, a->lane0, a->row0), r1 = drawn_row(L, a->lane1, a->row1);
        if (a->lane0 >= f->n_lanes || a->lane1 >= f->n_lanes || r0 == TF_PLAN_NO_ROW ||
            r1 == TF_PLAN_NO_ROW)
            continue;
        double x0 = xpt(L, a->x0), x1 = xpt(L, a->x1);
        double y0 = row_top(L, a->lane0, r0) + L->row_h / 2;
        double y1 = row_top(L, a->lane1, r1) + L->row_h / 2;
        /* the critical path's: thinner, in the marks' ink (tf-critical) */
        bool cp = a->critical;
        uint32_t ink = cp ? tf_style.critical : tf_style.arrow;
        put_line(L, x0, y0, x1, y1, ink, 0.8, cp ? 0.4 : 0.6, NULL, 0, cp ? "critical" : "arrow");
        double dx = x1 - x0, dy = y1 - y0, len = sqrt(dx * dx + dy * dy);
        if (len < 1e-9)
            continue;
        double ux = dx / len, uy = dy / len, h = cp ? 2.4 : 3.0, w = cp ? 1.2 : 1.6;
        double xs[3] = {x1, x1 - h * ux - w * uy, x1 - h * ux + w * uy};
        double ys[3] = {y1, y1 - h * uy + w * ux, y1 - h * uy - w * ux};
        struct tf_path p = {
            .xs = xs,
            .ys = ys,
            .n = 3,
            .closed = true,
            .has_fill = true,
            .fill = ink,
            .fill_opacity = 0.8,
            .cls = cp ? "critical-head" : "arrowhead",
        };
        tf_scene_path(L->s, &p);
    }
    tf_scene_group_end(L->s);
}

/* Tick labels centred under x positions, thinned as the plan thins the
 * time axis (tf_plan_tick_clear). */
static void tick_labels(struct lay *L, const double *xs, const char *const *labels, size_t n,
                        double base)
{
    const double size = L->P->f_tick;
    double end = -1e300, cx;
    for (size_t i = 0; i < n; i++) {
        double w = tf_text_width(labels[i], size, L->P->bold);
        if (tf_plan_tick_clear(xs[i], w, L->P->margin, L->W, &end, &cx))
            put_text(L, labels[i], cx, base, size, TF_ANCHOR_MIDDLE, TF_COLOR_BLACK, "tick");
    }
}

static void axis_label(struct lay *L, const char *str, double x0, double x1, double base)
{
    double size = L->P->f_axis;
    double w = tf_text_width(str, size, L->P->bold);
    double cx = keep_inside(L, (x0 + x1) / 2, w);
    put_text(L, str, cx, base, size, TF_ANCHOR_MIDDLE, tf_style.text, "label");
}

/* Lane labels (right-aligned before the plot, or above their lanes, with
 * the full label as their tooltip where it was shortened) and the
 * process headers. */
static void lane_labels(struct lay *L)
{
    const struct tf_plan *P = L->P;
    if (P->labels == TF_LABELS_NONE)
        return;
    bool above = P->labels == TF_LABELS_ABOVE;
    for (size_t i = 0; i < P->n_headers; i++) {
        const struct tf_plan_header *h = &P->headers[i];
        put_text_w(L, h->text, above ? L->pl + 1 : P->margin, h->y, P->f_header, true,
                   TF_ANCHOR_START, TF_COLOR_BLACK, "header");
    }
    for (size_t i = 0; i < P->n_lanes; i++) {
        const struct tf_plan_lane *pl = &P->lanes[i];
        if (!pl->text)
            continue;
        bool cut = pl->tip && strcmp(pl->tip, pl->text) != 0;
        if (cut)
            tf_scene_group_begin(L->s, &(struct tf_group){.cls = "lane-label", .title = pl->tip});
        put_text(L, pl->text, pl->label_x, pl->label_y, P->f_lane,
                 above ? TF_ANCHOR_START : TF_ANCHOR_END, TF_COLOR_BLACK, "tick");
        if (cut)
            tf_scene_group_end(L->s);
    }
}

static void timeline(struct lay *L)
{
    const struct tf_figure *f = L->f;
    tf_scene_group_begin(L->s, &(struct tf_group){.cls = "timeline"});
    lane_grid(L);
    tf_layout_counters(L->s, L->f, L->P);
    size_t runs = 0;
    L->share_gap = tf_share_gap(&(struct tf_share_lay){L->f, L->P, L->s, L->pl, L->pr, L->pb,
                                                        L->span, TF_SHARE_RUN_GAP_PT},
                                &runs);
    L->share_lines = TF_SHARE_SLICE_LINES / (runs ? runs : 1);
    L->share_lines = L->share_lines < 4 ? 4 : L->share_lines > 48 ? 48 : L->share_lines;
    /* in-bar labels give way to the marks' labels */
    for (size_t i = 0; i < L->P->n_marks; i++) {
        const struct tf_plan_mark *pm = &L->P->marks[i];
        if (!pm->text)
            continue;
        if (!TF_GROW(L->inbar, L->n_inbar, L->cap_inbar)) {
            L->s->oom = true;
            break;
        }
        L->inbar[L->n_inbar++] = (struct box){pm->box.x0, pm->box.y0, pm->box.x1, pm->box.y1};
    }
    bars(L);
    arrows(L);
    tf_layout_marks(L->s, L->f, L->P);
    /* Spines: left and bottom (top and right are hidden). */
    put_line(L, L->pl, L->pt, L->pl, L->pb, tf_style.spine, 1.0, tf_style.spine_pt, NULL, 0, "axis");
    put_line(L, L->pl, L->pb, L->pr, L->pb, tf_style.spine, 1.0, tf_style.spine_pt, NULL, 0, "axis");
    lane_labels(L);
    const struct tf_plan *P = L->P;
    for (size_t i = 0; i < P->n_ticks; i++) {
        const struct tf_plan_tick *t = &P->ticks[i];
        if (!t->drawn)
            continue;
        double w = tf_text_width(t->label, P->f_tick, P->bold);
        put_text(L, t->label, keep_inside(L, t->x, w), P->tick_base, P->f_tick,
                 TF_ANCHOR_MIDDLE, TF_COLOR_BLACK, "tick");
    }
    axis_label(L, f->axis.title ? f->axis.title : "", L->pl, L->pr, P->axis_base);
    tf_scene_group_end(L->s);
}

/* The share key's swatch: a row's height, outlined, holding a share bar of
 * two classes stacked from the bottom (40 % and 30 %), as share_boxes
 * draws them: the height of each is its busy share of the bar's point. */
static void share_key(struct lay *L, double x0, double y0, double x1, double y1)
{
    double h = y1 - y0;
    put_rect(L, x0, y0, x1, y1, TF_COLOR_WHITE, tf_style.bar_edge_pt, "share-key");
    put_rect(L, x0, y1 - 0.4 * h, x1, y1, SHARE_KEY_LOW, 0, "share-key");
    put_rect(L, x0, y1 - 0.7 * h, x1, y1 - 0.4 * h, SHARE_KEY_HIGH, 0, "share-key");
}

static void bottom_legend(struct lay *L)
{
    const struct tf_figure *f = L->f;
    const struct tf_plan_legend *d = &L->P->legend;
    if (f->n_legend == 0 || !L->P->bottom_legend)
        return;
    const double fs = d->size;
    double x0 = d->x0, y0 = d->y0;
    tf_scene_group_begin(L->s, &(struct tf_group){.cls = "legend"});
    put_frame(L, x0, y0, x0 + d->w, y0 + d->h, 0.2 * fs);
    for (size_t k = 0; k < d->n; k++) {
        size_t i = d->order[k], row = k / d->ncol, col = k % d->ncol;
        double ex = x0 + d->pad;
        for (size_t c = 0; c < col; c++)
            ex += d->col_w[c] + d->colspace;
        double ey = y0 + d->pad + (double)row * (d->row_h + d->spacing);
        double yc = ey + d->row_h / 2;
        /* a grey class's tooltip: the classes it gathers, one a line */
        const char *holds = i < f->n_legend ? f->legend[i].holds : NULL;
        struct tf_buf tip;
        tf_buf_init(&tip);
        if (holds) {
            tf_buf_printf(&tip, "%s:\n%s", f->legend[i].label, holds);
            tf_scene_group_begin(L->s, &(struct tf_group){.cls = "legend-entry",
                                                          .title = tip.oom ? NULL : tip.data});
        }
        if (i == f->n_legend)
            share_key(L, ex, yc - d->handle_h / 2, ex + d->handle_w, yc + d->handle_h / 2);
        else
            put_rect(L, ex, yc - d->handle_h / 2, ex + d->handle_w, yc + d->handle_h / 2,
                     f->cats[f->legend[i].cat].color, tf_style.bar_edge_pt, "swatch");
        if (i < f->n_legend && lost_cat(L, f->legend[i].cat)) /* as its bars */
            hatch(L, ex, ex + d->handle_w, yc - d->handle_h / 2, yc + d->handle_h / 2);
        put_text(L, d->text[i], ex + d->handle_w + d->textpad,
                 tf_text_center_baseline(yc, fs, L->P->bold), fs, TF_ANCHOR_START, tf_style.text,
                 "legend-text");
        if (holds)
            tf_scene_group_end(L->s);
        tf_buf_fini(&tip);
    }
    tf_scene_group_end(L->s);
}

/* The statistics' summary: the plan's lines, each centred under the
 * timeline as far as the canvas allows. */
static void annotation(struct lay *L)
{
    const struct tf_plan *P = L->P;
    double size = P->annot_size, lead = P->fit ? P->f_note : size;
    tf_scene_group_begin(L->s, &(struct tf_group){.cls = "annotation"});
    for (size_t i = 0; i < P->n_annot; i++) {
        double w = tf_text_width(P->annot[i], size, P->bold);
        double cx = keep_inside(L, (L->pl + L->pr) / 2, w);
        double top = P->annot_y + (double)i * text_h(L, lead);
        put_text(L, P->annot[i], cx, top + tf_text_ascent(lead, P->bold), size,
                 TF_ANCHOR_MIDDLE, tf_style.text, "label");
    }
    tf_scene_group_end(L->s);
}

/* --- the side panel ----------------------------------------------------- */

static double qpt(const struct lay *L, double pct)
{
    return L->ql + pct / 100.0 * (L->qr - L->ql);
}

static void panel(struct lay *L)
{
    const struct tf_panel *bd = &L->f->panel;
    const struct tf_plan *P = L->P;
    const double fs = P->f_legend;
    const bool bold = P->bold;
    double ph = L->qb - L->qt;
    tf_scene_group_begin(L->s, &(struct tf_group){.cls = "breakdown"});
    const char *title = bd->title ? bd->title : "";

    /* Grid: 5 % minor (dotted, 0.15) and 25 % major (solid, 0.3, 1.2 pt). */
    static const double dot[2] = {0.8, 1.32};
    for (int p = 5; p < 100; p += 5)
        if (p % 25)
            put_line(L, qpt(L, p), L->qt, qpt(L, p), L->qb, tf_style.grid, 0.15, tf_style.grid_pt, dot, 2,
                     "grid");
    for (int p = 0; p <= 100; p += 25)
        put_line(L, qpt(L, p), L->qt, qpt(L, p), L->qb, tf_style.grid, 0.3, tf_style.panel_major_pt, NULL, 0,
                 "grid");

    /* The legend's size first: the bar must stay below it. */
    double pad = tf_style.leg_pad * fs, row_h = text_h(L, fs), sp = tf_style.leg_labelspace * fs;
    double hw = tf_style.leg_panel_handle * fs, hh = tf_style.leg_handle_h * fs;
    double tp = (P->fit ? 0.4 : tf_style.leg_textpad) * fs;
    double title_w = tf_text_width(title, fs, true);
    double body_w = 0;
    for (size_t i = 0; i < bd->n_slices; i++)
        body_w = fmax(body_w, hw + tp + tf_text_width(bd->slices[i].label, fs, bold));
    double lw = 2 * pad + fmax(title_w, body_w);
    double lh = 2 * pad + row_h + (double)bd->n_slices * (row_h + sp);
    double ly0 = L->qt + (P->fit ? 0.3 : tf_style.leg_panel_axespad) * fs;
    double m = P->margin;
    double lx0 = clampd((L->ql + L->qr) / 2 - lw / 2, m, fmax(m, L->W - m - lw));

    /* The stacked bar: the reference's proportions, lifted below the
     * legend when the panel is short. */
    double bar_h = PANEL_BAR_H / PANEL_YMAX * ph;
    double yc = L->qb - PANEL_BAR_Y / PANEL_YMAX * ph;
    double room_top = ly0 + lh + (P->fit ? 0.25 * fs : 4.0);
    if (bd->n_slices && yc - bar_h / 2 < room_top) {
        double bot = P->fit ? L->qb - 0.25 * fs : yc + bar_h / 2;
        bar_h = fmax(text_h(L, P->f_inbar) + 2, bot - room_top);
        yc = bot - bar_h / 2;
    }
    double left = 0;
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        double x0 = qpt(L, left), x1 = qpt(L, left + s->width_pct);
        char cls[48];
        snprintf(cls, sizeof cls, "slice %s", s->key);
        char tip[96], pct[TF_NUM_MAX];
        snprintf(tip, sizeof tip, "%s \xC2\xB7 %s%%", s->label, tf_fmt_num(pct, s->pct, 1));
        struct tf_attr attr = {"pct", tf_fmt_num(pct, s->pct, 3)};
        struct tf_group g = {.cls = cls, .title = tip, .attrs = &attr, .n_attrs = 1};
        tf_scene_group_begin(L->s, &g);
        put_rect(L, x0, yc - bar_h / 2, x1, yc + bar_h / 2, s->color, tf_style.panel_edge_pt, NULL);
        if (s->text) {
            double w = tf_text_width(s->text, P->f_inbar, bold);
            if (w <= x1 - x0 - 1.0)
                put_text(L, s->text, (x0 + x1) / 2,
                         tf_text_center_baseline(yc, P->f_inbar, bold), P->f_inbar,
                         TF_ANCHOR_MIDDLE, s->text_color, "inbar");
        }
        tf_scene_group_end(L->s);
        left += s->width_pct;
    }

    /* Spines: top and bottom. */
    put_line(L, L->ql, L->qt, L->qr, L->qt, tf_style.spine, 1.0, tf_style.spine_pt, NULL, 0, "axis");
    put_line(L, L->ql, L->qb, L->qr, L->qb, tf_style.spine, 1.0, tf_style.spine_pt, NULL, 0, "axis");

    static const double major[5] = {0, 25, 50, 75, 100};
    static const char *const major_labels[5] = {"0", "25", "50", "75", "100"};
    double xs[5];
    for (int i = 0; i < 5; i++)
        xs[i] = qpt(L, major[i]);
    tick_labels(L, xs, major_labels, 5, P->ptick_base);
    axis_label(L, bd->axis_title ? bd->axis_title : "", L->ql, L->qr, P->paxis_base);

    /* The legend, under its title in bold, underlined. */
    if (bd->n_slices) {
        tf_scene_group_begin(L->s, &(struct tf_group){.cls = "legend"});
        put_frame(L, lx0, ly0, lx0 + lw, ly0 + lh, 0.2 * fs);
        double tcx = lx0 + lw / 2;
        double tbase = tf_text_center_baseline(ly0 + pad + row_h / 2, fs, bold);
        put_text_w(L, title, tcx, tbase, fs, true, TF_ANCHOR_MIDDLE, tf_style.text, "legend-title");
        double uy = tbase + tf_text_descent(fs, bold) * 0.55;
        put_line(L, tcx - title_w / 2, uy, tcx + title_w / 2, uy, tf_style.text, 1.0, tf_style.underline_pt,
                 NULL, 0, "underline");
        double bx = lx0 + pad + (lw - 2 * pad - body_w) / 2;
        for (size_t i = 0; i < bd->n_slices; i++) {
            double ey = ly0 + pad + row_h + sp + (double)i * (row_h + sp);
            double cy = ey + row_h / 2;
            put_rect(L, bx, cy - hh / 2, bx + hw, cy + hh / 2, bd->slices[i].color,
                     tf_style.bar_edge_pt, "swatch");
            put_text(L, bd->slices[i].label, bx + hw + tp, tf_text_center_baseline(cy, fs, bold),
                     fs, TF_ANCHOR_START, tf_style.text, "legend-text");
        }
        tf_scene_group_end(L->s);
    }
    tf_scene_group_end(L->s);
}

/* The drawing state of figure f (its bars as plan P draws them, in *drawn)
 * on scene out. */
static void lay_init(struct lay *L, const struct tf_figure *f, const struct tf_plan *P,
                     struct tf_scene *out, struct tf_figure *drawn)
{
    memset(L, 0, sizeof *L);
    L->f = tf_plan_drawn(P, f, drawn);
    L->P = P;
    L->s = out;
    L->span = L->f->x_span;
    if (!(L->span > 0))
        L->span = 1.0;
    L->W = P->W;
    L->H = P->H;
    L->pl = P->plot.x0;
    L->pr = P->plot.x1;
    L->pt = P->plot.y0;
    L->pb = P->plot.y1;
    L->row_h = P->row_h;
    L->ql = P->pbox.x0;
    L->qr = P->pbox.x1;
    L->qt = P->pbox.y0;
    L->qb = P->pbox.y1;
}

/* --- zoom panels (plan.h, struct tf_plan_zoom) -------------------------------- */

#define ZOOM_INK 0x555555u
#define ZOOM_BAND_OPACITY 0.14
#define ZOOM_LINE_PT 0.5

/* The connectors: from the band's lower corners to the panel's upper
 * ones (under everything else, so that the main panel's text reads). */
static void zoom_connectors(struct lay *L)
{
    for (size_t i = 0; i < L->P->n_zooms; i++) {
        const struct tf_plan_zoom *z = &L->P->zooms[i];
        tf_scene_group_begin(L->s, &(struct tf_group){.cls = "zoom-connector"});
        put_line(L, z->band_x0, L->pb, z->box.x0, z->top, ZOOM_INK, 1.0, ZOOM_LINE_PT, NULL, 0,
                 "zoom-connector");
        put_line(L, z->band_x1, L->pb, z->box.x1, z->top, ZOOM_INK, 1.0, ZOOM_LINE_PT, NULL, 0,
                 "zoom-connector");
        tf_scene_group_end(L->s);
    }
}

/* Each zoom's band over the main plot, then its panel: its figure's
 * timeline as its own plan lays it out, moved to its place. */
static void zoom_panels(struct lay *L)
{
    for (size_t i = 0; i < L->P->n_zooms; i++) {
        const struct tf_plan_zoom *z = &L->P->zooms[i];
        const struct tf_zoom *zm = &L->f->zooms[z->zoom];
        double xs[4] = {z->band_x0, z->band_x1, z->band_x1, z->band_x0};
        double ys[4] = {L->pb, L->pb, L->pt, L->pt};
        struct tf_path band = {
            .xs = xs,
            .ys = ys,
            .n = 4,
            .closed = true,
            .has_fill = true,
            .fill = ZOOM_INK,
            .fill_opacity = ZOOM_BAND_OPACITY,
            .has_stroke = true,
            .stroke = ZOOM_INK,
            .stroke_opacity = 1.0,
            .stroke_width = ZOOM_LINE_PT,
            .cls = "zoom-band",
        };
        tf_scene_group_begin(L->s, &(struct tf_group){.cls = "zoom-band", .title = zm->spec});
        tf_scene_path(L->s, &band);
        tf_scene_group_end(L->s);
    }
    for (size_t i = 0; i < L->P->n_zooms; i++) {
        const struct tf_plan_zoom *z = &L->P->zooms[i];
        const struct tf_zoom *zm = &L->f->zooms[z->zoom];
        struct tf_scene sub;
        tf_scene_init(&sub);
        struct tf_figure drawn;
        struct lay Z;
        lay_init(&Z, zm->fig, &z->plan, &sub, &drawn);
        timeline(&Z);
        free(Z.inbar);
        tf_scene_group_begin(L->s, &(struct tf_group){.cls = "panel zoom", .title = zm->spec});
        tf_scene_append_moved(L->s, &sub, z->dx, z->dy);
        tf_scene_group_end(L->s);
        tf_scene_fini(&sub);
    }
}

/* --- the whole figure ------------------------------------------------------- */

bool tf_layout_plan(const struct tf_figure *f, const struct tf_plan *P, struct tf_scene *out)
{
    struct tf_figure drawn; /* the bars at the plan's level of detail */
    struct lay L0;
    struct lay *L = &L0;
    lay_init(L, f, P, out, &drawn);
    f = L->f;
    out->width = L->W;
    out->height = L->H;
    tf_scene_set_title(out, f->title, f->desc);
    if (P->n_zooms) {
        zoom_connectors(L);
        tf_scene_group_begin(out, &(struct tf_group){.cls = "panel main"});
    }
    timeline(L);
    if (P->n_zooms) {
        tf_scene_group_end(out);
        zoom_panels(L);
    }
    if (P->panel)
        panel(L);
    else
        bottom_legend(L);
    if (P->n_annot)
        annotation(L);
    free(L->inbar);
    return !out->oom;
}

bool tf_layout_sized(const struct tf_figure *f, const struct tf_size *size, struct tf_scene *out)
{
    struct tf_plan p;
    bool ok = tf_plan_make(f, size, &p) && tf_layout_plan(f, &p, out);
    tf_plan_fini(&p);
    return ok;
}

bool tf_layout(const struct tf_figure *f, struct tf_scene *out)
{
    return tf_layout_sized(f, NULL, out);
}
