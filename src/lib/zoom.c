/* zoom.c - --zoom: each zoom's range resolved against the figure, and the
 * figure of that range alone; see zoom.h.  Where the panels go is the
 * plan's (render/plan_zoom.c); this file only makes their figures.
 */
#include "lib/zoom.h"

#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "rules/marks.h"

/* A zoom's figure takes the main figure's colours, class by class: the
 * rules colour a window's classes in their order there, and one class must
 * read alike in every panel. */
static void recolor(struct tf_figure *z, const struct tf_figure *f)
{
    for (size_t i = 0; i < z->n_cats; i++) {
        const struct tf_category *c = &z->cats[i];
        for (size_t j = 0; j < f->n_cats; j++) {
            if (!c->key || !f->cats[j].key || strcmp(c->key, f->cats[j].key) != 0)
                continue;
            uint32_t from = c->color, to = f->cats[j].color;
            for (size_t k = 0; k < z->n_bars && from != to; k++)
                if (z->bars[k].cat == i && z->bars[k].color == from)
                    z->bars[k].color = to;
            z->cats[i].color = to;
            break;
        }
    }
}

/* The main figure's marks where their range lies in the zoom, as the
 * main figure resolved them (an event's K-th match counts in the main
 * window): their times on the zoom's axis, cut at its edges, their events'
 * lanes by label (a callout whose lane the zoom lacks is left out), their
 * texts as the main figure wrote them.  A highlight is resolved in the
 * zoom (its globs name no occurrence). */
static bool zoom_marks(struct tf_figure *z, const struct tf_figure *f, const struct tf_zoom *zm,
                       const struct tf_mark_spec *specs, size_t n, struct tf_diag *d)
{
    double scale = z->x_span / (zm->t1 - zm->t0);
    for (size_t i = 0; i < f->n_marks; i++) {
        struct tf_mark m = f->marks[i];
        if (m.kind == TF_MARK_HIGHLIGHT)
            continue;
        double a = (m.t0 - zm->t0) * scale, b = (m.t1 - zm->t0) * scale;
        if (!(b > 0) || !(a < z->x_span) || (!(b > a) && m.kind != TF_MARK_CALLOUT))
            continue;
        m.open0 = m.open0 || a < 0;
        m.open1 = m.open1 || b > z->x_span;
        m.t0 = a < 0 ? 0 : a;
        m.t1 = b > z->x_span ? z->x_span : b;
        m.dur *= scale;
        size_t k = 0;
        for (size_t e = 0; e < m.n_ev; e++) {
            const char *label = f->lanes[m.ev[e].lane].label;
            size_t l = 0;
            while (l < z->n_lanes &&
                   !(label && z->lanes[l].label && strcmp(label, z->lanes[l].label) == 0))
                l++;
            if (l == z->n_lanes)
                continue;
            struct tf_mark_event ev = m.ev[e];
            ev.lane = l;
            ev.start = (ev.start - zm->t0) * scale;
            ev.end = (ev.end - zm->t0) * scale;
            m.ev[k++] = ev;
        }
        if (m.kind == TF_MARK_CALLOUT && k < m.n_ev)
            continue;
        m.n_ev = k;
        if (!TF_GROW(z->marks, z->n_marks, z->cap_marks))
            return tf_diag_oom(d, NULL);
        z->marks[z->n_marks++] = m;
    }
    for (size_t i = 0; i < n; i++) {
        if (specs[i].kind != TF_MARK_HIGHLIGHT)
            continue;
        struct tf_diag q;
        tf_diag_init(&q);
        q.quiet = true;
        size_t before = z->n_marks;
        if (!tf_marks_apply(z, &specs[i], 1, &q)) {
            z->n_marks = before;
            if (q.code == TF_ENOMEM)
                return tf_diag_oom(d, NULL);
        }
    }
    return true;
}

/* Where zoom lane i goes among the main figure's lanes: the first not yet
 * taken of the same label, or SIZE_MAX (a lane the main figure lacks). */
static size_t lane_to(const struct tf_figure *f, const struct tf_lane *l, const bool *taken)
{
    for (size_t j = 0; j < f->n_lanes; j++)
        if (!taken[j] && l->label && f->lanes[j].label && strcmp(l->label, f->lanes[j].label) == 0)
            return j;
    return SIZE_MAX;
}

/* The zoom's stats on its new lanes: busy per lane, groups' lanes and one
 * counter entry per counter lane, in lane order (an idle one: no value). */
static bool remap_stats(struct tf_figure *z, const size_t *to, size_t n_old,
                        const struct tf_lane *lanes, size_t n)
{
    struct tf_stats *s = &z->stats;
    if (!s->on)
        return true;
    double *busy = calloc(n ? n : 1, sizeof *busy);
    struct tf_stat_counter *cs = calloc(n ? n : 1, sizeof *cs);
    if (!busy || !cs) {
        free(busy);
        free(cs);
        return false;
    }
    for (size_t i = 0; s->lane_busy_ms && i < n_old; i++)
        if (to[i] != SIZE_MAX)
            busy[to[i]] = s->lane_busy_ms[i];
    free(s->lane_busy_ms);
    s->lane_busy_ms = busy;
    for (size_t g = 0; g < s->n_groups; g++) {
        size_t k = 0;
        for (size_t i = 0; i < s->groups[g].n_lanes; i++)
            if (to[s->groups[g].lanes[i]] != SIZE_MAX)
                s->groups[g].lanes[k++] = to[s->groups[g].lanes[i]];
        s->groups[g].n_lanes = k;
    }
    size_t nc = 0;
    for (size_t j = 0; j < n; j++) {
        if (lanes[j].kind != TF_LANE_COUNTER)
            continue;
        cs[nc] = (struct tf_stat_counter){.lane = j};
        for (size_t c = 0; c < s->n_counters; c++)
            if (to[s->counters[c].lane] == j)
                cs[nc] = s->counters[c], cs[nc].lane = j;
        nc++;
    }
    free(s->counters);
    s->counters = cs;
    s->n_counters = nc;
    return true;
}

/* The zoom's lanes become the main figure's, in its order and with its
 * labels: a main lane idle in the range stays, empty (one row); a lane of
 * the range the main figure does not draw goes, with its bars, arrows and
 * events.  Figures of several traces or a job's overview rows keep the
 * lanes of their range (their lane indexes are held elsewhere too). */
static bool same_lanes(struct tf_figure *z, const struct tf_figure *f)
{
    if (f->n_traces || z->n_traces || f->overview.n_ranks || z->overview.n_ranks)
        return true;
    size_t n = f->n_lanes;
    size_t *to = malloc((z->n_lanes ? z->n_lanes : 1) * sizeof *to);
    bool *taken = calloc(n ? n : 1, sizeof *taken);
    struct tf_lane *lanes = calloc(n ? n : 1, sizeof *lanes);
    bool ok = to && taken && lanes;
    for (size_t i = 0; ok && i < z->n_lanes; i++) {
        to[i] = lane_to(f, &z->lanes[i], taken);
        if (to[i] != SIZE_MAX) {
            taken[to[i]] = true;
            lanes[to[i]] = z->lanes[i];
        } else {
            free(z->lanes[i].counter.samples);
        }
    }
    for (size_t j = 0; ok && j < n; j++) {
        if (taken[j])
            continue;
        lanes[j] = f->lanes[j]; /* its strings are the main figure's, which outlives z */
        lanes[j].rows = 1;
        lanes[j].annot_rows = 0;
        lanes[j].events = 0;
        lanes[j].counter.samples = NULL;
        lanes[j].counter.n_samples = lanes[j].counter.cap_samples = 0;
        lanes[j].counter.has_range = false;
    }
    ok = ok && remap_stats(z, to, z->n_lanes, lanes, n);
    if (!ok) {
        free(to);
        free(taken);
        free(lanes);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < z->n_bars; i++)
        if (to[z->bars[i].lane] != SIZE_MAX) {
            z->bars[k] = z->bars[i];
            z->bars[k++].lane = to[z->bars[i].lane];
        }
    z->n_bars = k;
    k = 0;
    for (size_t i = 0; i < z->n_arrows; i++)
        if (to[z->arrows[i].lane0] != SIZE_MAX && to[z->arrows[i].lane1] != SIZE_MAX) {
            z->arrows[k] = z->arrows[i];
            z->arrows[k].lane0 = to[z->arrows[i].lane0];
            z->arrows[k++].lane1 = to[z->arrows[i].lane1];
        }
    z->n_arrows = k;
    k = 0;
    for (size_t i = 0; i < z->n_mark_events; i++)
        if (to[z->mark_events[i].lane] != SIZE_MAX) {
            z->mark_events[k] = z->mark_events[i];
            z->mark_events[k++].lane = to[z->mark_events[i].lane];
        }
    z->n_mark_events = k;
    free(z->lanes);
    z->lanes = lanes;
    z->n_lanes = z->cap_lanes = n;
    free(to);
    free(taken);
    return true;
}

/* The figure of [t0, t1] (main axis units) alone: the rules run again on
 * the trace with --from and --to set there (and no padding). */
static bool zoom_figure(const struct tf_zoom_in *in, struct tf_zoom *zm, struct tf_diag *d)
{
    const struct tf_figure *f = in->fig;
    struct tf_opts o = *in->rules;
    double ns_per = (double)(in->span->w1 - in->span->w0) / f->x_span;
    int64_t base = in->span->w0 - in->span->origin;
    o.has_from = o.has_to = true;
    o.from_ns = base + (int64_t)llround(zm->t0 * ns_per);
    o.to_ns = base + (int64_t)llround(zm->t1 * ns_per);
    if (o.to_ns <= o.from_ns)
        o.to_ns = o.from_ns + 1;
    o.window_event = NULL;
    o.occurrence = 0;
    o.pad_pct = 0;
    zm->from_ns = o.from_ns;
    zm->to_ns = o.to_ns;
    if (!(zm->fig = malloc(sizeof *zm->fig)))
        return tf_diag_oom(d, NULL);
    tf_figure_init(zm->fig);
    struct tf_trace trace;
    tf_trace_init(&trace);
    struct tf_diag q; /* its warnings are the main figure's, said once */
    tf_diag_init(&q);
    q.quiet = true;
    struct tf_run run = {in->path, in->breakdown_path, in->mode, &o, NULL};
    bool ok = tf_run(&run, &trace, zm->fig, &q);
    if (ok && zm->fig->ov_set)
        ok = tf_ranks_finish_set(zm->fig, in->size, o.order_ranks, &q);
    tf_trace_fini(&trace);
    if (!ok)
        return tf_diag_error(d, q.code, "%s", q.msg);
    if (!same_lanes(zm->fig, f))
        return tf_diag_oom(d, NULL);
    recolor(zm->fig, f);
    return zoom_marks(zm->fig, f, zm, in->marks, in->n_marks, d);
}

/* The legend names a class in the main figure already: --highlight fades
 * a class's first bar in one panel and not in another, and one class is
 * one entry. */
static bool has_label(const struct tf_figure *f, const char *label)
{
    for (size_t j = 0; j < f->n_legend; j++)
        if (f->legend[j].label && label && strcmp(f->legend[j].label, label) == 0)
            return true;
    return false;
}

/* Whether a bar of z draws class cat (a lane same_lanes left out drew
 * none). */
static bool drawn(const struct tf_figure *z, size_t cat)
{
    for (size_t i = 0; i < z->n_bars; i++) {
        if (z->bars[i].cat == cat)
            return true;
        for (size_t k = 0; k < z->bars[i].n_shares; k++)
            if (z->bars[i].shares[k].cat == cat)
                return true;
    }
    return false;
}

/* The one legend holds every class drawn in any panel: a zoom's class the
 * main figure lacks (a zoom's range may colour its events otherwise) is
 * merged into it. */
static bool merge_legend(struct tf_figure *f, const struct tf_figure *z, struct tf_diag *d)
{
    for (size_t i = 0; i < z->n_legend; i++) {
        if (has_label(f, z->legend[i].label) || !drawn(z, z->legend[i].cat))
            continue;
        size_t k = tf_figure_merge_category(f, &z->cats[z->legend[i].cat]);
        if (k == (size_t)-1 || !tf_figure_merge_legend(f, z->legend[i].label, k))
            return tf_diag_oom(d, NULL);
    }
    return true;
}

/* Checks one zoom's range against the window and pads it. */
static bool zoom_range(struct tf_figure *f, const struct tf_mark_spec *z, double pad,
                       double *t0, double *t1, struct tf_diag *d)
{
    char err[TF_MARKS_ERR];
    struct tf_mark_point pa, pb;
    if (!tf_marks_range(f, &z->from, &z->to, z->where, &pa, &pb, err))
        return strcmp(err, "out of memory") == 0 ? tf_diag_oom(d, NULL)
                                                 : tf_diag_error(d, TF_EBADINPUT, "%s", err);
    double span = f->x_span, eps = span * 1e-9;
    struct tf_buf a, b, w;
    tf_buf_init(&a);
    tf_buf_init(&b);
    tf_buf_init(&w);
    tf_marks_fmt_time(f, pa.t, &a);
    tf_marks_fmt_time(f, pb.t, &b);
    tf_marks_fmt_time(f, span, &w);
    bool ok = true;
    if (pa.t < -eps || pb.t > span + eps || pa.t > span - eps || pb.t < eps)
        ok = tf_diag_error(d, TF_EBADINPUT,
                           "%s: the range %s..%s lies outside the window (0..%s)", z->where,
                           a.data ? a.data : "", b.data ? b.data : "", w.data ? w.data : "");
    else if (!(pb.t > pa.t))
        ok = tf_diag_error(d, TF_EBADINPUT, "%s: the range is empty (%s..%s)", z->where,
                           a.data ? a.data : "", b.data ? b.data : "");
    tf_buf_fini(&a);
    tf_buf_fini(&b);
    tf_buf_fini(&w);
    if (!ok)
        return false;
    double p = (pb.t - pa.t) * pad / 100.0;
    *t0 = fmax(0.0, pa.t - p);
    *t1 = fmin(span, pb.t + p);
    return true;
}

bool tf_zoom_make(const struct tf_zoom_in *in, struct tf_figure *f, struct tf_diag *d)
{
    if (in->n_zooms == 0)
        return true;
    if (!in->span || in->span->w1 <= in->span->w0 || !(f->x_span > 0))
        return tf_diag_usage(d, "--zoom: the %s mode draws no window a zoom can be cut from",
                             f->mode ? f->mode : "chosen");
    double t0[TF_ZOOMS_MAX], t1[TF_ZOOMS_MAX];
    for (size_t i = 0; i < in->n_zooms; i++)
        if (!zoom_range(f, &in->zooms[i], in->pad_pct, &t0[i], &t1[i], d))
            return false;
    if (!(f->zooms = calloc(in->n_zooms, sizeof *f->zooms)))
        return tf_diag_oom(d, NULL);
    f->n_zooms = in->n_zooms;
    struct tf_zoom_in one = *in;
    one.fig = f;
    for (size_t i = 0; i < in->n_zooms; i++) {
        struct tf_zoom *zm = &f->zooms[i];
        zm->t0 = t0[i];
        zm->t1 = t1[i];
        if (!(zm->spec = tf_figure_str(f, in->zooms[i].where)))
            return tf_diag_oom(d, NULL);
        if (!zoom_figure(&one, zm, d) || !merge_legend(f, zm->fig, d))
            return false;
    }
    return true;
}
