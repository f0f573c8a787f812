/* run_ranks.c - the ranks of a job in a figure of several traces (see
 * run_multi_int.h): which ranks (--ranks), in what order (--order-ranks),
 * and the overview when their lanes are more than the figure's height
 * holds (model/overview.h).
 *
 * IMPLEMENTATION NOTES
 *
 * Memory.  A figure of several traces keeps each trace's figure until all
 * are read (their window is the union of theirs).  The ranks' figures are
 * kept while the lanes of all but one of them are fewer than any figure of
 * the size asked could hold (tf_plan_lanes_max); past that, each rank's figure is
 * reduced as soon as it is built, on its worker, to the strip of its row's
 * lane (a few KB) and the little the figure needs of it (its categories,
 * legend entries, notes and entry), and freed.  So a job of thousands of
 * ranks holds one figure per worker plus a strip per rank.  Below that,
 * the figure of every lane is composed and planned: when it leaves a whole
 * rank out, the kept figures are reduced and the overview drawn instead (a
 * few ranks of many lanes each keep today's figure, lanes cut with a
 * note).
 *
 * Rows.  The ranks, in the order asked, share rows in runs of k, k the
 * least power of two that makes the rows as many as the height holds at
 * TF_PLAN_OV_ROW_MIN points each (tf_plan_overview_rows), so one rank per
 * row when they fit.
 */
#include "lib/run_multi_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/str.h"
#include "rules/chrome.h"

bool tf_ranks_selected(const struct multi *m, const struct unit *u)
{
    const struct tf_opts *o = m->r->opts;
    return !o->n_ranks || (u->ref.has_rank && tf_ov_rank_in(o->ranks, o->n_ranks, u->ref.rank));
}

bool tf_ranks_all(const struct multi *m)
{
    for (size_t i = 0; i < m->n_u; i++)
        if (!m->u[i]->ref.has_rank)
            return false;
    return true;
}

/* --- reducing a rank's figure ---------------------------------------------------- */

static char *dup_s(const char *s, bool *oom)
{
    if (!s)
        return NULL;
    char *c = tf_strdup_oom(s, oom);
    return c;
}

void tf_ranks_reduced_fini(struct reduced *r)
{
    tf_ov_strip_fini(&r->strip);
    for (size_t i = 0; i < r->n_cats; i++) {
        free((char *)r->cats[i].key);
        free((char *)r->cats[i].name);
        free((char *)r->cats[i].label);
    }
    free(r->cats);
    for (size_t i = 0; i < r->n_legend; i++)
        free((char *)r->legend[i].label);
    free(r->legend);
    for (size_t i = 0; i < r->n_notes; i++)
        free(r->notes[i]);
    free(r->notes);
    free(r->file);
    free(r->title);
    free(r->mode);
    free(r->lane);
    memset(r, 0, sizeof *r);
}

bool tf_ranks_reduce(struct multi *m, struct unit *u)
{
    if (u->reduced)
        return true;
    struct reduced *r = &u->red;
    const struct tf_figure *f = &u->fig;
    bool oom = false;
    memset(r, 0, sizeof *r);
    size_t lane = tf_ov_pick(f, 0, f->n_lanes, m->r->opts->n_lanes > 0);
    if (lane != SIZE_MAX) {
        oom = !tf_ov_strip_make(f, lane, &r->strip);
        r->lane = dup_s(f->lanes[lane].label, &oom);
    } else {
        r->strip.span = f->x_span;
        r->strip.end = -1;
    }
    r->cats = calloc(f->n_cats ? f->n_cats : 1, sizeof *r->cats);
    r->legend = calloc(f->n_legend ? f->n_legend : 1, sizeof *r->legend);
    r->notes = calloc(f->n_notes ? f->n_notes : 1, sizeof *r->notes);
    oom = oom || !r->cats || !r->legend || !r->notes;
    for (size_t i = 0; !oom && i < f->n_cats; i++, r->n_cats++) {
        const struct tf_category *c = &f->cats[i];
        r->cats[i] = (struct tf_category){dup_s(c->key, &oom), c->color, dup_s(c->name, &oom),
                                          dup_s(c->label, &oom), c->faded};
    }
    for (size_t i = 0; !oom && i < f->n_legend; i++, r->n_legend++)
        r->legend[i] = (struct tf_legend_entry){.label = dup_s(f->legend[i].label, &oom),
                                                .cat = f->legend[i].cat};
    for (size_t i = 0; !oom && i < f->n_notes; i++, r->n_notes++)
        r->notes[i] = dup_s(f->notes[i], &oom);
    r->file = dup_s(u->ref.file, &oom);
    r->title = dup_s(u->ref.title, &oom);
    r->mode = dup_s(u->ref.mode ? u->ref.mode : f->mode, &oom);
    r->flame = f->flame;
    r->width_pt = f->width_pt;
    if (oom)
        return false;
    u->ref.file = r->file;
    u->ref.title = r->title;
    u->ref.mode = r->mode;
    tf_figure_fini(&u->fig);
    tf_figure_init(&u->fig);
    u->reduced = true;
    return true;
}

bool tf_ranks_built(struct multi *m, struct unit *u, struct tf_diag *d)
{
    /* A rank is drawn with 2 of its lanes or more, else as the
     * overview's (run_lanes.c): it counts 2 at most. */
    size_t lanes = u->fig.n_lanes;
    if (u->ref.has_rank && lanes > 2)
        lanes = 2;
    pthread_mutex_lock(&m->mu);
    m->kept_lanes += lanes;
    if (lanes > m->most_lanes)
        m->most_lanes = lanes;
    /* The lanes of all ranks but the last (whichever it is) fill any
     * figure: a whole rank would be left out, and stays so however many
     * ranks follow. */
    if (m->kept_lanes - m->most_lanes >= m->lanes_max)
        m->reducing = true;
    bool now = m->reducing && u->ref.has_rank;
    pthread_mutex_unlock(&m->mu);
    return !now || tf_ranks_reduce(m, u) || tf_diag_oom(d, NULL);
}

/* --- messages -------------------------------------------------------------------- */

bool tf_ranks_none(const struct multi *m, struct tf_diag *d)
{
    size_t n = 0;
    for (size_t i = 0; i < m->n_in; i++)
        n += m->in[i].n_units;
    long long *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return tf_diag_oom(d, NULL);
    size_t k = 0;
    for (size_t i = 0; i < m->n_in; i++)
        for (size_t j = 0; j < m->in[i].n_units; j++)
            if (m->in[i].units[j].ref.has_rank)
                v[k++] = m->in[i].units[j].ref.rank;
    struct tf_buf b;
    tf_buf_init(&b);
    if (k)
        tf_ov_ranks_list(&b, v, k, false);
    free(v);
    if (b.oom) {
        tf_buf_fini(&b);
        return tf_diag_oom(d, NULL);
    }
    bool r = k ? tf_diag_error(d, TF_EUSAGE, "--ranks: no trace of those ranks; the ranks are %.300s%s",
                               b.data, b.len > 300 ? "..." : "")
               : tf_diag_error(d, TF_EUSAGE, "--ranks: no trace has a rank (Kineto's distributedInfo)");
    tf_buf_fini(&b);
    return r;
}

bool tf_ranks_mixed(const struct multi *m, struct tf_diag *d)
{
    const char *file = "a trace";
    for (size_t i = 0; i < m->n_u; i++)
        if (!m->u[i]->ref.has_rank) {
            file = m->u[i]->ref.file ? m->u[i]->ref.file : file;
            break;
        }
    return tf_diag_error(d, TF_EBADINPUT,
                         "the %zu traces have more lanes than a figure's height holds, and %s "
                         "is not a rank of a job (no distributedInfo rank) to draw as a row of "
                         "the job's overview: choose with --lanes, or give --height",
                         m->n_u, file);
}

/* --- order --------------------------------------------------------------------------- */

struct unit_key {
    struct unit *u;
    double key;
};

static int by_unit_key(const void *x, const void *y)
{
    const struct unit_key *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->u->ref.rank > b->u->ref.rank) - (a->u->ref.rank < b->u->ref.rank);
}

bool tf_ranks_order_units(struct multi *m, const struct tf_align_plan *plan, struct tf_diag *d)
{
    enum tf_rank_order order = m->r->opts->order_ranks;
    if (order == TF_ORDER_RANK || m->n_u < 2)
        return true;
    (void)plan;
    struct unit_key *k = malloc(m->n_u * sizeof *k);
    if (!k)
        return tf_diag_oom(d, NULL);
    for (size_t i = 0; i < m->n_u; i++) {
        struct unit *u = m->u[i];
        struct tf_ov_strip s;
        size_t lane = tf_ov_pick(&u->fig, 0, u->fig.n_lanes, m->r->opts->n_lanes > 0);
        if (lane == SIZE_MAX) {
            memset(&s, 0, sizeof s);
            s.end = -1;
        } else if (!tf_ov_strip_make(&u->fig, lane, &s)) {
            tf_ov_strip_fini(&s);
            free(k);
            return tf_diag_oom(d, NULL);
        }
        /* finish: ns on the figure's clock; busy: the share of its axis */
        double fin = s.end < 0 ? -HUGE_VAL
                               : (double)(u->xo + u->ref.offset_ns) + s.end * u->per;
        k[i] = (struct unit_key){u, order == TF_ORDER_FINISH ? fin
                                    : s.span > 0                ? s.busy / s.span
                                                                : 0};
        tf_ov_strip_fini(&s);
    }
    qsort(k, m->n_u, sizeof *k, by_unit_key);
    for (size_t i = 0; i < m->n_u; i++)
        m->u[i] = k[i].u;
    free(k);
    return true;
}

/* --- whether to draw the overview ----------------------------------------------------- */

size_t tf_ranks_cut(const struct multi *m, const struct tf_figure *f, bool *rank_out)
{
    struct tf_plan p;
    size_t cut = 0;
    *rank_out = false;
    if (tf_plan_make(f, m->r->size, &p)) {
        cut = f->n_lanes > p.n_lanes ? f->n_lanes - p.n_lanes : 0;
        for (size_t t = 0; t < f->n_traces && !*rank_out; t++)
            *rank_out = f->traces[t].n_lanes && f->traces[t].first_lane >= p.n_lanes;
    }
    tf_plan_fini(&p);
    return cut;
}

/* --- the overview ----------------------------------------------------------------------- */

/* A note the ranks give, and which ranks give it. */
struct note_of {
    const char *text;
    long long *ranks;
    size_t n, cap;
};

static bool note_add(struct note_of **v, size_t *n, size_t *cap, const char *text, long long rank)
{
    size_t i = 0;
    while (i < *n && strcmp((*v)[i].text, text) != 0)
        i++;
    if (i == *n) {
        if (!TF_GROW(*v, *n, *cap))
            return false;
        (*v)[(*n)++] = (struct note_of){text, NULL, 0, 0};
    }
    struct note_of *o = &(*v)[i];
    if (!TF_GROW(o->ranks, o->n, o->cap))
        return false;
    o->ranks[o->n++] = rank;
    return true;
}

/* The notes, each once after the ranks that give it. */
static bool add_notes(struct tf_figure *f, struct note_of *v, size_t n)
{
    struct tf_buf b;
    tf_buf_init(&b);
    bool ok = true;
    for (size_t i = 0; ok && i < n; i++) {
        tf_buf_clear(&b);
        tf_ov_ranks_list(&b, v[i].ranks, v[i].n, true);
        if (b.len > 80) {
            tf_buf_clear(&b);
            tf_buf_printf(&b, "%zu ranks", v[i].n);
        }
        tf_buf_printf(&b, ": %s", v[i].text);
        ok = !b.oom && tf_figure_add_note(f, b.data);
    }
    tf_buf_fini(&b);
    return ok;
}

bool tf_ranks_notes(const struct multi *m, struct tf_figure *f)
{
    struct note_of *notes = NULL;
    size_t n_notes = 0, cap_notes = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < m->n_u; i++)
        for (size_t k = 0; ok && k < m->u[i]->fig.n_notes; k++)
            ok = note_add(&notes, &n_notes, &cap_notes, m->u[i]->fig.notes[k], m->u[i]->ref.rank);
    ok = ok && add_notes(f, notes, n_notes);
    for (size_t i = 0; i < n_notes; i++)
        free(notes[i].ranks);
    free(notes);
    return ok;
}

/* The rank axis' text. */
static const char *axis_text(struct tf_figure *f, size_t n, size_t per_row,
                             enum tf_rank_order order)
{
    char t[160];
    static const char *const by[] = {"", ", by finish", ", by busy share"};
    if (per_row > 1)
        snprintf(t, sizeof t, "%zu ranks, %zu a row%s", n, per_row, by[order]);
    else
        snprintf(t, sizeof t, "%zu ranks%s", n, by[order]);
    return tf_figure_str(f, t);
}

/* The rows of the members m, in the order asked, as many ranks to a row as
 * make them fit the height at the size asked (their legend first pruned to
 * what they ink: its height counts). */
static bool make_rows(struct tf_figure *f, struct tf_ov_member *mem, size_t n,
                      const struct tf_size *size, enum tf_rank_order order, const char *lane)
{
    if (!tf_ov_prune_legend(f, mem, n))
        return false;
    size_t fit = tf_plan_overview_rows(f, size), per_row = 1;
    while ((n + per_row - 1) / per_row > fit && per_row < n)
        per_row *= 2;
    tf_ov_order(mem, n, order);
    double w = size && size->width_pt > 0 ? size->width_pt : TF_PLAN_DEFAULT_W;
    size_t bins = w < 64 ? 64 : w > 2048 ? 2048 : (size_t)ceil(w);
    f->overview.axis = axis_text(f, n, per_row, order);
    return f->overview.axis && tf_ov_rows(f, mem, n, per_row, bins, order, lane);
}

bool tf_ranks_finish_set(struct tf_figure *f, const struct tf_size *size,
                         enum tf_rank_order order, struct tf_diag *d)
{
    struct tf_ov_set *set = f->ov_set;
    f->ov_set = NULL;
    bool ok = set->n == 0 || make_rows(f, set->m, set->n, size, order, set->lane_text);
    if (ok && set->left_out) {
        char note[200];
        snprintf(note, sizeof note,
                 "%zu GPU stream%s of no rank not drawn: --lanes 'GPU*' draws them",
                 set->left_out, set->left_out == 1 ? "" : "s");
        ok = tf_figure_add_note(f, note);
    }
    if (ok && set->n == 0)
        ok = tf_diag_error(d, TF_EBADINPUT, "no rank has a lane of slices to draw") || true;
    if (ok) {
        tf_figure_frame_size(f, 0, (double)f->n_lanes);
        f->flame = true;
    }
    tf_ov_set_free(set);
    return ok || tf_diag_oom(d, NULL);
}

bool tf_ranks_compose(struct multi *m, const struct tf_align_plan *plan, struct tf_figure *f,
                      struct tf_diag *d)
{
    const struct tf_multi_run *r = m->r;
    size_t n = m->n_u;
    for (size_t i = 0; i < n; i++)
        if (!tf_ranks_reduce(m, m->u[i]))
            return tf_diag_oom(d, NULL);
    bool chrome = false;
    double width = 0;
    for (size_t i = 0; i < n; i++) {
        chrome = chrome || m->u[i]->red.flame;
        width = fmax(width, m->u[i]->red.width_pt);
    }
    int64_t span = plan->w1 - plan->w0;
    const char *unit = "ms";
    double per = 1e6;
    if (chrome)
        tf_frame_unit(span, &unit, &per);
    struct tf_ov_member *mem = calloc(n, sizeof *mem);
    size_t *cat_of = NULL, cap_cat = 0;
    struct note_of *notes = NULL;
    size_t n_notes = 0, cap_notes = 0;
    bool ok = mem != NULL;
    for (size_t i = 0; ok && i < n; i++) {
        struct unit *u = m->u[i];
        struct reduced *rd = &u->red;
        if (rd->n_cats > cap_cat) {
            free(cat_of);
            cap_cat = rd->n_cats;
            ok = (cat_of = malloc(cap_cat * sizeof *cat_of)) != NULL;
        }
        for (size_t c = 0; ok && c < rd->n_cats; c++)
            ok = (cat_of[c] = tf_figure_merge_category(f, &rd->cats[c])) != (size_t)-1;
        for (size_t e = 0; ok && e < rd->n_legend; e++)
            ok = rd->legend[e].cat < rd->n_cats &&
                 tf_figure_merge_legend(f, rd->legend[e].label, cat_of[rd->legend[e].cat]);
        for (size_t k = 0; ok && k < rd->n_notes; k++)
            ok = note_add(&notes, &n_notes, &cap_notes, rd->notes[k], u->ref.rank);
        for (size_t c = 0; ok && c < rd->strip.n_cls; c++)
            rd->strip.cat[c] = rd->strip.cat[c] < rd->n_cats ? cat_of[rd->strip.cat[c]] : 0;
        size_t ti = ok ? tf_figure_add_trace(f, &u->ref) : SIZE_MAX;
        ok = ti != SIZE_MAX;
        mem[i] = (struct tf_ov_member){&rd->strip, u->per / per,
                                       (double)(u->xo + u->ref.offset_ns - plan->w0) / per,
                                       u->ref.rank, ti};
    }
    free(cat_of);
    if (ok) {
        f->mode = n && m->u[0]->red.mode ? tf_figure_str(f, m->u[0]->red.mode) : "several";
        f->schema = "tracefig-figure-2";
        f->flame = true;
        struct tf_frame fr = {plan->w0, plan->w1, span, unit, per, 8};
        ok = f->mode && tf_figure_frame(f, &fr) && tf_chrome_recolor(f);
    }
    ok = ok && make_rows(f, mem, n, r->size, r->opts->order_ranks,
                         r->opts->n_lanes ? TF_OV_PICKED_TEXT : TF_OV_PICK_TEXT) &&
         add_notes(f, notes, n_notes);
    for (size_t i = 0; i < n_notes; i++)
        free(notes[i].ranks);
    free(notes);
    free(mem);
    if (ok) {
        tf_figure_frame_size(f, width, (double)f->n_lanes);
        char dtitle[160];
        snprintf(dtitle, sizeof dtitle, "Trace timelines of %zu ranks in %zu rows", n,
                 f->n_lanes);
        ok = tf_figure_describe(f, dtitle, "The busy shares of a job's ranks");
    }
    return ok || tf_diag_oom(d, NULL);
}
