/* stats.c - the overlap statistics: the figure's struct tf_stats filled
 * from interval sets in integer ticks (rules/ivset.h); see stats.h.
 * Nothing here formats a number: the back-ends do, through tf_fmt_num.
 */
#include "rules/stats.h"

#include <fnmatch.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/num.h"

/* --- the clock ----------------------------------------------------------------- */

/* Tick counts stay within +-2^61, so neither a difference of two nor the
 * length of a set within that range overflows. */
#define TICK_MAX 2305843009213693952.0

void tf_stats_clock_init(struct tf_stats_clock *c, double span_ms)
{
    c->ticks_per_ms = 1e6;
    for (int i = 0; i < 320 && isfinite(span_ms) && fabs(span_ms) * c->ticks_per_ms > TICK_MAX;
         i++)
        c->ticks_per_ms /= 10.0;
    c->lo = 0;
    c->hi = tf_stats_ticks(c, span_ms);
}

int64_t tf_stats_ticks(const struct tf_stats_clock *c, double ms)
{
    double v = ms * c->ticks_per_ms;
    if (isnan(v))
        return 0;
    if (v >= TICK_MAX)
        return (int64_t)TICK_MAX;
    if (v <= -TICK_MAX)
        return -(int64_t)TICK_MAX;
    return (int64_t)llround(v);
}

double tf_stats_ms(const struct tf_stats_clock *c, int64_t ticks)
{
    return (double)ticks / c->ticks_per_ms;
}

/* --- the figure's statistics ------------------------------------------------- */

bool tf_stats_bar_sets(const struct tf_figure *f, const struct tf_stats_clock *c,
                       double ms_per_unit, struct tf_ivset *lanes)
{
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->shape != TF_SHAPE_SLICE || b->lane >= f->n_lanes)
            continue;
        double x0, x1;
        tf_bar_drawn_extent(f, b, &x0, &x1);
        if (!tf_ivset_add(&lanes[b->lane], c->lo + tf_stats_ticks(c, x0 * ms_per_unit),
                          c->lo + tf_stats_ticks(c, x1 * ms_per_unit)))
            return false;
    }
    for (size_t i = 0; i < f->n_lanes; i++) {
        tf_ivset_normalize(&lanes[i]);
        tf_ivset_clip(&lanes[i], c->lo, c->hi);
    }
    return true;
}

static bool normalized(const struct tf_ivset *s)
{
    for (size_t i = 1; i < s->n; i++)
        if (s->v[i].lo <= s->v[i - 1].hi)
            return false;
    return true;
}

bool tf_stats_union_lanes(const struct tf_ivset *lanes, const size_t *idx, size_t n,
                          struct tf_ivset *out)
{
    tf_ivset_clear(out);
    /* Normalized lanes are merged one at a time, so the union never holds
     * more than itself and one lane (the lanes of a large trace's process
     * often run at the same times); else gathered and normalized. */
    bool merge = n > 1;
    for (size_t i = 0; i < n && merge; i++)
        merge = normalized(&lanes[idx[i]]);
    if (merge) {
        struct tf_ivset tmp;
        tf_ivset_init(&tmp);
        bool ok = true;
        for (size_t i = 0; ok && i < n; i++) {
            ok = tf_ivset_union(out, &lanes[idx[i]], &tmp);
            struct tf_ivset t = *out;
            *out = tmp;
            tmp = t;
        }
        tf_ivset_fini(&tmp);
        return ok;
    }
    for (size_t i = 0; i < n; i++) {
        const struct tf_ivset *l = &lanes[idx[i]];
        for (size_t j = 0; j < l->n; j++)
            if (!tf_ivset_add(out, l->v[j].lo, l->v[j].hi))
                return false;
    }
    tf_ivset_normalize(out);
    return true;
}

/* Frees what a previous fill left (strings stay in the figure's arena). */
static void reset(struct tf_stats *s)
{
    free(s->lane_busy_ms);
    for (size_t i = 0; i < s->n_groups; i++)
        free(s->groups[i].lanes);
    free(s->groups);
    free(s->overlap_ms);
    s->lane_busy_ms = NULL;
    s->groups = NULL;
    s->n_groups = 0;
    s->overlap_ms = NULL;
}

/* The lanes whose label matches one of the globs, in lane order (*out
 * malloc'ed, possibly empty); counter lanes are busy at no time, and no
 * group holds them. */
static bool match_lanes(const struct tf_figure *f, const struct tf_group_opt *g, size_t **out,
                        size_t *n)
{
    *n = 0;
    *out = malloc((f->n_lanes ? f->n_lanes : 1) * sizeof **out);
    if (!*out)
        return false;
    for (size_t i = 0; i < f->n_lanes; i++)
        for (size_t p = 0; p < g->n_patterns && f->lanes[i].kind != TF_LANE_COUNTER; p++)
            if (fnmatch(g->patterns[p], f->lanes[i].label ? f->lanes[i].label : "", 0) == 0) {
                (*out)[(*n)++] = i;
                break;
            }
    return true;
}

/* Appends group k's lanes to the group list (copied; out-of-range
 * indexes dropped). */
static bool add_group(struct tf_figure *f, size_t k, const char *label, const size_t *lanes,
                      size_t n_lanes)
{
    struct tf_stat_group *g = &f->stats.groups[k];
    memset(g, 0, sizeof *g);
    g->label = tf_figure_str(f, label ? label : "");
    g->lanes = malloc((n_lanes ? n_lanes : 1) * sizeof *g->lanes);
    if (!g->label || !g->lanes)
        return false;
    for (size_t i = 0; i < n_lanes; i++)
        if (lanes[i] < f->n_lanes)
            g->lanes[g->n_lanes++] = lanes[i];
    return true;
}

/* The folded time of each group (diagonal) and of each pair of groups
 * (a lane of each busy at once): past[a * n + b], from the combinations
 * of lanes in the fold. */
static bool fold_groups(const struct tf_stats *s, size_t n_lanes, const struct tf_ivfold *fold,
                        int64_t *past)
{
    size_t n = s->n_groups;
    unsigned char *in = calloc(n && n_lanes ? n * n_lanes : 1, 1);
    size_t *touch = malloc((n ? n : 1) * sizeof *touch);
    if (!in || !touch) {
        free(in);
        free(touch);
        return false;
    }
    for (size_t k = 0; k < n; k++)
        for (size_t i = 0; i < s->groups[k].n_lanes; i++)
            in[k * n_lanes + s->groups[k].lanes[i]] = 1;
    for (size_t c = 0; c < fold->n_combo; c++) {
        const uint32_t *ids = fold->ids + fold->combo[c].off;
        size_t n_touch = 0;
        for (size_t k = 0; k < n; k++) {
            bool hit = false;
            for (size_t j = 0; j < fold->combo[c].n && !hit; j++)
                hit = ids[j] < n_lanes && in[k * n_lanes + ids[j]];
            if (hit)
                touch[n_touch++] = k;
        }
        for (size_t x = 0; x < n_touch; x++)
            for (size_t y = x; y < n_touch; y++) {
                past[touch[x] * n + touch[y]] += fold->combo[c].ns;
                if (x != y)
                    past[touch[y] * n + touch[x]] += fold->combo[c].ns;
            }
    }
    free(in);
    free(touch);
    return true;
}

bool tf_stats_fill(struct tf_figure *f, const struct tf_stats_clock *c,
                   const struct tf_ivset *lanes, const struct tf_stats_group_in *groups,
                   size_t n_groups, const struct tf_opts *o)
{
    return tf_stats_fill_folded(f, c, lanes, NULL, groups, n_groups, o);
}

bool tf_stats_fill_folded(struct tf_figure *f, const struct tf_stats_clock *c,
                          const struct tf_ivset *lanes, const struct tf_ivfold *fold,
                          const struct tf_stats_group_in *groups, size_t n_groups,
                          const struct tf_opts *o)
{
    struct tf_stats *s = &f->stats;
    reset(s);
    s->on = true;
    s->window_ms = tf_stats_ms(c, c->hi - c->lo);
    s->lane_busy_ms = calloc(f->n_lanes ? f->n_lanes : 1, sizeof *s->lane_busy_ms);
    if (!s->lane_busy_ms)
        return false;
    for (size_t i = 0; i < f->n_lanes; i++)
        s->lane_busy_ms[i] = tf_stats_ms(
            c, tf_ivset_len(&lanes[i]) + (fold ? tf_ivfold_len(fold, (uint32_t)i) : 0));

    size_t n_user = o ? o->n_groups : 0;
    size_t n = n_groups + n_user;
    s->groups = calloc(n ? n : 1, sizeof *s->groups);
    s->overlap_ms = calloc(n ? n * n : 1, sizeof *s->overlap_ms);
    struct tf_ivset *busy = calloc(n ? n : 1, sizeof *busy);
    int64_t *past = calloc(n ? n * n : 1, sizeof *past);
    bool ok = s->groups && s->overlap_ms && busy && past;
    for (size_t k = 0; k < n && ok; k++) {
        if (k < n_groups) {
            ok = add_group(f, k, groups[k].label, groups[k].lanes, groups[k].n_lanes);
        } else {
            const struct tf_group_opt *g = &o->groups[k - n_groups];
            size_t *idx, n_idx;
            ok = match_lanes(f, g, &idx, &n_idx) && add_group(f, k, g->name, idx, n_idx);
            free(idx);
        }
        s->n_groups = k + 1;
        const struct tf_stat_group *g = &s->groups[k];
        ok = ok && tf_stats_union_lanes(lanes, g->lanes, g->n_lanes, &busy[k]);
    }
    ok = ok && (!fold || fold_groups(s, f->n_lanes, fold, past));
    for (size_t k = 0; k < n && ok; k++)
        s->groups[k].busy_ms = tf_stats_ms(c, tf_ivset_len(&busy[k]) + past[k * n + k]);
    for (size_t a = 0; a < n && ok; a++)
        for (size_t b = a; b < n; b++) {
            double v = a == b ? s->groups[a].busy_ms
                              : tf_stats_ms(c, tf_ivset_overlap(&busy[a], &busy[b]) +
                                                   past[a * n + b]);
            s->overlap_ms[a * n + b] = v;
            s->overlap_ms[b * n + a] = v;
        }
    if (busy)
        for (size_t k = 0; k < n; k++)
            tf_ivset_fini(&busy[k]);
    free(busy);
    free(past);
    return ok;
}

void tf_stats_pipelined(struct tf_figure *f, const struct tf_stats_clock *c,
                        const struct tf_ivset *io, const struct tf_ivset *gpu)
{
    struct tf_stats *s = &f->stats;
    int64_t io_len = tf_ivset_len(io);
    s->pipelined = true;
    s->has_io_hidden = io_len > 0;
    s->io_hidden_pct =
        io_len > 0 ? 100.0 * (double)tf_ivset_overlap(io, gpu) / (double)io_len : 0.0;
    s->gpu_idle_ms = tf_stats_ms(c, (c->hi - c->lo) - tf_ivset_len(gpu));
}

bool tf_stats_add_candidate(struct tf_figure *f, const struct tf_stats_clock *c,
                            long long candidate, const struct tf_ivset *io,
                            const struct tf_ivset *gpu)
{
    struct tf_stats *s = &f->stats;
    size_t cap = s->n_candidates; /* grown one at a time: a handful per figure */
    struct tf_stat_candidate *v = realloc(s->candidates, (cap + 1) * sizeof *v);
    if (!v)
        return false;
    s->candidates = v;
    int64_t len = tf_ivset_len(io);
    v[s->n_candidates++] = (struct tf_stat_candidate){
        candidate, tf_stats_ms(c, len), tf_stats_ms(c, len - tf_ivset_overlap(io, gpu))};
    return true;
}


void tf_stats_gpu_breakdown(struct tf_figure *f, const struct tf_stats_clock *c,
                            const struct tf_ivset *all, const struct tf_ivset *compute,
                            const struct tf_ivset *comm)
{
    tf_stats_gpu_breakdown_folded(f, c, all, compute, comm, NULL);
}

bool tf_stats_gpu_fold(struct tf_stats_gpu_past *p, struct tf_ivset *all,
                       struct tf_ivset *compute, struct tf_ivset *comm, int64_t at)
{
    struct tf_ivset a, k, m;
    tf_ivset_init(&a);
    tf_ivset_init(&k);
    tf_ivset_init(&m);
    bool ok = tf_ivset_take_below(all, at, &a) && tf_ivset_take_below(compute, at, &k) &&
              tf_ivset_take_below(comm, at, &m);
    if (ok && a.n) {
        if (!p->any)
            p->lo = a.v[0].lo;
        p->hi = a.v[a.n - 1].hi;
        p->any = true;
    }
    p->all += tf_ivset_len(&a);
    p->compute += tf_ivset_len(&k);
    p->comm += tf_ivset_len(&m);
    p->comm_compute += tf_ivset_overlap(&m, &k);
    tf_ivset_fini(&a);
    tf_ivset_fini(&k);
    tf_ivset_fini(&m);
    return ok;
}

void tf_stats_gpu_breakdown_folded(struct tf_figure *f, const struct tf_stats_clock *c,
                                   const struct tf_ivset *all, const struct tf_ivset *compute,
                                   const struct tf_ivset *comm,
                                   const struct tf_stats_gpu_past *p)
{
    static const struct tf_stats_gpu_past none;
    if (!p)
        p = &none;
    struct tf_gpu_breakdown *g = &f->stats.gpu;
    int64_t lo = p->any ? p->lo : all->n ? all->v[0].lo : 0;
    int64_t hi = all->n ? all->v[all->n - 1].hi : p->any ? p->hi : 0;
    int64_t span = hi - lo;
    int64_t idle = span - (tf_ivset_len(all) + p->all);
    int64_t comp = tf_ivset_len(compute) + p->compute;
    int64_t comm_len = tf_ivset_len(comm) + p->comm;
    int64_t both = tf_ivset_overlap(comm, compute) + p->comm_compute;
    f->stats.has_gpu = true;
    g->kernel_span_ms = tf_stats_ms(c, span);
    g->idle_ms = tf_stats_ms(c, idle);
    g->compute_ms = tf_stats_ms(c, comp);
    g->non_compute_ms = tf_stats_ms(c, span - comp - idle);
    g->comm_ms = tf_stats_ms(c, comm_len);
    g->has_comm = comm_len > 0;
    g->comm_comp_overlap_pct =
        comm_len > 0 ? 100.0 * (double)both / (double)comm_len : 0.0;
}

bool tf_stats_summary(struct tf_figure *f)
{
    const struct tf_stats *s = &f->stats;
    char a[TF_NUM_MAX], b[TF_NUM_MAX];
    struct tf_buf line;
    tf_buf_init(&line);
    double idle_pct = s->window_ms > 0 ? 100.0 * s->gpu_idle_ms / s->window_ms : 0.0;
    if (s->has_io_hidden)
        tf_buf_printf(&line, "I/O hidden %s %%, ", tf_fmt_num(a, s->io_hidden_pct, 0));
    tf_buf_printf(&line, "GPU idle %s %%", tf_fmt_num(b, idle_pct, 0));
    f->stats.summary = tf_figure_buf(f, &line);
    tf_buf_fini(&line);
    return f->stats.summary != NULL;
}
