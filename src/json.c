/* json.c - the JSON back-end: the figure model itself, schema
 * "tracefig-figure-1".  One bar, lane, legend entry or slice per line, keys
 * in a fixed order, numbers with 3 decimals (trailing zeros trimmed), so
 * two models diff cleanly in review. */
#include <stdio.h>

#include "render.h"

#define DEC 3

static void key(struct tf_buf *b, const char *k)
{
    tf_buf_json_str(b, k);
    tf_buf_puts(b, ": ");
}

static void num(struct tf_buf *b, const char *k, double v)
{
    key(b, k);
    tf_buf_num(b, v, DEC);
}

static void str(struct tf_buf *b, const char *k, const char *v)
{
    key(b, k);
    if (v)
        tf_buf_json_str(b, v);
    else
        tf_buf_puts(b, "null");
}

static void color(struct tf_buf *b, const char *k, uint32_t rgb)
{
    char c[8];
    str(b, k, tf_fmt_color(c, rgb));
}

static void boolean(struct tf_buf *b, const char *k, bool v)
{
    key(b, k);
    tf_buf_puts(b, v ? "true" : "false");
}

/* Opens a list member: "    " first, ",\n    " after. */
static void item(struct tf_buf *b, size_t i)
{
    tf_buf_puts(b, i ? ",\n    {" : "\n    {");
}

static void end_list(struct tf_buf *b, size_t n)
{
    tf_buf_puts(b, n ? "\n  ]" : "]");
}

static void bars(struct tf_buf *b, const struct tf_figure *f)
{
    tf_buf_puts(b, "  \"bars\": [");
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        item(b, i);
        str(b, "lane", f->lanes[r->lane].id);
        tf_buf_puts(b, ", ");
        str(b, "name", r->name);
        tf_buf_puts(b, ", ");
        key(b, "candidate");
        if (r->has_candidate)
            tf_buf_printf(b, "%lld", r->candidate);
        else
            tf_buf_puts(b, "null");
        tf_buf_puts(b, ", ");
        num(b, "start_ms", r->start_ms);
        tf_buf_puts(b, ", ");
        num(b, "dur_ms", r->dur_ms);
        tf_buf_puts(b, ", ");
        num(b, "x0", r->x0);
        tf_buf_puts(b, ", ");
        num(b, "x1", r->x1);
        tf_buf_puts(b, ", ");
        boolean(b, "clip_left", r->clip_left);
        tf_buf_puts(b, ", ");
        boolean(b, "clip_right", r->clip_right);
        tf_buf_puts(b, ", ");
        str(b, "label", r->has_label ? r->label : NULL);
        tf_buf_puts(b, ", ");
        color(b, "color", r->color);
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_bars);
    tf_buf_puts(b, ",\n");
}

static void breakdown(struct tf_buf *b, const struct tf_figure *f)
{
    key(b, "breakdown");
    if (!f->has_breakdown) {
        tf_buf_puts(b, "null");
        return;
    }
    const struct tf_breakdown *bd = &f->breakdown;
    tf_buf_puts(b, "{");
    key(b, "candidate");
    if (bd->has_candidate)
        tf_buf_printf(b, "%lld", bd->candidate);
    else
        tf_buf_puts(b, "null");
    tf_buf_puts(b, ", ");
    str(b, "title", bd->title);
    tf_buf_puts(b, ",\n    \"slices\": [");
    for (size_t i = 0; i < bd->n_slices; i++) {
        const struct tf_slice *s = &bd->slices[i];
        tf_buf_puts(b, i ? ",\n      {" : "\n      {");
        str(b, "key", s->key);
        tf_buf_puts(b, ", ");
        str(b, "label", s->label);
        tf_buf_puts(b, ", ");
        num(b, "pct", s->pct);
        tf_buf_puts(b, ", ");
        num(b, "width_pct", s->width_pct);
        tf_buf_puts(b, ", ");
        color(b, "color", s->color);
        tf_buf_puts(b, ", ");
        str(b, "text", s->has_text ? s->text : NULL);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, bd->n_slices ? "\n    ]}" : "]}");
}

static bool render_json(const struct tf_figure *f, const struct tf_render_opts *o,
                        struct tf_buf *b, struct tf_diag *d)
{
    (void)o;
    (void)d;
    tf_buf_puts(b, "{\n  ");
    str(b, "schema", "tracefig-figure-1");
    tf_buf_puts(b, ",\n  ");
    str(b, "mode", f->mode == TF_MODE_PYTORCH ? "pytorch" : "timeline");
    tf_buf_puts(b, ",\n  ");
    key(b, "start_candidate");
    if (f->has_start_candidate)
        tf_buf_printf(b, "%lld", f->start_candidate);
    else
        tf_buf_puts(b, "null");
    tf_buf_puts(b, ",\n  ");
    key(b, "window");
    tf_buf_putc(b, '{');
    num(b, "start_ms", f->window_start_ms);
    tf_buf_puts(b, ", ");
    num(b, "end_ms", f->window_end_ms);
    tf_buf_puts(b, "},\n  \"lanes\": [");
    for (size_t i = 0; i < f->n_lanes; i++) {
        item(b, i);
        str(b, "id", f->lanes[i].id);
        tf_buf_puts(b, ", ");
        str(b, "label", f->lanes[i].label);
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_lanes);
    tf_buf_puts(b, ",\n");
    bars(b, f);
    tf_buf_puts(b, "  \"legend\": [");
    for (size_t i = 0; i < f->n_legend; i++) {
        item(b, i);
        str(b, "label", f->legend[i].label);
        tf_buf_puts(b, ", ");
        color(b, "color", f->legend[i].color);
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_legend);
    tf_buf_puts(b, ",\n  ");
    breakdown(b, f);
    tf_buf_puts(b, ",\n  \"xticks\": [");
    int dec = tf_tick_decimals(f->xticks, f->n_xticks);
    for (size_t i = 0; i < f->n_xticks; i++) {
        if (i)
            tf_buf_puts(b, ", ");
        tf_buf_num(b, f->xticks[i], dec > DEC ? dec : DEC);
    }
    tf_buf_puts(b, "]\n}\n");
    return true;
}

const struct tf_backend tf_backend_json = {
    .name = "json",
    .exts = {".json", NULL},
    .description = "the figure model (schema tracefig-figure-1)",
    .available = true,
    .render = render_json,
};
