/* events.c - the generic Chrome mode's sink for the loader (load/tef.h):
 * what each record of the trace becomes.  Pass 1 (index) hands metadata
 * to lanes.c and every drawable extent and --window-event occurrence to
 * window.c.  Pass 2 (collect) keeps what reaches into the window: slices
 * (X events, and the B/E pairs the loader has joined), thread-scoped
 * instants, async events with --async, each as a pending slice of its
 * lane for rows.c; and flow ends (s/t/f, and the bind_id/flow_in/flow_out
 * of X events), matched into arrows between the drawn lanes once build()
 * knows them.  Both passes give GPU work to stats.c.  It does not pair B with E (the
 * loader does), place slices in rows or choose the window.  Counters (C)
 * and the other phases never reach it: the loader passes them over.
 */
#include "rules/chrome/chrome_int.h"

#include <stdlib.h>
#include <string.h>

/* The profiler's own span (Kineto: cat "Trace" in the process "Spans"),
 * which may start long before the first event: it does not set the
 * default window, and its lane is not drawn by default. */
static bool profiler_span(const struct tf_tef_rec *r)
{
    return r->pid.kind == TF_ID_STR && strcmp(r->pid.str, "Spans") == 0 &&
           (!r->cat || strcmp(r->cat, "Trace") == 0);
}

/* --- pass 1 ------------------------------------------------------------------------ */

bool tf_chrome_index(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    switch (r->kind) {
    case TF_TEF_META:
        tf_chrome_meta(c, r);
        break;
    case TF_TEF_SLICE:
        if (c->o->stats_trace_scope)
            tf_chrome_gpu_event(c, r, INT64_MIN, INT64_MAX);
        if (profiler_span(r))
            break;
        if (!r->open_end)
            tf_chrome_add_extent(c, r->ts, r->ts + r->dur);
        else
            tf_chrome_add_extent(c, r->ts, r->ts);
        if (c->o->window_event && !r->open_end && strcmp(r->name, c->o->window_event) == 0)
            tf_chrome_add_occurrence(c, r->ts, r->ts + r->dur);
        break;
    case TF_TEF_INSTANT:
        if (r->scope == 't' || r->scope == 0)
            tf_chrome_add_extent(c, r->ts, r->ts);
        break;
    case TF_TEF_ASYNC:
        if (c->o->async)
            tf_chrome_add_extent(c, r->ts, r->ts + (r->open_end ? 0 : r->dur));
        break;
    default:
        break;
    }
    return !c->oom;
}

/* --- pass 2 ------------------------------------------------------------------------ */

/* The flow ends a record gives (with --flows): an s, t or f event, or an
 * X event's flow_out and flow_in (format v2), on its thread's lane; false
 * when out of memory. */
static bool flow_ends(struct chrome *c, const struct tf_tef_rec *r)
{
    size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
    struct lane *ln = t == SIZE_MAX ? NULL : tf_chrome_lane_for(c, t);
    const char *id = r->kind == TF_TEF_FLOW ? r->id : r->bind_id;
    if (!ln || !id)
        return true;
    char ph = r->kind == TF_TEF_FLOW ? r->ph : r->flow_out ? 's' : 'f';
    int reps = r->kind == TF_TEF_SLICE && r->flow_in && r->flow_out ? 2 : 1;
    for (int k = 0; k < reps; k++) {
        if (!TF_GROW(c->flows, c->n_flows, c->cap_flows))
            return c->oom = true, false;
        struct flow_end *fe = &c->flows[c->n_flows];
        fe->id = tf_chrome_strdup(c, id);
        fe->ph = reps == 2 ? (k ? 's' : 'f') : ph;
        fe->lane = (size_t)(ln - c->lanes);
        fe->ts = r->kind == TF_TEF_SLICE && fe->ph == 's' ? r->ts + r->dur : r->ts;
        fe->bp = r->bp;
        c->n_flows++;
    }
    return true;
}

bool tf_chrome_collect(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    if (c->o->flows && (r->kind == TF_TEF_FLOW || (r->kind == TF_TEF_SLICE && r->bind_id))) {
        if (!flow_ends(c, r))
            return false;
        if (r->kind == TF_TEF_FLOW)
            return !c->oom;
    }
    if (r->kind == TF_TEF_SLICE && !c->o->stats_trace_scope)
        tf_chrome_gpu_event(c, r, c->w0, c->w1);
    if (r->kind == TF_TEF_ASYNC && !c->o->async)
        return true;
    if (r->kind != TF_TEF_SLICE && r->kind != TF_TEF_INSTANT && r->kind != TF_TEF_ASYNC)
        return true;
    if (r->kind == TF_TEF_INSTANT && r->tid.kind == TF_ID_STR &&
        strncmp(r->tid.str, "async ", 6) == 0 && !c->o->async)
        return true;
    /* Instants of a whole process or of the trace belong to no lane. */
    if (r->kind == TF_TEF_INSTANT && r->scope != 't')
        return true;
    /* A slice that only touches the window (ends at its start, begins at
     * its end: the next step after a --window-event) shows nothing of
     * itself; a zero-length one on the edge is still inside. */
    int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
    if (r->ts > c->w1 || (!r->open_end && end < c->w0))
        return true; /* outside (async pairs reach here unfiltered) */
    if ((end > r->ts || r->open_end) && (r->ts >= c->w1 || (!r->open_end && end <= c->w0)))
        return true;
    size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
    struct lane *ln = t == SIZE_MAX ? NULL : tf_chrome_lane_for(c, t);
    if (!ln)
        return false;
    struct pend p = {
        .t0 = r->ts,
        .t1 = r->ts + (r->dur > 0 ? r->dur : 0),
        .color = r->cname ? tf_chrome_cname_color(r->cname) : TF_CHROME_NO_COLOR,
        .instant = r->kind == TF_TEF_INSTANT,
        .open_end = r->open_end,
        .span = profiler_span(r),
        .depth = r->depth,
    };
    if (!tf_strtab_id(&c->strs, r->name, &p.name) ||
        !tf_strtab_id(&c->strs, r->cat ? r->cat : "", &p.cat))
        return c->oom = true, false;
    /* The args a tooltip shows, kept only for slices wide enough to be
     * drawn on their own: the thin ones end in dense spans, and keeping
     * a text per slice would hold the window's every event. */
    p.args = p.t1 - p.t0 >= c->thr_ns ? tf_chrome_args_text(c, r) : c->empty;
    return tf_chrome_rows_add(c, ln, &p);
}

bool tf_chrome_finish(void *ctx, struct tf_diag *d)
{
    struct chrome *c = ctx;
    for (size_t i = 0; i < c->n_lanes; i++)
        tf_chrome_rows_finish(c, &c->lanes[i]);
    if (c->oom)
        return tf_diag_oom(d, NULL);
    return true;
}

/* --- arrows ------------------------------------------------------------------------ */

static int by_flow_id(const void *x, const void *y)
{
    const struct flow_end *a = x, *b = y;
    int k = strcmp(a->id, b->id);
    if (k)
        return k;
    return (a->ts > b->ts) - (a->ts < b->ts);
}

/* Arrows from each s (or t) to the next t or f of its id, both ends on
 * drawn lanes. */
bool tf_chrome_add_arrows(struct chrome *c, struct tf_figure *f, const size_t *fig_lane,
                          double per)
{
    if (c->n_flows > 1)
        qsort(c->flows, c->n_flows, sizeof *c->flows, by_flow_id);
    for (size_t i = 0; i + 1 < c->n_flows; i++) {
        const struct flow_end *a = &c->flows[i], *b = &c->flows[i + 1];
        if (strcmp(a->id, b->id) != 0 || a->ph == 'f' || b->ph == 's')
            continue;
        size_t la = fig_lane[a->lane], lb = fig_lane[b->lane];
        if (la == SIZE_MAX || lb == SIZE_MAX)
            continue;
        if (a->ts < c->w0 || a->ts > c->w1 || b->ts < c->w0 || b->ts > c->w1)
            continue;
        int ra = tf_chrome_row_at(&c->lanes[a->lane], a->ts, false);
        int rb = tf_chrome_row_at(&c->lanes[b->lane], b->ts, b->bp != 'e' && b->ph == 'f');
        struct tf_arrow arrow = {
            .lane0 = la,
            .lane1 = lb,
            .row0 = ra < 0 ? 0 : (unsigned)ra,
            .row1 = rb < 0 ? 0 : (unsigned)rb,
            .x0 = (double)(a->ts - c->w0) / per,
            .x1 = (double)(b->ts - c->w0) / per,
        };
        if (!tf_figure_add_arrow(f, &arrow))
            return false;
    }
    return true;
}
