/* layout_counters.c - a counter lane's primitives (layout_counters.h):
 * its step line in stretches, the light area under it, and its scale's
 * labels on a backdrop.  What the plan placed (the band, the labels'
 * texts) is drawn; nothing is decided here.
 */
#include "render/layout_counters.h"

#include <math.h>
#include <stdlib.h>

#include "base/buf.h"
#include "base/escape.h"
#include "render/metrics.h"
#include "render/style.h"

/* What the counters are drawn with: the figure, the plan, the scene, and
 * the plot's x range over the axis' span. */
struct clay {
    const struct tf_figure *f;
    const struct tf_plan *P;
    struct tf_scene *s;
    double pl, pr, span;
};

static double xpt(const struct clay *L, double ms)
{
    return L->pl + ms / L->span * (L->pr - L->pl);
}

static double text_h(const struct clay *L, double size)
{
    return tf_text_ascent(size, L->P->bold) + tf_text_descent(size, L->P->bold);
}

/* Text enters the scene clean, as layout.c puts it. */
static void put_text(struct clay *L, const char *raw, double x, double baseline, double size,
                     enum tf_anchor anchor, uint32_t color, const char *cls)
{
    tf_scene_label(L->s, (struct tf_text){.s = raw, .x = x, .y = baseline, .size = size,
                                          .bold = L->P->bold, .anchor = anchor, .color = color,
                                          .cls = cls});
}

#define COUNTER_LINE_W 0.5
#define COUNTER_AREA_OPACITY 0.25

/* One stretch of a counter with a value, samples [a, b), ending at x_end
 * (axis units): the light area under its step line, then the line. */
static void counter_run(struct clay *L, const struct tf_counter *k, size_t a, size_t b,
                        double x_end, double top, double h)
{
    size_t n = 2 * (b - a) + 2;
    double *xs = malloc(n * sizeof *xs), *ys = malloc(n * sizeof *ys);
    if (!xs || !ys) {
        free(xs);
        free(ys);
        L->s->oom = true;
        return;
    }
    size_t m = 0;
    for (size_t i = a; i < b; i++) {
        double y = top + h * tf_plan_counter_y(k, k->samples[i].v);
        double x1 = xpt(L, i + 1 < b ? k->samples[i + 1].x : x_end);
        xs[m] = xpt(L, k->samples[i].x);
        ys[m++] = y;
        xs[m] = x1;
        ys[m++] = y;
    }
    double base = top + h;
    xs[m] = xs[m - 1];
    ys[m++] = base;
    xs[m] = xs[0];
    ys[m++] = base;
    struct tf_path area = {
        .xs = xs,
        .ys = ys,
        .n = m,
        .closed = true,
        .has_fill = true,
        .fill = k->color,
        .fill_opacity = COUNTER_AREA_OPACITY,
        .cls = "counter-area",
    };
    tf_scene_path(L->s, &area);
    struct tf_path line = {
        .xs = xs,
        .ys = ys,
        .n = m - 2,
        .has_stroke = true,
        .stroke = k->color,
        .stroke_opacity = 1.0,
        .stroke_width = COUNTER_LINE_W,
        .join = TF_JOIN_MITER,
        .cls = "counter-line",
    };
    tf_scene_path(L->s, &line);
    free(xs);
    free(ys);
}

/* A scale label of a counter, its box's top at y, right-aligned at the
 * plot's end, on a light backdrop so that the line does not cross it. */
static void counter_value(struct clay *L, const char *text, double y)
{
    double size = L->P->f_counter, x1 = L->pr - 1.0;
    double w = tf_text_width(text, size, L->P->bold);
    double xs[4] = {x1 - w - 1.0, x1 + 0.5, x1 + 0.5, x1 - w - 1.0};
    double ys[4] = {y, y, y + text_h(L, size), y + text_h(L, size)};
    struct tf_path bg = {
        .xs = xs,
        .ys = ys,
        .n = 4,
        .closed = true,
        .has_fill = true,
        .fill = TF_COLOR_WHITE,
        .fill_opacity = 0.75,
        .cls = "counter-backdrop",
    };
    tf_scene_path(L->s, &bg);
    put_text(L, text, x1, y + tf_text_ascent(size, L->P->bold), size, TF_ANCHOR_END, tf_style.text,
             "tick");
}

/* A counter lane: its step line in stretches (a stop breaks it), and its
 * scale's labels at the band's right end. */
static void counter_lane(struct clay *L, size_t lane)
{
    const struct tf_lane *ln = &L->f->lanes[lane];
    const struct tf_counter *k = &ln->counter;
    const struct tf_plan_lane *pl = &L->P->lanes[lane];
    double top = pl->top, h = pl->bottom - pl->top;
    struct tf_buf title;
    tf_buf_init(&title);
    tf_buf_puts(&title, ln->label ? ln->label : "");
    if (pl->hi_text)
        tf_buf_printf(&title, ": %s%s%s", pl->lo_text ? pl->lo_text : "",
                      pl->lo_text ? " to " : "", pl->hi_text);
    tf_scene_group_begin(L->s, &(struct tf_group){.cls = "counter",
                                                   .title = title.oom ? NULL : title.data});
    for (size_t i = 0; i < k->n_samples;) {
        if (isnan(k->samples[i].v)) {
            i++;
            continue;
        }
        size_t j = i + 1;
        while (j < k->n_samples && !isnan(k->samples[j].v))
            j++;
        double x_end = j < k->n_samples ? k->samples[j].x : L->f->x_span;
        counter_run(L, k, i, j, x_end, top, h);
        i = j;
    }
    if (pl->hi_text)
        counter_value(L, pl->hi_text, top + 0.5);
    if (pl->lo_text)
        counter_value(L, pl->lo_text, pl->bottom - 0.5 - text_h(L, L->P->f_counter));
    tf_scene_group_end(L->s);
    tf_buf_fini(&title);
}

void tf_layout_counters(struct tf_scene *s, const struct tf_figure *f, const struct tf_plan *P)
{
    struct clay L = {f, P, s, P->plot.x0, P->plot.x1, f->x_span > 0 ? f->x_span : 1.0};
    for (size_t i = 0; i < P->n_lanes; i++)
        if (f->lanes[i].kind == TF_LANE_COUNTER)
            counter_lane(&L, i);
}
