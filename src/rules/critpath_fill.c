/* critpath_fill.c - the critical path as the figure has it: its nodes for
 * the drawing (rules/critpath_marks.c), and the model's critical_path, its
 * categories' times and the bars it marks critical (rules/critpath.h).
 * critpath.c makes the rows, the graph and the path.  Linear in the path
 * (its events found by row in a table, the bars by start), so a whole
 * trace's path of a million nodes costs no more than its graph.
 */
#include "rules/critpath_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonlite.h"
#include "base/strtab.h"
#include "rules/kernels.h"

#define str tf_cp_str
#define row_pid tf_cp_row_pid

size_t tf_cp_path_nodes(const struct tf_cp *cp)
{
    return cp->ran ? cp->g.n_path : 0;
}

void tf_cp_path_node(const struct tf_cp *cp, size_t k, int64_t *ts, int64_t *end,
                     const char **name)
{
    const struct row *r = &cp->rows[cp->node_ev[cp->g.path[k]]];
    *ts = r->ts;
    *end = r->end;
    *name = str(cp, r->name);
}

/* --- the numbers ------------------------------------------------------------------- */

static const char *etype_name(unsigned char t)
{
    static const char *const names[] = {"operator", "dependency", "launch", "kernel_kernel",
                                        "sync"};
    return t < 5 ? names[t] : "?";
}

/* HTA's bound_by: the category of a path edge (-1: none). */
static int category(const struct tf_cp *cp, const struct tf_cpg_edge *e)
{
    if (e->type == TF_CPE_KERNEL_KERNEL)
        return 3;
    if (e->type == TF_CPE_LAUNCH)
        return 4;
    if (e->type == TF_CPE_DEPENDENCY || e->type == TF_CPE_SYNC || e->attr < 0)
        return -1;
    const struct row *r = &cp->rows[e->attr];
    if (r->stream < 0)
        return 0;
    return tf_hta_kernel_type(str(cp, r->name)) == TF_HTA_COMM ? 2 : 1;
}

static char *lane_of(const struct tf_cp *cp, const struct row *r)
{
    char b[96];
    const char *pk = str(cp, r->pidk); /* a key: "i7", "sname" */
    long long pid = row_pid(cp, r);
    if (r->stream != -1 && pid >= 0)
        snprintf(b, sizeof b, "GPU %lld stream %lld", pid, (long long)r->stream);
    else if (r->stream != -1) /* an export's GPU lane, named by its loader */
        snprintf(b, sizeof b, "%.60s stream %lld", *pk == 'i' || *pk == 's' ? pk + 1 : pk,
                 (long long)r->stream);
    else
    {
        const char *t = str(cp, r->tidk); /* a key: "i7", "sname" */
        snprintf(b, sizeof b, "thread %s", *t == 'i' || *t == 's' ? t + 1 : t);
    }
    size_t n = strlen(b) + 1;
    char *s = malloc(n);
    if (s)
        memcpy(s, b, n);
    return s;
}

/* An event of the path drawn as a bar: its lane named as the figure names
 * it ("GPU 0 / stream 7"), so the stats and the picture agree.  False when
 * out of memory. */
static bool relabel(struct tf_cp_event *e, const struct tf_figure *f, const struct tf_bar *bar)
{
    const char *label = bar->lane < f->n_lanes ? f->lanes[bar->lane].label : NULL;
    if (!label || !*label)
        return true;
    size_t n = strlen(label) + 1;
    char *s = malloc(n);
    if (!s)
        return false;
    memcpy(s, label, n);
    free(e->lane);
    e->lane = s;
    return true;
}

/* The path's events by row: an open-addressing table of rows to their
 * index among the events (each row once), so a path of a million nodes
 * (a whole trace's window) is filled in linear time. */
struct evmap {
    uint32_t *row;   /* NONE: empty */
    size_t *j;
    size_t mask;
};

static bool evmap_init(struct evmap *m, size_t n)
{
    size_t cap = 16;
    while (cap < 2 * n)
        cap *= 2;
    m->mask = cap - 1;
    m->row = malloc(cap * sizeof *m->row);
    m->j = malloc(cap * sizeof *m->j);
    if (!m->row || !m->j)
        return false;
    memset(m->row, 0xff, cap * sizeof *m->row);
    return true;
}

static size_t evmap_slot(const struct evmap *m, uint32_t ev)
{
    size_t h = (ev * 2654435761u) & m->mask;
    while (m->row[h] != NONE && m->row[h] != ev)
        h = (h + 1) & m->mask;
    return h;
}

/* The index of row ev among the path's events (0 when it is none). */
static size_t event_index(const struct evmap *m, uint32_t ev)
{
    size_t h = evmap_slot(m, ev);
    return m->row[h] == ev ? m->j[h] : 0;
}

struct ev_ts {
    int64_t ts;
    size_t j;
};

static int event_ts_cmp(const void *a, const void *b)
{
    const struct ev_ts *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

/* The events, each once, in the order the path meets them. */
static bool fill_events(const struct tf_cp *cp, struct tf_critical *c, struct evmap *ev_of,
                        int64_t w0)
{
    const struct tf_cpg *g = &cp->g;
    for (size_t k = 0; k < g->n_path; k++) {
        uint32_t ev = cp->node_ev[g->path[k]];
        size_t h = evmap_slot(ev_of, ev);
        if (ev_of->row[h] == ev)
            continue;
        const struct row *r = &cp->rows[ev];
        struct tf_cp_event *e = &c->events[c->n_events];
        ev_of->row[h] = ev;
        ev_of->j[h] = c->n_events++;
        size_t n = strlen(str(cp, r->name)) + 1;
        e->name = malloc(n);
        e->lane = lane_of(cp, r);
        if (!e->name || !e->lane)
            return false;
        memcpy(e->name, str(cp, r->name), n);
        e->ts_ns = r->ts;
        e->dur_ns = r->end - r->ts;
        e->start_ms = (double)(r->ts - w0) / 1e6;
    }
    return true;
}

/* The path's edges, its length and its categories' times. */
static bool fill_edges(const struct tf_cp *cp, struct tf_critical *c, const struct evmap *ev_of)
{
    const struct tf_cpg *g = &cp->g;
    int64_t total = 0, cat[TF_CP_N_CATS] = {0};
    for (size_t k = 0; k + 1 < g->n_path; k++) {
        uint32_t i = tf_cpg_find(g, g->path[k], g->path[k + 1]);
        const struct tf_cpg_edge *e = &g->e[i];
        struct tf_cp_edge *o = &c->edges[c->n_edges++];
        uint32_t a = cp->node_ev[e->from], b = cp->node_ev[e->to];
        o->type = etype_name(e->type);
        o->from = event_index(ev_of, a);
        o->to = event_index(ev_of, b);
        o->from_end = cp->node_start[e->from] ? "start" : "end";
        o->to_end = cp->node_start[e->to] ? "start" : "end";
        o->weight_ms = (double)e->weight / 1e6;
        total += e->weight;
        int k2 = category(cp, e);
        if (k2 >= 0)
            cat[k2] += e->weight;
    }
    c->length_ms = (double)total / 1e6;
    for (int k = 0; k < TF_CP_N_CATS; k++) {
        c->cat_ms[k] = (double)cat[k] / 1e6;
        c->cat_pct[k] = total ? 100.0 * (double)cat[k] / (double)total : 0;
    }
    return true;
}

/* The bars drawn for events on the path (within HTA's rounding): the
 * events by start, each bar looked up among those that start within a
 * microsecond of it. */
static bool mark_bars(struct tf_critical *c, struct tf_figure *f)
{
    struct ev_ts *by_ts = malloc((c->n_events ? c->n_events : 1) * sizeof *by_ts);
    if (!by_ts)
        return false;
    for (size_t j = 0; j < c->n_events; j++)
        by_ts[j] = (struct ev_ts){c->events[j].ts_ns, j};
    qsort(by_ts, c->n_events, sizeof *by_ts, event_ts_cmp);
    for (size_t i = 0; i < f->n_bars; i++) {
        struct tf_bar *bar = &f->bars[i];
        size_t lo = 0, hi = c->n_events;
        while (lo < hi) {
            size_t m = (lo + hi) / 2;
            if ((double)by_ts[m].ts / 1e6 < bar->start_ms - TF_CP_NEAR_MS)
                lo = m + 1;
            else
                hi = m;
        }
        for (size_t q = lo; q < c->n_events && !bar->merged && bar->name; q++) {
            const struct tf_cp_event *e = &c->events[by_ts[q].j];
            if ((double)e->ts_ns / 1e6 > bar->start_ms + TF_CP_NEAR_MS)
                break;
            if (tf_cp_bar_is(bar, e)) {
                bar->critical = true;
                if (!relabel(&c->events[by_ts[q].j], f, bar)) {
                    free(by_ts);
                    return false;
                }
                break;
            }
        }
    }
    free(by_ts);
    return true;
}

bool tf_cp_fill(const struct tf_cp *cp, struct tf_figure *f, int64_t w0)
{
    if (!cp->ran)
        return true;
    const struct tf_cpg *g = &cp->g;
    struct tf_critical *c = calloc(1, sizeof *c);
    size_t np = g->n_path;
    struct evmap ev_of = {NULL, NULL, 0};
    bool made = evmap_init(&ev_of, np);
    if (c) {
        c->events = calloc(np ? np : 1, sizeof *c->events);
        c->edges = calloc(np ? np : 1, sizeof *c->edges);
    }
    if (!c || !made || !c->events || !c->edges) {
        free(ev_of.row);
        free(ev_of.j);
        tf_critical_free(c);
        return false;
    }
    f->stats.critical = c;
    bool ok = fill_events(cp, c, &ev_of, w0) && fill_edges(cp, c, &ev_of);
    free(ev_of.row);
    free(ev_of.j);
    return ok && mark_bars(c, f);
}
