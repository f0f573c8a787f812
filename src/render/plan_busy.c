/* plan_busy.c - the level of detail at the plot's real width: the one
 * place that decides which slices are drawn one by one and which as busy
 * shares.  The rules hand over a fine busy histogram (model/figure.h,
 * TF_LOD_FINE_BINS): slices, and dense bars of the time each class covers
 * in a fine bin.  Here, once the plan knows the plot's width (its label
 * column taken off), each lane's row is cut in bins of TF_LOD_PT:
 *
 *   - a slice at least one bin wide is drawn as it is, and so is a
 *     thinner one alone in its bins that is at least the least bar width
 *     (tf_style.min_bar_pt) wide;
 *   - the time of thinner slices and of the fine dense bars goes to the
 *     bins it covers (split at bin edges; a fine bar's time spread evenly
 *     over its span), per class;
 *   - each bin with time is one dense bar over the bin, its shares each
 *     class's time over the bin's width: drawn stacked from the row's
 *     bottom, the heights the shares (render/layout.c, tikz*.c).
 *
 * So a class's inked area over a row is its time, within a bin's rounding,
 * whatever the width; the same lanes at the same size give the same bars
 * whether they come from one trace, several, or composed models.  Only
 * flame-chart figures (the generic Chrome mode and its models) are binned:
 * the seed modes draw every slice, as the reference does.
 *
 * It does not draw, and does not touch the figure: the bars as drawn are a
 * new array, in a shallow copy of the figure (tf_binned).
 */
#include "render/plan.h"

#include <stdlib.h>
#include <string.h>

#include "base/num.h"
#include "render/style.h"

/* One class's time in one bin, from one bar. */
struct cell {
    size_t bin, cat, src;
    size_t loc; /* src's place in its row's bars */
    double t;
};

/* A row's share bars: gbars[first, first + n), drawn where the first of
 * the bars they stand for (anchor) was. */
struct group {
    size_t anchor, first, n;
};

struct binner {
    const struct tf_figure *f;
    struct tf_binned *out;
    double bw; /* bin width, axis units */
    size_t nb;
    size_t loc; /* of the bar being spread */
    struct cell *cells;
    size_t n_cells, cap_cells;
    /* the rows' share bars, made in row order, and per bar of the figure
     * whether it is drawn as it is */
    struct tf_bar *gbars;
    size_t n_gbars, cap_gbars;
    bool *absorbed;
    struct group *groups;
    size_t n_groups, cap_groups;
    bool oom;
};

static void add_cell(struct binner *B, size_t bin, size_t cat, size_t src, double t)
{
    if (!(t > 0) || bin >= B->nb)
        return;
    if (!TF_GROW(B->cells, B->n_cells, B->cap_cells)) {
        B->oom = true;
        return;
    }
    B->cells[B->n_cells++] = (struct cell){bin, cat, src, B->loc, t};
}

/* Time t of class cat spread evenly over [x0, x1) into the bins. */
static void spread(struct binner *B, double x0, double x1, size_t cat, size_t src, double t)
{
    double w = x1 - x0;
    if (!(w > 0)) {
        add_cell(B, x0 / B->bw < 0 ? 0 : (size_t)(x0 / B->bw), cat, src, t);
        return;
    }
    size_t k0 = x0 / B->bw < 0 ? 0 : (size_t)(x0 / B->bw);
    for (size_t k = k0; k < B->nb; k++) {
        double lo = (double)k * B->bw, hi = lo + B->bw;
        if (lo >= x1)
            break;
        double a = x0 > lo ? x0 : lo, b = x1 < hi ? x1 : hi;
        if (b > a)
            add_cell(B, k, cat, src, t * (b - a) / w);
    }
}

static int by_bin(const void *x, const void *y)
{
    const struct cell *a = x, *b = y;
    if (a->bin != b->bin)
        return a->bin < b->bin ? -1 : 1;
    if (a->cat != b->cat)
        return a->cat < b->cat ? -1 : 1;
    return (a->src > b->src) - (a->src < b->src);
}

/* Whether cells are in by_bin's order already (a row's bars mostly come
 * in time order); qsort, stable, would leave them as they are. */
static bool cells_sorted(const struct cell *c, size_t n)
{
    for (size_t i = 1; i < n; i++)
        if (by_bin(&c[i - 1], &c[i]) > 0)
            return false;
    return true;
}

static struct tf_bar *out_bar(struct binner *B)
{
    if (!TF_GROW(B->gbars, B->n_gbars, B->cap_gbars)) {
        B->oom = true;
        return NULL;
    }
    return &B->gbars[B->n_gbars++];
}

/* The dense bar of bin cells[from, to) (one bin, by category). */
static void emit_bin(struct binner *B, size_t from, size_t to)
{
    const struct tf_figure *f = B->f;
    const struct cell *c0 = &B->cells[from];
    size_t first_i = c0->src;
    struct tf_share sh[TF_SHARES_MAX];
    size_t n = 0;
    double x0 = (double)c0->bin * B->bw, x1 = x0 + B->bw, total = 0;
    if (x1 > f->x_span)
        x1 = f->x_span;
    double w = x1 - x0;
    size_t merged = 0, src = c0->src;
    bool one_src = true;
    for (size_t i = from; i < to; i++) {
        const struct cell *c = &B->cells[i];
        one_src = one_src && c->src == src;
        if (c->src < first_i)
            first_i = c->src;
        total += c->t;
        if (n && sh[n - 1].cat == c->cat)
            sh[n - 1].share += c->t;
        else if (n < TF_SHARES_MAX)
            sh[n++] = (struct tf_share){c->cat, c->t};
        else
            sh[n - 1].share += c->t;
    }
    /* The slices it stands for: each bar counted in the bin of its start. */
    for (size_t i = from; i < to; i++) {
        const struct cell *c = &B->cells[i];
        const struct tf_bar *s = &f->bars[c->src];
        bool dup = false;
        for (size_t j = from; j < i && !dup; j++)
            dup = B->cells[j].src == c->src;
        if (!dup && (s->x0 >= x0 || c->bin == 0))
            merged += s->merged ? s->merged : 1;
    }
    if (!merged)
        merged = 1;
    const struct tf_bar *first = &f->bars[first_i];
    double scale = total > w && total > 0 ? w / total : 1.0;
    for (size_t i = 0; i < n; i++)
        sh[i].share = w > 0 ? sh[i].share * scale / w : 0;
    for (size_t i = 1; i < n; i++) /* largest first */
        for (size_t j = i; j > 0 && sh[j].share > sh[j - 1].share; j--) {
            struct tf_share t = sh[j];
            sh[j] = sh[j - 1];
            sh[j - 1] = t;
        }
    struct tf_bar *b = out_bar(B);
    if (!b)
        return;
    memset(b, 0, sizeof *b);
    const struct tf_category *cat = &f->cats[sh[0].cat];
    b->lane = first->lane;
    b->row = first->row;
    b->cat = sh[0].cat;
    b->shape = TF_SHAPE_DENSE;
    b->x0 = x0;
    b->x1 = x1;
    b->color = cat->color;
    b->label_color = tf_color_text_on(cat->color);
    b->merged = merged;
    b->busy = total * scale;
    b->faded = first->faded; /* a highlight fades share bars whole (rules/marks.c) */
    /* Times on the trace clock, as its first slice's scale gives them. */
    double k = first->x1 > first->x0 ? first->dur_ms / (first->x1 - first->x0) : 0;
    b->start_ms = first->start_ms + (x0 - first->x0) * k;
    b->dur_ms = w * k;
    struct tf_share *s = tf_arena_alloc(&B->out->arena, n * sizeof *s);
    if (!s) {
        B->oom = true;
        return;
    }
    memcpy(s, sh, n * sizeof *s);
    b->shares = s;
    b->n_shares = n;
    const char *cls = cat->label ? cat->label : cat->name ? cat->name : cat->key;
    if (one_src && !first->merged) {
        b->name = first->name;
        b->title = first->title;
        return;
    }
    b->name = cls;
    struct tf_buf tip;
    tf_buf_init(&tip);
    char num[TF_NUM_MAX], num2[TF_NUM_MAX];
    /* A share under half a percent says "<1", not a busy time of 0 %. */
    double pct = w > 0 ? 100.0 * b->busy / w : 0;
    /* "N slice[s] · busy [<]P% of W UNIT[ (CLASS P%, CLASS P%...)]"; a
     * row of a job's overview: "ranks 16–19 · busy ..." (its ranks' mean) */
    const struct tf_lane *ln = b->lane < f->n_lanes ? &f->lanes[b->lane] : NULL;
    if (ln && ln->n_ranks) {
        tf_buf_puts(&tip, ln->label);
        tf_buf_puts(&tip, " \xC2\xB7 busy ");
    } else {
        tf_buf_uint(&tip, merged);
        tf_buf_puts(&tip, merged == 1 ? " slice \xC2\xB7 busy " : " slices \xC2\xB7 busy ");
    }
    if (pct > 0 && pct < 0.5)
        tf_buf_putc(&tip, '<');
    tf_buf_puts(&tip, tf_fmt_num(num, pct > 0 && pct < 0.5 ? 1 : pct, 0));
    tf_buf_puts(&tip, "% of ");
    tf_buf_puts(&tip, tf_fmt_num(num2, w, 3));
    tf_buf_putc(&tip, ' ');
    tf_buf_puts(&tip, f->axis.unit ? f->axis.unit : "");
    for (size_t i = 0; i < n && n > 1; i++) {
        const struct tf_category *ci = &f->cats[sh[i].cat];
        tf_buf_puts(&tip, i ? ", " : " (");
        tf_buf_puts(&tip, ci->label ? ci->label : ci->key);
        tf_buf_putc(&tip, ' ');
        tf_buf_puts(&tip, tf_fmt_num(num, 100.0 * sh[i].share, 0));
        tf_buf_putc(&tip, '%');
    }
    if (n > 1)
        tf_buf_putc(&tip, ')');
    b->title = tip.oom ? NULL : tf_arena_buf(&B->out->arena, &tip);
    tf_buf_fini(&tip);
    B->oom = B->oom || !b->title;
}

/* An instant bar and where it starts, to sort a row's instants by. */
struct at_x {
    double x0;
    size_t i;
};

static int by_x(const void *x, const void *y)
{
    const struct at_x *a = x, *b = y;
    if (a->x0 != b->x0)
        return a->x0 < b->x0 ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* One instant bar for the run of them at[0..n) (sorted by x): the first's
 * category and colour, over the run, counting what each stood for. */
static void emit_instants(struct binner *B, const size_t *at, size_t n, double x1)
{
    const struct tf_figure *f = B->f;
    size_t anchor = at[0], merged = 0;
    for (size_t i = 0; i < n; i++) {
        const struct tf_bar *s = &f->bars[at[i]];
        merged += s->merged ? s->merged : 1;
        anchor = at[i] < anchor ? at[i] : anchor;
        B->absorbed[at[i]] = true;
    }
    struct group g = {anchor, B->n_gbars, 1};
    struct tf_bar *b = out_bar(B);
    if (!b)
        return;
    const struct tf_bar *first = &f->bars[at[0]];
    *b = *first;
    b->x1 = x1;
    b->merged = merged;
    double k = first->x1 > first->x0 ? first->dur_ms / (first->x1 - first->x0) : 0;
    b->dur_ms = k > 0 ? (x1 - first->x0) * k : first->dur_ms;
    const struct tf_category *cat = &f->cats[first->cat];
    const char *cls = cat->label ? cat->label : cat->name ? cat->name : cat->key;
    b->name = cls;
    b->props = NULL;
    b->n_props = 0;
    struct tf_buf tip;
    tf_buf_init(&tip);
    char num[TF_NUM_MAX], num2[TF_NUM_MAX];
    const char *unit = f->axis.unit ? f->axis.unit : "";
    /* "N CLASS instants · at X UNIT over W UNIT" */
    tf_buf_uint(&tip, merged);
    tf_buf_putc(&tip, ' ');
    tf_buf_puts(&tip, cls);
    tf_buf_puts(&tip, " instants \xC2\xB7 at ");
    tf_buf_puts(&tip, tf_fmt_num(num, first->x0, 3));
    tf_buf_putc(&tip, ' ');
    tf_buf_puts(&tip, unit);
    tf_buf_puts(&tip, " over ");
    tf_buf_puts(&tip, tf_fmt_num(num2, x1 - first->x0, 3));
    tf_buf_putc(&tip, ' ');
    tf_buf_puts(&tip, unit);
    b->title = tip.oom ? NULL : tf_arena_buf(&B->out->arena, &tip);
    tf_buf_fini(&tip);
    B->oom = B->oom || !b->title;
    if (!B->oom && TF_GROW(B->groups, B->n_groups, B->cap_groups))
        B->groups[B->n_groups++] = g;
    else
        B->oom = true;
}

/* A row's instants (and marks) closer than a bin, one instant bar: the
 * rules merge them at the model's fine bins, the plan at its width. */
static void merge_instants(struct binner *B, const size_t *order, size_t from, size_t to)
{
    const struct tf_figure *f = B->f;
    size_t n = 0;
    for (size_t i = from; i < to; i++)
        n += f->bars[order[i]].shape == TF_SHAPE_INSTANT;
    if (n < 2)
        return;
    struct at_x *ax = malloc(n * sizeof *ax);
    size_t *at = malloc(n * sizeof *at);
    if (!ax || !at) {
        free(ax);
        free(at);
        B->oom = true;
        return;
    }
    n = 0;
    for (size_t i = from; i < to; i++)
        if (f->bars[order[i]].shape == TF_SHAPE_INSTANT)
            ax[n++] = (struct at_x){f->bars[order[i]].x0, order[i]};
    qsort(ax, n, sizeof *ax, by_x);
    for (size_t i = 0; i < n; i++)
        at[i] = ax[i].i;
    free(ax);
    for (size_t i = 0; i < n && !B->oom;) {
        double x1 = f->bars[at[i]].x1;
        size_t j = i + 1;
        /* Closer than a bin to the run, and within a bin of its first:
         * uniformly dense instants make a tick per bin, not one over the
         * whole window. */
        for (; j < n && f->bars[at[j]].x0 - x1 < B->bw &&
               f->bars[at[j]].x0 - f->bars[at[i]].x0 < B->bw;
             j++)
            if (f->bars[at[j]].x1 > x1)
                x1 = f->bars[at[j]].x1;
        if (j - i > 1)
            emit_instants(B, at + i, j - i, x1);
        i = j;
    }
    free(at);
}

/* The bars of one lane's row: order[from, to) (indexes into f->bars). */
static void bin_row(struct binner *B, const size_t *order, size_t from, size_t to)
{
    const struct tf_figure *f = B->f;
    merge_instants(B, order, from, to);
    B->n_cells = 0;
    for (size_t i = from; i < to; i++) {
        const struct tf_bar *b = &f->bars[order[i]];
        double x0, x1;
        tf_bar_drawn_extent(f, b, &x0, &x1);
        B->loc = i - from;
        if (b->shape == TF_SHAPE_INSTANT ||
            (b->shape == TF_SHAPE_SLICE && (x1 - x0 >= B->bw || b->critical)))
            continue; /* drawn as it is (an event on the critical path always) */
        B->absorbed[order[i]] = true;
        if (b->shape == TF_SHAPE_SLICE) {
            /* A thin slice: its time, exactly, in the bins it covers. */
            spread(B, x0, x1, b->cat, order[i], x1 - x0);
            continue;
        }
        double w = b->x1 - b->x0;
        if (!b->n_shares) {
            spread(B, x0, x1, b->cat, order[i], b->busy * (w > 0 ? (x1 - x0) / w : 1));
            continue;
        }
        for (size_t k = 0; k < b->n_shares; k++)
            spread(B, x0, x1, b->shares[k].cat, order[i], b->shares[k].share * (x1 - x0));
    }
    if (B->n_cells > 1 && !cells_sorted(B->cells, B->n_cells))
        qsort(B->cells, B->n_cells, sizeof *B->cells, by_bin);
    /* A thin slice alone in every bin it touches is drawn as it is when
     * it is at least the least bar width wide (as wide as its time): no
     * share bar would say more.  A thinner one is a share bar, its share
     * of the bin high, not a mark widened to many times its time. */
    bool *shared = calloc(to - from, sizeof *shared);
    if (!shared) {
        B->oom = true;
        return;
    }
    double least = B->bw * tf_style.min_bar_pt / TF_LOD_PT;
    for (size_t i = 0; i < B->n_cells;) {
        size_t j = i + 1;
        bool one = true;
        for (; j < B->n_cells && B->cells[j].bin == B->cells[i].bin; j++)
            one = one && B->cells[j].src == B->cells[i].src;
        for (size_t k = i; k < j; k++) {
            const struct tf_bar *s = &f->bars[B->cells[k].src];
            double x0, x1;
            tf_bar_drawn_extent(f, s, &x0, &x1);
            shared[B->cells[k].loc] = shared[B->cells[k].loc] || !one ||
                                      s->shape != TF_SHAPE_SLICE || x1 - x0 < least;
        }
        i = j;
    }
    struct group g = {SIZE_MAX, B->n_gbars, 0};
    for (size_t i = 0; i < B->n_cells && !B->oom;) {
        size_t j = i + 1;
        while (j < B->n_cells && B->cells[j].bin == B->cells[i].bin)
            j++;
        const struct cell *c = &B->cells[i];
        if (!shared[c->loc]) {
            B->absorbed[c->src] = false;
        } else {
            for (size_t k = i; k < j; k++)
                if (B->cells[k].src < g.anchor)
                    g.anchor = B->cells[k].src;
            emit_bin(B, i, j);
        }
        i = j;
    }
    free(shared);
    g.n = B->n_gbars - g.first;
    if (g.n && !B->oom) {
        if (TF_GROW(B->groups, B->n_groups, B->cap_groups))
            B->groups[B->n_groups++] = g;
        else
            B->oom = true;
    }
}

static int by_anchor(const void *x, const void *y)
{
    const struct group *a = x, *b = y;
    return (a->anchor > b->anchor) - (a->anchor < b->anchor);
}

static void put(struct binner *B, const struct tf_bar *b)
{
    struct tf_binned *o = B->out;
    if (TF_GROW(o->bars, o->n_bars, o->cap_bars))
        o->bars[o->n_bars++] = *b;
    else
        B->oom = true;
}

/* The critical bars held back, from *held on: after their lane's other
 * bars, so that no share bar covers one. */
static void put_held(struct binner *B, const size_t *held, size_t *n)
{
    for (size_t k = 0; k < *n; k++)
        put(B, &B->f->bars[held[k]]);
    *n = 0;
}

/* The bars in the figure's order, each row's share bars where the first
 * bar they stand for was; the critical path's bars (drawn whole, maybe
 * over a share bar of their row) last of their lane's run. */
static void assemble(struct binner *B)
{
    const struct tf_figure *f = B->f;
    if (B->n_groups > 1)
        qsort(B->groups, B->n_groups, sizeof *B->groups, by_anchor);
    size_t *held = NULL, n_held = 0, cap_held = 0, g = 0;
    for (size_t i = 0; i < f->n_bars && !B->oom; i++) {
        if (n_held && f->bars[held[0]].lane != f->bars[i].lane)
            put_held(B, held, &n_held);
        for (; g < B->n_groups && B->groups[g].anchor == i; g++) {
            const struct group *gr = &B->groups[g];
            for (size_t k = 0; k < gr->n; k++)
                put(B, &B->gbars[gr->first + k]);
        }
        if (B->absorbed[i])
            continue;
        if (!f->bars[i].critical)
            put(B, &f->bars[i]);
        else if (TF_GROW(held, n_held, cap_held))
            held[n_held++] = i;
        else
            B->oom = true;
    }
    put_held(B, held, &n_held);
    free(held);
}

struct key {
    size_t lane, i;
    unsigned row;
};

static int by_lane_row(const void *x, const void *y)
{
    const struct key *a = x, *b = y;
    if (a->lane != b->lane)
        return a->lane < b->lane ? -1 : 1;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

/* The same order by qsort, for lanes or rows too far apart to count. */
static bool sort_by_lane_row(const struct tf_figure *f, size_t *order)
{
    struct key *keys = malloc(f->n_bars * sizeof *keys);
    if (!keys)
        return false;
    for (size_t i = 0; i < f->n_bars; i++)
        keys[i] = (struct key){f->bars[i].lane, i, f->bars[i].row};
    qsort(keys, f->n_bars, sizeof *keys, by_lane_row);
    for (size_t i = 0; i < f->n_bars; i++)
        order[i] = keys[i].i;
    free(keys);
    return true;
}

/* The bars' indexes by lane, then row, then index: two stable counting
 * passes (rows, then lanes), each walking the bars in the order the last
 * left them.  False when out of memory. */
static bool order_by_lane_row(const struct tf_figure *f, size_t *order)
{
    size_t n = f->n_bars, max_lane = 0;
    unsigned max_row = 0;
    for (size_t i = 0; i < n; i++) {
        if (f->bars[i].lane > max_lane)
            max_lane = f->bars[i].lane;
        if (f->bars[i].row > max_row)
            max_row = f->bars[i].row;
    }
    size_t nk = max_lane > max_row ? max_lane : max_row;
    if (nk > n + f->n_lanes + 1024)
        return sort_by_lane_row(f, order);
    nk++;
    size_t *count = malloc((nk + 1) * sizeof *count);
    size_t *tmp = malloc(n * sizeof *tmp);
    if (!count || !tmp) {
        free(count);
        free(tmp);
        return false;
    }
    /* By row, in index order. */
    memset(count, 0, ((size_t)max_row + 2) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[f->bars[i].row + 1]++;
    for (size_t k = 1; k <= (size_t)max_row + 1; k++)
        count[k] += count[k - 1];
    for (size_t i = 0; i < n; i++)
        tmp[count[f->bars[i].row]++] = i;
    /* Then by lane, keeping that order within a lane. */
    memset(count, 0, (max_lane + 2) * sizeof *count);
    for (size_t i = 0; i < n; i++)
        count[f->bars[i].lane + 1]++;
    for (size_t k = 1; k <= max_lane + 1; k++)
        count[k] += count[k - 1];
    for (size_t k = 0; k < n; k++)
        order[count[f->bars[tmp[k]].lane]++] = tmp[k];
    free(count);
    free(tmp);
    return true;
}

bool tf_plan_bin(const struct tf_figure *f, double plot_w_pt, struct tf_binned *out)
{
    memset(out, 0, sizeof *out);
    tf_arena_init(&out->arena);
    out->fig = *f;
    out->f = f;
    if (!f->flame || !(f->x_span > 0))
        return true;
    size_t nb = plot_w_pt > TF_LOD_PT ? (size_t)(plot_w_pt / TF_LOD_PT) : 1;
    struct binner B = {.f = f, .out = out, .nb = nb, .bw = f->x_span / (double)nb};
    out->bin_w = B.bw;
    if (!tf_plan_thin_counters(f, B.bw, out))
        return false;
    if (out->lanes)
        out->fig.lanes = out->lanes;
    out->fig.bars = NULL;
    out->fig.n_bars = out->fig.cap_bars = 0;
    if (f->n_bars == 0)
        return true;
    size_t *order = malloc(f->n_bars * sizeof *order);
    if (!order || !order_by_lane_row(f, order)) {
        free(order);
        return false;
    }
    B.absorbed = calloc(f->n_bars, sizeof *B.absorbed);
    B.oom = !B.absorbed;
    for (size_t i = 0; i < f->n_bars && !B.oom;) {
        size_t j = i + 1;
        const struct tf_bar *a = &f->bars[order[i]];
        while (j < f->n_bars && f->bars[order[j]].lane == a->lane &&
               f->bars[order[j]].row == a->row)
            j++;
        bin_row(&B, order, i, j);
        i = j;
    }
    if (!B.oom)
        assemble(&B);
    free(order);
    free(B.cells);
    free(B.gbars);
    free(B.groups);
    free(B.absorbed);
    out->fig.bars = out->bars;
    out->fig.n_bars = out->n_bars;
    out->fig.cap_bars = out->cap_bars;
    return !B.oom;
}

void tf_plan_bin_fini(struct tf_binned *b)
{
    free(b->bars);
    tf_arena_fini(&b->arena);
    memset(b, 0, sizeof *b);
}

bool tf_plan_bins(const struct tf_figure *f, double plot_w_pt, struct tf_binned **bins,
                  struct tf_binned **reuse, double reuse_w)
{
    if (*reuse && reuse_w == plot_w_pt) {
        *bins = *reuse;
        *reuse = NULL;
        return true;
    }
    tf_plan_bins_free(*reuse);
    *reuse = NULL;
    if (!(*bins = malloc(sizeof **bins)))
        return false;
    return tf_plan_bin(f, plot_w_pt, *bins);
}

void tf_plan_bins_free(struct tf_binned *b)
{
    if (b) {
        tf_plan_bin_fini(b);
        free(b);
    }
}

const struct tf_figure *tf_plan_drawn(const struct tf_plan *p, const struct tf_figure *f,
                                      struct tf_figure *tmp)
{
    if (!p || !p->bins || !(p->bins->bin_w > 0))
        return f;
    *tmp = *f;
    tmp->bars = p->bins->bars;
    tmp->n_bars = p->bins->n_bars;
    tmp->cap_bars = p->bins->cap_bars;
    if (p->bins->lanes)
        tmp->lanes = p->bins->lanes;
    return tmp;
}
