/* stats.c (render) - `--stats` and `--stats=csv`: the figure's overlap
 * statistics as an aligned text table or as CSV; see render/stats.h.
 *
 * Every number goes through tf_fmt_num with the decimals of
 * render/stats.h, as in the JSON model, so the three outputs agree digit
 * for digit.  Columns are aligned by characters (UTF-8 code points), not
 * bytes; control characters in labels print as spaces in the table and
 * stay as they are (quoted) in the CSV.
 */
#include "render/stats.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/utf8.h"

double tf_stats_pct(double part, double whole)
{
    return whole > 0 ? 100.0 * part / whole : 0.0;
}

static const char *ms(char out[TF_NUM_MAX], double v)
{
    return tf_fmt_num(out, v, TF_STATS_MS_DEC);
}

static const char *pct(char out[TF_NUM_MAX], double v)
{
    return tf_fmt_num(out, v, TF_STATS_PCT_DEC);
}

/* --- an aligned table ----------------------------------------------------------- */

enum { MAX_COLS = 64 };

/* Cells row by row; column 0 is left-aligned, the others right-aligned
 * (their text is numbers) unless `left` says otherwise. */
struct table {
    struct tf_arena arena;
    const char **cells;
    size_t n, cap, ncol;
    bool left[MAX_COLS];
    bool oom;
};

static void table_init(struct table *t, size_t ncol)
{
    memset(t, 0, sizeof *t);
    tf_arena_init(&t->arena);
    t->ncol = ncol < 1 ? 1 : ncol > MAX_COLS ? MAX_COLS : ncol;
    t->left[0] = true;
}

static void cell(struct table *t, const char *s)
{
    char *c = tf_arena_strdup(&t->arena, s ? s : "");
    if (!c || !TF_GROW(t->cells, t->n, t->cap)) {
        t->oom = true;
        return;
    }
    for (char *p = c; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7F)
            *p = ' ';
    t->cells[t->n++] = c;
}

static size_t width(const char *s)
{
    size_t w = 0;
    uint32_t cp;
    for (size_t len; (len = tf_utf8_next((const unsigned char *)s, &cp)) > 0; s += len)
        w++;
    return w;
}

static void pad(struct tf_buf *b, size_t n)
{
    while (n--)
        tf_buf_putc(b, ' ');
}

/* The characters from a number's decimal point to its end (0: none), so
 * that numbers whose trailing zeros were trimmed still align on the point;
 * SIZE_MAX for a cell that is not a number. */
static size_t frac(const char *s)
{
    if (!((*s >= '0' && *s <= '9') || (*s == '-' && s[1] >= '0' && s[1] <= '9')))
        return SIZE_MAX;
    const char *dot = strchr(s, '.');
    return dot ? strlen(dot) : 0;
}

/* Writes the table (two spaces between columns, numbers aligned on their
 * decimal point, no trailing blanks) and empties it. */
static void table_flush(struct table *t, struct tf_buf *b)
{
    if (t->oom) {
        b->oom = true;
    } else {
        size_t w[MAX_COLS] = {0}, fw[MAX_COLS] = {0};
        for (size_t i = 0; i < t->n; i++) {
            size_t c = i % t->ncol, f = frac(t->cells[i]);
            if (!t->left[c] && f != SIZE_MAX && f > fw[c])
                fw[c] = f;
        }
        for (size_t i = 0; i < t->n; i++) {
            size_t c = i % t->ncol, f = frac(t->cells[i]), cw = width(t->cells[i]);
            if (!t->left[c] && f != SIZE_MAX)
                cw += fw[c] - f;
            if (cw > w[c])
                w[c] = cw;
        }
        struct tf_buf line;
        tf_buf_init(&line);
        for (size_t r = 0; r * t->ncol < t->n; r++) {
            tf_buf_clear(&line);
            for (size_t c = 0; c < t->ncol && r * t->ncol + c < t->n; c++) {
                const char *s = t->cells[r * t->ncol + c];
                size_t f = frac(s), tail = !t->left[c] && f != SIZE_MAX ? fw[c] - f : 0;
                size_t gap = w[c] - width(s) - tail;
                if (c > 0)
                    tf_buf_puts(&line, "  ");
                if (!t->left[c])
                    pad(&line, gap);
                tf_buf_puts(&line, s);
                pad(&line, t->left[c] ? gap : tail);
            }
            while (line.len > 0 && line.data[line.len - 1] == ' ')
                line.data[--line.len] = '\0';
            tf_buf_puts(b, line.len ? line.data : "");
            tf_buf_putc(b, '\n');
        }
        if (line.oom)
            b->oom = true;
        tf_buf_fini(&line);
    }
    free(t->cells);
    tf_arena_fini(&t->arena);
}

/* --- the text table --------------------------------------------------------------- */

static void lanes_text(char *out, size_t n, const struct tf_stat_group *g)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n_lanes && len + 24 < n; i++)
        len += (size_t)snprintf(out + len, n - len, i ? " %zu" : "%zu", g->lanes[i]);
    if (g->n_lanes && len + 24 >= n)
        snprintf(out + len, n - len, " ...");
}

void tf_stats_write_table(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX], lanes[256];
    if (!s->on) {
        tf_buf_puts(b, "no statistics for this figure\n");
        return;
    }
    struct table t;

    table_init(&t, 3);
    cell(&t, "window");
    cell(&t, ms(x, s->window_ms));
    cell(&t, "ms");
    t.left[2] = true;
    table_flush(&t, b);

    tf_buf_putc(b, '\n');
    table_init(&t, 4);
    cell(&t, "lane");
    cell(&t, "#");
    cell(&t, "busy ms");
    cell(&t, "busy %");
    for (size_t i = 0; i < f->n_lanes; i++) {
        char idx[32];
        snprintf(idx, sizeof idx, "%zu", i);
        cell(&t, f->lanes[i].label);
        cell(&t, idx);
        cell(&t, ms(x, s->lane_busy_ms[i]));
        cell(&t, pct(y, tf_stats_pct(s->lane_busy_ms[i], s->window_ms)));
    }
    table_flush(&t, b);

    if (s->n_groups) {
        tf_buf_putc(b, '\n');
        table_init(&t, 4);
        t.left[1] = true;
        cell(&t, "group");
        cell(&t, "lanes");
        cell(&t, "busy ms");
        cell(&t, "busy %");
        for (size_t g = 0; g < s->n_groups; g++) {
            lanes_text(lanes, sizeof lanes, &s->groups[g]);
            cell(&t, s->groups[g].label);
            cell(&t, s->groups[g].n_lanes ? lanes : "-");
            cell(&t, ms(x, s->groups[g].busy_ms));
            cell(&t, pct(y, tf_stats_pct(s->groups[g].busy_ms, s->window_ms)));
        }
        table_flush(&t, b);

        tf_buf_putc(b, '\n');
        table_init(&t, s->n_groups + 1);
        cell(&t, "overlap ms");
        for (size_t g = 0; g < s->n_groups; g++)
            cell(&t, s->groups[g].label);
        for (size_t a = 0; a < s->n_groups; a++) {
            cell(&t, s->groups[a].label);
            for (size_t c = 0; c < s->n_groups; c++)
                cell(&t, ms(x, s->overlap_ms[a * s->n_groups + c]));
        }
        table_flush(&t, b);
    }

    if (s->pipelined) {
        tf_buf_putc(b, '\n');
        table_init(&t, 3);
        t.left[2] = true;
        cell(&t, "I/O hidden");
        cell(&t, s->has_io_hidden ? pct(x, s->io_hidden_pct) : "-");
        cell(&t, s->has_io_hidden ? "%" : "(no I/O in the window)");
        cell(&t, "GPU idle");
        cell(&t, ms(x, s->gpu_idle_ms));
        cell(&t, "ms");
        table_flush(&t, b);
        if (s->n_candidates) {
            tf_buf_putc(b, '\n');
            table_init(&t, 3);
            cell(&t, "candidate");
            cell(&t, "I/O ms");
            cell(&t, "uncovered I/O ms");
            for (size_t i = 0; i < s->n_candidates; i++) {
                char c[32];
                snprintf(c, sizeof c, "%lld", s->candidates[i].candidate);
                cell(&t, c);
                cell(&t, ms(x, s->candidates[i].io_ms));
                cell(&t, ms(y, s->candidates[i].uncovered_io_ms));
            }
            table_flush(&t, b);
        }
    }

    if (s->has_gpu) {
        const struct tf_gpu_breakdown *g = &s->gpu;
        tf_buf_printf(b, "\nGPU breakdown (%s%s)\n", g->scope_trace ? "trace" : "window",
                      s->compat ? ", as HTA computes it" : "");
        table_init(&t, 3);
        t.left[2] = true;
        cell(&t, "kernel span");
        cell(&t, ms(x, g->kernel_span_ms));
        cell(&t, "ms");
        cell(&t, "idle");
        cell(&t, ms(x, g->idle_ms));
        cell(&t, "ms");
        cell(&t, "compute");
        cell(&t, ms(x, g->compute_ms));
        cell(&t, "ms");
        cell(&t, "non-compute");
        cell(&t, ms(x, g->non_compute_ms));
        cell(&t, "ms");
        cell(&t, "communication");
        cell(&t, ms(x, g->comm_ms));
        cell(&t, "ms");
        cell(&t, "comm/compute overlap");
        cell(&t, g->has_comm ? pct(x, g->comm_comp_overlap_pct) : "-");
        cell(&t, g->has_comm ? "%" : "(no communication kernels)");
        table_flush(&t, b);
    }

    if (s->summary)
        tf_buf_printf(b, "\nsummary: %s\n", s->summary);
}

/* --- CSV ---------------------------------------------------------------------------- */

/* A field, quoted when it holds a comma, a quote, CR or LF. */
static void field(struct tf_buf *b, const char *s)
{
    if (!s)
        return;
    if (!strpbrk(s, ",\"\r\n")) {
        tf_buf_puts(b, s);
        return;
    }
    tf_buf_putc(b, '"');
    for (; *s; s++) {
        if (*s == '"')
            tf_buf_putc(b, '"');
        tf_buf_putc(b, *s);
    }
    tf_buf_putc(b, '"');
}

static void row(struct tf_buf *b, const char *section, const char *r, const char *c,
                const char *key, const char *value)
{
    field(b, section);
    tf_buf_putc(b, ',');
    field(b, r);
    tf_buf_putc(b, ',');
    field(b, c);
    tf_buf_putc(b, ',');
    field(b, key);
    tf_buf_putc(b, ',');
    field(b, value);
    tf_buf_putc(b, '\n');
}

void tf_stats_write_csv(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], lanes[256], c[32];
    tf_buf_puts(b, "section,row,column,key,value\n");
    if (!s->on)
        return;
    row(b, "window", NULL, NULL, "window_ms", ms(x, s->window_ms));
    for (size_t i = 0; i < f->n_lanes; i++) {
        row(b, "lane", f->lanes[i].label, NULL, "busy_ms", ms(x, s->lane_busy_ms[i]));
        row(b, "lane", f->lanes[i].label, NULL, "busy_pct",
            pct(x, tf_stats_pct(s->lane_busy_ms[i], s->window_ms)));
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        lanes_text(lanes, sizeof lanes, &s->groups[g]);
        row(b, "group", s->groups[g].label, NULL, "lanes", lanes);
        row(b, "group", s->groups[g].label, NULL, "busy_ms", ms(x, s->groups[g].busy_ms));
        row(b, "group", s->groups[g].label, NULL, "busy_pct",
            pct(x, tf_stats_pct(s->groups[g].busy_ms, s->window_ms)));
    }
    for (size_t a = 0; a < s->n_groups; a++)
        for (size_t k = 0; k < s->n_groups; k++)
            row(b, "overlap", s->groups[a].label, s->groups[k].label, "overlap_ms",
                ms(x, s->overlap_ms[a * s->n_groups + k]));
    if (s->pipelined) {
        row(b, "pipelined", NULL, NULL, "io_hidden_pct",
            s->has_io_hidden ? pct(x, s->io_hidden_pct) : NULL);
        row(b, "pipelined", NULL, NULL, "gpu_idle_ms", ms(x, s->gpu_idle_ms));
        for (size_t i = 0; i < s->n_candidates; i++) {
            snprintf(c, sizeof c, "%lld", s->candidates[i].candidate);
            row(b, "candidate", c, NULL, "io_ms", ms(x, s->candidates[i].io_ms));
            row(b, "candidate", c, NULL, "uncovered_io_ms",
                ms(x, s->candidates[i].uncovered_io_ms));
        }
    }
    if (s->has_gpu) {
        const struct tf_gpu_breakdown *g = &s->gpu;
        if (s->compat)
            row(b, "gpu_breakdown", NULL, NULL, "compat", s->compat);
        row(b, "gpu_breakdown", NULL, NULL, "scope", g->scope_trace ? "trace" : "window");
        row(b, "gpu_breakdown", NULL, NULL, "kernel_span_ms", ms(x, g->kernel_span_ms));
        row(b, "gpu_breakdown", NULL, NULL, "idle_ms", ms(x, g->idle_ms));
        row(b, "gpu_breakdown", NULL, NULL, "compute_ms", ms(x, g->compute_ms));
        row(b, "gpu_breakdown", NULL, NULL, "non_compute_ms", ms(x, g->non_compute_ms));
        row(b, "gpu_breakdown", NULL, NULL, "comm_ms", ms(x, g->comm_ms));
        row(b, "gpu_breakdown", NULL, NULL, "comm_comp_overlap_pct",
            g->has_comm ? pct(x, g->comm_comp_overlap_pct) : NULL);
    }
    if (s->summary)
        row(b, "summary", NULL, NULL, "summary", s->summary);
}
