/* remodel.c - the generic Chrome mode's part of a figure model read back
 * (rules/remodel.h): each bar's in-bar name and tooltip as names.c makes
 * them (without the args, which a model does not hold), NCCL kernels in
 * their own category, the events' times, the canvas and the description
 * as build() (mode.c) sets them.  It does not read the model.
 */
#include "rules/chrome/chrome_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

static bool bar_texts(struct tf_figure *f, struct tf_bar *b, double per, size_t nccl)
{
    const struct tf_category *c = &f->cats[b->cat];
    if (b->shape != TF_SHAPE_DENSE && nccl != SIZE_MAX && b->cat != nccl && c->name &&
        strcmp(c->name, "kernel") == 0 && tf_kernel_is_comm(b->name)) {
        b->cat = nccl;
        b->color = f->cats[nccl].color;
        b->label_color = tf_color_text_on(b->color);
        c = &f->cats[nccl];
    }
    double us = f->window_start + b->x0 * per / 1e3;
    b->start_ms = us / 1e3;
    b->dur_ms = (b->x1 - b->x0) * per / 1e6;
    struct tf_buf tip;
    tf_buf_init(&tip);
    char num[TF_NUM_MAX], num2[TF_NUM_MAX];
    const char *unit = f->axis.unit ? f->axis.unit : "";
    const char *label = c->label ? c->label : c->key;
    if (b->shape == TF_SHAPE_DENSE) {
        tf_buf_printf(&tip, "%zu %s slices \xC2\xB7 %s %s", b->merged, label,
                      tf_fmt_num(num, b->x1 - b->x0, 3), unit);
    } else {
        char shortn[128];
        tf_chrome_short_name(b->name, shortn, sizeof shortn);
        if (b->shape != TF_SHAPE_INSTANT && *shortn && !(b->label = tf_figure_str(f, shortn)))
            return false;
        size_t n = strlen(b->name);
        if (n > TF_CHROME_TIP_NAME_MAX) {
            tf_buf_putn(&tip, b->name, TF_CHROME_TIP_NAME_MAX);
            tf_buf_puts(&tip, "\xE2\x80\xA6");
        } else {
            tf_buf_puts(&tip, b->name);
        }
        if (c->name && *c->name)
            tf_buf_printf(&tip, " \xC2\xB7 %s", c->name);
        tf_buf_printf(&tip, " \xC2\xB7 at %s %s", tf_fmt_num(num, b->x0, 3), unit);
        if (b->shape != TF_SHAPE_INSTANT)
            tf_buf_printf(&tip, " \xC2\xB7 %s %s", tf_fmt_num(num2, b->x1 - b->x0, 3), unit);
    }
    b->title = tf_figure_buf(f, &tip);
    tf_buf_fini(&tip);
    return b->title != NULL;
}

/* Each lane's annotation rows (tf_lane.annot_rows), as rows.c stacks
 * them: its top rows, when they hold annotations only and the rows under
 * them the lane's other work. */
static bool annot_rows(struct tf_figure *f)
{
    size_t n = f->n_lanes;
    unsigned *top = calloc(n ? n : 1, sizeof *top);   /* rows holding annotations */
    unsigned *work = calloc(n ? n : 1, sizeof *work); /* first row of other work + 1 */
    if (!top || !work) {
        free(top);
        free(work);
        return false;
    }
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane >= n)
            continue;
        if (tf_chrome_is_annotation(f->cats[b->cat].name)) {
            if (b->row + 1 > top[b->lane])
                top[b->lane] = b->row + 1;
        } else if (!work[b->lane] || b->row + 1 < work[b->lane]) {
            work[b->lane] = b->row + 1;
        }
    }
    for (size_t i = 0; i < n; i++)
        f->lanes[i].annot_rows = top[i] && work[i] && work[i] - 1 >= top[i] ? top[i] : 0;
    free(top);
    free(work);
    return true;
}

bool tf_chrome_remodel(struct tf_figure *f)
{
    size_t nccl = SIZE_MAX;
    for (size_t i = 0; i < f->n_cats; i++)
        if (strcmp(f->cats[i].key, "cat/kernel/nccl") == 0)
            nccl = i;
    const char *u = f->axis.unit ? f->axis.unit : "ms";
    double per = strcmp(u, "s") == 0 ? 1e9 : strcmp(u, "ms") == 0 ? 1e6 : 1e3;
    for (size_t i = 0; i < f->n_bars; i++)
        if (!bar_texts(f, &f->bars[i], per, nccl))
            return false;
    if (!annot_rows(f))
        return false;
    /* The lanes' label parts, for the headers per process. */
    struct tf_buf g, n, id;
    tf_buf_init(&g);
    tf_buf_init(&n);
    tf_buf_init(&id);
    bool ok = true;
    for (size_t i = 0; ok && i < f->n_lanes; i++) {
        struct tf_lane *l = &f->lanes[i];
        tf_buf_clear(&g);
        tf_buf_clear(&n);
        tf_buf_clear(&id);
        if (l->group || !tf_chrome_split_label(l->label, &g, &n, &id))
            continue;
        ok = !g.oom && !n.oom && !id.oom && (l->group = tf_figure_buf(f, &g)) &&
             (l->name = tf_figure_buf(f, &n)) && (!id.len || (l->id = tf_figure_buf(f, &id)));
    }
    tf_buf_fini(&g);
    tf_buf_fini(&n);
    tf_buf_fini(&id);
    if (!ok)
        return false;
    f->flame = true;
    f->zigzag_amp = f->x_span * 0.004;
    tf_figure_frame_size(f, 0, (double)tf_figure_rows(f));
    char title[160];
    snprintf(title, sizeof title, "Trace timeline, %zu lane%s", f->n_lanes,
             f->n_lanes == 1 ? "" : "s");
    return tf_figure_describe(f, title, "Trace timeline");
}
