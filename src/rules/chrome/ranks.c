/* ranks.c - the generic Chrome mode's overview of an HPC job (an OTF2
 * archive) whose ranks are more than its lanes' cap holds: every rank
 * drawn as a row, or sharing one (model/overview.h), instead of the first
 * lanes.  (Which rank a thread is of, and --ranks, are lanes.c's: the
 * lanes' rules use them, and this file calls lanes.c, never the reverse.)
 *
 * IMPLEMENTATION NOTES
 *
 * The decision is made once pass 1 is over (tf_chrome_ranks_window): the
 * lanes the figure would draw, after --lanes, --hide and --ranks, in the
 * author's order, are more than the cap (--max-lanes, else 64) and the
 * cap would leave the last rank out entirely.
 *
 * Memory.  The loader reads an archive location by location and says when
 * one is over (TF_TEF_LANE_DONE): its lane's rows are finished then and
 * reduced to a strip of busy shares per class (a category, or a name with
 * --color-by name), and its slices, rows and samples freed.  What stays of
 * it is the strip and one bar per class spanning its time, so that the
 * colour plan (colors.c) sees every class with its time, as it would have.
 * A job of thousands of ranks holds one location's slices at a time.
 *
 * Rows.  build() picks the lanes (no cap), gives each class its figure
 * category by the rules every bar follows (tf_chrome_bar_category), groups
 * the lanes by rank (a rank's process, and a GPU stream named "(rank R)"),
 * takes each rank's busiest GPU stream, else its main thread (the least
 * thread id), and hands the strips on (tf_figure.ov_set): the caller, who
 * knows the height, makes the rows.  GPU streams of no rank are left out,
 * with a note.
 */
#include "rules/chrome/chrome_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool tf_chrome_ranks_window(struct chrome *c)
{
    if (!c->hpc)
        return true;
    struct tf_opts all = *c->o;
    all.max_lanes = 1000000000; /* every lane, to count them */
    size_t *def, n_def, *shown, n_shown;
    if (!tf_chrome_window_threads(c, &all, &def, &n_def, &shown, &n_shown))
        return false;
    size_t cap = c->o->max_lanes > 0 ? (size_t)c->o->max_lanes : TF_CHROME_MAX_RANK_LANES;
    size_t n = 0;
    for (size_t i = 0; i < n_shown; i++)
        n += !c->thrs[shown[i]].counter;
    if (n > cap) {
        /* the last rank's first lane, past the cap: it would be left out */
        long long last = 0;
        size_t first = 0, k = 0;
        bool any = false;
        for (size_t i = 0; i < n_shown; i++) {
            long long r;
            if (c->thrs[shown[i]].counter)
                continue;
            if (tf_chrome_rank_of(c, shown[i], &r) && (!any || r != last)) {
                last = r;
                first = k;
                any = true;
            }
            k++;
        }
        c->ov = any && first >= cap;
    }
    free(def);
    free(shown);
    return true;
}

/* --- reducing a lane ------------------------------------------------------------------ */

/* The class of a slice: its category, or its name with --color-by name. */
static uint32_t class_of(const struct chrome *c, uint32_t name, uint32_t cat)
{
    return c->o->color_by == TF_COLOR_BY_NAME ? name : cat;
}

/* The category of class id `cls` in t (added, keyed by the id). */
static size_t tmp_category(struct tf_figure *t, uint32_t cls)
{
    char key[24];
    snprintf(key, sizeof key, "c%u", (unsigned)cls);
    return tf_figure_category(t, key, 0);
}

/* Lane ln as a one-lane figure in ns from x_origin, its classes the
 * categories: its strip's source. */
static bool lane_figure(struct chrome *c, const struct lane *ln, struct tf_figure *t,
                        uint32_t *ids, size_t *n_ids)
{
    struct tf_lane *fl = tf_figure_add_lane(t, NULL, "");
    if (!fl)
        return false;
    fl->rows = ln->max_row ? ln->max_row : 1;
    fl->annot_rows = ln->annot_rows;
    t->x_span = (double)c->axis_ns;
    for (size_t i = 0; i < ln->n_bars; i++) {
        const struct obar *ob = &ln->bars[i];
        if (ob->instant)
            continue;
        struct tf_share sh[TF_SHARES_MAX];
        size_t n = 0;
        struct part parts[TF_SHARES_MAX];
        size_t np = ob->n_parts ? tf_chrome_bar_parts(ln, ob, parts) : 0;
        double w = (double)(ob->t1 - ob->t0);
        for (size_t k = 0; k < np && w > 0; k++) {
            uint32_t cls = class_of(c, parts[k].name, parts[k].cat);
            size_t ci = tmp_category(t, cls);
            if (ci == (size_t)-1)
                return false;
            size_t j = 0;
            while (j < n && sh[j].cat != ci)
                j++;
            if (j == n)
                sh[n++] = (struct tf_share){ci, 0};
            sh[j].share += (double)parts[k].ns / w;
        }
        uint32_t cls = class_of(c, ob->name, ob->cat);
        size_t ci = tmp_category(t, cls);
        struct tf_bar *b = ci == (size_t)-1 ? NULL : tf_figure_add_bar(t);
        if (!b)
            return false;
        b->lane = 0;
        b->row = ob->row;
        b->cat = ci;
        b->x0 = (double)(ob->t0 - c->x_origin);
        b->x1 = (double)(ob->t1 - c->x_origin);
        b->shape = np ? TF_SHAPE_DENSE : TF_SHAPE_SLICE;
        b->busy = (double)ob->busy;
        if (np && !tf_figure_bar_shares(t, b, sh, n))
            return false;
    }
    *n_ids = 0;
    for (size_t i = 0; i < t->n_cats; i++)
        ids[(*n_ids)++] = (uint32_t)strtoul(t->cats[i].key + 1, NULL, 10);
    return true;
}

/* The lane's slices, rows and samples let go; one bar per class stays,
 * over the lane's time, with the class's time as its busy time (the colour
 * plan's input). */
static bool keep_classes(struct chrome *c, struct lane *ln)
{
    struct obar cls[TF_SHARES_MAX];
    size_t n = 0;
    for (size_t i = 0; i < ln->n_bars; i++) {
        const struct obar *ob = &ln->bars[i];
        if (ob->instant)
            continue;
        struct part parts[TF_SHARES_MAX];
        size_t np = tf_chrome_bar_parts(ln, ob, parts);
        for (size_t k = 0; k < np; k++) {
            uint32_t id = class_of(c, parts[k].name, parts[k].cat);
            size_t j = 0;
            while (j < n && class_of(c, cls[j].name, cls[j].cat) != id)
                j++;
            if (j == n && n < TF_SHARES_MAX) {
                cls[n] = (struct obar){.t0 = ob->t0, .t1 = ob->t1, .name = parts[k].name,
                                       .cat = parts[k].cat, .args = c->empty,
                                       .color = TF_CHROME_NO_COLOR};
                n++;
            } else if (j == n) {
                j = n - 1;
            }
            cls[j].busy += parts[k].ns;
            cls[j].t0 = ob->t0 < cls[j].t0 ? ob->t0 : cls[j].t0;
            cls[j].t1 = ob->t1 > cls[j].t1 ? ob->t1 : cls[j].t1;
        }
    }
    free(ln->pend);
    ln->pend = NULL;
    ln->n_pend = ln->cap_pend = 0;
    for (int k = 0; k < 2; k++) {
        free(ln->st[k].row_end);
        free(ln->st[k].acc);
        memset(&ln->st[k], 0, sizeof ln->st[k]);
    }
    free(ln->parts);
    ln->parts = NULL;
    ln->n_parts = ln->cap_parts = 0;
    free(ln->sample);
    ln->sample = NULL;
    ln->n_sample = ln->cap_sample = 0;
    free(ln->bars);
    ln->n_bars = ln->cap_bars = 0;
    if (!(ln->bars = malloc((n ? n : 1) * sizeof *ln->bars)))
        return false;
    ln->cap_bars = n ? n : 1;
    for (size_t j = 0; j < n; j++) {
        cls[j].merged = 2; /* a dense span of its class */
        ln->bars[ln->n_bars++] = cls[j];
    }
    return true;
}

static bool compact(struct chrome *c, struct lane *ln)
{
    if (ln->ov || ln->counter)
        return true;
    tf_chrome_rows_finish(c, ln);
    struct tf_figure t;
    tf_figure_init(&t);
    uint32_t ids[64];
    size_t n_ids = 0;
    struct tf_ov_strip *s = malloc(sizeof *s);
    bool ok = s && lane_figure(c, ln, &t, ids, &n_ids) && n_ids <= 64 &&
              tf_ov_strip_make(&t, 0, s);
    tf_figure_fini(&t);
    if (!ok) {
        free(s);
        return c->oom = true, false;
    }
    for (size_t k = 0; k < s->n_cls; k++)
        ln->ov_cls[k] = s->cat[k] < n_ids ? ids[s->cat[k]] : c->empty;
    ln->ov = s;
    if (!keep_classes(c, ln))
        return c->oom = true, false;
    return true;
}

bool tf_chrome_lane_done(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!c->ov)
        return true;
    size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
    if (t == SIZE_MAX)
        return !c->oom;
    if (t >= c->n_lane_of_thr || !c->lane_of_thr[t])
        return true; /* nothing of it in the window */
    struct lane *ln = &c->lanes[c->lane_of_thr[t] - 1];
    return ln->thread != t || compact(c, ln);
}

void tf_chrome_ranks_finish(struct chrome *c)
{
    for (size_t i = 0; c->ov && i < c->n_lanes; i++)
        compact(c, &c->lanes[i]);
}

/* --- the figure ----------------------------------------------------------------------- */

/* A lane of a rank, for the choice of its row. */
struct ranked {
    long long rank;
    size_t lane;  /* index into c->lanes */
    bool gpu;
    long long tid;
    double busy;
};

static int by_rank_lane(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->lane > b->lane) - (a->lane < b->lane);
}

/* rk[i .. j) are one rank's lanes: its row's (the busiest GPU stream,
 * else the main thread, the least thread id; with --lanes the first). */
static size_t choose(const struct ranked *rk, size_t i, size_t j, bool picked)
{
    size_t best = i, gpu = SIZE_MAX;
    for (size_t k = i; k < j && !picked; k++) {
        if (rk[k].gpu && (gpu == SIZE_MAX || rk[k].busy > rk[gpu].busy))
            gpu = k;
        if (!rk[k].gpu && (rk[best].gpu || rk[k].tid < rk[best].tid))
            best = k;
    }
    return gpu != SIZE_MAX ? gpu : best;
}

bool tf_chrome_ranks_build(struct chrome *c, const struct tf_opts *o,
                           const struct tf_mode_input *in, struct tf_figure *f,
                           struct tf_diag *d)
{
    struct tf_opts all = *o;
    all.max_lanes = 1000000000; /* the overview draws every rank */
    struct chrome_pick pk;
    if (!tf_chrome_pick_lanes(c, &all, &pk, d)) {
        tf_chrome_pick_fini(&pk);
        return false;
    }
    struct color_plan plan;
    memset(&plan, 0, sizeof plan);
    tf_strtab_init(&plan.names);
    struct ranked *rk = calloc(pk.n ? pk.n : 1, sizeof *rk);
    struct tf_ov_set *set = calloc(1, sizeof *set);
    bool ok = rk && set;
    if (ok) {
        tf_chrome_color_plan_fini(&plan);
        ok = tf_chrome_color_plan(c, &all, pk.lanes, pk.n, &plan);
    }
    struct tf_frame fr = {c->w0, c->w1, c->axis_ns, NULL, 0, 8};
    tf_frame_unit(fr.span_ns, &fr.unit, &fr.per);
    f->mode = tf_mode_chrome.name;
    f->schema = "tracefig-figure-2";
    ok = ok && tf_figure_frame(f, &fr);
    /* Each lane's classes as the figure's categories, and its rank. */
    size_t n_rk = 0;
    for (size_t i = 0; ok && i < pk.n; i++) {
        struct lane *ln = &c->lanes[pk.lanes[i]];
        if (ln->counter || !ln->ov)
            continue;
        for (size_t k = 0; ok && k < ln->ov->n_cls; k++) {
            struct obar ob = {.t0 = c->w0, .t1 = c->w1, .name = c->empty, .cat = c->empty,
                              .args = c->empty, .color = TF_CHROME_NO_COLOR, .merged = 2};
            for (size_t b = 0; b < ln->n_bars; b++)
                if (class_of(c, ln->bars[b].name, ln->bars[b].cat) == ln->ov_cls[k]) {
                    ob.name = ln->bars[b].name;
                    ob.cat = ln->bars[b].cat;
                }
            uint32_t rgb, label_rgb;
            const char *kind = NULL;
            size_t ci = tf_chrome_bar_category(c, o, f, &ob, &plan, &rgb, &label_rgb, &kind);
            ok = ci != SIZE_MAX && ci != (size_t)-1;
            ln->ov->cat[k] = ci;
        }
        long long r;
        if (!tf_chrome_rank_of(c, ln->thread, &r)) {
            set->left_out++;
            continue;
        }
        const struct thr *th = &c->thrs[ln->thread];
        const struct tf_id *pid = &c->procs[th->proc].pid;
        rk[n_rk++] = (struct ranked){r, pk.lanes[i], pid->kind != TF_ID_NUM,
                                     th->tid.kind == TF_ID_NUM ? th->tid.num : 0, ln->ov->busy};
    }
    qsort(rk, n_rk, sizeof *rk, by_rank_lane);
    size_t n = 0; /* ranks */
    for (size_t i = 0; i < n_rk; i++)
        n += i == 0 || rk[i].rank != rk[i - 1].rank;
    set->m = calloc(n ? n : 1, sizeof *set->m);
    set->strips = calloc(n ? n : 1, sizeof *set->strips);
    ok = ok && set->m && set->strips;
    double per = fr.per;
    for (size_t i = 0; ok && i < n_rk;) {
        size_t j = i;
        while (j < n_rk && rk[j].rank == rk[i].rank)
            j++;
        struct lane *ln = &c->lanes[rk[choose(rk, i, j, o->n_lanes > 0)].lane];
        size_t k = set->n++;
        set->strips[k] = *ln->ov;
        free(ln->ov);
        ln->ov = NULL;
        set->m[k] = (struct tf_ov_member){&set->strips[k], 1.0 / per, 0, rk[i].rank, SIZE_MAX};
        i = j;
    }
    set->lane_text = o->n_lanes ? TF_OV_PICKED_TEXT : TF_OV_PICK_TEXT;
    ok = ok && tf_chrome_color_legend(c, &plan, f);
    for (size_t i = 0; ok && i < c->n_notes; i++)
        ok = tf_figure_add_note(f, c->notes[i]);
    if (ok && c->ov_late) {
        char note[160];
        snprintf(note, sizeof note, "%zu slice%s came after their lane was read: not drawn",
                 c->ov_late, c->ov_late == 1 ? "" : "s");
        ok = tf_figure_add_note(f, note);
    }
    f->flame = true;
    if (ok) {
        char dtitle[160];
        snprintf(dtitle, sizeof dtitle, "Trace timeline of %zu ranks", set->n);
        ok = tf_figure_describe(f, dtitle, "The busy shares of a job's ranks");
    }
    if (ok) {
        f->ov_set = set;
        set = NULL;
    }
    tf_ov_set_free(set);
    free(rk);
    tf_chrome_color_plan_fini(&plan);
    tf_chrome_pick_fini(&pk);
    (void)in;
    return ok || tf_diag_oom(d, NULL);
}
