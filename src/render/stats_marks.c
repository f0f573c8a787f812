/* stats_marks.c - the "marks" table of --stats (render/stats.h): each
 * span, measure and region with its start, end and duration, in ms from
 * the window's start, as an aligned table and as CSV rows.
 */
#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "render/stats.h"
#include "render/stats_int.h"

static bool listed(const struct tf_mark *m)
{
    return m->kind == TF_MARK_SPAN || m->kind == TF_MARK_MEASURE || m->kind == TF_MARK_REGION;
}

/* Axis units to ms. */
static double axis_ms(const struct tf_figure *f, double v)
{
    return v * tf_unit_ns(f->axis.unit) / 1e6;
}

void tf_stats_marks_csv(const struct tf_figure *f, struct tf_buf *b)
{
    /* a figure of several traces has a value column per trace (and the
     * difference of two): the marks' values go in the first */
    size_t extra = f->n_traces ? f->n_traces - 1 + (f->n_traces == 2) : 0;
    for (size_t i = 0; i < f->n_marks; i++) {
        const struct tf_mark *m = &f->marks[i];
        if (!listed(m))
            continue;
        char row[64], v[TF_NUM_MAX];
        snprintf(row, sizeof row, "%zu %s", i + 1, tf_mark_kind_names[m->kind]);
        const char *keys[4] = {"text", "start_ms", "end_ms", "dur_ms"};
        for (int k = 0; k < 4; k++) {
            tf_buf_puts(b, "marks,");
            tf_stats_field(b, row);
            tf_buf_puts(b, ",,");
            tf_buf_puts(b, keys[k]);
            tf_buf_putc(b, ',');
            if (k == 0)
                tf_stats_field(b, m->text ? m->text : "");
            else
                tf_buf_puts(b, tf_fmt_num(v, axis_ms(f, k == 1 ? m->t0 : k == 2 ? m->t1 : m->dur), 6));
            for (size_t e = 0; e < extra; e++)
                tf_buf_putc(b, ',');
            tf_buf_putc(b, '\n');
        }
    }
}

void tf_stats_marks_table(const struct tf_figure *f, struct tf_buf *b)
{
    size_t n = 0, wt = 4;
    for (size_t i = 0; i < f->n_marks; i++)
        if (listed(&f->marks[i])) {
            n++;
            size_t l = f->marks[i].text ? strlen(f->marks[i].text) : 1;
            wt = l > wt ? l : wt;
        }
    if (!n)
        return;
    wt = wt > 40 ? 40 : wt;
    tf_buf_printf(b, "\nmarks\n%-3s %-8s %-*s %12s %12s %12s\n", "#", "kind", (int)wt, "text",
                  "start (ms)", "end (ms)", "dur (ms)");
    for (size_t i = 0; i < f->n_marks; i++) {
        const struct tf_mark *m = &f->marks[i];
        if (!listed(m))
            continue;
        char a[TF_NUM_MAX], c[TF_NUM_MAX], d[TF_NUM_MAX];
        tf_buf_printf(b, "%-3zu %-8s %-*.*s %12s %12s %12s\n", i + 1, tf_mark_kind_names[m->kind],
                      (int)wt, (int)wt, m->text ? m->text : "-", tf_fmt_num(a, axis_ms(f, m->t0), 3),
                      tf_fmt_num(c, axis_ms(f, m->t1), 3), tf_fmt_num(d, axis_ms(f, m->dur), 3));
    }
}
