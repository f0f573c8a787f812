/* stats_ranks.c - `--stats` of a job's overview (model/figure.h, struct
 * tf_overview): the spread across its ranks as a table, and as CSV with
 * each rank's numbers too; stats.c hands such figures here.  The digits
 * are the JSON model's (render/stats_num.h).
 */
#include "render/stats_ranks.h"

#include <stdio.h>
#include <string.h>

#include "base/num.h"
#include "render/stats_num.h"

static const char *const order_text[] = {"rank", "finish", "busy"};

static double window_ms(const struct tf_figure *f)
{
    return f->x_span * tf_unit_ns(f->axis.unit) / 1e6;
}

/* "name  value[  unit]" with the names padded to w. */
static void line(struct tf_buf *b, int w, const char *name, const char *value, const char *unit)
{
    tf_buf_printf(b, "%-*s  %s%s%s\n", w, name, value, unit && *unit ? "  " : "", unit ? unit : "");
}

void tf_stats_write_table_ranks(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_overview *o = &f->overview;
    char x[TF_NUM_MAX], t[64];
    const int w = 17;
    snprintf(t, sizeof t, "%zu", o->n_ranks);
    line(b, w, "ranks", t, NULL);
    snprintf(t, sizeof t, "%zu (%zu a row, by %s)", f->n_lanes, o->per_row, order_text[o->order]);
    line(b, w, "rows", t, NULL);
    line(b, w, "lane of each rank", o->lane ? o->lane : "", NULL);
    line(b, w, "window", tf_fmt_num(x, window_ms(f), TF_STATS_MS_DEC), "ms");
    char y[TF_NUM_MAX], z[TF_NUM_MAX];
    char v[200];
    snprintf(v, sizeof v, "least %s (rank %lld), median %s, greatest %s (rank %lld)",
             tf_fmt_num(x, o->busy_min, TF_STATS_PCT_DEC), o->min_rank,
             tf_fmt_num(y, o->busy_median, TF_STATS_PCT_DEC),
             tf_fmt_num(z, o->busy_max, TF_STATS_PCT_DEC), o->max_rank);
    line(b, w, "busy %", v, NULL);
    if (!o->has_last) {
        line(b, w, "last to end", "none (no rank has a slice in the window)", NULL);
        return;
    }
    snprintf(v, sizeof v, "rank %lld at %s ms: %s ms after the median rank, %s ms after the next",
             o->last_rank, tf_fmt_num(x, o->last_end_ms, TF_STATS_MS_DEC),
             tf_fmt_num(y, o->after_median_ms, TF_STATS_MS_DEC),
             tf_fmt_num(z, o->after_next_ms, TF_STATS_MS_DEC));
    line(b, w, "last to end", v, NULL);
    tf_buf_puts(b, "\n(each rank's numbers: --stats=csv)\n");
}

/* A CSV row (no field of these needs quoting but the lane's text). */
static void row(struct tf_buf *b, const char *section, const char *rw, const char *key,
                const char *value)
{
    tf_buf_printf(b, "%s,%s,,%s,", section, rw ? rw : "", key);
    if (value && strpbrk(value, ",\"\r\n")) {
        tf_buf_putc(b, '"');
        for (const char *s = value; *s; s++) {
            if (*s == '"')
                tf_buf_putc(b, '"');
            tf_buf_putc(b, *s);
        }
        tf_buf_putc(b, '"');
    } else if (value) {
        tf_buf_puts(b, value);
    }
    tf_buf_putc(b, '\n');
}

void tf_stats_write_csv_ranks(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_overview *o = &f->overview;
    char x[TF_NUM_MAX], r[32];
    tf_buf_puts(b, "section,row,column,key,value\n");
    row(b, "window", NULL, "window_ms", tf_fmt_num(x, window_ms(f), TF_STATS_MS_DEC));
    snprintf(r, sizeof r, "%zu", o->n_ranks);
    row(b, "ranks", NULL, "count", r);
    snprintf(r, sizeof r, "%zu", f->n_lanes);
    row(b, "ranks", NULL, "rows", r);
    snprintf(r, sizeof r, "%zu", o->per_row);
    row(b, "ranks", NULL, "per_row", r);
    row(b, "ranks", NULL, "order", order_text[o->order]);
    row(b, "ranks", NULL, "lane", o->lane);
    row(b, "ranks", NULL, "busy_pct_min", tf_fmt_num(x, o->busy_min, TF_STATS_PCT_DEC));
    snprintf(r, sizeof r, "%lld", o->min_rank);
    row(b, "ranks", NULL, "busy_pct_min_rank", r);
    row(b, "ranks", NULL, "busy_pct_median", tf_fmt_num(x, o->busy_median, TF_STATS_PCT_DEC));
    row(b, "ranks", NULL, "busy_pct_max", tf_fmt_num(x, o->busy_max, TF_STATS_PCT_DEC));
    snprintf(r, sizeof r, "%lld", o->max_rank);
    row(b, "ranks", NULL, "busy_pct_max_rank", r);
    if (o->has_last) {
        snprintf(r, sizeof r, "%lld", o->last_rank);
        row(b, "ranks", NULL, "last_rank", r);
    } else {
        row(b, "ranks", NULL, "last_rank", NULL);
    }
    row(b, "ranks", NULL, "last_end_ms",
        o->has_last ? tf_fmt_num(x, o->last_end_ms, TF_STATS_MS_DEC) : NULL);
    row(b, "ranks", NULL, "after_median_ms",
        o->has_last ? tf_fmt_num(x, o->after_median_ms, TF_STATS_MS_DEC) : NULL);
    row(b, "ranks", NULL, "after_next_ms",
        o->has_last ? tf_fmt_num(x, o->after_next_ms, TF_STATS_MS_DEC) : NULL);
    for (size_t i = 0; i < o->n_ranks; i++) {
        const struct tf_rank_stat *s = &o->ranks[i];
        snprintf(r, sizeof r, "%lld", s->rank);
        char v[32];
        snprintf(v, sizeof v, "%zu", s->row);
        row(b, "rank", r, "row", v);
        row(b, "rank", r, "busy_ms", tf_fmt_num(x, s->busy_ms, TF_STATS_MS_DEC));
        row(b, "rank", r, "busy_pct",
            tf_fmt_num(x, tf_stats_pct(s->busy_ms, s->window_ms), TF_STATS_PCT_DEC));
        row(b, "rank", r, "end_ms", s->has_end ? tf_fmt_num(x, s->end_ms, TF_STATS_MS_DEC) : NULL);
    }
}
