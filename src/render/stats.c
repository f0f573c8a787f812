/* stats.c (render) - `--stats` and `--stats=csv`: the figure's overlap
 * statistics as an aligned text table or as CSV; see render/stats.h.
 *
 * Every number goes through tf_fmt_num with the decimals of
 * render/stats_num.h, as in the JSON model, so the three outputs agree digit
 * for digit.  Columns are aligned by characters (UTF-8 code points), not
 * bytes; control characters in labels print as spaces in the table and
 * stay as they are (quoted) in the CSV.
 */
#include "render/stats.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "base/utf8.h"
#include "render/stats_ranks.h"

int tf_stats_value_decimals(double lo, double hi)
{
    double m = fabs(lo) > fabs(hi) ? fabs(lo) : fabs(hi);
    if (!isfinite(m) || m == 0)
        return 0;
    /* 10^k <= m, by multiplying (exact for these powers), not log10. */
    int k = 0;
    double p = 1;
    while (k < 20 && p * 10 <= m)
        p *= 10, k++;
    while (k > -10 && p > m)
        p /= 10, k--;
    int dec = 5 - k;
    return dec < 0 ? 0 : dec > 9 ? 9 : dec;
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

enum { MAX_COLS = 1100 }; /* a thousand traces side by side */

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

/* An HPC job's paradigms: the time in each, summed over the ranks, and its
 * share of their summed busy time. */
static void paradigm_table(struct tf_buf *b, const struct tf_stats *s)
{
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    double busy = 0;
    for (size_t g = 0; g < s->n_groups; g++)
        busy += s->groups[g].has_mpi ? s->groups[g].busy_ms : 0;
    struct table t;
    tf_buf_putc(b, '\n');
    table_init(&t, 3);
    cell(&t, "paradigm");
    cell(&t, "ms (all ranks)");
    cell(&t, "% of busy");
    for (size_t k = 0; k < s->n_paradigms; k++) {
        cell(&t, s->paradigms[k].name);
        cell(&t, ms(x, s->paradigms[k].ms));
        cell(&t, pct(y, tf_stats_pct(s->paradigms[k].ms, busy)));
    }
    table_flush(&t, b);
}

/* A system trace's CPU lanes: their utilisation, and each process's time
 * on the CPUs, with its share of the CPUs' busy time. */
static void cpu_table(struct tf_buf *b, const struct tf_stats *s)
{
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    double all = 0;
    for (size_t k = 0; k < s->n_cpu_procs; k++)
        all += s->cpu_procs[k].ms;
    struct table t;
    tf_buf_putc(b, '\n');
    if (s->n_cpus) {
        tf_buf_printf(b, "CPU utilisation  %s %% of %zu CPU%s\n",
                      pct(x, tf_stats_pct(s->cpu_busy_ms, s->window_ms * (double)s->n_cpus)),
                      s->n_cpus, s->n_cpus == 1 ? "" : "s");
        tf_buf_putc(b, '\n');
    }
    table_init(&t, 3);
    cell(&t, "process on CPUs");
    cell(&t, "CPU ms");
    cell(&t, "% of CPU time");
    for (size_t k = 0; k < s->n_cpu_procs; k++) {
        cell(&t, s->cpu_procs[k].name);
        cell(&t, ms(x, s->cpu_procs[k].ms));
        cell(&t, pct(y, tf_stats_pct(s->cpu_procs[k].ms, all)));
    }
    table_flush(&t, b);
}

static void lanes_text(char *out, size_t n, const struct tf_stat_group *g)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n_lanes && len + 24 < n; i++)
        len += (size_t)snprintf(out + len, n - len, i ? " %zu" : "%zu", g->lanes[i]);
    if (g->n_lanes && len + 24 >= n)
        snprintf(out + len, n - len, " ...");
}

/* The window, and each lane's busy time. */
static void table_lanes(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;

    table_init(&t, 3);
    cell(&t, "window");
    cell(&t, ms(x, s->window_ms));
    cell(&t, "ms");
    t.left[2] = true;
    table_flush(&t, b);

    tf_buf_putc(b, '\n');
    bool events = false;
    for (size_t i = 0; i < f->n_lanes; i++)
        events = events || f->lanes[i].has_events;
    table_init(&t, events ? 5 : 4);
    cell(&t, "lane");
    cell(&t, "#");
    cell(&t, "busy ms");
    cell(&t, "busy %");
    if (events)
        cell(&t, "events");
    for (size_t i = 0; i < f->n_lanes; i++) {
        char idx[32], n[32];
        if (f->lanes[i].kind == TF_LANE_COUNTER)
            continue; /* in the counters' table */
        snprintf(idx, sizeof idx, "%zu", i);
        cell(&t, f->lanes[i].label);
        cell(&t, idx);
        cell(&t, ms(x, s->lane_busy_ms[i]));
        cell(&t, pct(y, tf_stats_pct(s->lane_busy_ms[i], s->window_ms)));
        if (events) {
            snprintf(n, sizeof n, "%zu", f->lanes[i].events);
            cell(&t, f->lanes[i].has_events ? n : "-");
        }
    }
    table_flush(&t, b);
}

/* The --group groups' (an HPC job's ranks') busy time, with their time in
 * MPI when any has some, the paradigms, and the groups' overlap matrix. */
static void table_groups(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
    char lanes[256];
    tf_buf_putc(b, '\n');
    bool mpi = false;
    for (size_t g = 0; g < s->n_groups; g++)
        mpi |= s->groups[g].has_mpi;
    table_init(&t, mpi ? 6 : 4);
    t.left[1] = true;
    cell(&t, "group");
    cell(&t, "lanes");
    cell(&t, "busy ms");
    cell(&t, "busy %");
    if (mpi) {
        cell(&t, "MPI ms");
        cell(&t, "MPI % of busy");
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct tf_stat_group *gr = &s->groups[g];
        lanes_text(lanes, sizeof lanes, gr);
        cell(&t, gr->label);
        cell(&t, gr->n_lanes ? lanes : "-");
        cell(&t, ms(x, gr->busy_ms));
        cell(&t, pct(y, tf_stats_pct(gr->busy_ms, s->window_ms)));
        if (mpi) {
            cell(&t, gr->has_mpi ? ms(x, gr->mpi_ms) : "-");
            cell(&t, gr->has_mpi ? pct(y, tf_stats_pct(gr->mpi_ms, gr->busy_ms)) : "-");
        }
    }
    table_flush(&t, b);
    if (s->n_paradigms)
        paradigm_table(b, s);
    if (s->n_cpu_procs)
        cpu_table(b, s);

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

/* Each counter's least, greatest and mean value. */
static void table_counters(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
    tf_buf_putc(b, '\n');
    table_init(&t, 5);
    cell(&t, "counter");
    cell(&t, "#");
    cell(&t, "min");
    cell(&t, "max");
    cell(&t, "mean");
    for (size_t i = 0; i < s->n_counters; i++) {
        const struct tf_stat_counter *k = &s->counters[i];
        char idx[32], z[TF_NUM_MAX];
        int dec = tf_stats_value_decimals(k->min, k->max);
        snprintf(idx, sizeof idx, "%zu", k->lane);
        cell(&t, k->lane < f->n_lanes ? f->lanes[k->lane].label : "");
        cell(&t, idx);
        cell(&t, k->has_value ? tf_fmt_num(x, k->min, dec) : "-");
        cell(&t, k->has_value ? tf_fmt_num(y, k->max, dec) : "-");
        cell(&t, k->has_value ? tf_fmt_num(z, k->mean, dec) : "-");
    }
    table_flush(&t, b);
}

/* The pipelined modes' I/O hidden and GPU idle, and the candidates. */
static void table_pipelined(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
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

/* The devices the trace names: kind, name, vendor ("-" unknown). */
static void table_devices(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    struct table t;
    tf_buf_putc(b, '\n');
    table_init(&t, 4);
    for (int k = 0; k < 4; k++)
        t.left[k] = true;
    cell(&t, "device");
    cell(&t, "kind");
    cell(&t, "name");
    cell(&t, "vendor");
    for (size_t i = 0; i < s->n_devices; i++) {
        const struct tf_stat_device *v = &s->devices[i];
        cell(&t, v->device ? v->device : "-");
        cell(&t, v->kind ? v->kind : "-");
        cell(&t, v->name ? v->name : "-");
        cell(&t, v->vendor ? v->vendor : "-");
    }
    table_flush(&t, b);
}

/* The accelerators' kind the breakdown is of: "TPU" when every device the
 * trace names is one, else "GPU". */
static const char *breakdown_kind(const struct tf_stats *s)
{
    bool tpu = s->n_devices > 0;
    for (size_t i = 0; i < s->n_devices; i++)
        tpu = tpu && s->devices[i].kind && strcmp(s->devices[i].kind, "TPU") == 0;
    return tpu ? "TPU" : "GPU";
}

/* HTA's temporal breakdown of the GPU time. */
static void table_gpu(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX];
    struct table t;
    const struct tf_gpu_breakdown *g = &s->gpu;
    tf_buf_printf(b, "\n%s breakdown (%s%s)\n", breakdown_kind(s),
                  g->scope_trace ? "trace" : "window", s->compat ? ", as HTA computes it" : "");
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

/* --critical-path: the length, the categories, the ten longest events. */
static void table_critical(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_critical *c = f->stats.critical;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
    tf_buf_printf(b, "\nCritical path%s\n", f->stats.compat ? " (as HTA computes it)" : "");
    table_init(&t, 3);
    t.left[0] = true;
    cell(&t, "length");
    cell(&t, ms(x, c->length_ms));
    cell(&t, "ms");
    for (int k = 0; k < TF_CP_N_CATS; k++) {
        cell(&t, tf_cp_cat_names[k]);
        cell(&t, ms(x, c->cat_ms[k]));
        cell(&t, pct(y, c->cat_pct[k]));
    }
    table_flush(&t, b);
    size_t top[10], n = 0;
    for (size_t i = 0; i < c->n_events; i++) {
        size_t j = n < 10 ? n++ : 10;
        if (j == 10 && c->events[i].dur_ns <= c->events[top[9]].dur_ns)
            continue;
        if (j == 10)
            j = 9;
        while (j > 0 && c->events[top[j - 1]].dur_ns < c->events[i].dur_ns) {
            top[j] = top[j - 1];
            j--;
        }
        top[j] = i;
    }
    tf_buf_putc(b, '\n');
    table_init(&t, 4);
    t.left[0] = t.left[1] = true;
    cell(&t, "event");
    cell(&t, "lane");
    cell(&t, "start ms");
    cell(&t, "ms");
    for (size_t k = 0; k < n; k++) {
        const struct tf_cp_event *e = &c->events[top[k]];
        char nm[64]; /* long kernel names cut, on a UTF-8 boundary */
        size_t len = strlen(e->name);
        if (len < sizeof nm) {
            memcpy(nm, e->name, len + 1);
        } else {
            len = sizeof nm - 4;
            while (len > 0 && ((unsigned char)e->name[len] & 0xC0) == 0x80)
                len--;
            memcpy(nm, e->name, len);
            memcpy(nm + len, "...", 4);
        }
        cell(&t, nm);
        cell(&t, e->lane);
        cell(&t, ms(x, e->start_ms));
        cell(&t, ms(y, (double)e->dur_ns / 1e6));
    }
    table_flush(&t, b);
}
static void write_table(const struct tf_figure *f, struct tf_buf *b);

void tf_stats_write_table(const struct tf_figure *f, struct tf_buf *b)
{
    write_table(f, b);
    tf_stats_marks_table(f, b);
}

static void write_table(const struct tf_figure *f, struct tf_buf *b)
{
    if (f->overview.on) {
        tf_stats_write_table_ranks(f, b);
        return;
    }
    if (f->n_traces) {
        tf_stats_write_table_traces(f, b);
        return;
    }
    const struct tf_stats *s = &f->stats;
    if (!s->on) {
        tf_buf_puts(b, "no statistics for this figure\n");
        return;
    }
    table_lanes(f, b);
    if (s->n_groups)
        table_groups(f, b);
    if (s->n_counters)
        table_counters(f, b);
    if (s->pipelined)
        table_pipelined(f, b);
    if (s->n_devices)
        table_devices(f, b);
    if (s->has_gpu)
        table_gpu(f, b);
    if (s->critical)
        table_critical(f, b);
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

/* Where the statistics' rows go: one call per number, as the CSV has them. */
struct rows {
    void (*row)(struct rows *r, const char *section, const char *rw, const char *col,
                const char *key, const char *value);
    struct tf_buf *b;
};

static void csv_row(struct rows *r, const char *section, const char *rw, const char *c,
                    const char *key, const char *value)
{
    struct tf_buf *b = r->b;
    field(b, section);
    tf_buf_putc(b, ',');
    field(b, rw);
    tf_buf_putc(b, ',');
    field(b, c);
    tf_buf_putc(b, ',');
    field(b, key);
    tf_buf_putc(b, ',');
    field(b, value);
    tf_buf_putc(b, '\n');
}

/* Every number of s, whose lanes are the figure's lanes [lane0, lane0 +
 * n_lanes), in the CSV's order. */
static void emit(const struct tf_figure *f, const struct tf_stats *s, size_t lane0, size_t n_lanes,
                 struct rows *o)
{
    char x[TF_NUM_MAX], lanes[256], c[32];
    o->row(o, "window", NULL, NULL, "window_ms", ms(x, s->window_ms));
    for (size_t i = 0; i < n_lanes; i++) {
        const struct tf_lane *ln = &f->lanes[lane0 + i];
        if (ln->kind == TF_LANE_COUNTER)
            continue; /* in the counter rows */
        o->row(o, "lane", ln->label, NULL, "busy_ms", ms(x, s->lane_busy_ms[i]));
        o->row(o, "lane", ln->label, NULL, "busy_pct",
               pct(x, tf_stats_pct(s->lane_busy_ms[i], s->window_ms)));
        if (ln->has_events) {
            snprintf(c, sizeof c, "%zu", ln->events);
            o->row(o, "lane", ln->label, NULL, "events", c);
        }
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        lanes_text(lanes, sizeof lanes, &s->groups[g]);
        o->row(o, "group", s->groups[g].label, NULL, "lanes", lanes);
        o->row(o, "group", s->groups[g].label, NULL, "busy_ms", ms(x, s->groups[g].busy_ms));
        o->row(o, "group", s->groups[g].label, NULL, "busy_pct",
               pct(x, tf_stats_pct(s->groups[g].busy_ms, s->window_ms)));
        if (s->groups[g].has_mpi) {
            o->row(o, "group", s->groups[g].label, NULL, "mpi_ms", ms(x, s->groups[g].mpi_ms));
            o->row(o, "group", s->groups[g].label, NULL, "mpi_pct",
                   pct(x, tf_stats_pct(s->groups[g].mpi_ms, s->groups[g].busy_ms)));
        }
    }
    for (size_t k = 0; k < s->n_paradigms; k++)
        o->row(o, "paradigm", s->paradigms[k].name, NULL, "ms", ms(x, s->paradigms[k].ms));
    for (size_t a = 0; a < s->n_groups; a++)
        for (size_t k = 0; k < s->n_groups; k++)
            o->row(o, "overlap", s->groups[a].label, s->groups[k].label, "overlap_ms",
                   ms(x, s->overlap_ms[a * s->n_groups + k]));
    for (size_t i = 0; i < s->n_counters; i++) {
        const struct tf_stat_counter *k = &s->counters[i];
        const char *label = k->lane < f->n_lanes ? f->lanes[k->lane].label : "";
        int dec = tf_stats_value_decimals(k->min, k->max);
        o->row(o, "counter", label, NULL, "min", k->has_value ? tf_fmt_num(x, k->min, dec) : NULL);
        o->row(o, "counter", label, NULL, "max", k->has_value ? tf_fmt_num(x, k->max, dec) : NULL);
        o->row(o, "counter", label, NULL, "mean",
               k->has_value ? tf_fmt_num(x, k->mean, dec) : NULL);
    }
    if (s->pipelined) {
        o->row(o, "pipelined", NULL, NULL, "io_hidden_pct",
               s->has_io_hidden ? pct(x, s->io_hidden_pct) : NULL);
        o->row(o, "pipelined", NULL, NULL, "gpu_idle_ms", ms(x, s->gpu_idle_ms));
        for (size_t i = 0; i < s->n_candidates; i++) {
            snprintf(c, sizeof c, "%lld", s->candidates[i].candidate);
            o->row(o, "candidate", c, NULL, "io_ms", ms(x, s->candidates[i].io_ms));
            o->row(o, "candidate", c, NULL, "uncovered_io_ms",
                   ms(x, s->candidates[i].uncovered_io_ms));
        }
    }
    for (size_t i = 0; i < s->n_devices; i++) {
        const struct tf_stat_device *v = &s->devices[i];
        o->row(o, "device", v->device, NULL, "kind", v->kind);
        o->row(o, "device", v->device, NULL, "name", v->name);
        o->row(o, "device", v->device, NULL, "vendor", v->vendor);
    }
    if (s->has_gpu) {
        const struct tf_gpu_breakdown *g = &s->gpu;
        if (s->compat)
            o->row(o, "gpu_breakdown", NULL, NULL, "compat", s->compat);
        o->row(o, "gpu_breakdown", NULL, NULL, "scope", g->scope_trace ? "trace" : "window");
        o->row(o, "gpu_breakdown", NULL, NULL, "kernel_span_ms", ms(x, g->kernel_span_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "idle_ms", ms(x, g->idle_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "compute_ms", ms(x, g->compute_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "non_compute_ms", ms(x, g->non_compute_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "comm_ms", ms(x, g->comm_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "comm_comp_overlap_pct",
               g->has_comm ? pct(x, g->comm_comp_overlap_pct) : NULL);
    }
    if (s->critical) {
        const struct tf_critical *cr = s->critical;
        o->row(o, "critical_path", NULL, NULL, "length_ms", ms(x, cr->length_ms));
        for (int k = 0; k < TF_CP_N_CATS; k++) {
            o->row(o, "critical_path", tf_cp_cat_names[k], NULL, "ms", ms(x, cr->cat_ms[k]));
            o->row(o, "critical_path", tf_cp_cat_names[k], NULL, "pct", pct(x, cr->cat_pct[k]));
        }
        for (size_t i = 0; i < cr->n_events; i++) {
            const struct tf_cp_event *e = &cr->events[i];
            snprintf(c, sizeof c, "%zu", i);
            o->row(o, "critical_event", c, e->lane, "name", e->name);
            snprintf(x, sizeof x, "%lld", (long long)(e->ts_ns / 1000));
            o->row(o, "critical_event", c, e->lane, "ts_us", x);
            snprintf(x, sizeof x, "%lld", (long long)(e->dur_ns / 1000));
            o->row(o, "critical_event", c, e->lane, "dur_us", x);
        }
    }
    if (s->summary)
        o->row(o, "summary", NULL, NULL, "summary", s->summary);
}

static void write_csv(const struct tf_figure *f, struct tf_buf *b)
{
    if (f->overview.on) {
        tf_stats_write_csv_ranks(f, b);
        return;
    }
    if (f->n_traces) {
        tf_stats_write_csv_traces(f, b);
        return;
    }
    tf_buf_puts(b, "section,row,column,key,value\n");
    if (!f->stats.on)
        return;
    struct rows o = {csv_row, b};
    emit(f, &f->stats, 0, f->n_lanes, &o);
}

void tf_stats_write_csv(const struct tf_figure *f, struct tf_buf *b)
{
    write_csv(f, b);
    tf_stats_marks_csv(f, b);
}

/* --- several traces: one column each ------------------------------------------------ */

/* A number of the statistics, by what it is and which trace gave it. */
struct cell {
    const char *section, *row, *col, *key; /* in the arena; row, col as shown */
    const char *row_match, *col_match;     /* what rows of other traces match */
    const char **value;                    /* per trace, NULL: none */
    size_t order;                          /* its section's first appearance */
};

struct cells {
    struct rows rows; /* first: the emitter's callback */
    struct tf_arena arena;
    struct cell *v;
    size_t n, cap;
    size_t n_traces, trace;
    bool oom;
};

static bool same(const char *a, const char *b)
{
    return (!a && !b) || (a && b && strcmp(a, b) == 0);
}

static const char *keep(struct cells *c, const char *s)
{
    if (!s)
        return NULL;
    const char *k = tf_arena_strdup(&c->arena, s);
    if (!k)
        c->oom = true;
    return k;
}

static bool is_digit(char ch)
{
    return ch >= '0' && ch <= '9';
}

static bool is_alnum(char ch)
{
    return is_digit(ch) || (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z');
}

/* What a lane's, a group's or a counter's label matches in other traces:
 * its process (all of a group's label, the part of a lane's before " / ")
 * with its numbers as "*", so that "GPU 0 / stream 7" of one rank and "GPU
 * 1 / stream 7" of another are one row; a counter's numbers that stand as
 * words ("CUDA 3", "id: 1", not "python3"), so that each rank's memory on
 * its own GPU ("memory CUDA 3 allocated") is one row too (a trace's second
 * counter that matches the same takes the next row). */
static const char *general(struct cells *c, const char *section, const char *label)
{
    bool lane = strcmp(section, "lane") == 0, counter = strcmp(section, "counter") == 0;
    if (!label || (!lane && !counter && strcmp(section, "group") != 0 &&
                   strcmp(section, "overlap") != 0))
        return keep(c, label);
    const char *slash = lane ? strstr(label, " / ") : NULL;
    size_t head = slash ? (size_t)(slash - label) : strlen(label);
    struct tf_buf b;
    tf_buf_init(&b);
    for (size_t i = 0; i < head; i++) {
        if (!is_digit(label[i])) {
            tf_buf_putc(&b, label[i]);
            continue;
        }
        size_t j = i;
        while (j < head && is_digit(label[j]))
            j++;
        if (counter && ((i > 0 && is_alnum(label[i - 1])) || (j < head && is_alnum(label[j]))))
            tf_buf_putn(&b, label + i, j - i); /* part of a word */
        else
            tf_buf_putc(&b, '*');
        i = j - 1;
    }
    tf_buf_puts(&b, label + head);
    const char *k = b.oom ? NULL : tf_arena_buf(&c->arena, &b);
    if (!k)
        c->oom = true;
    tf_buf_fini(&b);
    return k;
}

static void cell_row(struct rows *r, const char *section, const char *rw, const char *col,
                     const char *key, const char *value)
{
    struct cells *c = (struct cells *)r;
    const char *rm = general(c, section, rw), *cm = general(c, section, col);
    /* The same number of an earlier trace: its row (a trace's second lane
     * that matches goes on a row of its own). */
    size_t at = c->n, order = c->n;
    for (size_t i = 0; i < c->n; i++) {
        const struct cell *e = &c->v[i];
        if (same(e->section, section) && order == c->n)
            order = e->order;
        if (!e->value[c->trace] && same(e->section, section) && same(e->row_match, rm) &&
            same(e->col_match, cm) && same(e->key, key)) {
            at = i;
            break;
        }
    }
    if (at == c->n) {
        const char **vals = tf_arena_alloc(&c->arena, c->n_traces * sizeof *vals);
        if (!vals || !TF_GROW(c->v, c->n, c->cap)) {
            c->oom = true;
            return;
        }
        memset(vals, 0, c->n_traces * sizeof *vals);
        c->v[c->n++] = (struct cell){keep(c, section), keep(c, rw), keep(c, col), keep(c, key),
                                     rm, cm, vals, order};
    } else {
        /* Rows of different labels show what they share. */
        struct cell *e = &c->v[at];
        if (!same(e->row, rw))
            e->row = rm;
        if (!same(e->col, col))
            e->col = cm;
    }
    c->v[at].value[c->trace] = value ? keep(c, value) : "";
}



/* Every trace's numbers, matched by (section, row, column, key). */
static bool gather(const struct tf_figure *f, struct cells *c)
{
    memset(c, 0, sizeof *c);
    c->rows.row = cell_row;
    tf_arena_init(&c->arena);
    c->n_traces = f->n_traces;
    for (size_t t = 0; t < f->n_traces; t++) {
        const struct tf_trace_ref *r = &f->traces[t];
        c->trace = t;
        if (r->stats.on)
            emit(f, &r->stats, r->first_lane, r->n_lanes, &c->rows);
    }
    /* Each section's rows together, in the order they came (a stable
     * sort: the array's own order breaks ties). */
    if (!c->oom && c->n > 1) {
        struct cell *tmp = malloc(c->n * sizeof *tmp);
        if (!tmp)
            return false;
        size_t k = 0;
        for (size_t pass = 0; pass < c->n; pass++)
            for (size_t i = 0; i < c->n; i++)
                if (c->v[i].order == pass)
                    tmp[k++] = c->v[i];
        memcpy(c->v, tmp, c->n * sizeof *tmp);
        free(tmp);
    }
    return !c->oom;
}

static void cells_fini(struct cells *c)
{
    free(c->v);
    tf_arena_fini(&c->arena);
}

/* Whether a value is a plain number (a difference can be taken). */
static bool numeric(const char *s, double *v)
{
    if (!s || !*s)
        return false;
    char *end;
    *v = strtod(s, &end);
    return *end == '\0' && frac(s) != SIZE_MAX;
}

/* The second trace's value less the first's, in the digits of the key's
 * kind (a counter's: as many decimals as the two values show, so that it
 * is their exact difference); empty when either is not a number. */
static const char *difference(const struct cell *e, char out[TF_NUM_MAX])
{
    double a, b;
    if (!numeric(e->value[0], &a) || !numeric(e->value[1], &b))
        return "";
    int dec = strstr(e->key, "_pct") ? TF_STATS_PCT_DEC : TF_STATS_MS_DEC;
    if (strcmp(e->section, "counter") == 0) {
        size_t fa = frac(e->value[0]), fb = frac(e->value[1]), f = fa > fb ? fa : fb;
        dec = f > 1 ? (int)f - 1 : 0;
    }
    return tf_fmt_num(out, b - a, dec);
}

void tf_stats_write_csv_traces(const struct tf_figure *f, struct tf_buf *b)
{
    struct cells c;
    if (!gather(f, &c)) {
        cells_fini(&c);
        b->oom = true;
        return;
    }
    tf_buf_puts(b, "section,row,column,key");
    for (size_t t = 0; t < f->n_traces; t++) {
        tf_buf_putc(b, ',');
        field(b, f->traces[t].title);
    }
    if (f->n_traces == 2)
        tf_buf_puts(b, ",difference");
    tf_buf_putc(b, '\n');
    char d[TF_NUM_MAX];
    for (size_t i = 0; i < c.n; i++) {
        const struct cell *e = &c.v[i];
        field(b, e->section);
        tf_buf_putc(b, ',');
        field(b, e->row);
        tf_buf_putc(b, ',');
        field(b, e->col);
        tf_buf_putc(b, ',');
        field(b, e->key);
        for (size_t t = 0; t < f->n_traces; t++) {
            tf_buf_putc(b, ',');
            field(b, e->value[t]);
        }
        if (f->n_traces == 2) {
            tf_buf_putc(b, ',');
            field(b, difference(e, d));
        }
        tf_buf_putc(b, '\n');
    }
    cells_fini(&c);
}

/* A key as the table shows it: "busy_ms" -> "busy ms", "_pct" -> "%". */
static void key_text(const char *key, char *out, size_t n)
{
    size_t k = 0;
    for (const char *p = key; *p && k + 2 < n; p++) {
        if (*p == '_' && strcmp(p, "_pct") == 0) {
            out[k++] = ' ';
            out[k++] = '%';
            break;
        }
        out[k++] = *p == '_' ? ' ' : *p;
    }
    out[k] = '\0';
}

void tf_stats_write_table_traces(const struct tf_figure *f, struct tf_buf *b)
{
    struct cells c;
    if (!gather(f, &c)) {
        cells_fini(&c);
        b->oom = true;
        return;
    }
    size_t nt = f->n_traces, ncol = 2 + nt + (nt == 2);
    if (ncol > MAX_COLS) {
        /* More traces than columns: the CSV has them all. */
        tf_buf_printf(b, "%zu traces: too many for one table, --stats=csv lists them\n", nt);
        cells_fini(&c);
        return;
    }
    char d[TF_NUM_MAX], kt[64];
    bool first = true;
    for (size_t i = 0; i < c.n;) {
        /* One table per section; the summaries as lines. */
        const char *sec = c.v[i].section;
        if (!first)
            tf_buf_putc(b, '\n');
        first = false;
        if (strcmp(sec, "summary") == 0) {
            for (size_t k = 0; k < nt; k++)
                if (c.v[i].value[k])
                    tf_buf_printf(b, "summary (%s): %s\n", f->traces[k].title, c.v[i].value[k]);
            i++;
            continue;
        }
        struct table t;
        table_init(&t, ncol);
        t.left[1] = true;
        cell(&t, sec);
        cell(&t, "");
        for (size_t k = 0; k < nt; k++)
            cell(&t, f->traces[k].title);
        if (nt == 2)
            cell(&t, "difference");
        for (; i < c.n && same(c.v[i].section, sec); i++) {
            const struct cell *e = &c.v[i];
            char rowtext[512];
            snprintf(rowtext, sizeof rowtext, "%s%s%s", e->row ? e->row : "",
                     e->col ? " & " : "", e->col ? e->col : "");
            key_text(e->key, kt, sizeof kt);
            cell(&t, *rowtext ? rowtext : kt);
            cell(&t, *rowtext ? kt : "");
            for (size_t k = 0; k < nt; k++)
                cell(&t, e->value[k] ? (*e->value[k] ? e->value[k] : "-") : "-");
            if (nt == 2)
                cell(&t, difference(e, d));
        }
        table_flush(&t, b);
    }
    if (c.n == 0)
        tf_buf_puts(b, "no statistics for these figures\n");
    cells_fini(&c);
}
