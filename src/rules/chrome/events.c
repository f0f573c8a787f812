/* events.c - the generic Chrome mode's sink for the loader (load/tef.h):
 * what each record of the trace becomes.  Pass 1 (index) hands metadata
 * to lanes.c and every drawable extent (by thread), mark and complete
 * event (with --window-event) to window.c.  Pass 2 (collect) keeps what
 * reaches into the window: slices (X events, and the B/E pairs the loader
 * has joined), thread-scoped instants, async events with --async, each as
 * a pending slice of its lane for rows.c; the instants of a process or of
 * the trace as marks; and flow ends (s/t/f, and the bind_id/flow_in/
 * flow_out of X and B/E slices), matched into arrows between the drawn
 * lanes once build() knows them (v2 flows by id, as Perfetto links them).
 * The profiler's own records (Kineto's span and bookkeeping instants) set
 * no window and the instants are never drawn.  Both passes give GPU work
 * to stats.c, and counter records (C) and Kineto's [memory] instants to
 * counters.c (never drawn as ticks).  It does not pair B with E (the
 * loader does), place slices in rows or choose the window.  The other
 * phases never reach it: the loader passes them over.
 */
#include "rules/chrome/chrome_int.h"

#include "base/jsonlite.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

/* The profiler's own records: Kineto's span of the whole run (category
 * "Trace" in the process "Spans", or "Traces" in the 2021 format), which
 * may start long before the first event, and its bookkeeping instants
 * ("Iteration Start: PyTorch Profiler" in those processes, "Record Window
 * End").  They do not set the default window; the span's lane is not
 * drawn by default, the instants never. */
static bool profiler_process(const struct tf_tef_rec *r)
{
    return r->pid.kind == TF_ID_STR && (r->pid.str[0] == 'S' || r->pid.str[0] == 'T') &&
           (strcmp(r->pid.str, "Spans") == 0 || strcmp(r->pid.str, "Traces") == 0);
}

/* Kineto's own instants: those of its processes, and the end of its
 * recording window, a global instant of the empty pid. */
static bool profiler_instant(const struct tf_tef_rec *r)
{
    return profiler_process(r) ||
           (r->pid.kind == TF_ID_STR && !*r->pid.str && strcmp(r->name, "Record Window End") == 0);
}

static bool profiler_span(const struct tf_tef_rec *r)
{
    return profiler_process(r) && (!r->cat || strcmp(r->cat, "Trace") == 0);
}

/* --- pass 1 ------------------------------------------------------------------------ */

/* The extent of a record drawn on its thread's lane. */
static void extent(struct chrome *c, const struct tf_tef_rec *r, int64_t lo, int64_t hi)
{
    size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
    if (t != SIZE_MAX)
        tf_chrome_add_extent(c, t, lo, hi);
}

bool tf_chrome_index(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    if (c->hta && !tf_hta_rec(c->hta, r))
        return c->oom = true, false;
    if (c->cp && !tf_cp_rec(c->cp, r))
        return c->oom = true, false;
    if (r->kind == TF_TEF_COUNTER || tf_chrome_is_memory(r))
        return tf_chrome_counter_record(c, r);
    switch (r->kind) {
    case TF_TEF_META:
        tf_chrome_meta(c, r);
        break;
    case TF_TEF_ORIGIN:
        c->has_clock_origin = true;
        c->clock_origin = r->ts;
        break;
    case TF_TEF_HPC:
        c->hpc = true;
        break;
    case TF_TEF_COUNTS:
        c->count_events = true;
        break;
    case TF_TEF_FINE:
        c->fine_seen = true;
        break;
    case TF_TEF_NOTE: {
        char *note = tf_strdup_oom(r->name, &c->oom);
        if (note && !TF_GROW(c->notes, c->n_notes, c->cap_notes)) {
            free(note);
            c->oom = true;
        } else if (note) {
            c->notes[c->n_notes++] = note;
        }
        break;
    }
    case TF_TEF_SLICE: {
        tf_chrome_order_note(c, r);
        if (c->o->stats_trace_scope && !c->hta)
            tf_chrome_gpu_event(c, r, false);
        if (profiler_span(r))
            break;
        size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
        if (t == SIZE_MAX)
            break;
        struct extent *e = &c->thrs[t].ext;
        e->all_total = (!e->any_slice || e->all_total) && strncmp(r->name, "Total ", 6) == 0;
        e->any_slice = true;
        tf_chrome_add_extent(c, t, r->ts, r->open_end ? r->ts : r->ts + r->dur);
        if (c->o->window_event && !r->open_end && c->hpc)
            tf_chrome_window_rank(c, t, r->name, r->ts, r->ts + r->dur);
        else if (c->o->window_event && !r->open_end)
            tf_chrome_window_name(c, r->name, r->ts, r->ts + r->dur);
        break;
    }
    case TF_TEF_INSTANT:
        tf_chrome_order_note(c, r);
        if (profiler_instant(r))
            break;
        if (r->scope == 'g' || r->scope == 'p')
            tf_chrome_add_mark(c, r->ts);
        else if (!(r->tid.kind == TF_ID_STR && strncmp(r->tid.str, "async ", 6) == 0) ||
                 c->o->async)
            extent(c, r, r->ts, r->ts);
        break;
    case TF_TEF_ASYNC:
        c->in_order = c->in_order && !c->o->async; /* drawn at its end */
        if (c->o->async)
            extent(c, r, r->ts, r->ts + (r->open_end ? 0 : r->dur));
        break;
    default:
        break;
    }
    return !c->oom;
}

/* --- pass 2 ------------------------------------------------------------------------ */

/* The flow ends a record gives (with --flows): an s, t or f event, or the
 * bind_id of an X or B/E slice with flow_out, flow_in or both (format
 * v2), on its thread's lane; false when out of memory. */
static bool flow_ends(struct chrome *c, const struct tf_tef_rec *r)
{
    bool v2 = r->kind == TF_TEF_SLICE;
    if (v2 && !r->flow_in && !r->flow_out)
        return true; /* no direction: Perfetto links nothing either */
    size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
    struct lane *ln = t == SIZE_MAX ? NULL : tf_chrome_lane_for(c, t);
    const char *id = v2 ? r->bind_id : r->id;
    if (!ln || !id)
        return !c->oom;
    if (!TF_GROW(c->flows, c->n_flows, c->cap_flows))
        return c->oom = true, false;
    struct flow_end *fe = &c->flows[c->n_flows];
    fe->id = tf_strdup_oom(id, &c->oom);
    fe->ph = !v2 ? r->ph : r->flow_in && r->flow_out ? 't' : r->flow_out ? 's' : 'f';
    fe->v2 = v2;
    fe->lane = (size_t)(ln - c->lanes);
    fe->ts = r->ts;
    fe->t1 = v2 ? (r->open_end ? INT64_MAX : r->ts + r->dur) : r->ts;
    fe->bp = r->bp;
    c->n_flows++;
    return !c->oom;
}


/* A slice of a CPU lane ("CPU 3", category "sched": the thread that ran,
 * args.process its process): its time in the window, to its process's
 * CPU time (--stats), and *cls its process (an id in strs: the class
 * the slice is drawn in, system.c); else *cls is UINT32_MAX. */
static bool cpu_time(struct chrome *c, const struct tf_tef_rec *r, uint32_t *cls)
{
    *cls = UINT32_MAX;
    if (!r->cat || strcmp(r->cat, "sched") != 0 || r->pid.kind != TF_ID_STR ||
        strncmp(r->pid.str, "CPU ", 4) != 0 || !r->has_dur)
        return true;
    int64_t lo = r->ts > c->w0 ? r->ts : c->w0;
    int64_t hi = r->ts + r->dur < c->w1 ? r->ts + r->dur : c->w1;
    size_t n;
    const unsigned char *v = r->args ? tf_jl_get(r->args, r->args_len, "process", &n) : NULL;
    tf_buf_clear(&c->tmp);
    if (v && n >= 2 && v[0] == '"')
        tf_jl_string(v + 1, n - 2, &c->tmp);
    else if ((v = r->args ? tf_jl_get(r->args, r->args_len, "pid", &n) : NULL) != NULL) {
        tf_buf_puts(&c->tmp, "pid ");
        tf_buf_putn(&c->tmp, (const char *)v, n);
    } else
        tf_buf_puts(&c->tmp, r->name);
    uint32_t id;
    if (c->tmp.oom || !tf_strtab_id(&c->strs, c->tmp.data ? c->tmp.data : "", &id))
        return c->oom = true, false;
    *cls = id;
    if (hi <= lo)
        return true; /* no time in the window: not in --stats */
    while (c->n_cpu_of_str <= id) {
        size_t m = c->n_cpu_of_str;
        if (!TF_GROW(c->cpu_of_str, m, c->n_cpu_of_str))
            return c->oom = true, false;
        for (size_t k = m; k < c->n_cpu_of_str; k++)
            c->cpu_of_str[k] = 0;
    }
    if (!c->cpu_of_str[id]) {
        if (!TF_GROW(c->cpu, c->n_cpu, c->cap_cpu))
            return c->oom = true, false;
        c->cpu[c->n_cpu++] = (struct cpu_time){id, 0};
        c->cpu_of_str[id] = c->n_cpu;
    }
    c->cpu[c->cpu_of_str[id] - 1].ns += hi - lo;
    return true;
}

bool tf_chrome_collect(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    if (r->kind == TF_TEF_LANE_DONE)
        return tf_chrome_lane_done(c, r);
    if (r->kind == TF_TEF_UNTIMED) { /* counted on a lane that has events */
        size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
        size_t slot = t < c->n_lane_of_thr ? c->lane_of_thr[t] : 0;
        if (slot && slot <= c->n_lanes && c->lanes[slot - 1].thread == t)
            c->lanes[slot - 1].n_untimed++;
        return !c->oom;
    }
    if (r->kind == TF_TEF_META) { /* names that come with the events (an export's) */
        tf_chrome_meta(c, r);
        return !c->oom;
    }
    if (r->kind == TF_TEF_COUNTER || tf_chrome_is_memory(r))
        return tf_chrome_counter_record(c, r);
    if (r->kind == TF_TEF_PARADIGM) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p == SIZE_MAX || !TF_GROW(c->par, c->n_par, c->cap_par))
            return c->oom = true, false;
        struct par_time *pt = &c->par[c->n_par];
        *pt = (struct par_time){.proc = p, .mpi = !r->cat, .ns = r->dur};
        if (r->cat && !tf_strtab_id(&c->strs, r->cat, &pt->cat))
            return c->oom = true, false;
        c->n_par++;
        return true;
    }
    uint32_t cpu_cls = UINT32_MAX;
    if (r->kind == TF_TEF_SLICE && !cpu_time(c, r, &cpu_cls))
        return false;
    if (c->o->flows && (r->kind == TF_TEF_FLOW || (r->kind == TF_TEF_SLICE && r->bind_id))) {
        if (!flow_ends(c, r))
            return false;
        if (r->kind == TF_TEF_FLOW)
            return !c->oom;
    }
    if (r->kind == TF_TEF_SLICE || r->kind == TF_TEF_INSTANT)
        tf_chrome_fold_note(c, r);
    if (r->kind == TF_TEF_SLICE && !c->o->stats_trace_scope && !c->hta)
        tf_chrome_gpu_event(c, r, true);
    if (r->kind == TF_TEF_ASYNC && !c->o->async)
        return true;
    if (r->kind != TF_TEF_SLICE && r->kind != TF_TEF_INSTANT && r->kind != TF_TEF_ASYNC)
        return true;
    if (r->kind == TF_TEF_INSTANT && r->tid.kind == TF_ID_STR &&
        strncmp(r->tid.str, "async ", 6) == 0 && !c->o->async)
        return true;
    /* Instants of a whole process or of the trace: marks across its
     * lanes or the plot (not the profiler's own). */
    if (r->kind == TF_TEF_INSTANT && r->scope != 't') {
        if (profiler_instant(r) || r->ts < c->w0 || r->ts > c->w1)
            return true;
        if (!TF_GROW(c->marks, c->n_marks_in, c->cap_marks))
            return c->oom = true, false;
        struct mark *mk = &c->marks[c->n_marks_in];
        memset(mk, 0, sizeof *mk);
        mk->ts = mk->t1 = r->ts;
        mk->scope = r->scope;
        mk->color = r->cname ? tf_chrome_cname_color(r->cname) : TF_CHROME_NO_COLOR;
        mk->proc = r->scope == 'p' ? tf_chrome_process(c, &r->pid) : SIZE_MAX;
        if (!tf_strtab_id(&c->strs, r->name, &mk->name) ||
            !tf_strtab_id(&c->strs, r->cat ? r->cat : "", &mk->cat) ||
            (r->scope == 'p' && mk->proc == SIZE_MAX))
            return c->oom = true, false;
        mk->args = tf_chrome_args_text(c, r);
        c->n_marks_in++;
        return true;
    }
    /* A slice that only touches the window (ends at its start, begins at
     * its end: the next step after a --window-event) shows nothing of
     * itself; a zero-length one on the edge is still inside. */
    int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
    if (r->ts > c->w1 || (!r->open_end && end < c->w0))
        return true; /* outside (async pairs reach here unfiltered) */
    if ((end > r->ts || r->open_end) && (r->ts >= c->w1 || (!r->open_end && end <= c->w0)))
        return true;
    size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
    if (t != SIZE_MAX && c->o->n_ranks && !tf_chrome_rank_selected(c, t))
        return true; /* not a rank --ranks asks for */
    struct lane *ln = t == SIZE_MAX ? NULL : tf_chrome_lane_for(c, t);
    if (!ln)
        return false;
    if (ln->ov) { /* its location was read already (never, from OTF2) */
        c->ov_late++;
        return true;
    }
    struct pend p = {
        .t0 = r->ts,
        .t1 = r->ts + (r->dur > 0 ? r->dur : 0),
        .color = r->has_rgb  ? r->rgb & 0xFFFFFFu
                 : r->cname ? tf_chrome_cname_color(r->cname)
                            : TF_CHROME_NO_COLOR,
        .instant = r->kind == TF_TEF_INSTANT,
        .open_end = r->open_end,
        .span = profiler_span(r),
        .depth = r->depth,
        .ps0 = r->ps0,
        .ps1 = r->ps1,
    };
    if (!tf_strtab_id(&c->strs, r->name, &p.name) ||
        !tf_strtab_id(&c->strs, r->cat ? r->cat : "", &p.cat))
        return c->oom = true, false;
    if (cpu_cls != UINT32_MAX) { /* a CPU lane's: of its process's class */
        p.cat = cpu_cls;
        p.color = TF_CHROME_NO_COLOR;
    }
    /* The args a tooltip shows, kept only for slices wide enough to be
     * drawn on their own: the thin ones end in dense spans, and keeping
     * a text per slice would hold the window's every event. */
    p.args = p.t1 - p.t0 >= c->thr_ns ? tf_chrome_args_text(c, r) : c->empty;
    if (c->o->n_mark_globs && !tf_chrome_mark_event(c, ln, &p, r->name))
        return c->oom = true, false;
    if (!tf_chrome_rows_add(c, ln, &p))
        return false;
    tf_chrome_fold_maybe(c);
    return !c->oom;
}

/* Pass 2 reads the args of a slice for its tooltip only when it is at
 * least c->thr_ns long (tf_chrome_collect), and args.stream for the GPU
 * statistics (stats.c, which takes has_stream); HTA's rows read more. */
int64_t tf_chrome_args_floor(void *ctx)
{
    const struct chrome *c = ctx;
    return c->hta ? 0 : c->thr_ns;
}

bool tf_chrome_finish(void *ctx, struct tf_diag *d)
{
    struct chrome *c = ctx;
    tf_chrome_ranks_finish(c);
    for (size_t i = 0; i < c->n_lanes; i++)
        if (!c->lanes[i].ov)
            tf_chrome_rows_finish(c, &c->lanes[i]);
    tf_chrome_fold_end(c);
    tf_chrome_counters_finish(c);
    if (c->oom)
        return tf_diag_oom(d, NULL);
    return true;
}

/* --- arrows ------------------------------------------------------------------------ */

static int by_flow_id(const void *x, const void *y)
{
    const struct flow_end *a = x, *b = y;
    if (a->v2 != b->v2)
        return a->v2 ? 1 : -1;
    int k = strcmp(a->id, b->id);
    if (k)
        return k;
    if (a->ts != b->ts)
        return (a->ts > b->ts) - (a->ts < b->ts);
    return (a->t1 > b->t1) - (a->t1 < b->t1);
}

static bool arrow(struct chrome *c, struct tf_figure *f, const size_t *fig_lane, double per,
                  const struct flow_end *a, int64_t xa, int ra, const struct flow_end *b,
                  int64_t xb, int rb)
{
    size_t la = fig_lane[a->lane], lb = fig_lane[b->lane];
    if (la == SIZE_MAX || lb == SIZE_MAX)
        return true;
    if (xa < c->w0 || xa > c->w1 || xb < c->w0 || xb > c->w1)
        return true;
    struct tf_arrow ar = {
        .lane0 = la,
        .lane1 = lb,
        .row0 = ra < 0 ? 0 : (unsigned)ra,
        .row1 = rb < 0 ? 0 : (unsigned)rb,
        .x0 = (double)(xa - c->x_origin) / per,
        .x1 = (double)(xb - c->x_origin) / per,
    };
    return tf_figure_add_arrow(f, &ar);
}

/* v2 flows of one id, ends[0 .. n) by start, linked as Perfetto's
 * importer links them, whatever their times: the first slice with
 * flow_out is the source, a slice with both flows is a step (it receives,
 * then is the source), and every flow_in receives from the source last
 * seen (or, before any, the first).  An arrow leaves the source at the
 * receiver's start when the source is running then, else at the source's
 * nearer end, and enters the receiver at its start. */
static bool link_v2(struct chrome *c, struct tf_figure *f, const size_t *fig_lane, double per,
                    const struct flow_end *ends, size_t n)
{
    const struct flow_end *src = NULL, *first_out = NULL;
    for (size_t i = 0; i < n; i++)
        if (ends[i].ph != 'f') {
            first_out = &ends[i];
            break;
        }
    for (size_t i = 0; i < n; i++) {
        const struct flow_end *e = &ends[i];
        if (e->ph != 's') {
            const struct flow_end *from = src ? src : first_out;
            if (from && from != e) {
                int64_t x0 = e->ts < from->ts ? from->ts : e->ts > from->t1 ? from->t1 : e->ts;
                int r0 = tf_chrome_row_of(c, &c->lanes[from->lane], from->ts, from->t1);
                int r1 = tf_chrome_row_of(c, &c->lanes[e->lane], e->ts, e->t1);
                if (!arrow(c, f, fig_lane, per, from, x0, r0, e, e->ts, r1))
                    return false;
            }
        }
        if (e->ph == 't' || (e->ph == 's' && !src))
            src = e;
    }
    return true;
}

/* Arrows between drawn lanes: from each s (or t) to the next t or f of its
 * id (format v1), and the v2 flows linked by id. */
bool tf_chrome_add_arrows(struct chrome *c, struct tf_figure *f, const size_t *fig_lane,
                          double per)
{
    if (c->n_flows > 1)
        qsort(c->flows, c->n_flows, sizeof *c->flows, by_flow_id);
    for (size_t i = 0; i < c->n_flows;) {
        const struct flow_end *a = &c->flows[i];
        if (a->v2) {
            size_t j = i + 1;
            while (j < c->n_flows && c->flows[j].v2 && strcmp(c->flows[j].id, a->id) == 0)
                j++;
            if (!link_v2(c, f, fig_lane, per, a, j - i))
                return false;
            i = j;
            continue;
        }
        const struct flow_end *b = i + 1 < c->n_flows ? &c->flows[i + 1] : NULL;
        i++;
        if (!b || b->v2 || strcmp(a->id, b->id) != 0 || a->ph == 'f' || b->ph == 's')
            continue;
        int ra = tf_chrome_row_at(&c->lanes[a->lane], a->ts, false);
        int rb = tf_chrome_row_at(&c->lanes[b->lane], b->ts, b->bp != 'e' && b->ph == 'f');
        if (!arrow(c, f, fig_lane, per, a, a->ts, ra, b, b->ts, rb))
            return false;
    }
    return true;
}

/* --- the events of the marks ----------------------------------------------------- */

bool tf_chrome_mark_event(struct chrome *c, const struct lane *ln, const struct pend *p,
                          const char *name)
{
    if (c->n_mevs >= TF_CHROME_MARK_EVENTS || !name)
        return true;
    bool hit = false;
    for (size_t i = 0; i < c->o->n_mark_globs && !hit; i++)
        hit = fnmatch(c->o->mark_globs[i], name, 0) == 0;
    if (!hit)
        return true;
    if (!TF_GROW(c->mevs, c->n_mevs, c->cap_mevs))
        return false;
    c->mevs[c->n_mevs++] = (struct mev){p->t0, p->t1, p->name, (size_t)(ln - c->lanes)};
    return true;
}

bool tf_chrome_mark_events(const struct chrome *c, struct tf_figure *f, const size_t *fig_lane,
                           double per)
{
    f->has_mark_events = true;
    for (size_t i = 0; i < c->n_mevs; i++) {
        const struct mev *e = &c->mevs[i];
        if (e->lane >= c->n_lanes || fig_lane[e->lane] == SIZE_MAX)
            continue;
        int row = tf_chrome_row_of(c, &c->lanes[e->lane], e->t0, e->t1);
        const char *name = tf_figure_str(f, tf_strtab_str(&c->strs, e->name));
        if (!name || !TF_GROW(f->mark_events, f->n_mark_events, f->cap_mark_events))
            return false;
        f->mark_events[f->n_mark_events++] = (struct tf_mark_event){
            name, fig_lane[e->lane], row < 0 ? 0 : (unsigned)row,
            (double)(e->t0 - c->x_origin) / per, (double)(e->t1 - c->x_origin) / per};
    }
    return true;
}
