/* json.c - the JSON back-end: the figure model itself.  One bar, lane,
 * legend entry or slice per line, keys in a fixed order, numbers with 3
 * decimals (trailing zeros trimmed), so two models diff cleanly in review.
 *
 * Schema "tracefig-figure-1": "schema", "mode", the figure's props,
 * "window" (start/end on the trace clock, keys named after its unit),
 * "lanes" (id, label), "bars" (lane id, name, the bar's props, start_ms,
 * dur_ms, x0, x1, clip_left, clip_right, label, color), "legend" (label,
 * color; a CPU lane's process: cpu_ms; a grey class: "holds", the classes
 * it gathers), "breakdown" (the side panel: its props, title, slices),
 * "xticks" and, last, "stats" (below).
 *
 * "stats" (both schemas; null when the mode computed none): window_ms;
 * "lanes" (busy_ms, busy_pct, in the order of the model's lanes; events
 * when the lanes count theirs); "groups"
 * (label, lanes as indexes, busy_ms, busy_pct); "overlap_ms" (the group x
 * group matrix, busy on the diagonal); for the pipelined modes
 * io_hidden_pct (null without I/O), gpu_idle_ms and "candidate_io"
 * (candidate, io_ms, uncovered_io_ms: its I/O no GPU work covers);
 * "devices" (device, kind, name, vendor) when the trace names them; with
 * GPU kernels "gpu_breakdown" (scope, kernel_span_ms, idle_ms, compute_ms,
 * non_compute_ms, comm_ms, comm_comp_overlap_pct: null without
 * communication); "summary" (the --annotate line) and "summary_drawn". */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "base/escape.h"
#include "base/num.h"
#include "render/json_int.h"
#include "render/render.h"
#include "render/stats.h"

static void bars(struct tf_buf *b, const struct tf_figure *f)
{
    tf_buf_puts(b, "  \"bars\": [");
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *r = &f->bars[i];
        item(b, i);
        str(b, "lane", f->lanes[r->lane].key);
        if (f->n_traces)
            tf_buf_printf(b, ", \"trace\": %zu", f->lanes[r->lane].trace);
        tf_buf_puts(b, ", ");
        str(b, "name", r->name);
        tf_buf_puts(b, ", ");
        for (size_t k = 0; k < r->n_props; k++) {
            prop(b, r->props[k].key, &r->props[k]);
            tf_buf_puts(b, ", ");
        }
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
        str(b, "label", r->label);
        tf_buf_puts(b, ", ");
        color(b, "color", r->color);
        if (r->critical)
            tf_buf_puts(b, ", \"critical\": true");
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_bars);
    tf_buf_puts(b, ",\n");
}

static void breakdown(struct tf_buf *b, const struct tf_figure *f)
{
    key(b, "breakdown");
    if (!f->has_panel) {
        tf_buf_puts(b, "null");
        return;
    }
    const struct tf_panel *bd = &f->panel;
    tf_buf_puts(b, "{");
    for (size_t i = 0; i < bd->n_props; i++) {
        prop(b, bd->props[i].key, &bd->props[i]);
        tf_buf_puts(b, ", ");
    }
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
        str(b, "text", s->text);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, bd->n_slices ? "\n    ]}" : "]}");
}

/* A counter's value exactly (the shortest digits that read back as it;
 * null for none). */
static void value(struct tf_buf *b, double v)
{
    char r[40];
    if (isfinite(v))
        tf_buf_puts(b, tf_fmt_repr(r, v));
    else
        tf_buf_puts(b, "null");
}

/* Nanoseconds as microseconds to the nanosecond, exactly (no double), with
 * the trailing zeros of the fraction trimmed. */
static void ns_us(struct tf_buf *b, const char *k, int64_t ns)
{
    if (k)
        key(b, k);
    uint64_t a = ns < 0 ? (uint64_t)0 - (uint64_t)ns : (uint64_t)ns;
    char frac[8];
    snprintf(frac, sizeof frac, "%03u", (unsigned)(a % 1000));
    for (int i = 2; i >= 0 && frac[i] == '0'; i--)
        frac[i] = '\0';
    tf_buf_printf(b, "%s%llu%s%s", ns < 0 && a ? "-" : "", (unsigned long long)(a / 1000),
                  frac[0] ? "." : "", frac);
}

/* "counters" of the statistics: each counter lane's min, max and
 * time-weighted mean over the window, with the digits --stats prints
 * (null: no value in the window); "lane" the figure's index, as a
 * group's lanes. */
static void stat_counters(struct tf_buf *b, const struct tf_stats *s)
{
    tf_buf_puts(b, ",\n    \"counters\": [");
    for (size_t i = 0; i < s->n_counters; i++) {
        const struct tf_stat_counter *k = &s->counters[i];
        int dec = tf_stats_value_decimals(k->min, k->max);
        tf_buf_printf(b, "%s\"lane\": %zu, ", i ? ",\n      {" : "\n      {", k->lane);
        const double v[3] = {k->min, k->max, k->mean};
        const char *const names[3] = {"min", "max", "mean"};
        for (int j = 0; j < 3; j++) {
            key(b, names[j]);
            if (k->has_value)
                tf_buf_num(b, v[j], dec);
            else
                tf_buf_puts(b, "null");
            tf_buf_puts(b, j < 2 ? ", " : "}");
        }
    }
    tf_buf_puts(b, s->n_counters ? "\n    ]" : "]");
}

/* The members of one statistics object, from window_ms on (the busy
 * times of its n_lanes lanes, the figure's from lane0 on, first; a counter
 * lane's are null).  Schema 2 (v2) also lists the counters' values. */
static void stats_body(struct tf_buf *b, const struct tf_figure *f, const struct tf_stats *s,
                       size_t lane0, size_t n_lanes, bool v2)
{
    int dec = tf_stats_ms_dec(s->ms_dec); /* the window, busy and GPU times */
    if (s->compat) {
        str(b, "compat", s->compat);
        tf_buf_puts(b, ",\n    ");
    }
    stat_msd(b, "window_ms", s->window_ms, dec);
    tf_buf_puts(b, ",\n    \"lanes\": [");
    for (size_t i = 0; i < n_lanes; i++) {
        tf_buf_puts(b, i ? ",\n      {" : "\n      {");
        if (f->lanes[lane0 + i].kind == TF_LANE_COUNTER) {
            tf_buf_puts(b, "\"busy_ms\": null, \"busy_pct\": null}");
            continue;
        }
        stat_msd(b, "busy_ms", s->lane_busy_ms[i], dec);
        tf_buf_puts(b, ", ");
        stat_pct(b, "busy_pct", tf_stats_pct(s->lane_busy_ms[i], s->window_ms), true);
        if (f->lanes[lane0 + i].has_events)
            tf_buf_printf(b, ", \"events\": %zu", f->lanes[lane0 + i].events);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, n_lanes ? "\n    ]" : "]");
    tf_buf_puts(b, ",\n    \"groups\": [");
    for (size_t g = 0; g < s->n_groups; g++) {
        const struct tf_stat_group *gr = &s->groups[g];
        tf_buf_puts(b, g ? ",\n      {" : "\n      {");
        str(b, "label", gr->label);
        tf_buf_puts(b, ", \"lanes\": [");
        for (size_t i = 0; i < gr->n_lanes; i++)
            tf_buf_printf(b, i ? ", %zu" : "%zu", gr->lanes[i]);
        tf_buf_puts(b, "], ");
        stat_msd(b, "busy_ms", gr->busy_ms, dec);
        tf_buf_puts(b, ", ");
        stat_pct(b, "busy_pct", tf_stats_pct(gr->busy_ms, s->window_ms), true);
        if (gr->has_mpi) {
            tf_buf_puts(b, ", ");
            stat_ms(b, "mpi_ms", gr->mpi_ms);
            tf_buf_puts(b, ", ");
            stat_pct(b, "mpi_pct", tf_stats_pct(gr->mpi_ms, gr->busy_ms), true);
        }
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, s->n_groups ? "\n    ]" : "]");
    tf_buf_puts(b, ",\n    \"overlap_ms\": [");
    for (size_t r = 0; r < s->n_groups; r++) {
        tf_buf_puts(b, r ? ",\n      [" : "\n      [");
        for (size_t c = 0; c < s->n_groups; c++) {
            if (c)
                tf_buf_puts(b, ", ");
            tf_buf_num(b, s->overlap_ms[r * s->n_groups + c], dec);
        }
        tf_buf_putc(b, ']');
    }
    tf_buf_puts(b, s->n_groups ? "\n    ]" : "]");
    if (v2)
        stat_counters(b, s);
    if (s->n_cpu_procs) {
        tf_buf_puts(b, ",\n    \"cpus\": ");
        tf_buf_printf(b, "%zu", s->n_cpus);
        tf_buf_puts(b, ",\n    ");
        stat_ms(b, "cpus_busy_ms", s->cpu_busy_ms);
        tf_buf_puts(b, ",\n    \"cpu_processes\": [");
        for (size_t k = 0; k < s->n_cpu_procs; k++) {
            tf_buf_puts(b, k ? ",\n      {" : "\n      {");
            str(b, "name", s->cpu_procs[k].name);
            tf_buf_puts(b, ", ");
            stat_ms(b, "cpu_ms", s->cpu_procs[k].ms);
            tf_buf_putc(b, '}');
        }
        tf_buf_puts(b, "\n    ]");
    }
    if (s->n_paradigms) {
        double busy = 0;
        for (size_t g = 0; g < s->n_groups; g++)
            busy += s->groups[g].has_mpi ? s->groups[g].busy_ms : 0;
        tf_buf_puts(b, ",\n    \"paradigms\": [");
        for (size_t k = 0; k < s->n_paradigms; k++) {
            const struct tf_stat_paradigm *p = &s->paradigms[k];
            tf_buf_puts(b, k ? ",\n      {" : "\n      {");
            str(b, "name", p->name);
            tf_buf_puts(b, ", ");
            stat_ms(b, "ms", p->ms);
            tf_buf_puts(b, ", ");
            stat_pct(b, "pct", tf_stats_pct(p->ms, busy), true);
            tf_buf_puts(b, ", \"groups_ms\": [");
            for (size_t g = 0; g < s->n_groups; g++) {
                if (g)
                    tf_buf_puts(b, ", ");
                tf_buf_num(b, p->group_ms[g], TF_STATS_MS_DEC);
            }
            tf_buf_puts(b, "]}");
        }
        tf_buf_puts(b, "\n    ]");
    }
    if (s->pipelined) {
        tf_buf_puts(b, ",\n    ");
        stat_pct(b, "io_hidden_pct", s->io_hidden_pct, s->has_io_hidden);
        tf_buf_puts(b, ", ");
        stat_ms(b, "gpu_idle_ms", s->gpu_idle_ms);
        tf_buf_puts(b, ",\n    \"candidate_io\": [");
        for (size_t i = 0; i < s->n_candidates; i++) {
            const struct tf_stat_candidate *c = &s->candidates[i];
            tf_buf_printf(b, "%s\"candidate\": %lld, ", i ? ",\n      {" : "\n      {",
                          c->candidate);
            stat_ms(b, "io_ms", c->io_ms);
            tf_buf_puts(b, ", ");
            stat_ms(b, "uncovered_io_ms", c->uncovered_io_ms);
            tf_buf_putc(b, '}');
        }
        tf_buf_puts(b, s->n_candidates ? "\n    ]" : "]");
    }
    if (s->n_devices) {
        tf_buf_puts(b, ",\n    \"devices\": [");
        for (size_t k = 0; k < s->n_devices; k++) {
            const struct tf_stat_device *v = &s->devices[k];
            tf_buf_puts(b, k ? ",\n      {" : "\n      {");
            str(b, "device", v->device);
            tf_buf_puts(b, ", ");
            str(b, "kind", v->kind);
            tf_buf_puts(b, ", ");
            str(b, "name", v->name);
            tf_buf_puts(b, ", ");
            str(b, "vendor", v->vendor);
            tf_buf_putc(b, '}');
        }
        tf_buf_puts(b, "\n    ]");
    }
    if (s->has_gpu) {
        const struct tf_gpu_breakdown *g = &s->gpu;
        tf_buf_puts(b, ",\n    \"gpu_breakdown\": {");
        str(b, "scope", g->scope_trace ? "trace" : "window");
        tf_buf_puts(b, ", ");
        stat_msd(b, "kernel_span_ms", g->kernel_span_ms, dec);
        tf_buf_puts(b, ", ");
        stat_msd(b, "idle_ms", g->idle_ms, dec);
        tf_buf_puts(b, ", ");
        stat_msd(b, "compute_ms", g->compute_ms, dec);
        tf_buf_puts(b, ", ");
        stat_msd(b, "non_compute_ms", g->non_compute_ms, dec);
        tf_buf_puts(b, ", ");
        stat_msd(b, "comm_ms", g->comm_ms, dec);
        tf_buf_puts(b, ", ");
        stat_pct(b, "comm_comp_overlap_pct", g->comm_comp_overlap_pct, g->has_comm);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, ",\n    ");
    str(b, "summary", s->summary);
    tf_buf_puts(b, ", ");
    boolean(b, "summary_drawn", f->annotate && s->summary);
}

static const char *const order_names[] = {"rank", "finish", "busy"};

/* The statistics of a job's overview: the spread across its ranks
 * ("ranks": count, busy_pct min / median / max with the ranks of the
 * least and the greatest, the last rank to end, its end and how long
 * after the median rank's and the next rank's), then each rank in the
 * order drawn ("per_rank": rank, row, busy_ms, busy_pct, end_ms: from the
 * window's start, null without a slice). */
static void overview_stats(struct tf_buf *b, const struct tf_figure *f)
{
    const struct tf_overview *o = &f->overview;
    tf_buf_puts(b, "{\n    ");
    stat_ms(b, "window_ms", f->x_span * tf_unit_ns(f->axis.unit) / 1e6);
    tf_buf_printf(b, ",\n    \"ranks\": {\"count\": %zu, \"per_row\": %zu, ", o->n_ranks,
                  o->per_row);
    str(b, "order", order_names[o->order]);
    tf_buf_puts(b, ", \"busy_pct\": {");
    stat_pct(b, "min", o->busy_min, true);
    tf_buf_puts(b, ", ");
    stat_pct(b, "median", o->busy_median, true);
    tf_buf_puts(b, ", ");
    stat_pct(b, "max", o->busy_max, true);
    tf_buf_printf(b, "}, \"min_rank\": %lld, \"max_rank\": %lld,\n      ", o->min_rank,
                  o->max_rank);
    key(b, "last_rank");
    if (o->has_last)
        tf_buf_printf(b, "%lld", o->last_rank);
    else
        tf_buf_puts(b, "null");
    tf_buf_puts(b, ", ");
    key(b, "last_end_ms");
    if (o->has_last)
        tf_buf_num(b, o->last_end_ms, TF_STATS_MS_DEC);
    else
        tf_buf_puts(b, "null");
    tf_buf_puts(b, ", ");
    key(b, "after_median_ms");
    if (o->has_last)
        tf_buf_num(b, o->after_median_ms, TF_STATS_MS_DEC);
    else
        tf_buf_puts(b, "null");
    tf_buf_puts(b, ", ");
    key(b, "after_next_ms");
    if (o->has_last)
        tf_buf_num(b, o->after_next_ms, TF_STATS_MS_DEC);
    else
        tf_buf_puts(b, "null");
    tf_buf_puts(b, "},\n    \"per_rank\": [");
    for (size_t i = 0; i < o->n_ranks; i++) {
        const struct tf_rank_stat *r = &o->ranks[i];
        tf_buf_printf(b, "%s{\"rank\": %lld, \"row\": %zu, ", i ? ",\n      " : "\n      ",
                      r->rank, r->row);
        stat_ms(b, "busy_ms", r->busy_ms);
        tf_buf_puts(b, ", ");
        stat_pct(b, "busy_pct", r->window_ms > 0 ? 100.0 * r->busy_ms / r->window_ms : 0, true);
        tf_buf_puts(b, ", ");
        key(b, "end_ms");
        if (r->has_end)
            tf_buf_num(b, r->end_ms, TF_STATS_MS_DEC);
        else
            tf_buf_puts(b, "null");
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, o->n_ranks ? "\n    ]\n  }" : "]\n  }");
}

/* "overview": what the rows of a job's overview hold (figure.h). */
static void overview(struct tf_buf *b, const struct tf_figure *f)
{
    const struct tf_overview *o = &f->overview;
    tf_buf_printf(b, ",\n  \"overview\": {\"ranks\": %zu, \"rows\": %zu, \"per_row\": %zu, ",
                  o->n_ranks, f->n_lanes, o->per_row);
    str(b, "order", order_names[o->order]);
    tf_buf_puts(b, ", ");
    str(b, "axis", o->axis);
    tf_buf_puts(b, ", ");
    str(b, "lane", o->lane);
    tf_buf_putc(b, '}');
}

/* "stats": the overlap statistics of the window (render/stats.h for the
 * digits), or null when the mode computed none.  One lane, group, matrix
 * row or candidate per line.  A figure of several traces: one object per
 * trace (its lanes, its groups and counters with the figure's lane
 * indexes), null for a trace without statistics. */
static void stats(struct tf_buf *b, const struct tf_figure *f, bool v2)
{
    const struct tf_stats *s = &f->stats;
    key(b, "stats");
    if (f->overview.on) {
        overview_stats(b, f);
        return;
    }
    if (f->n_traces) {
        tf_buf_putc(b, '[');
        for (size_t t = 0; t < f->n_traces; t++) {
            const struct tf_trace_ref *r = &f->traces[t];
            if (t)
                tf_buf_puts(b, ", ");
            if (!r->stats.on) {
                tf_buf_puts(b, "null");
                continue;
            }
            tf_buf_printf(b, "{\n    \"trace\": %zu,\n    ", t);
            stats_body(b, f, &r->stats, r->first_lane, r->n_lanes, v2);
            tf_buf_puts(b, "\n  }");
        }
        tf_buf_putc(b, ']');
        return;
    }
    if (!s->on) {
        tf_buf_puts(b, "null");
        return;
    }
    tf_buf_puts(b, "{\n    ");
    stats_body(b, f, s, 0, f->n_lanes, v2);
    tf_buf_puts(b, "\n  }");
}

/* "traces": one line each, in order; a figure of one trace only when it
 * has an entry (figure.h, one_trace). */
static void traces(struct tf_buf *b, const struct tf_figure *f)
{
    size_t n = f->n_traces ? f->n_traces : f->has_one_trace;
    if (!n)
        return;
    tf_buf_puts(b, ",\n  \"traces\": [");
    for (size_t i = 0; i < n; i++) {
        const struct tf_trace_ref *t = f->n_traces ? &f->traces[i] : &f->one_trace;
        item(b, i);
        str(b, "file", t->file);
        tf_buf_puts(b, ", ");
        str(b, "title", t->title);
        tf_buf_puts(b, ", ");
        key(b, "rank");
        if (t->has_rank)
            tf_buf_printf(b, "%lld", t->rank);
        else
            tf_buf_puts(b, "null");
        tf_buf_puts(b, ", ");
        ns_us(b, "offset_us", t->offset_ns);
        tf_buf_puts(b, ", ");
        str(b, "mode", t->mode);
        tf_buf_puts(b, ", ");
        key(b, "world_size");
        if (t->has_world_size)
            tf_buf_printf(b, "%lld", t->world_size);
        else
            tf_buf_puts(b, "null");
        tf_buf_puts(b, ", ");
        key(b, "base_time_ns");
        if (t->has_base_time)
            tf_buf_printf(b, "%lld", t->base_time_ns);
        else
            tf_buf_puts(b, "null");
        tf_buf_puts(b, ", \"window_us\": [");
        ns_us(b, NULL, t->w0_ns);
        tf_buf_puts(b, ", ");
        ns_us(b, NULL, t->w1_ns);
        tf_buf_puts(b, "], ");
        ns_us(b, "event_us", t->event_ns);
        tf_buf_puts(b, ", \"span_us\": [");
        ns_us(b, NULL, t->origin_ns);
        tf_buf_puts(b, ", ");
        ns_us(b, NULL, t->end_ns);
        tf_buf_puts(b, "]}");
    }
    end_list(b, n);
}

/* A lane's trace (a figure of several traces only); a row of an overview:
 * its ranks, least and greatest ("ranks": [16, 19]), their count, and
 * their list when they are not every rank between ("rank_list":
 * "3,5,17"). */
static void lane_trace(struct tf_buf *b, const struct tf_figure *f, const struct tf_lane *l)
{
    if (l->n_ranks) {
        tf_buf_printf(b, ", \"ranks\": [%lld, %lld], \"n_ranks\": %zu", l->rank_lo, l->rank_hi,
                      l->n_ranks);
        if ((unsigned long long)(l->rank_hi - l->rank_lo) + 1 != l->n_ranks) {
            tf_buf_puts(b, ", ");
            str(b, "rank_list", l->ranks);
        }
        if (l->n_ranks == 1 && l->trace < f->n_traces) /* a row of one rank's trace */
            tf_buf_printf(b, ", \"trace\": %zu", l->trace);
        return;
    }
    if (f->n_traces)
        tf_buf_printf(b, ", \"trace\": %zu", l->trace);
}

/* "layout": what the plan decided for SVG, PDF and PNG at the size asked
 * (render/plan.h), in canvas points (1/72 in): the canvas, the base font,
 * the plot's rectangle, the label column and where the labels go; then
 * the rows, the lanes and nesting rows drawn, the labels as drawn, the
 * headers, the ticks, the legend grid and the panel's place. */
static bool layout(struct tf_buf *b, const struct tf_figure *f, const struct tf_render_opts *o)
{
    struct tf_plan own;
    const struct tf_plan *p = tf_render_plan(f, o, &own);
    if (!p) {
        tf_plan_fini(&own);
        return false;
    }
    static const char *const places[] = {"auto", "left", "above", "none"};
    key(b, "layout");
    tf_buf_puts(b, "{");
    num(b, "width_pt", p->W);
    tf_buf_puts(b, ", ");
    num(b, "height_pt", p->H);
    tf_buf_puts(b, ", ");
    num(b, "font_pt", p->font);
    tf_buf_puts(b, ", \"plot\": {");
    num(b, "x", p->plot.x0);
    tf_buf_puts(b, ", ");
    num(b, "y", p->plot.y0);
    tf_buf_puts(b, ", ");
    num(b, "w", p->plot.x1 - p->plot.x0);
    tf_buf_puts(b, ", ");
    num(b, "h", p->plot.y1 - p->plot.y0);
    tf_buf_puts(b, "}, ");
    num(b, "label_w", p->label_w);
    tf_buf_puts(b, ", ");
    str(b, "labels", places[p->labels]);
    tf_buf_puts(b, ",\n    ");
    num(b, "row_pt", p->row_h);
    tf_buf_printf(b, ", \"depth\": %u, \"lanes_drawn\": %zu, ", p->depth, p->n_lanes);
    str(b, "panel", !p->panel ? NULL : p->panel_below ? "below" : "side");
    tf_buf_printf(b, ", \"legend\": {\"cols\": %zu, \"rows\": %zu",
                  p->bottom_legend ? p->legend.ncol : 0, p->bottom_legend ? p->legend.nrow : 0);
    /* only with share bars, so figures without keep their bytes */
    tf_buf_puts(b, p->legend.share_key ? ", \"share_key\": true}" : "}");
    tf_buf_puts(b, ",\n    \"lane_labels\": [");
    for (size_t i = 0; i < p->n_lanes; i++) {
        if (i)
            tf_buf_puts(b, ", ");
        if (p->lanes[i].text)
            tf_buf_json_str(b, p->lanes[i].text);
        else
            tf_buf_puts(b, "null");
    }
    tf_buf_puts(b, "],\n    \"headers\": [");
    for (size_t i = 0; i < p->n_headers; i++) {
        if (i)
            tf_buf_puts(b, ", ");
        tf_buf_printf(b, "{\"first\": %zu, \"lanes\": %zu, ", p->headers[i].first,
                      p->headers[i].n);
        str(b, "text", p->headers[i].text);
        tf_buf_putc(b, '}');
    }
    tf_buf_puts(b, "],\n    \"ticks\": [");
    for (size_t i = 0, k = 0; i < p->n_ticks; i++)
        if (p->ticks[i].drawn) {
            if (k++)
                tf_buf_puts(b, ", ");
            tf_buf_json_str(b, p->ticks[i].label);
        }
    tf_buf_puts(b, "]");
    if (p->n_marks)
        tf_json_layout_marks(b, f, p);
    if (p->n_zooms)
        tf_json_layout_zooms(b, p);
    tf_buf_puts(b, "}");
    tf_plan_fini(&own);
    return true;
}

/* Whether the JSON holds "layout": always for schema 2; for the seed modes
 * only when a size option was given, so their default model keeps its
 * bytes. */
static bool has_layout(const struct tf_figure *f, const struct tf_render_opts *o)
{
    return !f->reference_layout || (o && o->size.given);
}

/* An identifier as the trace gave it: a number, a string, or null. */
static void id(struct tf_buf *b, const char *k, const struct tf_id *v)
{
    key(b, k);
    if (v->kind == TF_ID_NUM)
        tf_buf_printf(b, "%lld", v->num);
    else if (v->kind == TF_ID_STR)
        tf_buf_json_str(b, v->str);
    else
        tf_buf_puts(b, "null");
}

/* Schema "tracefig-figure-2" (the generic mode): "window" in the trace's
 * clock (start_us/end_us), "axis" (title, unit, ticks), "lanes" (label,
 * pid, tid as the trace has them, kind "slices" or "counter", rows; a
 * counter lane also unit, color, range and its samples [[t_us, value],
 * ...] on the trace's clock), "categories" (one per colour class: name,
 * the trace's category, of its first bar; class, when it is not that
 * name; color), "bars" (lane and row indexes, x0/x1 in axis units from the
 * window start, name, category, class when it is not the category's name,
 * clip flags, merged: the count of slices a dense span stands for, 0 for
 * one slice, shape; a dense one "busy", one key per class),
 * "arrows", "legend", "notes" and,
 * last, "stats" as in schema 1, with "counters" (lane, min, max, mean)
 * after "overlap_ms"; with --zoom, "zooms" (json_zoom.c). */
/* Whether category i is the first of its class (tf_category_class): the
 * model lists each class once, as "busy" keys it. */
static bool first_of_class(const struct tf_figure *f, size_t i)
{
    const char *cls = tf_category_class(&f->cats[i]);
    for (size_t j = 0; j < i; j++)
        if (strcmp(tf_category_class(&f->cats[j]), cls) == 0)
            return false;
    return true;
}

/* The legend's entries: label and swatch colour (the list's '[' written). */
static void legend(struct tf_buf *b, const struct tf_figure *f)
{
    for (size_t i = 0; i < f->n_legend; i++) {
        item(b, i);
        str(b, "label", f->legend[i].label);
        tf_buf_puts(b, ", ");
        color(b, "color", f->cats[f->legend[i].cat].color);
        if (f->legend[i].has_cpu) { /* a CPU lane's process: as --stats counts it */
            tf_buf_puts(b, ", ");
            stat_ms(b, "cpu_ms", f->legend[i].cpu_ms);
        }
        if (f->legend[i].holds) { /* a grey class: the classes it gathers */
            tf_buf_puts(b, ", ");
            key(b, "holds");
            tf_buf_putc(b, '[');
            struct tf_buf one;
            tf_buf_init(&one);
            for (const char *h = f->legend[i].holds, *e; *h; h = *e ? e + 1 : e) {
                e = strchr(h, '\n');
                if (!e)
                    e = h + strlen(h);
                tf_buf_clear(&one);
                tf_buf_putn(&one, h, (size_t)(e - h));
                if (h != f->legend[i].holds)
                    tf_buf_puts(b, ", ");
                tf_buf_json_str(b, one.oom || !one.data ? "" : one.data);
            }
            b->oom |= one.oom;
            tf_buf_fini(&one);
            tf_buf_putc(b, ']');
        }
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_legend);
}

/* Both schemas open alike: schema, mode, the mode's facts, the window in
 * the trace's clock (start_UNIT, end_UNIT), and for a figure of several
 * traces "traces". */
static void head(const struct tf_figure *f, struct tf_buf *b, const char *schema,
                 const char *unit)
{
    char k0[32], k1[32];
    snprintf(k0, sizeof k0, "start_%s", unit);
    snprintf(k1, sizeof k1, "end_%s", unit);
    tf_buf_puts(b, "{\n  ");
    str(b, "schema", schema);
    tf_buf_puts(b, ",\n  ");
    str(b, "mode", f->mode);
    for (size_t i = 0; i < f->n_props; i++) {
        tf_buf_puts(b, ",\n  ");
        prop(b, f->props[i].key, &f->props[i]);
    }
    tf_buf_puts(b, ",\n  ");
    key(b, "window");
    tf_buf_putc(b, '{');
    num(b, k0, f->window_start);
    tf_buf_puts(b, ", ");
    num(b, k1, f->window_end);
    tf_buf_putc(b, '}');
    traces(b, f);
}

/* A counter lane's own members: the unit of its values, its colour, its
 * scale ("range": [least, greatest], null without a value) and its
 * samples, one [t_us, value] per line (value null: no value from t on). */
static void counter(struct tf_buf *b, const struct tf_counter *k)
{
    tf_buf_puts(b, ", ");
    str(b, "unit", k->unit);
    tf_buf_puts(b, ", ");
    color(b, "color", k->color);
    tf_buf_puts(b, ", ");
    key(b, "range");
    if (k->has_range) {
        tf_buf_putc(b, '[');
        value(b, k->lo);
        tf_buf_puts(b, ", ");
        value(b, k->hi);
        tf_buf_putc(b, ']');
    } else {
        tf_buf_puts(b, "null");
    }
    tf_buf_puts(b, ", ");
    key(b, "samples");
    tf_buf_putc(b, '[');
    for (size_t i = 0; i < k->n_samples; i++) {
        tf_buf_puts(b, i ? ",\n      [" : "\n      [");
        ns_us(b, NULL, k->samples[i].t_ns);
        tf_buf_puts(b, ", ");
        value(b, k->samples[i].v);
        tf_buf_putc(b, ']');
    }
    tf_buf_puts(b, k->n_samples ? "\n    ]" : "]");
}


static bool render_v2(const struct tf_figure *f, const struct tf_render_opts *o,
                      struct tf_buf *b)
{
    head(f, b, f->schema, f->clock_unit ? f->clock_unit : "us");
    tf_buf_puts(b, ",\n  ");
    tf_json_axis(b, f);
    if (f->overview.on)
        overview(b, f);
    tf_buf_puts(b, ",\n  \"lanes\": [");
    for (size_t i = 0; i < f->n_lanes; i++) {
        const struct tf_lane *l = &f->lanes[i];
        item(b, i);
        str(b, "label", l->label);
        lane_trace(b, f, l);
        tf_buf_puts(b, ", ");
        id(b, "pid", &l->pid);
        tf_buf_puts(b, ", ");
        id(b, "tid", &l->tid);
        tf_buf_puts(b, ", ");
        str(b, "kind", l->kind == TF_LANE_COUNTER ? "counter" : "slices");
        tf_buf_puts(b, ", ");
        key(b, "rows");
        tf_buf_printf(b, "%u", l->rows ? l->rows : 1);
        if (l->has_events)
            tf_buf_printf(b, ", \"events\": %zu", l->events);
        if (l->kind == TF_LANE_COUNTER)
            counter(b, &l->counter);
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_lanes);
    tf_buf_puts(b, ",\n  \"categories\": [");
    size_t n_classes = 0;
    for (size_t i = 0; i < f->n_cats; i++) {
        if (!first_of_class(f, i))
            continue;
        item(b, n_classes++);
        const struct tf_category *c = &f->cats[i];
        str(b, "name", cat_name(c));
        if (strcmp(tf_category_class(c), cat_name(c)) != 0) {
            tf_buf_puts(b, ", ");
            str(b, "class", tf_category_class(c));
        }
        tf_buf_puts(b, ", ");
        color(b, "color", c->color);
        tf_buf_putc(b, '}');
    }
    end_list(b, n_classes);
    tf_json_bars(b, f);
    if (f->n_marks) {
        tf_buf_puts(b, ",\n  ");
        tf_json_marks(b, f);
    }
    if (f->n_zooms)
        tf_json_zooms(b, f);
    tf_buf_puts(b, ",\n  \"legend\": [");
    legend(b, f);
    tf_buf_puts(b, ",\n  ");
    strings(b, "notes", f->notes, f->n_notes);
    tf_buf_puts(b, ",\n  ");
    if (has_layout(f, o)) {
        if (!layout(b, f, o))
            return false;
        tf_buf_puts(b, ",\n  ");
    }
    stats(b, f, true);
    tf_json_critical_path(b, f);
    tf_buf_puts(b, "\n}\n");
    return true;
}

static bool render_json(const struct tf_figure *f, const struct tf_render_opts *o,
                        struct tf_buf *b, struct tf_diag *d)
{
    if (f->schema && strcmp(f->schema, "tracefig-figure-2") == 0)
        return render_v2(f, o, b) || tf_diag_oom(d, "json");
    head(f, b, f->schema ? f->schema : "tracefig-figure-1", f->clock_unit ? f->clock_unit : "ms");
    tf_buf_puts(b, ",\n  \"lanes\": [");
    for (size_t i = 0; i < f->n_lanes; i++) {
        item(b, i);
        str(b, "id", f->lanes[i].key);
        tf_buf_puts(b, ", ");
        str(b, "label", f->lanes[i].label);
        lane_trace(b, f, &f->lanes[i]);
        tf_buf_putc(b, '}');
    }
    end_list(b, f->n_lanes);
    tf_buf_puts(b, ",\n");
    bars(b, f);
    if (f->n_marks) {
        tf_buf_puts(b, "  ");
        tf_json_marks(b, f);
        tf_buf_puts(b, ",\n");
    }
    tf_buf_puts(b, "  \"legend\": [");
    legend(b, f);
    tf_buf_puts(b, ",\n  ");
    breakdown(b, f);
    tf_buf_puts(b, ",\n  \"xticks\": [");
    int dec = f->axis.decimals;
    for (size_t i = 0; i < f->axis.n_ticks; i++) {
        if (i)
            tf_buf_puts(b, ", ");
        tf_buf_num(b, f->axis.ticks[i], dec > DEC ? dec : DEC);
    }
    tf_buf_puts(b, "],\n  ");
    if (has_layout(f, o)) {
        if (!layout(b, f, o))
            return tf_diag_oom(d, "json");
        tf_buf_puts(b, ",\n  ");
    }
    stats(b, f, false);
    tf_json_critical_path(b, f);
    tf_buf_puts(b, "\n}\n");
    return true;
}

const struct tf_backend tf_backend_json = {
    .name = "json",
    .exts = {".json", NULL},
    .description = "the figure model (schema tracefig-figure-1 or -2)",
    .available = true,
    .render = render_json,
};
