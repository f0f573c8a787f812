/* stats.c (render) - `--stats` and `--stats=csv`: the figure's overlap
 * statistics as an aligned text table or as CSV; see render/stats.h.
 *
 * Every number goes through tf_fmt_num with the decimals of
 * render/stats_num.h, as in the JSON model, so the three outputs agree digit
 * for digit.  Columns are aligned by characters (UTF-8 code points), not
 * bytes; control characters in labels print as spaces in the table and
 * stay as they are (quoted) in the CSV.
 */
#include "render/stats_int.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "render/stats_ranks.h"

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
    tf_stats_table_init(&t, 3);
    tf_stats_cell(&t, "paradigm");
    tf_stats_cell(&t, "ms (all ranks)");
    tf_stats_cell(&t, "% of busy");
    for (size_t k = 0; k < s->n_paradigms; k++) {
        tf_stats_cell(&t, s->paradigms[k].name);
        tf_stats_cell(&t, ms(x, s->paradigms[k].ms));
        tf_stats_cell(&t, pct(y, tf_stats_pct(s->paradigms[k].ms, busy)));
    }
    tf_stats_table_flush(&t, b);
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
    tf_stats_table_init(&t, 3);
    tf_stats_cell(&t, "process on CPUs");
    tf_stats_cell(&t, "CPU ms");
    tf_stats_cell(&t, "% of CPU time");
    for (size_t k = 0; k < s->n_cpu_procs; k++) {
        tf_stats_cell(&t, s->cpu_procs[k].name);
        tf_stats_cell(&t, ms(x, s->cpu_procs[k].ms));
        tf_stats_cell(&t, pct(y, tf_stats_pct(s->cpu_procs[k].ms, all)));
    }
    tf_stats_table_flush(&t, b);
}

/* The window, and each lane's busy time. */
static void table_lanes(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;

    tf_stats_table_init(&t, 3);
    tf_stats_cell(&t, "window");
    tf_stats_cell(&t, msd(x, s, s->window_ms));
    tf_stats_cell(&t, "ms");
    t.left[2] = true;
    tf_stats_table_flush(&t, b);

    tf_buf_putc(b, '\n');
    bool events = false;
    for (size_t i = 0; i < f->n_lanes; i++)
        events = events || f->lanes[i].has_events;
    tf_stats_table_init(&t, events ? 5 : 4);
    tf_stats_cell(&t, "lane");
    tf_stats_cell(&t, "#");
    tf_stats_cell(&t, "busy ms");
    tf_stats_cell(&t, "busy %");
    if (events)
        tf_stats_cell(&t, "events");
    for (size_t i = 0; i < f->n_lanes; i++) {
        char idx[32], n[32];
        if (f->lanes[i].kind == TF_LANE_COUNTER)
            continue; /* in the counters' table */
        snprintf(idx, sizeof idx, "%zu", i);
        tf_stats_cell(&t, f->lanes[i].label);
        tf_stats_cell(&t, idx);
        tf_stats_cell(&t, msd(x, s, s->lane_busy_ms[i]));
        tf_stats_cell(&t, pct(y, tf_stats_pct(s->lane_busy_ms[i], s->window_ms)));
        if (events) {
            snprintf(n, sizeof n, "%zu", f->lanes[i].events);
            tf_stats_cell(&t, f->lanes[i].has_events ? n : "-");
        }
    }
    tf_stats_table_flush(&t, b);
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
    tf_stats_table_init(&t, mpi ? 6 : 4);
    t.left[1] = true;
    tf_stats_cell(&t, "group");
    tf_stats_cell(&t, "lanes");
    tf_stats_cell(&t, "busy ms");
    tf_stats_cell(&t, "busy %");
    if (mpi) {
        tf_stats_cell(&t, "MPI ms");
        tf_stats_cell(&t, "MPI % of busy");
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct tf_stat_group *gr = &s->groups[g];
        tf_stats_lanes_text(lanes, sizeof lanes, gr);
        tf_stats_cell(&t, gr->label);
        tf_stats_cell(&t, gr->n_lanes ? lanes : "-");
        tf_stats_cell(&t, msd(x, s, gr->busy_ms));
        tf_stats_cell(&t, pct(y, tf_stats_pct(gr->busy_ms, s->window_ms)));
        if (mpi) {
            tf_stats_cell(&t, gr->has_mpi ? ms(x, gr->mpi_ms) : "-");
            tf_stats_cell(&t, gr->has_mpi ? pct(y, tf_stats_pct(gr->mpi_ms, gr->busy_ms)) : "-");
        }
    }
    tf_stats_table_flush(&t, b);
    if (s->n_paradigms)
        paradigm_table(b, s);
    if (s->n_cpu_procs)
        cpu_table(b, s);

    tf_buf_putc(b, '\n');
    tf_stats_table_init(&t, s->n_groups + 1);
    tf_stats_cell(&t, "overlap ms");
    for (size_t g = 0; g < s->n_groups; g++)
        tf_stats_cell(&t, s->groups[g].label);
    for (size_t a = 0; a < s->n_groups; a++) {
        tf_stats_cell(&t, s->groups[a].label);
        for (size_t c = 0; c < s->n_groups; c++)
            tf_stats_cell(&t, msd(x, s, s->overlap_ms[a * s->n_groups + c]));
    }
    tf_stats_table_flush(&t, b);
}

/* Each counter's least, greatest and mean value. */
static void table_counters(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
    tf_buf_putc(b, '\n');
    tf_stats_table_init(&t, 5);
    tf_stats_cell(&t, "counter");
    tf_stats_cell(&t, "#");
    tf_stats_cell(&t, "min");
    tf_stats_cell(&t, "max");
    tf_stats_cell(&t, "mean");
    for (size_t i = 0; i < s->n_counters; i++) {
        const struct tf_stat_counter *k = &s->counters[i];
        char idx[32], z[TF_NUM_MAX];
        int dec = tf_stats_value_decimals(k->min, k->max);
        snprintf(idx, sizeof idx, "%zu", k->lane);
        tf_stats_cell(&t, k->lane < f->n_lanes ? f->lanes[k->lane].label : "");
        tf_stats_cell(&t, idx);
        tf_stats_cell(&t, k->has_value ? tf_fmt_num(x, k->min, dec) : "-");
        tf_stats_cell(&t, k->has_value ? tf_fmt_num(y, k->max, dec) : "-");
        tf_stats_cell(&t, k->has_value ? tf_fmt_num(z, k->mean, dec) : "-");
    }
    tf_stats_table_flush(&t, b);
}

/* The pipelined modes' I/O hidden and GPU idle, and the candidates. */
static void table_pipelined(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
    tf_buf_putc(b, '\n');
    tf_stats_table_init(&t, 3);
    t.left[2] = true;
    tf_stats_cell(&t, "I/O hidden");
    tf_stats_cell(&t, s->has_io_hidden ? pct(x, s->io_hidden_pct) : "-");
    tf_stats_cell(&t, s->has_io_hidden ? "%" : "(no I/O in the window)");
    tf_stats_cell(&t, "GPU idle");
    tf_stats_cell(&t, ms(x, s->gpu_idle_ms));
    tf_stats_cell(&t, "ms");
    tf_stats_table_flush(&t, b);
    if (s->n_candidates) {
        tf_buf_putc(b, '\n');
        tf_stats_table_init(&t, 3);
        tf_stats_cell(&t, "candidate");
        tf_stats_cell(&t, "I/O ms");
        tf_stats_cell(&t, "uncovered I/O ms");
        for (size_t i = 0; i < s->n_candidates; i++) {
            char c[32];
            snprintf(c, sizeof c, "%lld", s->candidates[i].candidate);
            tf_stats_cell(&t, c);
            tf_stats_cell(&t, ms(x, s->candidates[i].io_ms));
            tf_stats_cell(&t, ms(y, s->candidates[i].uncovered_io_ms));
        }
        tf_stats_table_flush(&t, b);
    }
}

/* The devices the trace names: kind, name, vendor ("-" unknown). */
static void table_devices(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_stats *s = &f->stats;
    struct table t;
    tf_buf_putc(b, '\n');
    tf_stats_table_init(&t, 4);
    for (int k = 0; k < 4; k++)
        t.left[k] = true;
    tf_stats_cell(&t, "device");
    tf_stats_cell(&t, "kind");
    tf_stats_cell(&t, "name");
    tf_stats_cell(&t, "vendor");
    for (size_t i = 0; i < s->n_devices; i++) {
        const struct tf_stat_device *v = &s->devices[i];
        tf_stats_cell(&t, v->device ? v->device : "-");
        tf_stats_cell(&t, v->kind ? v->kind : "-");
        tf_stats_cell(&t, v->name ? v->name : "-");
        tf_stats_cell(&t, v->vendor ? v->vendor : "-");
    }
    tf_stats_table_flush(&t, b);
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
    tf_stats_table_init(&t, 3);
    t.left[2] = true;
    tf_stats_cell(&t, "kernel span");
    tf_stats_cell(&t, msd(x, s, g->kernel_span_ms));
    tf_stats_cell(&t, "ms");
    tf_stats_cell(&t, "idle");
    tf_stats_cell(&t, msd(x, s, g->idle_ms));
    tf_stats_cell(&t, "ms");
    tf_stats_cell(&t, "compute");
    tf_stats_cell(&t, msd(x, s, g->compute_ms));
    tf_stats_cell(&t, "ms");
    tf_stats_cell(&t, "non-compute");
    tf_stats_cell(&t, msd(x, s, g->non_compute_ms));
    tf_stats_cell(&t, "ms");
    tf_stats_cell(&t, "communication");
    tf_stats_cell(&t, msd(x, s, g->comm_ms));
    tf_stats_cell(&t, "ms");
    tf_stats_cell(&t, "comm/compute overlap");
    tf_stats_cell(&t, g->has_comm ? pct(x, g->comm_comp_overlap_pct) : "-");
    tf_stats_cell(&t, g->has_comm ? "%" : "(no communication kernels)");
    tf_stats_table_flush(&t, b);
}

/* s in buf of cap bytes, cut on a UTF-8 boundary and ended by "..." when
 * it is longer. */
static const char *cut(char *buf, size_t cap, const char *s)
{
    size_t len = strlen(s);
    if (len < cap) {
        memcpy(buf, s, len + 1);
        return buf;
    }
    len = cap - 4;
    while (len > 0 && ((unsigned char)s[len] & 0xC0) == 0x80)
        len--;
    memcpy(buf, s, len);
    memcpy(buf + len, "...", 4);
    return buf;
}

/* --critical-path: the length, the categories, the ten longest events. */
static void table_critical(const struct tf_figure *f, struct tf_buf *b)
{
    const struct tf_critical *c = f->stats.critical;
    char x[TF_NUM_MAX], y[TF_NUM_MAX];
    struct table t;
    tf_buf_printf(b, "\nCritical path%s\n", f->stats.compat ? " (as HTA computes it)" : "");
    tf_stats_table_init(&t, 3);
    t.left[0] = true;
    tf_stats_cell(&t, "length");
    tf_stats_cell(&t, ms(x, c->length_ms));
    tf_stats_cell(&t, "ms");
    for (int k = 0; k < TF_CP_N_CATS; k++) {
        tf_stats_cell(&t, tf_cp_cat_names[k]);
        tf_stats_cell(&t, ms(x, c->cat_ms[k]));
        tf_stats_cell(&t, pct(y, c->cat_pct[k]));
    }
    tf_stats_table_flush(&t, b);
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
    tf_stats_table_init(&t, 4);
    t.left[0] = t.left[1] = true;
    tf_stats_cell(&t, "event");
    tf_stats_cell(&t, "lane");
    tf_stats_cell(&t, "start ms");
    tf_stats_cell(&t, "ms");
    for (size_t k = 0; k < n; k++) {
        const struct tf_cp_event *e = &c->events[top[k]];
        char nm[64], ln[48]; /* long kernel names and lane labels cut */
        tf_stats_cell(&t, cut(nm, sizeof nm, e->name));
        tf_stats_cell(&t, cut(ln, sizeof ln, e->lane));
        tf_stats_cell(&t, ms(x, e->start_ms));
        tf_stats_cell(&t, ms(y, (double)e->dur_ns / 1e6));
    }
    tf_stats_table_flush(&t, b);
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
    struct rows o = {tf_stats_csv_row, b};
    tf_stats_emit(f, &f->stats, 0, f->n_lanes, &o);
}

void tf_stats_write_csv(const struct tf_figure *f, struct tf_buf *b)
{
    write_csv(f, b);
    tf_stats_marks_csv(f, b);
}
