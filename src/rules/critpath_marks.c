/* critpath_marks.c - the critical path drawn; see critpath_marks.h.  Each
 * event's bar is looked up among the critical bars by start, not among all
 * the figure's bars (a whole trace's path has a million events). */
#include "rules/critpath_marks.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/num.h"
#include "rules/marks.h"

/* HTA reads times in whole microseconds: a start may be 1 us off, a
 * duration 2 (as tf_cp_fill matches bars). */
#define TS_SLACK_NS 1001
#define DUR_SLACK_NS 2001

struct node {
    int64_t ts, end;
    const char *name;
};

struct tf_cp_set {
    struct node *v;
    size_t n;
};

static int by_ts(const void *a, const void *b)
{
    const struct node *x = a, *y = b;
    return (x->ts > y->ts) - (x->ts < y->ts);
}

struct tf_cp_set *tf_cp_set_new(const struct tf_cp *cp)
{
    struct tf_cp_set *s = calloc(1, sizeof *s);
    size_t n = tf_cp_path_nodes(cp);
    if (!s || !(s->v = malloc((n ? n : 1) * sizeof *s->v))) {
        free(s);
        return NULL;
    }
    for (size_t k = 0; k < n; k++) {
        struct node *o = &s->v[s->n++]; /* an event met twice is there twice */
        tf_cp_path_node(cp, k, &o->ts, &o->end, &o->name);
    }
    qsort(s->v, s->n, sizeof *s->v, by_ts);
    return s;
}

void tf_cp_set_free(struct tf_cp_set *s)
{
    if (!s)
        return;
    free(s->v);
    free(s);
}

bool tf_cp_set_has(const struct tf_cp_set *s, int64_t t0, int64_t t1, const char *name)
{
    if (!s || !s->n)
        return false;
    /* the first node starting at t0 - slack or later */
    size_t lo = 0, hi = s->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (s->v[mid].ts < t0 - TS_SLACK_NS)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < s->n && s->v[i].ts <= t0 + TS_SLACK_NS; i++) {
        int64_t d = (s->v[i].end - s->v[i].ts) - (t1 - t0);
        if (d < DUR_SLACK_NS && d > -DUR_SLACK_NS && strcmp(s->v[i].name, name) == 0)
            return true;
    }
    return false;
}

/* --- the span and the arrows ------------------------------------------------------- */

/* The critical bars by start (then index): each event's bar is looked up
 * among those that start within a microsecond of it, not among all. */
struct crit {
    double start;
    size_t i;
};

static int crit_cmp(const void *a, const void *b)
{
    const struct crit *x = a, *y = b;
    if (x->start != y->start)
        return x->start < y->start ? -1 : 1;
    return (x->i > y->i) - (x->i < y->i);
}

/* The bar drawn for event e (a critical one: the first of f's bars that
 * matches it), or SIZE_MAX; crit: the critical bars by start. */
static size_t bar_of(const struct tf_figure *f, const struct crit *crit, size_t n,
                     const struct tf_cp_event *e)
{
    double x = (double)e->ts_ns / 1e6;
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first whose start is above x - 1.001 us */
        size_t m = (lo + hi) / 2;
        if (crit[m].start - x <= -TF_CP_NEAR_MS)
            lo = m + 1;
        else
            hi = m;
    }
    size_t best = SIZE_MAX;
    for (size_t k = lo; k < n && crit[k].start - x < TF_CP_NEAR_MS; k++) {
        const struct tf_bar *b = &f->bars[crit[k].i];
        if (crit[k].i < best && tf_cp_bar_is(b, e))
            best = crit[k].i;
    }
    return best;
}

/* The time of an edge's end, in axis units from the window's start. */
static double at(const struct tf_figure *f, const struct tf_cp_event *e, const char *which)
{
    double ms = e->start_ms + (strcmp(which, "end") == 0 ? (double)e->dur_ns / 1e6 : 0);
    return ms * 1e6 / tf_unit_ns(f->axis.unit);
}

static bool arrows(struct tf_figure *f, const struct tf_critical *c)
{
    size_t *bar = malloc((c->n_events ? c->n_events : 1) * sizeof *bar);
    struct crit *crit = malloc((f->n_bars ? f->n_bars : 1) * sizeof *crit);
    size_t n_crit = 0;
    if (!bar || !crit) {
        free(bar);
        free(crit);
        return false;
    }
    for (size_t i = 0; i < f->n_bars; i++)
        if (f->bars[i].critical && f->bars[i].name && isfinite(f->bars[i].start_ms))
            crit[n_crit++] = (struct crit){f->bars[i].start_ms, i};
    qsort(crit, n_crit, sizeof *crit, crit_cmp);
    for (size_t j = 0; j < c->n_events; j++)
        bar[j] = bar_of(f, crit, n_crit, &c->events[j]);
    free(crit);
    size_t first = f->n_arrows;
    double near = TF_CP_ARROW_MERGE * f->x_span;
    bool ok = true;
    for (size_t k = 0; ok && k < c->n_edges; k++) {
        const struct tf_cp_edge *e = &c->edges[k];
        size_t b0 = bar[e->from], b1 = bar[e->to];
        if (b0 == SIZE_MAX || b1 == SIZE_MAX || f->bars[b0].lane == f->bars[b1].lane)
            continue;
        struct tf_arrow a = {
            .lane0 = f->bars[b0].lane,
            .lane1 = f->bars[b1].lane,
            .row0 = f->bars[b0].row,
            .row1 = f->bars[b1].row,
            .x0 = at(f, &c->events[e->from], e->from_end),
            .x1 = at(f, &c->events[e->to], e->to_end),
            .critical = true,
        };
        bool merged = false;
        for (size_t i = f->n_arrows; i-- > first && !merged;) {
            const struct tf_arrow *o = &f->arrows[i];
            if (o->lane0 == a.lane0 && o->lane1 == a.lane1)
                merged = fabs(o->x0 - a.x0) < near && fabs(o->x1 - a.x1) < near;
            if (o->lane0 == a.lane0 && o->lane1 == a.lane1)
                break; /* only the last one between these lanes */
        }
        if (!merged)
            ok = tf_figure_add_arrow(f, &a);
    }
    free(bar);
    return ok;
}

/* "critical path 41.2 ms" over the path, from its first node to its last. */
static bool span(struct tf_figure *f, const struct tf_critical *c)
{
    if (!c->n_edges)
        return true;
    const struct tf_cp_edge *e0 = &c->edges[0], *e1 = &c->edges[c->n_edges - 1];
    double t0 = at(f, &c->events[e0->from], e0->from_end);
    double t1 = at(f, &c->events[e1->to], e1->to_end);
    if (t1 < t0)
        t1 = t0;
    struct tf_mark m = {.kind = TF_MARK_SPAN};
    m.dur = c->length_ms * 1e6 / tf_unit_ns(f->axis.unit);
    m.open0 = t0 < 0;
    m.open1 = t1 > f->x_span;
    m.t0 = m.open0 ? 0 : t0;
    m.t1 = m.open1 ? f->x_span : t1;
    struct tf_buf b;
    tf_buf_init(&b);
    tf_buf_puts(&b, "critical path ");
    tf_marks_fmt_time(f, m.dur, &b);
    m.text = tf_figure_buf(f, &b);
    tf_buf_clear(&b);
    tf_buf_puts(&b, "critical path: ");
    tf_marks_fmt_time(f, m.dur, &b);
    char num[TF_NUM_MAX];
    for (int k = 0; k < TF_CP_N_CATS; k++)
        if (c->cat_ms[k] > 0)
            tf_buf_printf(&b, "; %s %s %%", tf_cp_cat_names[k], tf_fmt_num(num, c->cat_pct[k], 1));
    tf_buf_printf(&b, "; %zu events, %zu edges", c->n_events, c->n_edges);
    m.title = tf_figure_buf(f, &b);
    tf_buf_fini(&b);
    if (!m.text || !m.title || !TF_GROW(f->marks, f->n_marks, f->cap_marks))
        return false;
    f->marks[f->n_marks++] = m;
    return true;
}

bool tf_cp_marks(struct tf_figure *f, struct tf_diag *d)
{
    const struct tf_critical *c = f->stats.critical;
    if (!c)
        return true;
    return (span(f, c) && arrows(f, c)) || tf_diag_oom(d, NULL);
}
