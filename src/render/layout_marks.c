/* layout_marks.c - see layout_marks.h. */
#include "render/layout_marks.h"

#include <math.h>
#include <stdlib.h>

#include "base/escape.h"
#include "render/metrics.h"
#include "render/style.h"

static void line(struct tf_scene *s, double x0, double y0, double x1, double y1, uint32_t c,
                 double w, const char *cls)
{
    double xs[2] = {x0, x1}, ys[2] = {y0, y1};
    struct tf_path p = {.xs = xs, .ys = ys, .n = 2, .has_stroke = true, .stroke = c,
                        .stroke_opacity = 1.0, .stroke_width = w, .cls = cls};
    tf_scene_path(s, &p);
}

/* An arrowhead at (x, y) pointing left (dir -1) or right (dir 1). */
static void head(struct tf_scene *s, double x, double y, double dir, double len, uint32_t c)
{
    double xs[3] = {x, x - dir * len, x - dir * len};
    double ys[3] = {y, y - 0.4 * len, y + 0.4 * len};
    struct tf_path p = {.xs = xs, .ys = ys, .n = 3, .closed = true, .has_fill = true,
                        .fill = c, .fill_opacity = 1.0, .cls = "mark-head"};
    tf_scene_path(s, &p);
}

static void label(struct tf_scene *s, const struct tf_plan *P, const struct tf_plan_mark *pm,
                  uint32_t c)
{
    if (!pm->text)
        return;
    if (pm->box.y0 >= P->plot.y0) {
        /* inside the plot: a light backing keeps it readable over ink */
        const struct tf_plan_box *b = &pm->box;
        double xs[4] = {b->x0 - 0.5, b->x1 + 0.5, b->x1 + 0.5, b->x0 - 0.5};
        double ys[4] = {b->y1, b->y1, b->y0, b->y0};
        struct tf_path p = {.xs = xs, .ys = ys, .n = 4, .closed = true, .has_fill = true,
                            .fill = 0xFFFFFFu, .fill_opacity = 0.85, .cls = "mark-backing"};
        tf_scene_path(s, &p);
    }
    tf_scene_label(s, (struct tf_text){.s = pm->text, .x = pm->tx, .y = pm->ty,
                                       .size = P->f_mark, .anchor = TF_ANCHOR_START, .color = c,
                                       .cls = "mark-label"});
    if (pm->leader)
        line(s, pm->lx0, pm->ly0, pm->lx1, pm->ly1, c, 0.5, "mark-leader");
}

static void one(struct tf_scene *s, const struct tf_figure *f, const struct tf_plan *P,
                const struct tf_plan_mark *pm)
{
    static const char *const cls[TF_MARK_KINDS] = {"mark span", "mark measure",
                                                   "mark callout", "mark region",
                                                   "mark highlight"};
    const struct tf_mark *mk = &f->marks[pm->mark];
    uint32_t c = mk->has_color ? mk->color : TF_MARK_INK;
    tf_scene_group_begin(s, &(struct tf_group){.cls = cls[mk->kind], .title = mk->title});
    double w = 0.7, tick_w = 0.7;
    switch (mk->kind) {
    case TF_MARK_SPAN:
        line(s, pm->x0, pm->y, pm->x1, pm->y, c, w, "mark-line");
        if (!mk->open0)
            line(s, pm->x0, pm->y, pm->x0, pm->y1, c, tick_w, "mark-tick");
        if (!mk->open1)
            line(s, pm->x1, pm->y, pm->x1, pm->y1, c, tick_w, "mark-tick");
        break;
    case TF_MARK_MEASURE: {
        double len = fmin(3.0, (pm->x1 - pm->x0) / 2);
        line(s, pm->x0, pm->y, pm->x1, pm->y, c, 0.6, "mark-line");
        if (!mk->open0) {
            line(s, pm->x0, pm->y0, pm->x0, pm->y1, c, 0.5, "mark-tick");
            if (len > 0.5)
                head(s, pm->x0, pm->y, -1, len, c);
        }
        if (!mk->open1) {
            line(s, pm->x1, pm->y0, pm->x1, pm->y1, c, 0.5, "mark-tick");
            if (len > 0.5)
                head(s, pm->x1, pm->y, 1, len, c);
        }
        break;
    }
    case TF_MARK_REGION: {
        double xs[4] = {pm->x0, pm->x1, pm->x1, pm->x0}, ys[4] = {pm->y1, pm->y1, pm->y, pm->y};
        struct tf_path p = {.xs = xs, .ys = ys, .n = 4, .closed = true, .has_fill = true,
                            .fill = mk->has_color ? mk->color : TF_MARK_REGION_FILL,
                            .fill_opacity = TF_MARK_REGION_OPACITY, .cls = "mark-band"};
        tf_scene_path(s, &p);
        break;
    }
    default:
        break;
    }
    if (mk->kind != TF_MARK_CALLOUT || pm->y >= 0)
        label(s, P, pm, c);
    tf_scene_group_end(s);
}

void tf_layout_marks(struct tf_scene *s, const struct tf_figure *f, const struct tf_plan *P)
{
    if (!P->n_marks)
        return;
    tf_scene_group_begin(s, &(struct tf_group){.cls = "marks"});
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < P->n_marks; i++) {
            const struct tf_plan_mark *pm = &P->marks[i];
            if ((f->marks[pm->mark].kind == TF_MARK_REGION) == (pass == 0))
                one(s, f, P, pm);
        }
    tf_scene_group_end(s);
}
