/* compose.c - a figure of several traces, made of one figure per trace:
 * each appended in turn as a group of lanes on the figure's x axis (see
 * figure.h, "composing").  It knows no mode and no alignment rule: the
 * caller (run_multi.c) says how each trace's x maps to the figure's, and
 * what the figure's axis, ticks and texts are.  Only the model's own
 * invariants are kept here: lanes, bars and arrows keep their order within
 * a trace, categories are merged by key, every string is copied.
 */
#include "model/figure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* s copied into f (NULL stays NULL); *ok false when out of memory. */
static const char *dup(struct tf_figure *f, const char *s, bool *ok)
{
    if (!s)
        return NULL;
    const char *c = tf_figure_str(f, s);
    if (!c)
        *ok = false;
    return c;
}

static struct tf_id dup_id(struct tf_figure *f, struct tf_id id, bool *ok)
{
    if (id.kind == TF_ID_STR)
        id.str = dup(f, id.str, ok);
    return id;
}

/* dst's category for src's category `c` (added when dst has no such key);
 * (size_t)-1 when out of memory. */
static size_t merge_category(struct tf_figure *dst, const struct tf_category *c)
{
    size_t n = dst->n_cats;
    const char *key = c->key;
    char alt[256];
    if (strncmp(key, "name/", 5) == 0 && c->label) {
        /* Colour by name: the key says the class's place in its trace's
         * order of time ("name/0/op"), which another trace gives another
         * name.  One class (label and category) is one category; another
         * class at the same place gets a key of its own. */
        for (size_t j = 0; j < n; j++) {
            const struct tf_category *d = &dst->cats[j];
            if (strncmp(d->key, "name/", 5) == 0 && d->label && strcmp(d->label, c->label) == 0 &&
                strcmp(d->name ? d->name : "", c->name ? c->name : "") == 0)
                return j;
        }
        for (size_t k = 1;; k++) {
            bool taken = false;
            for (size_t j = 0; j < n && !taken; j++)
                taken = strcmp(dst->cats[j].key, key) == 0;
            if (!taken)
                break;
            snprintf(alt, sizeof alt, "%.200s/t%zu", c->key, k);
            key = alt;
        }
    }
    size_t i = tf_figure_category(dst, key, c->color);
    if (i == (size_t)-1 || i < n)
        return i;
    bool ok = true;
    dst->cats[i].name = dup(dst, c->name, &ok);
    dst->cats[i].label = dup(dst, c->label, &ok);
    return ok ? i : (size_t)-1;
}

size_t tf_figure_merge_category(struct tf_figure *dst, const struct tf_category *c)
{
    return merge_category(dst, c);
}

bool tf_figure_merge_legend(struct tf_figure *dst, const char *label, size_t cat)
{
    for (size_t j = 0; j < dst->n_legend; j++)
        if (dst->legend[j].cat == cat && strcmp(dst->legend[j].label, label) == 0)
            return true;
    return tf_figure_add_legend(dst, label, cat);
}

size_t tf_figure_add_trace(struct tf_figure *dst, const struct tf_trace_ref *ref)
{
    if (!TF_GROW(dst->traces, dst->n_traces, dst->cap_traces))
        return SIZE_MAX;
    size_t ti = dst->n_traces;
    struct tf_trace_ref *t = &dst->traces[ti];
    bool ok = true;
    *t = *ref;
    memset(&t->stats, 0, sizeof t->stats);
    t->file = dup(dst, ref->file, &ok);
    t->title = dup(dst, ref->title, &ok);
    t->mode = dup(dst, ref->mode, &ok);
    t->first_lane = t->n_lanes = 0;
    if (!ok)
        return SIZE_MAX;
    dst->n_traces++;
    return ti;
}

/* Moves src's statistics into the trace, their strings copied into dst and
 * their lane indexes made dst's: map[i] is src's lane i's place among the
 * trace's lanes, SIZE_MAX for one not kept (it leaves its group and its
 * counter row); NULL: every lane, in order. */
static bool move_stats(struct tf_figure *dst, struct tf_figure *src, struct tf_trace_ref *t,
                       const size_t *map)
{
    bool ok = true;
    t->stats = src->stats;
    memset(&src->stats, 0, sizeof src->stats);
    struct tf_stats *s = &t->stats;
    s->summary = dup(dst, s->summary, &ok);
    if (map && s->lane_busy_ms) {
        double *busy = calloc(t->n_lanes ? t->n_lanes : 1, sizeof *busy);
        if (!busy)
            return false;
        for (size_t i = 0; i < src->n_lanes; i++)
            if (map[i] != SIZE_MAX)
                busy[map[i]] = s->lane_busy_ms[i];
        free(s->lane_busy_ms);
        s->lane_busy_ms = busy;
    }
    for (size_t g = 0; g < s->n_groups; g++) {
        struct tf_stat_group *gr = &s->groups[g];
        gr->label = dup(dst, gr->label, &ok);
        size_t n = 0;
        for (size_t i = 0; i < gr->n_lanes; i++) {
            size_t l = !map ? gr->lanes[i] : gr->lanes[i] < src->n_lanes ? map[gr->lanes[i]]
                                                                           : SIZE_MAX;
            if (l != SIZE_MAX)
                gr->lanes[n++] = l + t->first_lane;
        }
        gr->n_lanes = n;
    }
    size_t nc = 0;
    for (size_t i = 0; i < s->n_counters; i++) {
        size_t l = !map ? s->counters[i].lane
                   : s->counters[i].lane < src->n_lanes ? map[s->counters[i].lane]
                                                        : SIZE_MAX;
        if (l == SIZE_MAX)
            continue;
        s->counters[nc] = s->counters[i];
        s->counters[nc++].lane = l + t->first_lane;
    }
    s->n_counters = nc;
    for (size_t i = 0; i < s->n_paradigms; i++)
        s->paradigms[i].name = dup(dst, s->paradigms[i].name, &ok);
    for (size_t i = 0; i < s->n_cpu_procs; i++)
        s->cpu_procs[i].name = dup(dst, s->cpu_procs[i].name, &ok);
    for (size_t i = 0; i < s->n_devices; i++) {
        struct tf_stat_device *v = &s->devices[i];
        v->device = dup(dst, v->device, &ok);
        v->kind = dup(dst, v->kind, &ok);
        v->name = dup(dst, v->name, &ok);
        v->vendor = dup(dst, v->vendor, &ok);
    }
    return ok;
}

/* A counter lane's track: its samples' x made dst's (their times stay on
 * their trace's clock), its unit copied. */
static bool copy_counter(struct tf_figure *dst, struct tf_lane *o, const struct tf_counter *c,
                         double k, double dx)
{
    bool ok = true;
    o->kind = TF_LANE_COUNTER;
    o->counter = (struct tf_counter){NULL, 0, 0, c->has_range, c->lo, c->hi,
                                     dup(dst, c->unit, &ok), c->color};
    for (size_t i = 0; ok && i < c->n_samples; i++) {
        const struct tf_sample *p = &c->samples[i];
        ok = tf_counter_add(o, p->t_ns, p->x * k + dx, p->v);
    }
    return ok;
}

static bool copy_bar(struct tf_figure *dst, const struct tf_figure *src, const struct tf_bar *b,
                     size_t lane, const size_t *cat_of, double k, double dx)
{
    struct tf_bar *o = tf_figure_add_bar(dst);
    if (!o)
        return false;
    bool ok = true;
    *o = *b;
    o->lane = lane;
    o->cat = cat_of[b->cat];
    o->name = dup(dst, b->name, &ok);
    o->title = dup(dst, b->title, &ok);
    o->label = dup(dst, b->label, &ok);
    o->props = NULL;
    o->n_props = 0;
    /* Only what src draws: its own axis is its window (the PyTorch mode
     * keeps bars that run past it). */
    double x0, x1;
    tf_bar_drawn_extent(src, b, &x0, &x1);
    o->x0 = x0 * k + dx;
    o->x1 = x1 * k + dx;
    o->busy = b->busy * k;
    o->shares = NULL;
    o->n_shares = 0;
    if (b->n_shares) {
        struct tf_share sh[TF_SHARES_MAX];
        size_t n = b->n_shares < TF_SHARES_MAX ? b->n_shares : TF_SHARES_MAX;
        for (size_t i = 0; i < n; i++)
            sh[i] = (struct tf_share){cat_of[b->shares[i].cat], b->shares[i].share};
        ok = ok && tf_figure_bar_shares(dst, o, sh, n);
    }
    /* A bar in its category's colour takes the figure's colour for it. */
    uint32_t c0 = src->cats[b->cat].color, c1 = dst->cats[o->cat].color;
    if (b->color == c0 && c0 != c1) {
        o->color = c1;
        o->label_color = tf_color_text_on(c1);
    }
    return ok && tf_figure_bar_props(dst, o, b->props, b->n_props);
}

/* tf_figure_append and tf_figure_append_lanes: pick NULL, every lane. */
static bool append(struct tf_figure *dst, struct tf_figure *src, const struct tf_trace_ref *ref,
                   double k, double dx, const size_t *pick, size_t n_pick, bool stats)
{
    size_t ti = tf_figure_add_trace(dst, ref);
    if (ti == SIZE_MAX)
        return false;
    size_t n = pick ? n_pick : src->n_lanes;
    /* map: src's lane -> its place among the trace's lanes, or SIZE_MAX */
    size_t *map = malloc((src->n_lanes ? src->n_lanes : 1) * sizeof *map);
    size_t *cat_of = malloc((src->n_cats ? src->n_cats : 1) * sizeof *cat_of);
    bool ok = map && cat_of;
    for (size_t i = 0; ok && i < src->n_lanes; i++)
        map[i] = pick ? SIZE_MAX : i;
    for (size_t i = 0; ok && pick && i < n; i++)
        ok = pick[i] < src->n_lanes && map[pick[i]] == SIZE_MAX;
    for (size_t i = 0; ok && pick && i < n; i++)
        map[pick[i]] = i;
    struct tf_trace_ref *t = &dst->traces[ti];
    t->first_lane = dst->n_lanes;
    t->n_lanes = n;
    size_t lane0 = dst->n_lanes;
    for (size_t i = 0; ok && i < n; i++) {
        const struct tf_lane *l = &src->lanes[pick ? pick[i] : i];
        struct tf_lane *o = tf_figure_add_lane(dst, l->key, l->label);
        if (!o) {
            ok = false;
            break;
        }
        o->pid = dup_id(dst, l->pid, &ok);
        o->tid = dup_id(dst, l->tid, &ok);
        o->group = dup(dst, l->group, &ok);
        o->name = dup(dst, l->name, &ok);
        o->id = dup(dst, l->id, &ok);
        o->rows = l->rows;
        o->annot_rows = l->annot_rows;
        o->has_events = l->has_events;
        o->events = l->events;
        o->trace = ti;
        if (l->kind == TF_LANE_COUNTER)
            ok = ok && copy_counter(dst, o, &l->counter, k, dx);
    }
    for (size_t i = 0; ok && i < src->n_cats; i++)
        ok = (cat_of[i] = merge_category(dst, &src->cats[i])) != (size_t)-1;
    for (size_t i = 0; ok && i < src->n_bars; i++) {
        const struct tf_bar *b = &src->bars[i];
        if (b->lane < src->n_lanes && map[b->lane] != SIZE_MAX)
            ok = copy_bar(dst, src, b, lane0 + map[b->lane], cat_of, k, dx);
    }
    /* The legend: src's entries that dst lacks, in src's order (with a
     * pick, those whose category a kept bar inks). */
    bool *inked = pick ? calloc(src->n_cats ? src->n_cats : 1, sizeof *inked) : NULL;
    ok = ok && (!pick || inked);
    for (size_t i = 0; ok && pick && i < src->n_bars; i++) {
        const struct tf_bar *b = &src->bars[i];
        if (b->lane >= src->n_lanes || map[b->lane] == SIZE_MAX)
            continue;
        if (b->cat < src->n_cats)
            inked[b->cat] = true;
        for (size_t j = 0; j < b->n_shares; j++)
            if (b->shares[j].cat < src->n_cats)
                inked[b->shares[j].cat] = true;
    }
    for (size_t i = 0; ok && i < src->n_legend; i++)
        if (!pick || (src->legend[i].cat < src->n_cats && inked[src->legend[i].cat]))
            ok = tf_figure_merge_legend(dst, src->legend[i].label, cat_of[src->legend[i].cat]);
    free(inked);
    for (size_t i = 0; ok && i < src->n_arrows; i++) {
        struct tf_arrow a = src->arrows[i];
        if (a.lane0 >= src->n_lanes || a.lane1 >= src->n_lanes || map[a.lane0] == SIZE_MAX ||
            map[a.lane1] == SIZE_MAX)
            continue;
        a.lane0 = lane0 + map[a.lane0];
        a.lane1 = lane0 + map[a.lane1];
        a.x0 = a.x0 * k + dx;
        a.x1 = a.x1 * k + dx;
        ok = tf_figure_add_arrow(dst, &a);
    }
    struct tf_buf note;
    tf_buf_init(&note);
    for (size_t i = 0; ok && !pick && i < src->n_notes; i++) {
        tf_buf_clear(&note);
        tf_buf_printf(&note, "%s: %s", t->title ? t->title : "", src->notes[i]);
        ok = !note.oom && tf_figure_add_note(dst, note.data);
    }
    tf_buf_fini(&note);
    if (ok && stats)
        ok = move_stats(dst, src, t, pick ? map : NULL);
    else if (ok) /* a trial: the --annotate line only, for its height */
        t->stats.summary = dup(dst, src->stats.summary, &ok);
    free(map);
    free(cat_of);
    return ok;
}

bool tf_figure_append(struct tf_figure *dst, struct tf_figure *src, const struct tf_trace_ref *ref,
                      double k, double dx)
{
    return append(dst, src, ref, k, dx, NULL, 0, true);
}

bool tf_figure_take_stats(struct tf_figure *dst, size_t trace, struct tf_figure *src)
{
    struct tf_trace_ref *t = &dst->traces[trace];
    tf_stats_fini(&t->stats);
    return move_stats(dst, src, t, NULL);
}

bool tf_figure_append_lanes(struct tf_figure *dst, struct tf_figure *src,
                            const struct tf_trace_ref *ref, double k, double dx,
                            const size_t *lanes, size_t n, bool stats)
{
    return append(dst, src, ref, k, dx, lanes, n, stats);
}
