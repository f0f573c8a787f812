/* json_int.h - the JSON back-end's small writers (json.c, json_marks.c):
 * a key, a number with DEC decimals, a string or null, a colour, a
 * boolean, a list's items, a property, and the statistics' digits.
 * Private to render/json*.c.
 */
#ifndef TF_RENDER_JSON_INT_H
#define TF_RENDER_JSON_INT_H

#include <stdbool.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/escape.h"
#include "base/num.h"
#include "model/figure.h"
#include "render/plan.h"
#include "render/stats_num.h"

#define DEC 3

static inline void key(struct tf_buf *b, const char *k)
{
    tf_buf_json_str(b, k);
    tf_buf_puts(b, ": ");
}

static inline void num(struct tf_buf *b, const char *k, double v)
{
    key(b, k);
    tf_buf_num(b, v, DEC);
}

static inline void str(struct tf_buf *b, const char *k, const char *v)
{
    key(b, k);
    if (v)
        tf_buf_json_str(b, v);
    else
        tf_buf_puts(b, "null");
}

static inline void color(struct tf_buf *b, const char *k, uint32_t rgb)
{
    char c[8];
    str(b, k, tf_fmt_color(c, rgb));
}

static inline void boolean(struct tf_buf *b, const char *k, bool v)
{
    key(b, k);
    tf_buf_puts(b, v ? "true" : "false");
}

/* Opens a list member: "    " first, ",\n    " after. */
static inline void item(struct tf_buf *b, size_t i)
{
    tf_buf_puts(b, i ? ",\n    {" : "\n    {");
}

static inline void end_list(struct tf_buf *b, size_t n)
{
    tf_buf_puts(b, n ? "\n  ]" : "]");
}

/* A property: its key, and its value as a number, a string or null. */
static inline void prop(struct tf_buf *b, const char *k, const struct tf_prop *p)
{
    key(b, k);
    if (!p || !p->value)
        tf_buf_puts(b, "null");
    else if (p->number)
        tf_buf_puts(b, p->value);
    else
        tf_buf_json_str(b, p->value);
}

/* A time (ms) or share (%) of the statistics: the digits --stats prints. */
static inline void stat_ms(struct tf_buf *b, const char *k, double v)
{
    key(b, k);
    tf_buf_num(b, v, TF_STATS_MS_DEC);
}

/* The same with decimals of its own (tf_stats_ms_dec). */
static inline void stat_msd(struct tf_buf *b, const char *k, double v, int dec)
{
    key(b, k);
    tf_buf_num(b, v, dec);
}

static inline void stat_pct(struct tf_buf *b, const char *k, double v, bool defined)
{
    key(b, k);
    if (defined)
        tf_buf_num(b, v, TF_STATS_PCT_DEC);
    else
        tf_buf_puts(b, "null");
}

/* "k": [strings]. */
static inline void strings(struct tf_buf *b, const char *k, const char *const *v, size_t n)
{
    key(b, k);
    tf_buf_putc(b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            tf_buf_puts(b, ", ");
        tf_buf_json_str(b, v[i]);
    }
    tf_buf_putc(b, ']');
}

/* A category as the model names it: the trace's name, else its key. */
static inline const char *cat_name(const struct tf_category *c)
{
    return c->name ? c->name : c->key;
}

/* json_marks.c: "marks" (the resolved marks), the layout's "marks" (where
 * the plan put them) and "critical_path". */
void tf_json_marks(struct tf_buf *b, const struct tf_figure *f);
void tf_json_layout_marks(struct tf_buf *b, const struct tf_figure *f, const struct tf_plan *p);
void tf_json_critical_path(struct tf_buf *b, const struct tf_figure *f);

/* json_zoom.c: schema 2's "axis", "bars" and "arrows" (of the figure or a
 * zoom), "zooms" and the layout's "zooms". */
void tf_json_axis(struct tf_buf *b, const struct tf_figure *f);
void tf_json_bars(struct tf_buf *b, const struct tf_figure *f);
void tf_json_zooms(struct tf_buf *b, const struct tf_figure *f);
void tf_json_layout_zooms(struct tf_buf *b, const struct tf_plan *p);

#endif
