/* mode.c - the generic Chrome mode's entry: its state's life (made by
 * begin(), which hands the loader its sink, and freed by release()), the
 * tf_mode_chrome table entry, and build(), which turns what the passes
 * kept into the figure model: the lanes picked, their bars merged to fit,
 * coloured and named, the axis, legend, arrows, statistics and the notes
 * on what is not drawn.  The rules themselves live in the other files of
 * rules/chrome/ (chrome_int.h lists them); this one only puts them in
 * order.  It does not read a file or draw.
 */
#include "rules/chrome/chrome_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>


/* --- the state --------------------------------------------------------------------- */

/* The path's window: HTA's instance under --stats-compat hta (window.c),
 * else the figure's. */
static int64_t cp_w0(const struct chrome *c)
{
    return c->cp_own ? c->cp_w0 : c->w0;
}

static int64_t cp_w1(const struct chrome *c)
{
    return c->cp_own ? c->cp_w1 : c->w1;
}

/* The critical path of the window, and the set pass 2 marks its bars by. */
static bool cp_path(struct chrome *c, struct tf_diag *d)
{
    if (!tf_cp_run(c->cp, cp_w0(c), cp_w1(c), d))
        return false;
    if (!(c->cp_set = tf_cp_set_new(c->cp)))
        return tf_diag_oom(d, NULL);
    return true;
}

/* The reader's look at the window's X events before pass 2 (model/trace.h):
 * the critical path keeps in pass 1 only what the window's graph needs
 * from the whole trace, and takes the window's own CPU operators here. */
static void cp_prepass_on(void *ctx)
{
    struct chrome *c = ctx;
    if (c->cp)
        tf_cp_prepass_on(c->cp);
}

static bool cp_prepass_range(void *ctx, int64_t *lo, int64_t *hi)
{
    struct chrome *c = ctx;
    return c->cp && tf_cp_prepass_range(c->cp, cp_w0(c), cp_w1(c), lo, hi);
}

static bool cp_prepass(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    return tf_cp_prepass_rec(c->cp, r) || (c->oom = true, false);
}

static bool cp_prepass_done(void *ctx, struct tf_diag *d)
{
    struct chrome *c = ctx;
    if (!tf_cp_prepass_end(c->cp))
        return tf_diag_oom(d, NULL);
    return cp_path(c, d);
}

/* The loader's window callback (model/trace.h): the window (window.c), and
 * what waits for it: HTA's rows, the level of detail's merging threshold
 * (rows.c), the busy sets' ticks (stats.c) and the counters' values at the
 * start (counters.c). */
static bool window_hook(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    struct chrome *c = ctx;
    if (!tf_chrome_window_fix(c, d))
        return false;
    *lo = c->w0;
    *hi = c->w1;
    if (c->hta && !tf_hta_finish(c->hta, c->o->stats_trace_scope, d))
        return false;
    /* the critical path: here, or after its look at the window's rows
     * (cp_prepass_done) when the reader makes one */
    if (c->cp && !tf_cp_prepass_wanted(c->cp) && !cp_path(c, d))
        return false;
    tf_chrome_lod_threshold(c);
    tf_chrome_busy_ticks(c);
    tf_chrome_counters_window(c);
    if (!tf_chrome_ranks_window(c))
        c->oom = true;
    return !c->oom || tf_diag_oom(d, NULL);
}

static struct chrome *chrome_new(const struct tf_opts *o)
{
    struct chrome *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->o = o;
    c->budget_share = 1.0;
    c->in_order = true;
    tf_ivfold_init(&c->fold);
    tf_strtab_init(&c->proc_keys);
    tf_strtab_init(&c->thr_keys);
    tf_strtab_init(&c->strs);
    tf_strtab_init(&c->wnames);
    tf_strtab_init(&c->series_keys);
    tf_buf_init(&c->ctr_key);
    tf_strtab_init(&c->we_names);
    tf_arena_init(&c->gpu_classes.arena);
    tf_buf_init(&c->tmp);
    tf_chrome_window_event_init(c);
    if (!tf_strtab_id(&c->strs, "", &c->empty) ||
        !tf_strtab_id(&c->strs, TF_CHROME_ANNOT_CAT, &c->annot_cat) ||
        !tf_strtab_id(&c->strs, TF_LOST_CAT, &c->lost_cat)) {
        tf_strtab_fini(&c->strs);
        tf_strtab_fini(&c->series_keys);
        free(c);
        return NULL;
    }
    return c;
}

static void chrome_free(struct chrome *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_procs; i++) {
        free(c->procs[i].pid_str);
        free(c->procs[i].name);
        free(c->procs[i].labels);
        free(c->procs[i].dev_kind);
        free(c->procs[i].dev_name);
        free(c->procs[i].dev_vendor);
    }
    for (size_t i = 0; i < c->n_thrs; i++) {
        free(c->thrs[i].tid_str);
        free(c->thrs[i].name);
        free(c->thrs[i].ext.v);
    }
    for (size_t i = 0; i < c->n_lanes; i++) {
        struct lane *ln = &c->lanes[i];
        free(ln->pend);
        for (int k = 0; k < 2; k++) {
            free(ln->st[k].row_end);
            free(ln->st[k].acc);
        }
        free(ln->bars);
        free(ln->parts);
        free(ln->sample);
        if (ln->ov)
            tf_ov_strip_fini(ln->ov);
        free(ln->ov);
        tf_ivset_fini(&ln->busy);
        tf_chrome_labels_fini(&ln->lbl, 1);
    }
    tf_chrome_counters_free(c);
    tf_ivset_fini(&c->gpu_all);
    tf_ivfold_fini(&c->fold);
    tf_ivset_fini(&c->gpu_comp);
    tf_ivset_fini(&c->gpu_comm);
    for (size_t i = 0; i < c->n_flows; i++)
        free(c->flows[i].id);
    free(c->flows);
    for (size_t i = 0; i < c->n_notes; i++)
        free(c->notes[i]);
    free(c->notes);
    free(c->par);
    free(c->cpu);
    free(c->cpu_of_str);
    free(c->marks);
    free(c->mevs);
    free(c->procs);
    free(c->thrs);
    free(c->occ);
    free(c->lanes);
    free(c->lane_of_thr);
    tf_strtab_fini(&c->proc_keys);
    tf_strtab_fini(&c->thr_keys);
    tf_strtab_fini(&c->strs);
    tf_strtab_fini(&c->wnames);
    free(c->wname_count);
    tf_strtab_fini(&c->we_names);
    free(c->we_occ);
    free(c->gpu_classes.slots);
    tf_arena_fini(&c->gpu_classes.arena);
    tf_buf_fini(&c->tmp);
    tf_hta_free(c->hta);
    tf_cp_free(c->cp);
    tf_cp_set_free(c->cp_set);
    free(c);
}

/* --- the figure -------------------------------------------------------------------- */

/* A dense bar's classes as figure categories: shares (largest first; ties
 * in category order), their count; *top the largest's category, *kind and
 * *rgb as tf_chrome_bar_category gives them for it.  0 when out of
 * memory. */
static size_t dense_shares(const struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                           const struct lane *ln, const struct obar *ob,
                           const struct color_plan *plan, struct tf_share *sh, uint32_t *rgb,
                           uint32_t *label_rgb, const char **kind)
{
    struct part parts[TF_SHARES_MAX];
    size_t np = tf_chrome_bar_parts(ln, ob, parts), n = 0;
    double span = (double)(ob->t1 - ob->t0);
    for (size_t i = 0; i < np; i++) {
        struct obar one = *ob;
        one.name = parts[i].name;
        one.cat = parts[i].cat;
        one.color = parts[i].color;
        one.merged = 0;
        one.mixed = false;
        uint32_t r, l;
        const char *k;
        size_t ci = tf_chrome_bar_category(c, o, f, &one, plan, &r, &l, &k);
        if (ci == SIZE_MAX)
            return 0;
        double s = span > 0 ? (double)parts[i].ns / span : 0;
        size_t j = 0;
        while (j < n && sh[j].cat != ci)
            j++;
        if (j == n)
            sh[n++] = (struct tf_share){ci, 0};
        sh[j].share += s;
    }
    /* Largest first (an insertion sort of at most TF_SHARES_MAX). */
    for (size_t i = 1; i < n; i++)
        for (size_t j = i; j > 0 && (sh[j].share > sh[j - 1].share ||
                                     (sh[j].share == sh[j - 1].share &&
                                      sh[j].cat < sh[j - 1].cat));
             j--) {
            struct tf_share t = sh[j];
            sh[j] = sh[j - 1];
            sh[j - 1] = t;
        }
    for (size_t i = 0; i < n; i++)
        sh[i].share = sh[i].share > 1 ? 1 : sh[i].share;
    *rgb = f->cats[sh[0].cat].color;
    *label_rgb = tf_color_text_on(*rgb);
    *kind = f->cats[sh[0].cat].label ? f->cats[sh[0].cat].label : f->cats[sh[0].cat].key;
    return n;
}

/* One bar of the figure from a drawn one. */
static bool add_bar(const struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                    const struct lane *ln, const struct obar *ob, const struct color_plan *plan,
                    double per, const char *unit, size_t lane)
{
    uint32_t rgb, label_rgb;
    const char *kind;
    struct tf_share sh[TF_SHARES_MAX];
    size_t n_sh = 0, ci;
    if (ob->n_parts && !ob->instant) {
        n_sh = dense_shares(c, o, f, ln, ob, plan, sh, &rgb, &label_rgb, &kind);
        if (!n_sh)
            return false;
        ci = sh[0].cat;
    } else {
        ci = tf_chrome_bar_category(c, o, f, ob, plan, &rgb, &label_rgb, &kind);
    }
    if (ci == SIZE_MAX)
        return false;
    struct tf_bar *b = tf_figure_add_bar(f);
    if (!b)
        return false;
    if (n_sh && !tf_figure_bar_shares(f, b, sh, n_sh))
        return false;
    b->lane = lane;
    b->row = ob->row;
    b->cat = ci;
    b->shape = ob->instant    ? TF_SHAPE_INSTANT
               : ob->n_parts ? TF_SHAPE_DENSE
                             : TF_SHAPE_SLICE;
    b->merged = ob->merged;
    b->busy = (double)ob->busy / per;
    b->start_ms = (double)ob->t0 / 1e6;
    b->dur_ms = (double)(ob->t1 - ob->t0) / 1e6;
    b->x0 = (double)(ob->t0 - c->x_origin) / per;
    b->x1 = (double)(ob->t1 - c->x_origin) / per;
    b->clip_left = ob->clip_left;
    b->clip_right = ob->clip_right;
    b->color = rgb;
    b->label_color = label_rgb;
    return tf_chrome_bar_text(c, f, b, ob, kind, per, unit);
}

/* Bars a figure's marks may take (one per row they cross). */
#define MARK_BARS 400

/* The instants of a process across every row of its drawn lanes, those of
 * the trace across every row of the plot, after the lanes' bars; merged
 * where they would take too many bars.  False when out of memory. */
static bool add_marks(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                      const struct chrome_pick *pk, const struct color_plan *plan, double per,
                      const char *unit)
{
    if (!c->n_marks_in)
        return true;
    size_t *proc_rows = calloc(c->n_procs ? c->n_procs : 1, sizeof *proc_rows);
    if (!proc_rows)
        return false;
    size_t rows = 0;
    for (size_t i = 0; i < pk->n; i++) {
        rows += f->lanes[i].rows;
        proc_rows[c->thrs[c->lanes[pk->lanes[i]].thread].proc] += f->lanes[i].rows;
    }
    tf_chrome_fit_marks(c, rows, proc_rows, MARK_BARS);
    free(proc_rows);
    bool ok = true;
    for (size_t m = 0; ok && m < c->n_marks_in; m++) {
        const struct mark *mk = &c->marks[m];
        struct tf_prop scope = {"scope", mk->scope == 'g' ? "global" : "process", false};
        for (size_t i = 0; ok && i < pk->n; i++) {
            if (mk->scope == 'p' && c->thrs[c->lanes[pk->lanes[i]].thread].proc != mk->proc)
                continue;
            for (unsigned r = 0; ok && r < f->lanes[i].rows; r++) {
                struct obar ob = {
                    .t0 = mk->ts,
                    .t1 = mk->t1,
                    .name = mk->name,
                    .cat = mk->cat,
                    .args = mk->args,
                    .color = mk->color,
                    .row = r,
                    .merged = mk->merged,
                    .instant = true,
                };
                ok = add_bar(c, o, f, NULL, &ob, plan, per, unit, i) &&
                     tf_figure_bar_props(f, &f->bars[f->n_bars - 1], &scope, 1);
            }
        }
    }
    return ok;
}


/* A lane's label parts (figure.h), for a layout with a header per process. */
static bool lane_parts(const struct chrome *c, const struct lane *ln, struct tf_figure *f,
                       struct tf_lane *fl)
{
    struct tf_buf g, n, id;
    tf_buf_init(&g);
    tf_buf_init(&n);
    tf_buf_init(&id);
    bool ok = true;
    if (tf_chrome_lane_parts(c, ln, &g, &n, &id) && !g.oom && !n.oom && !id.oom) {
        fl->group = tf_figure_buf(f, &g);
        fl->name = tf_figure_buf(f, &n);
        fl->id = id.len ? tf_figure_buf(f, &id) : NULL;
        ok = fl->group && fl->name && (!id.len || fl->id);
    } else {
        ok = !g.oom && !n.oom && !id.oom;
    }
    tf_buf_fini(&g);
    tf_buf_fini(&n);
    tf_buf_fini(&id);
    return ok;
}

/* What build() counts as it adds the lanes: slices left out for depth. */
struct hidden {
    size_t rows, annot;
};

/* The figure's lanes from the picked ones, with their bars; fig_lane maps
 * each of c's lanes to its figure lane (SIZE_MAX: not drawn). */
static bool build_lanes(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                        const struct chrome_pick *pk, const struct color_plan *plan,
                        size_t *fig_lane, double per, const char *unit, struct hidden *h)
{
    bool ok = true;
    for (size_t i = 0; ok && i < pk->n; i++) {
        struct lane *ln = &c->lanes[pk->lanes[i]];
        const struct thr *th = &c->thrs[ln->thread];
        const char *text = pk->rename[i] ? pk->rename[i] : ln->label;
        if (ln->counter) {
            ok = tf_chrome_add_counter_lane(c, f, ln, text, per) &&
                 (pk->rename[i] || lane_parts(c, ln, f, &f->lanes[f->n_lanes - 1]));
            fig_lane[pk->lanes[i]] = f->n_lanes - 1;
            continue;
        }
        struct tf_lane *fl = tf_figure_add_lane(f, NULL, text);
        if (!fl)
            return false;
        if (!pk->rename[i] && !lane_parts(c, ln, f, fl))
            return false;
        fig_lane[pk->lanes[i]] = f->n_lanes - 1;
        h->rows += ln->n_hidden;
        h->annot += ln->n_annot_hidden;
        fl->rows = ln->max_row ? ln->max_row : 1;
        fl->has_events = c->count_events;
        fl->events = ln->n_slices + ln->n_untimed;
        fl->annot_rows = ln->annot_rows;
        fl->pid = c->procs[th->proc].pid;
        fl->tid = th->tid;
        if (fl->pid.kind == TF_ID_STR)
            fl->pid.str = tf_figure_str(f, fl->pid.str);
        if (fl->tid.kind == TF_ID_STR)
            fl->tid.str = tf_figure_str(f, fl->tid.str);
        tf_chrome_sort_bars(ln);
        for (size_t k = 0; ok && k < ln->n_bars; k++)
            ok = add_bar(c, o, f, ln, &ln->bars[k], plan, per, unit, f->n_lanes - 1);
    }
    return ok;
}

/* The warnings about samples and slices the figure leaves out. */
static void build_warnings(const struct chrome *c, const struct tf_opts *o,
                           const struct tf_mode_input *in, const struct chrome_pick *pk,
                           struct tf_diag *d)
{
    if (o->counters > 0 && pk->n_counters == 0)
        tf_diag_warn(d, "%s: --counters: no counter holds a value in the window", in->file);
    if (c->n_ctr_bad)
        tf_diag_warn(d, "%s: %zu counter value%s in the window %s neither a number nor null: "
                        "left out",
                     in->file, c->n_ctr_bad, c->n_ctr_bad == 1 ? "" : "s",
                     c->n_ctr_bad == 1 ? "is" : "are");
    if (c->n_ctr_late)
        tf_diag_warn(d, "%s: %zu counter sample%s came long after their time in the file: left "
                        "out",
                     in->file, c->n_ctr_late, c->n_ctr_late == 1 ? "" : "s");
    if (c->n_series_cut)
        tf_diag_warn(d, "%s: more than %d counter series: %zu sample%s of the others left out",
                     in->file, TF_CHROME_MAX_SERIES, c->n_series_cut,
                     c->n_series_cut == 1 ? "" : "s");
}

/* The figure's notes: what is not drawn, and how to draw it (some also
 * as warnings). */
static bool build_notes(const struct chrome *c, const struct tf_opts *o,
                        const struct tf_mode_input *in, struct tf_figure *f,
                        const struct chrome_pick *pk, const size_t *fig_lane,
                        const struct hidden *h, struct tf_diag *d)
{
    bool ok = true;
    /* the loader's own notes first */
    for (size_t i = 0; ok && i < c->n_notes; i++)
        ok = tf_figure_add_note(f, c->notes[i]);
    char note[240];
    if (ok && pk->n_cut) {
        snprintf(note, sizeof note,
                 "%zu more lane%s not drawn (at most %zu): choose with --lanes or --max-lanes",
                 pk->n_cut, pk->n_cut == 1 ? "" : "s", pk->cap);
        ok = tf_figure_add_note(f, note);
        tf_diag_warn(d, "%s: %s", in->file, note);
    }
    if (ok && pk->n_ccut) {
        snprintf(note, sizeof note,
                 "%zu more counter track%s not drawn (at most %zu): choose with --lanes or "
                 "--max-counters",
                 pk->n_ccut, pk->n_ccut == 1 ? "" : "s", pk->ccap);
        ok = tf_figure_add_note(f, note);
        tf_diag_warn(d, "%s: %s", in->file, note);
    }
    if (ok && tf_chrome_counters_relative(c, fig_lane)) {
        ok = tf_figure_add_note(f, "memory counted from the trace's start: its [memory] events "
                                   "give no totals");
    }
    if (ok)
        build_warnings(c, o, in, pk, d);
    else
        return false;
    if (pk->n_by_default) {
        snprintf(note, sizeof note,
                 "%zu lane%s that repeat%s others or only sum%s them up not drawn: "
                 "--all-lanes draws them",
                 pk->n_by_default, pk->n_by_default == 1 ? "" : "s",
                 pk->n_by_default == 1 ? "s" : "", pk->n_by_default == 1 ? "s" : "");
        ok = tf_figure_add_note(f, note);
    }
    if (ok && c->n_stray && !o->has_from && !o->has_to && !o->window_event) {
        snprintf(note, sizeof note,
                 "%zu event%s far from the rest (another clock?) left out of the window: "
                 "--from/--to show them",
                 c->n_stray, c->n_stray == 1 ? "" : "s");
        ok = tf_figure_add_note(f, note);
        tf_diag_warn(d, "%s: %s", in->file, note);
    }
    if (ok && h->rows) {
        snprintf(note, sizeof note, "%zu slice%s nested deeper than %lld rows not drawn%s: --depth",
                 h->rows, h->rows == 1 ? "" : "s",
                 o->depth > 0 ? o->depth : (long long)TF_CHROME_DEPTH,
                 h->annot ? " (annotations of GPU work first)" : "");
        ok = tf_figure_add_note(f, note);
    }
    return ok;
}

static bool build(const struct tf_mode_input *in, const struct tf_opts *o, struct tf_figure *f,
                  struct tf_diag *d)
{
    struct chrome *c = in->trace->generic_state;
    if (!c || !in->trace->generic)
        return tf_diag_error(d, TF_EBADINPUT, "not read as a generic Chrome trace");
    if (in->breakdown)
        tf_diag_warn(d, "%s: the breakdown panel is drawn only for pipelined timelines",
                     in->breakdown_file);
    if (c->n_late)
        tf_diag_warn(d, "%s: %zu slice%s came long after their time in the file; their rows "
                        "may not show their nesting",
                     in->file, c->n_late, c->n_late == 1 ? "" : "s");
    if (c->fold_broken)
        tf_diag_warn(d, "%s: the records came in another order than in the first pass; the "
                        "statistics may be off",
                     in->file);
    if (o->n_ranks && !c->hpc)
        tf_diag_warn(d, "%s: --ranks is for the ranks of a job (several traces, or an OTF2 "
                        "archive): one trace is drawn as it is",
                     in->file);
    if (c->ov) /* a job of more ranks than lanes: its overview (ranks.c) */
        return tf_chrome_ranks_build(c, o, in, f, d);
    struct chrome_pick pk;
    if (!tf_chrome_pick_lanes(c, o, &pk, d)) {
        tf_chrome_pick_fini(&pk);
        return false;
    }
    const size_t *pick = pk.lanes;
    size_t n_pick = pk.n;
    size_t *fig_lane = malloc((c->n_lanes ? c->n_lanes : 1) * sizeof *fig_lane);
    struct color_plan plan;
    memset(&plan, 0, sizeof plan);
    tf_strtab_init(&plan.names);
    bool ok = fig_lane != NULL;
    for (size_t i = 0; ok && i < c->n_lanes; i++)
        fig_lane[i] = SIZE_MAX;

    tf_chrome_counters_fit(c, pick, n_pick);
    if (ok) {
        tf_chrome_color_plan_fini(&plan);
        ok = tf_chrome_color_plan(c, o, pick, n_pick, &plan);
    }

    struct tf_frame fr = {c->w0, c->w1, c->axis_ns, NULL, 0, 8};
    tf_frame_unit(fr.span_ns, &fr.unit, &fr.per);
    const char *unit = fr.unit;
    double per = fr.per;
    f->mode = tf_mode_chrome.name;
    f->schema = "tracefig-figure-2";
    ok = ok && tf_figure_frame(f, &fr);

    struct hidden h = {0, 0};
    ok = ok && build_lanes(c, o, f, &pk, &plan, fig_lane, per, unit, &h);
    ok = ok && add_marks(c, o, f, &pk, &plan, per, unit);
    ok = ok && (!o->n_mark_globs || tf_chrome_mark_events(c, f, fig_lane, per));
    ok = ok && tf_chrome_color_legend(c, &plan, f);
    ok = ok && (!o->flows || tf_chrome_add_arrows(c, f, fig_lane, per));
    ok = ok && (o->no_stats || (tf_chrome_stats(c, o, f, pick, n_pick) &&
                                tf_chrome_counter_stats(c, f, fig_lane)));
    ok = ok && build_notes(c, o, in, f, &pk, fig_lane, &h, d);
    f->flame = true; /* the size is the layout's (render/plan.c) */
    /* many ranks: thin lanes, every k-th labelled (render/plan.c) */
    size_t n_slice_lanes = 0;
    for (size_t i = 0; i < f->n_lanes; i++)
        n_slice_lanes += f->lanes[i].kind != TF_LANE_COUNTER;
    f->rank_lanes = c->hpc && n_slice_lanes >= TF_CHROME_RANK_THIN;
    for (size_t i = 0; f->rank_lanes && i < f->n_lanes; i++)
        f->lanes[i].keep_inner = true;
    char dtitle[160];
    snprintf(dtitle, sizeof dtitle, "Trace timeline, %zu lane%s", f->n_lanes,
             f->n_lanes == 1 ? "" : "s");
    ok = ok && tf_figure_describe(f, dtitle, "Trace timeline");
    tf_chrome_pick_fini(&pk);
    free(fig_lane);
    tf_chrome_color_plan_fini(&plan);
    return ok || tf_diag_oom(d, NULL);
}

/* --- the table entry --------------------------------------------------------------- */

static bool begin(const struct tf_opts *o, struct tf_trace *t, struct tf_keep *k,
                  struct tf_diag *d)
{
    struct chrome *c = chrome_new(o);
    if (!c)
        return tf_diag_oom(d, NULL);
    t->generic_state = c;
    if (o->stats_compat_hta && !o->no_stats && !(c->hta = tf_hta_new()))
        return tf_diag_oom(d, NULL);
    if (o->critical_path && !(c->cp = tf_cp_new(o->stats_compat_hta)))
        return tf_diag_oom(d, NULL);
    if (c->cp && c->hta)
        tf_cp_columns(c->cp, tf_hta_columns(c->hta));
    /* HTA's instances of --window-event (rules/critpath.h) */
    if (c->cp && o->stats_compat_hta && o->window_event)
        tf_cp_instances_on(c->cp, o->window_event);
    /* A glob asks for every name (an export is then read whole). */
    /* The critical path needs every call of pass 1 (an export's runtime
     * calls too), not only those that may carry the window's name. */
    c->index_lean = !c->cp && ((o->window_event && !c->we_glob) || (o->has_from && o->has_to));
    k->tef = (struct tf_tef_sink){
        .index = tf_chrome_index,
        .window = window_hook,
        .prepass_on = cp_prepass_on,
        .prepass_range = cp_prepass_range,
        .prepass = cp_prepass,
        .prepass_done = cp_prepass_done,
        .collect = tf_chrome_collect,
        .finish = tf_chrome_finish,
        .args_floor = tf_chrome_args_floor,
        .ctx = c,
        .args_pass1 = (o->stats_trace_scope && !o->no_stats) || c->hta || c->cp,
        .columns = c->hta ? tf_hta_columns(c->hta) : NULL,
        .top_key = c->hta ? "distributedInfo" : NULL,
        .top = tf_hta_top,
        .top_ctx = c->hta,
        .index_lean = c->index_lean,
        .index_name = o->window_event,
        .index_first = c->index_lean && o->window_event && !c->we_glob
                           ? (size_t)(o->occurrence > 0 ? o->occurrence : 1)
                           : 0,
        .lanes = o->lanes,
        .n_lanes = o->n_lanes,
        .osrt = o->osrt,
        .kernel_detail = o->kernel_detail,
        .flows = o->flows,
    };
    k->state = c;
    return true;
}

static void end(struct tf_keep *k)
{
    (void)k; /* the state lives with the trace until the figure is built */
}

static void release(void *state)
{
    chrome_free(state);
}

const struct tf_mode tf_mode_chrome = {
    .name = "chrome",
    .summary = "any Chrome / Perfetto / PyTorch-profiler trace (Trace Event Format)",
    .kind = TF_TRACE_CHROME,
    .begin = begin,
    .end = end,
    .release = release,
    .span = tf_chrome_span,
    .rewindow = tf_chrome_rewindow,
    .build = build,
};
