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
 *   stats       the overlap statistics of the drawn bars clipped to the
 *               window (tf_seed_stats: groups main, io, gpu; I/O hidden, GPU
 *               idle, each candidate's uncovered I/O; the summary line)
 *
 * The loader keeps only what this selection can use (the filter at the end
 * of this file: the lanes and names above, candidates x-1..x+N+2), so the
 * window rule is written here once.
 */
#include "rules/timeline.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "rules/breakdown.h"
#include "rules/palette.h"
#include "rules/seed.h"

/* GPU streams beyond this many would not fit a readable figure. */
#define TF_MAX_GPU_BUFFER 11

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
    if (!TF_GROW(l->items, l->n, l->cap))
        return false;
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

/* The events the figure draws, by lane and name. */
static bool uses(enum tf_in_lane lane, enum tf_ev_name name)
{
    switch (lane) {
    case TF_IN_IO:
        return name == TF_EV_HDF5_READ || name == TF_EV_GPU_BUFFER_WAIT;
    case TF_IN_MAIN:
        return name == TF_EV_WAIT_FOR_IO || name == TF_EV_AWAIT_DISPATCH ||
               name == TF_EV_TRSM_HOST;
    case TF_IN_GPU:
        return name == TF_EV_COMPUTE;
    case TF_IN_OTHER:
        break;
    }
    return false;
}

static bool selected(const struct tf_event *e, const struct ranges *r)
{
    long long c = e->candidate;
    if (!uses((enum tf_in_lane)e->lane, (enum tf_ev_name)e->name))
        return false;
    switch ((enum tf_in_lane)e->lane) {
    case TF_IN_IO:
        return c >= r->io_min && c <= r->io_max;
    case TF_IN_MAIN:
        return c >= r->main_min && c <= r->main_max && e->dur_ms >= TF_MAIN_MIN_MS;
    case TF_IN_GPU:
        return c >= r->gpu_min && c <= r->gpu_max;
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
    if (n > 1)
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

/* Lanes top to bottom: main, io, gpu0, gpu1, then gpu2... in order.  False
 * when out of memory. */
static bool set_lanes(struct tf_figure *f, struct plot_list *l)
{
    static const struct {
        const char *id, *label;
    } base[] = {
        {"main", "Main Thread"}, {"io", "I/O Thread"}, {"gpu0", "GPU Stream 0"},
        {"gpu1", "GPU Stream 1"},
    };
    for (size_t b = 0; b < 4; b++)
        for (size_t i = 0; i < l->n; i++)
            if (strcmp(l->items[i].lane_id, base[b].id) == 0) {
                if (!tf_figure_add_lane(f, base[b].id, base[b].label))
                    return false;
                break;
            }
    for (int g = 2; g <= TF_MAX_GPU_BUFFER; g++) {
        char id[16], label[32];
        snprintf(id, sizeof id, "gpu%d", g);
        snprintf(label, sizeof label, "GPU Stream %d", g);
        for (size_t i = 0; i < l->n; i++)
            if (strcmp(l->items[i].lane_id, id) == 0) {
                if (!tf_figure_add_lane(f, id, label))
                    return false;
                break;
            }
    }
    for (size_t i = 0; i < l->n; i++) {
        l->items[i].lane = -1;
        for (size_t k = 0; k < f->n_lanes; k++)
            if (strcmp(l->items[i].lane_id, f->lanes[k].key) == 0)
                l->items[i].lane = (int)k;
    }
    return true;
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

/* The category of a bar: its lane, and on the main lane its event. */
static size_t bar_category(struct tf_figure *f, const struct plot_ev *e)
{
    char key[48];
    if (strcmp(e->lane_id, "main") == 0)
        snprintf(key, sizeof key, "main/%s", bar_name(e));
    else
        snprintf(key, sizeof key, "%s", e->lane_id);
    return tf_figure_category(f, key, bar_color(e));
}

/* The legend (without a breakdown panel): the main-lane events drawn, then
 * I/O and GPU compute, always. */
static bool set_legend(struct tf_figure *f, const struct plot_list *l, const bool *visible)
{
    bool seen[8] = {false};
    for (size_t i = 0; i < l->n; i++)
        if (visible[i] && strcmp(l->items[i].lane_id, "main") == 0)
            seen[l->items[i].name] = true;
    static const struct {
        enum tf_ev_name name;
        const char *label, *key;
        uint32_t color;
    } main_entries[] = {
        {TF_EV_TRSM_HOST, "TRSM (host)", "main/trsm_host", TF_COLOR_TRSM_HOST},
        {TF_EV_WAIT_FOR_IO, "Wait for prefetch", "main/wait_for_io", TF_COLOR_WAIT_FOR_IO},
        {TF_EV_AWAIT_DISPATCH, "Ready \xE2\x86\x92 launch", "main/await_dispatch",
         TF_COLOR_AWAIT_DISPATCH},
    };
    bool ok = true;
    for (size_t k = 0; k < sizeof main_entries / sizeof main_entries[0]; k++)
        if (seen[main_entries[k].name])
            ok = ok && tf_figure_add_legend(f, main_entries[k].label,
                                            tf_seed_legend_cat(f, main_entries[k].color,
                                                               main_entries[k].key));
    ok = ok && tf_figure_add_legend(f, "HDF5 read", tf_seed_legend_cat(f, TF_COLOR_IO, "io"));
    ok = ok &&
         tf_figure_add_legend(f, "GPU compute", tf_seed_legend_cat(f, TF_COLOR_GPU0, "gpu0"));
    return ok;
}

static long long start_candidate_of(const struct tf_timeline *t, const struct tf_opts *o)
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

/* N from the options, else the trace, else the default (with a warning
 * for a trace value out of range when d is not NULL). */
static int num_candidates_of(const struct tf_timeline *t, const struct tf_opts *o,
                             struct tf_diag *d)
{
    if (o->num_candidates.set)
        return (int)o->num_candidates.v;
    if (t->num_candidates.set) {
        if (t->num_candidates.v >= 1 && t->num_candidates.v <= TF_MAX_NUM_CANDIDATES)
            return (int)t->num_candidates.v;
        if (d)
            tf_diag_warn(d, "num_candidates %lld in the trace is not in 1..%d; using %d",
                         t->num_candidates.v, TF_MAX_NUM_CANDIDATES, TF_DEFAULT_NUM_CANDIDATES);
    }
    return TF_DEFAULT_NUM_CANDIDATES;
}

static bool build_bars(struct tf_figure *f, const struct plot_list *l, const struct ranges *r,
                       const bool *visible)
{
    double ps = f->window_start, pe = f->window_end;
    for (size_t i = 0; i < l->n; i++) {
        if (!visible[i])
            continue;
        const struct plot_ev *e = &l->items[i];
        double end = e->start_ms + e->dur_ms;
        double bs = fmax(e->start_ms, ps), be = fmin(end, pe);
        if (be <= bs)
            continue;
        size_t cat = bar_category(f, e);
        struct tf_bar *b = cat == (size_t)-1 ? NULL : tf_figure_add_bar(f);
        if (!b)
            return false;
        bool is_io = strcmp(e->lane_id, "io") == 0;
        bool is_gpu = strncmp(e->lane_id, "gpu", 3) == 0;
        b->lane = (size_t)e->lane;
        b->cat = cat;
        b->name = bar_name(e);
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
        char cand[32];
        snprintf(cand, sizeof cand, "%lld", e->candidate);
        if (label && !(b->label = tf_figure_str(f, cand)))
            return false;
        struct tf_prop p = {"candidate", cand, true};
        if (!tf_figure_bar_props(f, b, &p, 1) || !tf_seed_bar_tooltip(f, b, true, e->candidate))
            return false;
    }
    return true;
}

static bool build(const struct tf_mode_input *in, const struct tf_opts *o, struct tf_figure *f,
                  struct tf_diag *d)
{
    const struct tf_timeline *t = &in->trace->timeline;
    if (t->n_null_candidate > 0)
        tf_diag_warn(d, "%s: skipped %zu event%s without a candidate", in->file,
                     t->n_null_candidate, t->n_null_candidate == 1 ? "" : "s");
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
    f->mode = tf_mode_timeline.name;
    f->schema = "tracefig-figure-1";
    char xs[32];
    snprintf(xs, sizeof xs, "%lld", x);
    if (!tf_figure_add_prop(f, "start_candidate", xs, true) || !set_lanes(f, &l))
        goto oom;
    window_bounds(&l, &r, &f->window_start, &f->window_end);
    if (!(f->window_end - f->window_start >= TF_MIN_SPAN_MS)) {
        free(l.items);
        return tf_diag_error(d, TF_EBADINPUT,
                             "the window of start candidate %lld is empty: its left edge (the "
                             "start of GPU %lld / I/O %lld) lies after the end of candidates "
                             "%lld-%lld",
                             x, x, x + 1, x, r.core_max);
    }
    f->x_span = f->window_end - f->window_start;
    double span = fmax(f->x_span, 1.0);
    f->zigzag_amp =
        fmin(TF_ZIGZAG_AMP_MAX_MS, fmax(TF_ZIGZAG_AMP_MIN_MS, TF_ZIGZAG_AMP_FRAC * span));

    visible = calloc(l.n ? l.n : 1, sizeof *visible);
    if (!visible)
        goto oom;
    for (size_t i = 0; i < l.n; i++) {
        const struct plot_ev *e = &l.items[i];
        visible[i] = e->start_ms + e->dur_ms >= f->window_start &&
                     e->start_ms <= f->window_end;
    }
    if (!build_bars(f, &l, &r, visible) || !tf_seed_stats(f, o))
        goto oom;

    f->has_legend_y = o->has_legend_y;
    f->legend_y = o->legend_y;
    bool panel = in->breakdown && in->breakdown->n_ops > 0;
    if (panel) {
        if (!tf_breakdown_panel(in->breakdown, o->has_min_runtime_pct ? o->min_runtime_pct : 0.0,
                                f))
            goto oom;
    } else if (!set_legend(f, &l, visible)) {
        goto oom;
    }
    bool main_lane = f->n_lanes > 0 && strcmp(f->lanes[0].key, "main") == 0;
    if (!tf_seed_frame(f, main_lane, f->x_span))
        goto oom;
    char title[96], subject[128];
    long long last = x + (n > 0 ? n : 1) - 1;
    if (last > x)
        snprintf(title, sizeof title, "Pipelined I/O timeline, candidates %lld\xE2\x80\x93%lld", x,
                 last);
    else
        snprintf(title, sizeof title, "Pipelined I/O timeline, candidate %lld", x);
    snprintf(subject, sizeof subject, "Pipelined I/O timeline of candidates %lld to %lld", x,
             last);
    if (!tf_figure_describe(f, title, subject))
        goto oom;
    free(visible);
    free(l.items);
    return true;
oom:
    free(visible);
    free(l.items);
    return tf_diag_oom(d, NULL);
}

/* --- what the loader keeps ------------------------------------------------------ */

/* Candidates x-1 .. x+N+2 (the union of the ranges above, and x-1 for the
 * GPU bar cut at the left edge).  x is known once the first set key of
 * start_candidate, timeline_record_from, focus_candidate has been read, or
 * all of them (final); N, until its key has been read, is the largest the
 * rules accept. */
static bool keep_range(const void *ctx, const struct tf_timeline *meta, bool final,
                       long long *lo, long long *hi)
{
    const struct tf_opts *o = ctx;
    if (!o->start_candidate.set && !final) {
        static const unsigned chain[] = {TF_META_START, TF_META_RECORD_FROM, TF_META_FOCUS};
        const struct tf_opt_int *vals[] = {&meta->start_candidate, &meta->timeline_record_from,
                                           &meta->focus_candidate};
        for (size_t i = 0; i < 3 && !vals[i]->set; i++)
            if (!(meta->seen & chain[i]))
                return false;
    }
    struct tf_opts widest = *o;
    if (!final && !o->num_candidates.set && !(meta->seen & TF_META_NUM)) {
        widest.num_candidates.set = true;
        widest.num_candidates.v = TF_MAX_NUM_CANDIDATES;
    }
    long long x = start_candidate_of(meta, o);
    int n = num_candidates_of(meta, &widest, NULL);
    *lo = x - 1;
    *hi = x + n + 2;
    return true;
}

static bool check_event(const struct tf_event *e, const char *file, const char *where,
                        struct tf_diag *d)
{
    if (e->has_buffer && (e->buffer < 0 || e->buffer > TF_MAX_GPU_BUFFER))
        return tf_diag_error(d, TF_EBADINPUT,
                             "%s: %s.buffer: expected a GPU stream from 0 to %d, got %lld", file,
                             where, TF_MAX_GPU_BUFFER, e->buffer);
    return true;
}

static bool begin(const struct tf_opts *o, struct tf_trace *t, struct tf_keep *k,
                  struct tf_diag *d)
{
    (void)t, (void)d;
    k->timeline = (struct tf_timeline_filter){
        .uses = uses, .range = keep_range, .check = check_event, .ctx = o};
    return true;
}

const struct tf_mode tf_mode_timeline = {
    .name = "timeline",
    .summary = "pipelined_timeline_v1/_v2 (+ breakdown): the reference's overlap figure",
    .kind = TF_TRACE_TIMELINE,
    .begin = begin,
    .build = build,
};
