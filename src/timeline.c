/* timeline.c - the reference's plot_manual_timeline rules: trace model in,
 * figure model out.  Pure: no I/O, no drawing.
 *
 * With x the start candidate and N the number of candidates (default 3):
 *   selection   GPU "compute" x-1..x+N+1 (x..x+N+1 when x <= 0),
 *               main wait_for_io/await_dispatch/trsm_host x..x+N+1, dur >= 1 ms,
 *               I/O hdf5_read/gpu_buffer_wait x..x+N+2
 *   I/O merge   one "hdf5_io" bar per candidate; it starts where the last
 *               gpu_buffer_wait ends when both kinds exist
 *   dispatch    a synthesized main "await_dispatch" bar for each I/O end ->
 *               GPU start gap >= 1 ms that no main bar already covers
 *   window      left = earliest start of GPU x and I/O x+1; right = latest
 *               end among candidates x..x+N, plus 3 % of the span
 * At N = 3 this is exactly the reference, which ignores N.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figure.h"

/* A bar before clipping: one event of the plot, in the reference's
 * plot_events order (I/O, then main, then GPU). */
struct plot_ev {
    int lane; /* index into the figure's lanes, filled after lanes are known */
    char lane_id[16];
    enum tf_ev_name name; /* TF_EV_OTHER for merged I/O ("hdf5_io") */
    long long candidate;
    double start_ms, dur_ms;
};

struct plot_list {
    struct plot_ev *items;
    size_t n, cap;
};

static bool plot_push(struct plot_list *l, const struct plot_ev *e)
{
    void *items = l->items;
    if (!tf_grow(&items, &l->cap, l->n, sizeof *l->items))
        return false;
    l->items = items;
    l->items[l->n++] = *e;
    return true;
}

struct ranges {
    long long x;
    int n;
    long long gpu_min, gpu_max, main_min, main_max, io_min, io_max, core_max;
};

static struct ranges ranges_for(long long x, int n)
{
    struct ranges r;
    r.x = x;
    r.n = n;
    r.gpu_min = x > 0 ? x - 1 : x;
    r.gpu_max = x + n + 1;
    r.main_min = x;
    r.main_max = x + n + 1;
    r.io_min = x;
    r.io_max = x + n + 2;
    r.core_max = x + n;
    return r;
}

static bool selected(const struct tf_event *e, const struct ranges *r)
{
    long long c = e->candidate;
    switch ((enum tf_in_lane)e->lane) {
    case TF_IN_IO:
        return c >= r->io_min && c <= r->io_max &&
               (e->name == TF_EV_HDF5_READ || e->name == TF_EV_GPU_BUFFER_WAIT);
    case TF_IN_MAIN:
        return c >= r->main_min && c <= r->main_max && e->dur_ms >= TF_MAIN_MIN_MS &&
               (e->name == TF_EV_WAIT_FOR_IO || e->name == TF_EV_AWAIT_DISPATCH ||
                e->name == TF_EV_TRSM_HOST);
    case TF_IN_GPU:
        return c >= r->gpu_min && c <= r->gpu_max && e->name == TF_EV_COMPUTE;
    case TF_IN_OTHER:
        break;
    }
    return false;
}

static int cmp_ll(const void *a, const void *b)
{
    long long x = *(const long long *)a, y = *(const long long *)b;
    return (x > y) - (x < y);
}

/* _merge_io_events: one bar per candidate, candidates ascending. */
static bool merge_io(const struct tf_timeline *t, const struct ranges *r, struct plot_list *out)
{
    size_t n = 0;
    long long *cands = malloc((t->n_events ? t->n_events : 1) * sizeof *cands);
    if (!cands)
        return false;
    for (size_t i = 0; i < t->n_events; i++)
        if (t->events[i].lane == TF_IN_IO && selected(&t->events[i], r))
            cands[n++] = t->events[i].candidate;
    qsort(cands, n, sizeof *cands, cmp_ll);
    bool ok = true;
    for (size_t k = 0; k < n && ok; k++) {
        if (k > 0 && cands[k] == cands[k - 1])
            continue;
        long long c = cands[k];
        bool any_read = false, any_wait = false;
        double read_min = 0, read_end = 0, wait_min = 0, wait_end = 0;
        for (size_t i = 0; i < t->n_events; i++) {
            const struct tf_event *e = &t->events[i];
            if (e->lane != TF_IN_IO || e->candidate != c || !selected(e, r))
                continue;
            double end = e->start_ms + e->dur_ms;
            if (e->name == TF_EV_HDF5_READ) {
                read_min = any_read ? fmin(read_min, e->start_ms) : e->start_ms;
                read_end = any_read ? fmax(read_end, end) : end;
                any_read = true;
            } else {
                wait_min = any_wait ? fmin(wait_min, e->start_ms) : e->start_ms;
                wait_end = any_wait ? fmax(wait_end, end) : end;
                any_wait = true;
            }
        }
        double start, end;
        if (any_read && any_wait) {
            start = wait_end;
            end = read_end;
        } else if (any_read) {
            start = read_min;
            end = read_end;
        } else {
            start = wait_min;
            end = wait_end;
        }
        double dur = end - start;
        if (dur <= 0)
            continue;
        struct plot_ev pe = {0, "io", TF_EV_OTHER, c, start, dur};
        ok = plot_push(out, &pe);
    }
    free(cands);
    return ok;
}

/* _main_covers_interval */
static bool main_covers(const struct plot_list *l, size_t first_main, long long c, double start,
                        double end)
{
    for (size_t i = first_main; i < l->n; i++) {
        const struct plot_ev *m = &l->items[i];
        if (m->candidate != c)
            continue;
        double ev_end = m->start_ms + m->dur_ms;
        if (m->start_ms <= start + 0.05 && ev_end >= end - 0.05)
            return true;
    }
    return false;
}

/* _fill_dispatch_gaps: main bars from the trace, then synthesized ones.
 * The GPU start of each candidate comes from ALL compute events in the GPU
 * range (the last one wins), visible or not. */
static bool fill_dispatch_gaps(const struct tf_timeline *t, const struct ranges *r,
                               struct plot_list *l, size_t n_io)
{
    size_t first_main = l->n;
    for (size_t i = 0; i < t->n_events; i++) {
        const struct tf_event *e = &t->events[i];
        if (e->lane == TF_IN_MAIN && selected(e, r)) {
            struct plot_ev pe = {0, "main", (enum tf_ev_name)e->name, e->candidate, e->start_ms,
                                 e->dur_ms};
            if (!plot_push(l, &pe))
                return false;
        }
    }
    for (size_t k = 0; k < n_io; k++) {
        struct plot_ev io = l->items[k];
        const struct tf_event *gpu = NULL;
        for (size_t i = 0; i < t->n_events; i++) {
            const struct tf_event *e = &t->events[i];
            if (e->lane == TF_IN_GPU && e->name == TF_EV_COMPUTE && e->candidate == io.candidate &&
                e->candidate >= r->gpu_min && e->candidate <= r->gpu_max)
                gpu = e;
        }
        if (!gpu)
            continue;
        double io_end = io.start_ms + io.dur_ms;
        double gap = gpu->start_ms - io_end;
        if (gap < TF_MAIN_MIN_MS)
            continue;
        if (main_covers(l, first_main, io.candidate, io_end, gpu->start_ms))
            continue;
        struct plot_ev pe = {0, "main", TF_EV_AWAIT_DISPATCH, io.candidate, io_end, gap};
        if (!plot_push(l, &pe))
            return false;
    }
    return true;
}

static long long pymod2(long long c)
{
    return ((c % 2) + 2) % 2;
}

static bool add_gpu(const struct tf_timeline *t, const struct ranges *r, struct plot_list *l)
{
    for (size_t i = 0; i < t->n_events; i++) {
        const struct tf_event *e = &t->events[i];
        if (e->lane != TF_IN_GPU || !selected(e, r))
            continue;
        long long buf = e->has_buffer ? e->buffer : pymod2(e->candidate);
        struct plot_ev pe = {0, "", TF_EV_COMPUTE, e->candidate, e->start_ms, e->dur_ms};
        snprintf(pe.lane_id, sizeof pe.lane_id, "gpu%lld", buf);
        if (!plot_push(l, &pe))
            return false;
    }
    return true;
}

/* Lanes top to bottom: main, io, gpu0, gpu1, then gpu2... in order. */
static void set_lanes(struct tf_figure *f, struct plot_list *l)
{
    static const struct {
        const char *id, *label;
    } base[] = {
        {"main", "Main Thread"}, {"io", "I/O Thread"}, {"gpu0", "GPU Stream 0"},
        {"gpu1", "GPU Stream 1"},
    };
    f->n_lanes = 0;
    for (size_t b = 0; b < 4; b++)
        for (size_t i = 0; i < l->n; i++)
            if (strcmp(l->items[i].lane_id, base[b].id) == 0) {
                struct tf_lane *ln = &f->lanes[f->n_lanes++];
                snprintf(ln->id, sizeof ln->id, "%s", base[b].id);
                snprintf(ln->label, sizeof ln->label, "%s", base[b].label);
                break;
            }
    for (int g = 2; g < 64 && f->n_lanes < TF_MAX_LANES; g++) {
        char id[16];
        snprintf(id, sizeof id, "gpu%d", g);
        for (size_t i = 0; i < l->n; i++)
            if (strcmp(l->items[i].lane_id, id) == 0) {
                struct tf_lane *ln = &f->lanes[f->n_lanes++];
                snprintf(ln->id, sizeof ln->id, "%s", id);
                snprintf(ln->label, sizeof ln->label, "GPU Stream %d", g);
                break;
            }
    }
    for (size_t i = 0; i < l->n; i++) {
        l->items[i].lane = -1;
        for (size_t k = 0; k < f->n_lanes; k++)
            if (strcmp(l->items[i].lane_id, f->lanes[k].id) == 0)
                l->items[i].lane = (int)k;
    }
    f->has_main_lane = f->n_lanes > 0 && strcmp(f->lanes[0].id, "main") == 0;
}

/* _plot_window_bounds */
static void window_bounds(const struct plot_list *l, const struct ranges *r, double *start,
                          double *end)
{
    bool any = false;
    double s = 0.0;
    for (size_t i = 0; i < l->n; i++) {
        const struct plot_ev *e = &l->items[i];
        bool gpu_x = strncmp(e->lane_id, "gpu", 3) == 0 && e->candidate == r->x;
        bool io_x1 = strcmp(e->lane_id, "io") == 0 && e->candidate == r->x + 1;
        if (gpu_x || io_x1) {
            s = any ? fmin(s, e->start_ms) : e->start_ms;
            any = true;
        }
    }
    bool any_core = false;
    double e_max = 0.0;
    for (size_t i = 0; i < l->n; i++) {
        const struct plot_ev *e = &l->items[i];
        if (e->candidate >= r->x && e->candidate <= r->core_max) {
            double end_i = e->start_ms + e->dur_ms;
            e_max = any_core ? fmax(e_max, end_i) : end_i;
            any_core = true;
        }
    }
    if (!any_core)
        for (size_t i = 0; i < l->n; i++) {
            double end_i = l->items[i].start_ms + l->items[i].dur_ms;
            e_max = i ? fmax(e_max, end_i) : end_i;
        }
    double span = fmax(e_max - s, 1.0);
    *start = s;
    *end = e_max + TF_WINDOW_PAD_FRAC * span;
}

static uint32_t bar_color(const struct plot_ev *e)
{
    if (strcmp(e->lane_id, "main") == 0) {
        switch (e->name) {
        case TF_EV_WAIT_FOR_IO: return TF_COLOR_WAIT_FOR_IO;
        case TF_EV_TRSM_HOST: return TF_COLOR_TRSM_HOST;
        default: return TF_COLOR_AWAIT_DISPATCH;
        }
    }
    if (strcmp(e->lane_id, "io") == 0)
        return TF_COLOR_IO;
    /* gpu0, gpu2, ... dark; gpu1, gpu3, ... light */
    long g = strtol(e->lane_id + 3, NULL, 10);
    return g % 2 ? TF_COLOR_GPU1 : TF_COLOR_GPU0;
}

static const char *bar_name(const struct plot_ev *e)
{
    return e->name == TF_EV_OTHER ? "hdf5_io" : tf_ev_name_str(e->name);
}

static void set_legend(struct tf_figure *f, const struct plot_list *l, const bool *visible)
{
    bool seen[8] = {false};
    for (size_t i = 0; i < l->n; i++)
        if (visible[i] && strcmp(l->items[i].lane_id, "main") == 0)
            seen[l->items[i].name] = true;
    f->n_legend = 0;
    if (seen[TF_EV_TRSM_HOST])
        f->legend[f->n_legend++] = (struct tf_legend_entry){"TRSM (host)", TF_COLOR_TRSM_HOST};
    if (seen[TF_EV_WAIT_FOR_IO])
        f->legend[f->n_legend++] =
            (struct tf_legend_entry){"Wait for prefetch", TF_COLOR_WAIT_FOR_IO};
    if (seen[TF_EV_AWAIT_DISPATCH])
        f->legend[f->n_legend++] =
            (struct tf_legend_entry){"Ready \xE2\x86\x92 launch", TF_COLOR_AWAIT_DISPATCH};
    f->legend[f->n_legend++] = (struct tf_legend_entry){"HDF5 read", TF_COLOR_IO};
    f->legend[f->n_legend++] = (struct tf_legend_entry){"GPU compute", TF_COLOR_GPU0};
}

static long long start_candidate_of(const struct tf_timeline *t, const struct tf_rules_opts *o)
{
    if (o->start_candidate.set)
        return o->start_candidate.v;
    if (t->start_candidate.set)
        return t->start_candidate.v;
    if (t->timeline_record_from.set)
        return t->timeline_record_from.v;
    if (t->focus_candidate.set)
        return t->focus_candidate.v;
    return 0;
}

static int num_candidates_of(const struct tf_timeline *t, const struct tf_rules_opts *o,
                             struct tf_diag *d)
{
    if (o->num_candidates.set)
        return (int)o->num_candidates.v;
    if (t->num_candidates.set) {
        if (t->num_candidates.v >= 1 && t->num_candidates.v <= 1000)
            return (int)t->num_candidates.v;
        tf_diag_warn(d, "num_candidates %lld in the trace is not in 1..1000; using %d",
                     t->num_candidates.v, TF_DEFAULT_NUM_CANDIDATES);
    }
    return TF_DEFAULT_NUM_CANDIDATES;
}

static bool build_bars(struct tf_figure *f, const struct plot_list *l, const struct ranges *r,
                       const bool *visible)
{
    double ps = f->window_start_ms, pe = f->window_end_ms;
    for (size_t i = 0; i < l->n; i++) {
        if (!visible[i])
            continue;
        const struct plot_ev *e = &l->items[i];
        double end = e->start_ms + e->dur_ms;
        double bs = fmax(e->start_ms, ps), be = fmin(end, pe);
        if (be <= bs)
            continue;
        struct tf_bar *b = tf_figure_add_bar(f);
        if (!b)
            return false;
        bool is_io = strcmp(e->lane_id, "io") == 0;
        bool is_gpu = strncmp(e->lane_id, "gpu", 3) == 0;
        b->lane = e->lane;
        b->name = bar_name(e);
        b->has_candidate = true;
        b->candidate = e->candidate;
        b->start_ms = e->start_ms;
        b->dur_ms = e->dur_ms;
        b->x0 = bs - ps;
        b->x1 = b->x0 + (be - bs);
        b->clip_left = e->start_ms < ps - TF_EDGE_CLIP_EPS_MS;
        b->clip_right = end > pe + TF_EDGE_CLIP_EPS_MS;
        b->color = bar_color(e);
        b->label_color = is_io ? TF_COLOR_BLACK : TF_COLOR_WHITE;
        bool label = false;
        if (be - bs >= TF_LABEL_MIN_MS) {
            if (is_io && (b->clip_left || b->clip_right))
                label = false;
            else if (e->candidate >= r->x)
                label = true;
            else if (is_gpu && b->clip_left)
                label = true;
        }
        b->has_label = label;
        if (label)
            snprintf(b->label, sizeof b->label, "%lld", e->candidate);
    }
    return true;
}

bool tf_timeline_figure(const struct tf_timeline *t, const struct tf_breakdown_in *bd,
                        const struct tf_rules_opts *o, struct tf_figure *f, struct tf_diag *d)
{
    long long x = start_candidate_of(t, o);
    int n = num_candidates_of(t, o, d);
    struct ranges r = ranges_for(x, n);

    bool any = false;
    for (size_t i = 0; i < t->n_events && !any; i++)
        any = selected(&t->events[i], &r);
    if (!any)
        return tf_diag_error(d, TF_EBADINPUT,
                             "no events in the window of start candidate %lld (GPU %lld-%lld, "
                             "main %lld-%lld, I/O %lld-%lld)",
                             x, r.gpu_min, r.gpu_max, r.main_min, r.main_max, r.io_min, r.io_max);

    struct plot_list l = {NULL, 0, 0};
    bool *visible = NULL;
    bool ok = merge_io(t, &r, &l);
    size_t n_io = l.n;
    ok = ok && fill_dispatch_gaps(t, &r, &l, n_io) && add_gpu(t, &r, &l);
    if (!ok)
        goto oom;

    if (l.n == 0) {
        free(l.items);
        return tf_diag_error(d, TF_EBADINPUT,
                             "no drawable events in the window of start candidate %lld "
                             "(every selected event has a zero or negative duration)",
                             x);
    }
    f->mode = TF_MODE_TIMELINE;
    f->has_start_candidate = true;
    f->start_candidate = x;
    f->num_candidates = n;
    set_lanes(f, &l);
    window_bounds(&l, &r, &f->window_start_ms, &f->window_end_ms);
    if (!(f->window_end_ms - f->window_start_ms >= TF_MIN_SPAN_MS)) {
        free(l.items);
        return tf_diag_error(d, TF_EBADINPUT,
                             "the window of start candidate %lld is empty: its left edge (the "
                             "start of GPU %lld / I/O %lld) lies after the end of candidates "
                             "%lld-%lld",
                             x, x, x + 1, x, r.core_max);
    }
    double span = fmax(f->window_end_ms - f->window_start_ms, 1.0);
    f->zigzag_amp_ms =
        fmin(TF_ZIGZAG_AMP_MAX_MS, fmax(TF_ZIGZAG_AMP_MIN_MS, TF_ZIGZAG_AMP_FRAC * span));

    visible = calloc(l.n ? l.n : 1, sizeof *visible);
    if (!visible)
        goto oom;
    for (size_t i = 0; i < l.n; i++) {
        const struct plot_ev *e = &l.items[i];
        visible[i] = e->start_ms + e->dur_ms >= f->window_start_ms &&
                     e->start_ms <= f->window_end_ms;
    }
    if (!build_bars(f, &l, &r, visible))
        goto oom;

    f->has_legend_y = o->has_legend_y;
    f->legend_y = o->legend_y;
    bool panel = bd && bd->n_ops > 0;
    if (panel)
        tf_breakdown_figure(bd, o->has_min_runtime_pct ? o->min_runtime_pct : 0.0, f);
    else
        set_legend(f, &l, visible);
    f->n_xticks = tf_nice_ticks(0.0, tf_figure_span(f), 9, f->xticks, TF_MAX_TICKS);
    free(visible);
    free(l.items);
    return true;
oom:
    free(visible);
    free(l.items);
    return tf_diag_error(d, TF_EIO, "out of memory");
}
