/* run_multi.c - several traces in one figure (see run.h, tf_run_multi).
 *
 * IMPLEMENTATION NOTES
 *
 * Steps.  (1) Every file is opened once, so a missing or unreadable one
 * stops the run before anything is read.  (2) Each input, on a pool of
 * worker threads (at most the cores): a figure model is read whole (one
 * unit per trace it holds); a trace is loaded by its own loader and mode
 * state.  A trace read in two passes (a generic Chrome trace) stops after
 * the first, its file closed, its mode's state holding what it needs to
 * say where its time lies (mode.h, span()); any other trace is drawn at
 * once and its loader state freed.  (3) The main thread decides the
 * alignment and the common window (rules/align.h) and tells each two-pass
 * trace what to draw of it (rewindow()).  (4) On the pool again, each
 * two-pass trace reads its second pass and is drawn; its loader and mode
 * state are freed as soon as its figure exists, so memory holds one
 * trace's events per worker, plus the small figures.  (5) The figures are
 * appended in input order into one (model/compose.c): the output never
 * depends on the order in which the workers finished.
 *
 * Errors.  Each input has its own diag; after each step the first failure
 * in input order is the run's, and held warnings print in input order.
 *
 * Units.  A unit is one trace of the figure: a trace file, or one of the
 * traces a model holds.  Its figure's x = 0 is at time `xo` on its own
 * clock and one axis unit is `per` ns; the figure's x for it is then
 * x * per / per_fig + (xo + offset - w0_fig) / per_fig.
 */
#include "lib/run.h"
#include "lib/run_multi_int.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/num.h"
#include "render/plan.h"
#include "base/str.h"
#include "load/input.h"
#include "load/load.h"
#include "load/model.h"
#include "rules/align.h"
#include "rules/chrome.h"
#include "rules/remodel.h"

/* --- a pool of workers ----------------------------------------------------------- */

struct pool {
    pthread_mutex_t mu;
    size_t next, n;
    void (*fn)(struct multi *m, size_t i);
    struct multi *m;
};

static void *work(void *arg)
{
    struct pool *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        size_t i = p->next++;
        pthread_mutex_unlock(&p->mu);
        if (i >= p->n)
            return NULL;
        p->fn(p->m, i);
    }
}

/* fn(m, i) for every i < n, on at most `threads` threads (this one
 * included). */
static void run_pool(struct multi *m, size_t n, unsigned threads,
                     void (*fn)(struct multi *m, size_t i))
{
    struct pool p = {.next = 0, .n = n, .fn = fn, .m = m};
    pthread_mutex_init(&p.mu, NULL);
    size_t extra = threads > 1 ? threads - 1 : 0;
    if (extra > n - (n > 0))
        extra = n > 0 ? n - 1 : 0;
    pthread_t *t = extra ? malloc(extra * sizeof *t) : NULL;
    size_t started = 0;
    for (size_t i = 0; t && i < extra; i++, started++)
        if (pthread_create(&t[i], NULL, work, &p) != 0)
            break; /* fewer workers: this thread does the rest */
    work(&p);
    for (size_t i = 0; i < started; i++)
        pthread_join(t[i], NULL);
    free(t);
    pthread_mutex_destroy(&p.mu);
}

static unsigned worker_count(void)
{
    const char *env = getenv("TRACEFIG_THREADS");
    long n = env ? strtol(env, NULL, 10) : sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 256 ? 256 : (unsigned)n;
}

/* --- units --------------------------------------------------------------------- */

static int64_t to_ns(double v, const char *unit)
{
    double x = v * tf_unit_ns(unit);
    return (int64_t)(x < 0 ? x - 0.5 : x + 0.5);
}

/* A unit whose figure is built: where x = 0 lies and what an axis unit is,
 * from the figure itself (one-pass traces, models of one trace). */
static void unit_from_figure(struct unit *u)
{
    const struct tf_figure *f = &u->fig;
    u->xo = to_ns(f->window_start, f->clock_unit);
    u->per = tf_unit_ns(f->axis.unit);
    int64_t w1 = to_ns(f->window_end, f->clock_unit);
    u->al.span = (struct tf_span){u->xo, w1, u->xo, u->xo, w1};
}

static struct unit *new_units(struct input *in, size_t n)
{
    in->units = calloc(n ? n : 1, sizeof *in->units);
    if (!in->units)
        return NULL;
    in->n_units = n;
    for (size_t i = 0; i < n; i++)
        tf_figure_init(&in->units[i].fig);
    return in->units;
}

/* --- step 2: each input ------------------------------------------------------------ */

static void read_model(struct multi *m, struct input *in)
{
    struct tf_model_trace *mt = NULL;
    size_t n = 0;
    if (!tf_load_model(in->path, &mt, &n, &in->d))
        return;
    if (!new_units(in, n)) {
        tf_diag_oom(&in->d, NULL);
    } else {
        for (size_t i = 0; i < n; i++) {
            struct unit *u = &in->units[i];
            u->fig = mt[i].fig;
            tf_figure_init(&mt[i].fig);
            if (u->fig.overview.on) {
                tf_diag_error(&in->d, TF_EUSAGE,
                              "%s: the overview of a job's ranks cannot be one of several "
                              "traces: give the ranks' own models",
                              tf_diag_name(in->path));
                break;
            }
            u->built = true;
            u->from_model = true;
            if (!tf_remodel(&u->fig)) {
                tf_diag_oom(&in->d, NULL);
                break;
            }
            unit_from_figure(u);
            u->ref.file = tf_base_name(in->path);
            u->ref.mode = u->fig.mode;
            u->al.own_clock = u->fig.mode && strcmp(u->fig.mode, "timeline") == 0;
            if (mt[i].has_ref) {
                /* A trace of a figure of several: as that figure had it. */
                const struct tf_trace_ref *r = &mt[i].ref;
                u->ref = *r;
                u->xo = mt[i].xo_ns;
                u->per = mt[i].per_ns;
                u->al.span = (struct tf_span){
                    r->w0_ns, r->w1_ns, r->event_ns, r->origin_ns, r->end_ns};
                u->al.has_base = r->has_base_time;
                u->al.base_ns = r->base_time_ns;
                u->al.has_world_size = r->has_world_size;
                u->al.world_size = r->world_size;
                u->al.has_rank = r->has_rank;
                u->al.rank = r->rank;
            }
            if (!tf_ranks_selected(m, u)) {
                u->dropped = true;
                tf_figure_fini(&u->fig);
                tf_figure_init(&u->fig);
            } else if (!tf_ranks_built(m, u, &in->d)) {
                break;
            }
        }
    }
    tf_model_traces_free(mt, n);
}

static void read_trace(struct multi *m, struct input *in)
{
    const struct tf_multi_run *r = m->r;
    if (!new_units(in, 1)) {
        tf_diag_oom(&in->d, NULL);
        return;
    }
    struct unit *u = &in->units[0];
    u->ref.file = tf_base_name(in->path);
    if (!tf_modes_begin(r->mode, r->opts, &in->trace, &in->modes, &in->d))
        return;
    in->modes_on = true;
    if (!tf_load_begin(in->path, &in->modes.keep, &in->trace, &u->job, &in->d))
        return;
    const struct tf_trace_facts facts = in->trace.facts;
    const struct tf_mode *mode = tf_mode_of_trace(&in->trace);
    if (u->job && mode && mode->span && in->trace.generic_state) {
        u->mode = mode;
        u->ref.mode = mode->name;
        if (!mode->span(in->trace.generic_state, &u->al.span, &in->d)) {
            tf_diag_prefix(&in->d, tf_diag_name(in->path));
            return;
        }
    } else {
        /* Read whole: draw it now, and let its loader state go. */
        if (u->job) {
            /* A second pass no mode of ours asks for: finish it. */
            struct tf_load_job *job = u->job;
            u->job = NULL;
            if (!tf_load_finish(job, &in->trace, &in->d))
                return;
        }
        tf_modes_end(&in->modes);
        struct tf_run one = {in->path, NULL, r->mode, r->opts, NULL};
        u->built = tf_run_build(&one, &in->trace, &u->fig, &in->d);
        tf_modes_release(&in->modes, &in->trace);
        in->modes_on = false;
        tf_trace_fini(&in->trace);
        tf_trace_init(&in->trace);
        if (!u->built)
            return;
        u->ref.mode = u->fig.mode;
        u->al.own_clock = u->fig.mode && strcmp(u->fig.mode, "timeline") == 0;
        unit_from_figure(u);
    }
    tf_run_facts(&facts, u->al.span.origin, &u->ref);
    u->al.has_rank = u->ref.has_rank;
    u->al.rank = u->ref.rank;
    u->al.has_world_size = u->ref.has_world_size;
    u->al.world_size = u->ref.world_size;
    u->al.has_base = u->ref.has_base_time;
    u->al.base_ns = u->ref.base_time_ns;
    if (!tf_ranks_selected(m, u)) {
        /* Not a rank --ranks asks for: its second pass is never read. */
        u->dropped = true;
        tf_load_cancel(u->job);
        u->job = NULL;
        if (in->modes_on) {
            tf_modes_end(&in->modes);
            tf_modes_release(&in->modes, &in->trace);
            in->modes_on = false;
        }
        tf_trace_fini(&in->trace);
        tf_trace_init(&in->trace);
        tf_figure_fini(&u->fig);
        tf_figure_init(&u->fig);
    } else if (u->built) {
        tf_ranks_built(m, u, &in->d);
    }
}

static void step_read(struct multi *m, size_t i)
{
    struct input *in = &m->in[i];
    if (in->is_model)
        read_model(m, in);
    else
        read_trace(m, in);
}

/* --- step 4: second passes ---------------------------------------------------------- */

static void step_draw(struct multi *m, size_t i)
{
    struct input *in = &m->in[i];
    if (in->is_model || !in->units || !in->units[0].job || tf_diag_failed(&in->d))
        return;
    struct unit *u = &in->units[0];
    u->mode->rewindow(in->trace.generic_state, &u->rw);
    struct tf_load_job *job = u->job;
    u->job = NULL;
    bool ok = tf_load_finish(job, &in->trace, &in->d);
    tf_modes_end(&in->modes);
    if (ok) {
        struct tf_run one = {in->path, NULL, m->r->mode, m->r->opts, NULL};
        u->built = tf_run_build(&one, &in->trace, &u->fig, &in->d);
    }
    tf_modes_release(&in->modes, &in->trace);
    in->modes_on = false;
    tf_trace_fini(&in->trace);
    tf_trace_init(&in->trace);
    u->xo = u->rw.x0;
    u->per = tf_unit_ns(u->fig.axis.unit);
    if (u->built)
        tf_ranks_built(m, u, &in->d);
}

/* The first failure in input order, and the warnings held so far. */
static bool after_step(struct multi *m, struct tf_diag *d)
{
    for (size_t i = 0; i < m->n_in; i++) {
        struct tf_buf *h = &m->in[i].held;
        if (h->len && d->held)
            tf_buf_putn(d->held, h->data, h->len);
        else if (h->len && !d->quiet)
            fputs(h->data, stderr);
        tf_buf_clear(h);
        d->n_warnings += m->in[i].d.n_warnings;
        m->in[i].d.n_warnings = 0;
    }
    for (size_t i = 0; i < m->n_in; i++)
        if (tf_diag_failed(&m->in[i].d))
            return tf_diag_error(d, m->in[i].d.code, "%s", m->in[i].d.msg);
    return true;
}

/* --- titles ------------------------------------------------------------------------- */

/* A file's name without its extensions (".json", ".gz": letters only, so
 * "worker0.1623143089861.pt.trace.json" keeps its number). */
static void plain_name(const char *file, struct tf_buf *out)
{
    size_t n = strlen(file);
    for (;;) {
        size_t k = n;
        while (k > 0 && file[k - 1] != '.' &&
               ((file[k - 1] >= 'a' && file[k - 1] <= 'z') ||
                (file[k - 1] >= 'A' && file[k - 1] <= 'Z')))
            k--;
        if (k < 2 || file[k - 1] != '.' || k == n)
            break;
        n = k - 1;
    }
    tf_buf_putn(out, file, n);
}

/* Titles: --titles, else "rank N" when the traces are the ranks of one
 * job (each gives its rank and the same world size, no rank twice), else
 * the files' names; a model of several traces keeps the titles it has.
 * The ranks of one job are then put in rank order (rank*.json lists
 * rank10 before rank2). */
static int by_rank(const void *x, const void *y)
{
    const struct unit *a = *(const struct unit *const *)x, *b = *(const struct unit *const *)y;
    return (a->ref.rank > b->ref.rank) - (a->ref.rank < b->ref.rank);
}

static int cmp_rank(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

static bool set_titles(struct multi *m, struct tf_arena *a, struct tf_diag *d)
{
    const struct tf_multi_run *r = m->r;
    if (r->n_titles && r->n_titles != m->n_u)
        return tf_diag_error(d, TF_EUSAGE, "--titles: %zu title%s for %zu traces", r->n_titles,
                             r->n_titles == 1 ? "" : "s", m->n_u);
    bool ranks = true;
    for (size_t i = 0; i < m->n_u && ranks; i++) {
        const struct tf_trace_ref *t = &m->u[i]->ref;
        ranks = t->has_rank && t->has_world_size && t->world_size == m->u[0]->ref.world_size;
    }
    /* no rank twice (sorted: thousands of ranks) */
    long long *rk = ranks ? malloc((m->n_u ? m->n_u : 1) * sizeof *rk) : NULL;
    if (ranks && !rk)
        return tf_diag_oom(d, NULL);
    for (size_t i = 0; ranks && i < m->n_u; i++)
        rk[i] = m->u[i]->ref.rank;
    if (ranks)
        qsort(rk, m->n_u, sizeof *rk, cmp_rank);
    for (size_t i = 1; ranks && i < m->n_u; i++)
        ranks = rk[i] != rk[i - 1];
    free(rk);
    struct tf_buf b;
    tf_buf_init(&b);
    for (size_t i = 0; i < m->n_u; i++) {
        struct tf_trace_ref *t = &m->u[i]->ref;
        tf_buf_clear(&b);
        if (r->n_titles)
            tf_buf_puts(&b, r->titles[i]);
        else if (t->title)
            tf_buf_puts(&b, t->title);
        else if (ranks)
            tf_buf_printf(&b, "rank %lld", t->rank);
        else
            plain_name(t->file ? t->file : "", &b);
        if (b.oom || !(t->title = tf_arena_buf(a, &b))) {
            tf_buf_fini(&b);
            return tf_diag_oom(d, NULL);
        }
    }
    tf_buf_fini(&b);
    /* Ranks are distinct: qsort's order is the only one. */
    if (ranks && m->n_u > 1)
        qsort(m->u, m->n_u, sizeof *m->u, by_rank);
    return true;
}

/* --- step 3: the alignment ------------------------------------------------------------ */

static bool plan_window(struct multi *m, struct tf_align_plan *plan, struct tf_diag *d)
{
    size_t n = m->n_u;
    struct tf_align_in *in = malloc(n * sizeof *in);
    struct tf_align_out *out = malloc(n * sizeof *out);
    bool ok = in && out;
    for (size_t i = 0; ok && i < n; i++)
        in[i] = m->u[i]->al;
    ok = ok && tf_align_make(m->r->align, in, n, out, plan);
    for (size_t i = 0; ok && i < n; i++) {
        struct unit *u = m->u[i];
        u->ref.offset_ns = out[i].offset;
        u->ref.w0_ns = u->job ? out[i].w0 : u->al.span.w0;
        u->ref.w1_ns = u->job ? out[i].w1 : u->al.span.w1;
        u->ref.event_ns = u->al.span.event;
        u->ref.origin_ns = u->al.span.origin;
        u->ref.end_ns = u->al.span.end;
        u->rw = (struct tf_rewindow){out[i].w0, out[i].w1, out[i].x0, plan->w1 - plan->w0,
                                     1.0 / (double)n};
    }
    if (ok && plan->apart) {
        char gap[TF_NUM_MAX];
        tf_diag_warn(d,
                     "the traces do not overlap on one clock: their starts lie %s s apart (%s "
                     "first, %s last); --align event or --align start puts them side by side",
                     tf_fmt_num(gap, (double)plan->spread / 1e9, 3), m->u[plan->first]->ref.title,
                     m->u[plan->last]->ref.title);
    }
    free(in);
    free(out);
    return ok || tf_diag_oom(d, NULL);
}

/* --- step 5: one figure ----------------------------------------------------------------- */

/* keep: the units' figures stay (for the overview, should the figure
 * leave lanes out).  k: each rank's lanes of the first k slots
 * (run_lanes.c), 0: every lane.  stats: the units' statistics move into
 * the figure (otherwise a trial: tf_figure_take_stats when it is kept). */
static bool compose(struct multi *m, const struct tf_align_plan *plan, struct tf_figure *f,
                    size_t k_lanes, bool stats, bool keep, struct tf_diag *d)
{
    bool chrome = false, same_mode = true, schema2 = false, models = false;
    double width = 0;
    for (size_t i = 0; i < m->n_u; i++) {
        const struct tf_figure *g = &m->u[i]->fig;
        chrome = chrome || g->flame;
        schema2 = schema2 || (g->schema && strcmp(g->schema, "tracefig-figure-2") == 0);
        same_mode = same_mode && g->mode && m->u[0]->fig.mode &&
                    strcmp(g->mode, m->u[0]->fig.mode) == 0;
        if (g->width_pt > width)
            width = g->width_pt;
        models = models || m->u[i]->from_model;
    }
    int64_t span = plan->w1 - plan->w0;
    const char *unit = "ms";
    double per = 1e6;
    if (chrome)
        tf_frame_unit(span, &unit, &per);
    size_t most = 1;
    for (size_t i = 0; k_lanes && i < m->n_u; i++)
        most = m->u[i]->fig.n_lanes > most ? m->u[i]->fig.n_lanes : most;
    size_t *pick = k_lanes ? malloc(most * sizeof *pick) : NULL;
    bool ok = !k_lanes || pick;
    for (size_t i = 0; ok && i < m->n_u; i++) {
        struct unit *u = m->u[i];
        double k = u->per / per;
        double dx = (double)(u->xo + u->ref.offset_ns - plan->w0) / per;
        if (k_lanes)
            ok = tf_figure_append_lanes(f, &u->fig, &u->ref, k, dx, pick,
                                        tf_lanes_pick(m, u, k_lanes, pick), stats);
        else if (stats)
            ok = tf_figure_append(f, &u->fig, &u->ref, k, dx);
        else
            ok = tf_figure_append_lanes(f, &u->fig, &u->ref, k, dx, NULL, 0, false);
        if (!keep) {
            tf_figure_fini(&u->fig);
            tf_figure_init(&u->fig);
        }
    }
    free(pick);
    if (!ok)
        return tf_diag_oom(d, NULL);
    /* (The units' strings are the figure's now.) */
    f->mode = same_mode && f->n_traces && f->traces[0].mode ? f->traces[0].mode : "several";
    f->schema = schema2 ? "tracefig-figure-2" : "tracefig-figure-1";
    f->flame = chrome;
    /* A rank's chosen lanes may be thin, labelled sparsely (render/plan.c),
     * under one header, the rank's: its lanes keep their full labels
     * ("GPU 0 / stream 7"), not a header of their process each
     * (render/plan_traces.c), which would cost a line per process. */
    f->rank_lanes = k_lanes > 0;
    for (size_t i = 0; k_lanes && i < f->n_lanes; i++)
        f->lanes[i].group = f->lanes[i].name = NULL;
    struct tf_frame fr = {plan->w0, plan->w1, span, unit, per, chrome ? 8 : 9};
    ok = tf_figure_frame(f, &fr) && f->mode;
    ok = ok && (!chrome || tf_chrome_recolor(f));
    /* Models composed keep their bars and counter samples as they are:
     * the plan draws them at the real width (render/plan_busy.c,
     * plan_counters.c). */
    /* The --annotate line: each trace's, after its title. */
    struct tf_buf line;
    tf_buf_init(&line);
    for (size_t i = 0; i < f->n_traces; i++)
        if (f->traces[i].stats.summary)
            tf_buf_printf(&line, "%s%s: %s", line.len ? "; " : "", f->traces[i].title,
                          f->traces[i].stats.summary);
    if (ok && line.len)
        ok = (f->stats.summary = tf_figure_buf(f, &line)) != NULL;
    tf_buf_fini(&line);
    tf_figure_frame_size(f, width, (double)(tf_figure_rows(f) + f->n_traces));
    char dtitle[160];
    snprintf(dtitle, sizeof dtitle, "Trace timelines of %zu traces, %zu lanes", f->n_traces,
             f->n_lanes);
    ok = ok && tf_figure_describe(f, dtitle, "Trace timelines of several traces");
    return ok || tf_diag_oom(d, NULL);
}

/* --- the ranks of a job ----------------------------------------------------------------- */

/* Whether the figure of each rank's lanes of the first k slots is drawn
 * whole at the size asked. */
static bool fits(struct multi *m, const struct tf_align_plan *plan, size_t k, bool *yes,
                 struct tf_diag *d)
{
    struct tf_figure g;
    tf_figure_init(&g);
    bool out, ok = compose(m, plan, &g, k, false, true, d);
    *yes = ok && tf_ranks_cut(m, &g, &out) == 0;
    tf_figure_fini(&g);
    return ok;
}

/* The ranks of a job: every lane while the plan draws every rank (lanes
 * it cuts say so in a note); else each rank's k lanes that say most
 * (run_lanes.c), k the largest that the plan draws whole, at least 2;
 * else the overview (run_ranks.c). */
static bool draw_ranks(struct multi *m, const struct tf_align_plan *plan, struct tf_figure *fig,
                       struct tf_diag *d)
{
    if (!compose(m, plan, fig, 0, false, true, d))
        return false;
    bool rank_out;
    tf_ranks_cut(m, fig, &rank_out);
    if (!rank_out) {
        bool ok = true;
        for (size_t i = 0; ok && i < m->n_u; i++)
            ok = tf_figure_take_stats(fig, i, &m->u[i]->fig);
        return ok || tf_diag_oom(d, NULL);
    }
    if (!tf_lanes_roles(m))
        return tf_diag_oom(d, NULL);
    /* The largest k in [2, slots] that fits: lo fits (1: the overview),
     * hi does not. */
    size_t lo = 1, hi = tf_lanes_slots(m) + 1;
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        bool yes;
        if (!fits(m, plan, mid, &yes, d))
            return false;
        *(yes ? &lo : &hi) = mid;
    }
    tf_figure_fini(fig);
    tf_figure_init(fig);
    if (lo < 2)
        return tf_ranks_compose(m, plan, fig, d);
    return compose(m, plan, fig, lo, true, true, d) &&
           ((tf_ranks_notes(m, fig) && tf_lanes_note(m, lo, fig)) || tf_diag_oom(d, NULL));
}

/* --- the run ---------------------------------------------------------------------------- */

/* Every file opens, before any is read. */
static bool check_files(const struct tf_multi_run *r, struct tf_diag *d)
{
    for (size_t i = 0; i < r->n; i++) {
        if (strcmp(r->paths[i], "-") == 0)
            return tf_diag_error(d, TF_EUSAGE,
                                 "standard input ('-') cannot be one of several traces: give "
                                 "each as a file");
        struct tf_input *in = tf_input_open(r->paths[i], NULL, d);
        if (!in)
            return false;
        tf_input_close(in);
    }
    return true;
}

static void free_multi(struct multi *m)
{
    for (size_t i = 0; i < m->n_in; i++) {
        struct input *in = &m->in[i];
        for (size_t k = 0; k < in->n_units; k++) {
            tf_load_cancel(in->units[k].job);
            tf_figure_fini(&in->units[k].fig);
            tf_ranks_reduced_fini(&in->units[k].red);
            tf_lanes_fini(&in->units[k].roles);
        }
        free(in->units);
        if (in->modes_on) {
            tf_modes_end(&in->modes);
            tf_modes_release(&in->modes, &in->trace);
        }
        tf_trace_fini(&in->trace);
        tf_buf_fini(&in->held);
    }
    free(m->in);
    free(m->u);
    pthread_mutex_destroy(&m->mu);
    tf_arena_fini(&m->arena);
}

bool tf_run_multi(const struct tf_multi_run *r, struct tf_figure *fig, struct tf_diag *d)
{
    if (!check_files(r, d))
        return false;
    struct multi m = {.r = r, .n_in = r->n};
    pthread_mutex_init(&m.mu, NULL);
    tf_arena_init(&m.arena);
    m.lanes_max = tf_plan_lanes_max(r->size);
    m.in = calloc(r->n ? r->n : 1, sizeof *m.in);
    if (!m.in) {
        pthread_mutex_destroy(&m.mu);
        tf_arena_fini(&m.arena);
        return tf_diag_oom(d, NULL);
    }
    bool ok = true;
    for (size_t i = 0; ok && i < r->n; i++) {
        struct input *in = &m.in[i];
        in->path = r->paths[i];
        tf_trace_init(&in->trace);
        tf_diag_init(&in->d);
        tf_buf_init(&in->held);
        in->d.held = &in->held;
        in->d.quiet = d->quiet;
        ok = tf_load_is_model(in->path, &in->is_model, d);
    }
    unsigned threads = worker_count();
    if (ok) {
        run_pool(&m, m.n_in, threads, step_read);
        ok = after_step(&m, d);
    }
    /* Every unit, in order (those --ranks leaves out aside). */
    size_t n_all = 0;
    for (size_t i = 0; ok && i < m.n_in; i++)
        n_all += m.in[i].n_units;
    if (ok && !(m.u = malloc((n_all ? n_all : 1) * sizeof *m.u)))
        ok = tf_diag_oom(d, NULL);
    for (size_t i = 0; ok && i < m.n_in; i++)
        for (size_t j = 0; j < m.in[i].n_units; j++)
            if (!m.in[i].units[j].dropped)
                m.u[m.n_u++] = &m.in[i].units[j];
    if (ok && m.n_u == 0 && n_all && r->opts->n_ranks)
        ok = tf_ranks_none(&m, d);
    if (ok && m.n_u == 0)
        ok = tf_diag_error(d, TF_EBADINPUT, "no trace to draw");
    struct tf_align_plan plan;
    ok = ok && set_titles(&m, &m.arena, d) && plan_window(&m, &plan, d);
    if (ok) {
        run_pool(&m, m.n_in, threads, step_draw);
        ok = after_step(&m, d);
    }
    /* The ranks of a job: every lane as ever, unless they are more than
     * the figure's height holds; then each rank is one row, or shares one
     * (run_ranks.c). */
    bool ranks = ok && m.n_u > 1 && tf_ranks_all(&m);
    if (ok && ranks && m.reducing) {
        ok = tf_ranks_compose(&m, &plan, fig, d);
    } else if (ok && ranks) {
        ok = tf_ranks_order_units(&m, &plan, d) && draw_ranks(&m, &plan, fig, d);
    } else if (ok && m.reducing) {
        ok = tf_ranks_mixed(&m, d);
    } else if (ok) {
        ok = compose(&m, &plan, fig, 0, true, false, d);
    }
    free_multi(&m);
    return ok;
}
