/* stats_csv.c - one trace's numbers as rows (section, row, column, key,
 * value: the CSV's, render/stats.h), which the CSV writes one by one and
 * the writer of several traces (stats_traces.c) gathers into columns;
 * see render/stats_int.h.  Moved out of stats.c as it was.
 */
#include "render/stats_int.h"

#include <stdio.h>

#include "base/num.h"

void tf_stats_lanes_text(char *out, size_t n, const struct tf_stat_group *g)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < g->n_lanes && len + 24 < n; i++)
        len += (size_t)snprintf(out + len, n - len, i ? " %zu" : "%zu", g->lanes[i]);
    if (g->n_lanes && len + 24 >= n)
        snprintf(out + len, n - len, " ...");
}

void tf_stats_csv_row(struct rows *r, const char *section, const char *rw, const char *c,
                    const char *key, const char *value)
{
    struct tf_buf *b = r->b;
    tf_stats_field(b, section);
    tf_buf_putc(b, ',');
    tf_stats_field(b, rw);
    tf_buf_putc(b, ',');
    tf_stats_field(b, c);
    tf_buf_putc(b, ',');
    tf_stats_field(b, key);
    tf_buf_putc(b, ',');
    tf_stats_field(b, value);
    tf_buf_putc(b, '\n');
}

void tf_stats_emit(const struct tf_figure *f, const struct tf_stats *s, size_t lane0,
                   size_t n_lanes, struct rows *o)
{
    char x[TF_NUM_MAX], lanes[256], c[32];
    o->row(o, "window", NULL, NULL, "window_ms", msd(x, s, s->window_ms));
    for (size_t i = 0; i < n_lanes; i++) {
        const struct tf_lane *ln = &f->lanes[lane0 + i];
        if (ln->kind == TF_LANE_COUNTER)
            continue; /* in the counter rows */
        o->row(o, "lane", ln->label, NULL, "busy_ms", msd(x, s, s->lane_busy_ms[i]));
        o->row(o, "lane", ln->label, NULL, "busy_pct",
               pct(x, tf_stats_pct(s->lane_busy_ms[i], s->window_ms)));
        if (ln->has_events) {
            snprintf(c, sizeof c, "%zu", ln->events);
            o->row(o, "lane", ln->label, NULL, "events", c);
        }
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        tf_stats_lanes_text(lanes, sizeof lanes, &s->groups[g]);
        o->row(o, "group", s->groups[g].label, NULL, "lanes", lanes);
        o->row(o, "group", s->groups[g].label, NULL, "busy_ms", msd(x, s, s->groups[g].busy_ms));
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
                   msd(x, s, s->overlap_ms[a * s->n_groups + k]));
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
        o->row(o, "gpu_breakdown", NULL, NULL, "kernel_span_ms", msd(x, s, g->kernel_span_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "idle_ms", msd(x, s, g->idle_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "compute_ms", msd(x, s, g->compute_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "non_compute_ms", msd(x, s, g->non_compute_ms));
        o->row(o, "gpu_breakdown", NULL, NULL, "comm_ms", msd(x, s, g->comm_ms));
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
