/* rows.c - the generic Chrome mode's rows and level of detail: each
 * lane's slices and instants, as pass 2 hands them over, placed in nesting
 * rows (a flame chart, --depth rows drawn), clipped to the window, and
 * merged where they are too thin to draw apart.  It also keeps each
 * lane's busy time for the statistics.  It does not decide which lanes
 * are drawn (lanes.c) or what colour and text a bar gets (colors.c,
 * names.c).
 *
 * Rows.  A lane's slices, in start order (ties: the longer first), each go
 * to the first row that is free at their start: nested slices stack as a
 * flame chart, and slices that overlap without nesting (they exist) go to
 * the next free row rather than being dropped.  A B/E pair goes to the
 * first row free at or below its depth on the loader's stack, so its
 * parents keep the rows above it even though the loader hands a parent
 * over after its children (at its E).  The rows are a tree of the minimum
 * end per row, so finding the first free one takes O(log rows), and a
 * stack 100 000 deep costs no more per slice than a flat one.  A lane's
 * slices are sorted in batches of REORDER: the loader's order within a
 * lane is nearly the time order in every trace seen, and a slice (not of
 * a B/E pair) that comes later than that is still drawn, in the first row
 * free at its start (counted in c->n_late, and said once, as its nesting
 * may then be off).
 *
 * Annotations apart.  A lane's annotations of GPU work (TF_CHROME_ANNOT_CAT:
 * Kineto's GPU copies of the host's ranges, ProfilerStep#N among them) are
 * stacked apart from its other slices and put above them, as Perfetto
 * draws them: the work nests as it nests, and kernels that run outside
 * every annotation share the row of those inside.  Where rows are cut
 * (--depth here, the height budget in render/plan.c), the annotations go
 * first: the lane keeps its work, and as many annotation rows as remain
 * (the outermost).  The figure's lane says how many of its top rows they
 * hold (tf_lane.annot_rows).
 *
 * Level of detail, decided once.  The rules do not know the plot's width
 * (the plan decides it, render/plan.h), so they keep what any width needs:
 * a slice at least one fine bin wide (TF_LOD_FINE_BINS across the axis,
 * from its origin) is a bar of its own; thinner slices go to a busy
 * histogram, per row: the time each class (name, category, colour) covers
 * in each fine bin, exactly (a slice across a bin edge is split at it).  A
 * bin that holds one whole slice only keeps it as a slice; any other is a
 * dense bar over the bin with the classes' times (struct part).  The plan
 * re-bins these at the plot's real width (render/plan_busy.c).  Memory is
 * bounded by the bins: a row holds one bin at a time.  Instants merge
 * among themselves where they are closer than a fine bin, and marks the
 * same way (coarser only past TF_CHROME_MAX_BARS); the plan merges both
 * again at its width.  With --critical-path, a slice on the path is never
 * merged (rules/critpath_marks.h).
 */
#include "rules/chrome/chrome_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define REORDER 8192
/* A slice keeps its args text (the tooltip's) when at least 1 pt wide
 * on a plot this wide (pt): thinner ones end in share bars. */
#define ARGS_PLOT_PT 640.0

/* The fine bins and the args' threshold once the window is known. */
void tf_chrome_lod_threshold(struct chrome *c)
{
    double thr = (double)c->axis_ns * TF_CHROME_LOD_PT / ARGS_PLOT_PT;
    c->thr_ns = thr < 1.0 ? 1 : (int64_t)thr;
    int64_t bin = (c->axis_ns + TF_LOD_FINE_BINS - 1) / TF_LOD_FINE_BINS;
    c->bin_ns = bin < 1 ? 1 : bin;
}

/* --- rows -------------------------------------------------------------------------- */

/* st->row_end is a tree of minima: the end of the last slice placed in row
 * r is leaf cap_rows + r, each inner node k the minimum of 2k and 2k + 1;
 * rows not used yet are free (INT64_MIN). */

/* The first row in [from, hi) of node k (covering [lo, hi)) whose end is
 * at most t, or SIZE_MAX. */
static size_t tree_find(const int64_t *m, size_t k, size_t lo, size_t hi, size_t from, int64_t t)
{
    if (hi <= from || m[k] > t)
        return SIZE_MAX;
    if (hi - lo == 1)
        return lo;
    size_t mid = lo + (hi - lo) / 2;
    size_t r = tree_find(m, 2 * k, lo, mid, from, t);
    return r != SIZE_MAX ? r : tree_find(m, 2 * k + 1, mid, hi, from, t);
}

/* The first row at or after `from` that is free at time t. */
static size_t first_free(const struct stack *st, size_t from, int64_t t)
{
    if (from >= st->cap_rows)
        return from;
    if (st->row_end[st->cap_rows + from] <= t)
        return from; /* most often: the row asked for is free (a stream's kernels) */
    size_t r = tree_find(st->row_end, 1, 0, st->cap_rows, from, t);
    return r != SIZE_MAX ? r : st->cap_rows;
}

/* Row `row` now ends at `end`; false when out of memory. */
static bool set_row_end(struct stack *st, size_t row, int64_t end)
{
    if (row >= st->cap_rows) {
        size_t cap = st->cap_rows ? st->cap_rows : 8;
        while (cap <= row)
            cap *= 2;
        int64_t *m = malloc(2 * cap * sizeof *m);
        if (!m)
            return false;
        for (size_t i = 0; i < cap; i++)
            m[cap + i] = i < st->cap_rows ? st->row_end[st->cap_rows + i] : INT64_MIN;
        for (size_t k = cap; k-- > 1;)
            m[k] = m[2 * k] < m[2 * k + 1] ? m[2 * k] : m[2 * k + 1];
        free(st->row_end);
        st->row_end = m;
        st->cap_rows = cap;
    }
    size_t k = st->cap_rows + row;
    st->row_end[k] = end;
    for (k /= 2; k >= 1; k /= 2)
        st->row_end[k] = st->row_end[2 * k] < st->row_end[2 * k + 1] ? st->row_end[2 * k]
                                                                     : st->row_end[2 * k + 1];
    if (row + 1 > st->n_rows)
        st->n_rows = row + 1;
    return true;
}

static void push_bar(struct chrome *c, struct lane *ln, const struct obar *b)
{
    if (!TF_GROW(ln->bars, ln->n_bars, ln->cap_bars)) {
        c->oom = true;
        return;
    }
    ln->bars[ln->n_bars++] = *b;
}

/* A run of instants, a bin's one whole slice, or its dense bar leaves an
 * accumulator. */
static void flush(struct chrome *c, struct lane *ln, struct acc *a)
{
    if (!a->on)
        return;
    a->on = false;
    if (a->b.instant || a->whole) {
        if (!a->b.instant)
            a->b.merged = 0;
        push_bar(c, ln, &a->b);
        return;
    }
    struct obar b = a->b;
    int64_t lo = c->x_origin + a->bin * c->bin_ns, hi = lo + c->bin_ns;
    b.t0 = lo < c->w0 ? c->w0 : lo;
    b.t1 = hi > c->w1 ? c->w1 : hi;
    b.clip_left = b.clip_right = false;
    b.busy = 0;
    size_t top = 0;
    for (unsigned i = 0; i < a->n_parts; i++) {
        b.busy += a->parts[i].ns;
        if (a->parts[i].ns > a->parts[top].ns)
            top = i;
    }
    b.name = a->parts[top].name;
    b.cat = a->parts[top].cat;
    b.color = a->parts[top].color;
    b.args = c->empty;
    b.mixed = false;
    for (unsigned i = 0; i < a->n_parts; i++)
        b.mixed = b.mixed || a->parts[i].name != b.name;
    if (ln->n_parts > UINT32_MAX - TF_SHARES_MAX ||
        !TF_GROW(ln->parts, ln->n_parts + TF_SHARES_MAX - 1, ln->cap_parts)) {
        c->oom = true;
        return;
    }
    b.part0 = (uint32_t)ln->n_parts;
    b.n_parts = a->n_parts;
    memcpy(ln->parts + ln->n_parts, a->parts, a->n_parts * sizeof *a->parts);
    ln->n_parts += a->n_parts;
    push_bar(c, ln, &b);
}

/* Adds ns of b's class to the bin in a. */
static void add_part(struct acc *a, const struct obar *b, int64_t ns)
{
    for (unsigned i = 0; i < a->n_parts; i++) {
        struct part *p = &a->parts[i];
        if (p->name == b->name && p->cat == b->cat && p->color == b->color) {
            p->ns += ns;
            return;
        }
    }
    if (a->n_parts < TF_SHARES_MAX) {
        a->parts[a->n_parts++] = (struct part){b->name, b->cat, b->color, ns};
        return;
    }
    /* Full: the time goes to a class of its category, else the last. */
    for (unsigned i = 0; i < a->n_parts; i++)
        if (a->parts[i].cat == b->cat) {
            a->parts[i].ns += ns;
            return;
        }
    a->parts[a->n_parts - 1].ns += ns;
}

/* A slice thinner than a fine bin, into the bins of its row it covers. */
static void add_thin(struct chrome *c, struct lane *ln, struct acc *a, const struct obar *b)
{
    int64_t bw = c->bin_ns, rel0 = b->t0 - c->x_origin, rel1 = b->t1 - c->x_origin;
    int64_t k0 = rel0 >= 0 ? rel0 / bw : -((-rel0 + bw - 1) / bw);
    int64_t k1 = rel1 > rel0 ? (rel1 - 1 >= 0 ? (rel1 - 1) / bw : -((-(rel1 - 1) + bw - 1) / bw))
                             : k0;
    for (int64_t k = k0; k <= k1; k++) {
        int64_t lo = c->x_origin + k * bw, hi = lo + bw;
        int64_t p0 = b->t0 > lo ? b->t0 : lo, p1 = b->t1 < hi ? b->t1 : hi;
        if (a->on && a->bin != k)
            flush(c, ln, a);
        /* merged: the slices that start in the bin. */
        if (!a->on) {
            a->on = true;
            a->whole = k0 == k1;
            a->b = *b;
            a->b.merged = k == k0;
            a->bin = k;
            a->n_parts = 0;
        } else {
            a->whole = false;
            a->b.merged += k == k0;
        }
        add_part(a, b, p1 > p0 ? p1 - p0 : 0);
    }
}


/* Places one slice (in start order) in its row, and merges it. */
static void place(struct chrome *c, struct lane *ln, const struct pend *p)
{
    if (!p->depth && !p->instant) { /* only these may nest wrongly when late */
        if (ln->any_placed && p->t0 < ln->watermark)
            c->n_late++;
        ln->watermark = p->t0;
        ln->any_placed = true;
    }
    int64_t t0 = p->t0 < c->w0 ? c->w0 : p->t0;
    int64_t t1 = p->open_end || p->t1 > c->w1 ? c->w1 : p->t1;
    if (t1 < t0)
        t1 = t0;
    /* The lane's busy time (slices only, not ranges of lost events),
     * merged as it grows, in busy ticks (ps with a finer clock: stats.c). */
    int64_t b0 = tf_chrome_busy_tick(c, p->t0, p->ps0);
    int64_t b1 = p->open_end ? c->bw1 : tf_chrome_busy_tick(c, p->t1, p->ps1);
    if (!p->instant && b1 > b0 && !c->o->no_stats && p->cat != c->lost_cat) {
        struct tf_ivset *u = &ln->busy;
        struct tf_ival *last = u->n ? &u->v[u->n - 1] : NULL;
        if (last && b0 >= last->lo && b0 <= last->hi) {
            if (b1 > last->hi)
                last->hi = b1;
        } else {
            if (last && b0 < last->lo)
                ln->busy_sorted = false;
            if (!tf_ivset_add(u, b0, b1))
                c->oom = true;
            c->busy_added++;
        }
    }
    /* Its row in its stack: the first free at its start (at or below its
     * depth on the loader's stack, for a B/E pair).  Instants go on row 0
     * of the work. */
    bool annot = !p->instant && p->cat == c->annot_cat;
    struct stack *st = &ln->st[annot];
    size_t row = 0;
    if (!p->instant) {
        row = first_free(st, p->depth ? p->depth - 1 : 0, p->t0);
        if (row >= UINT_MAX / 2 ||
            !set_row_end(st, row, p->open_end ? INT64_MAX : p->t1 > p->t0 ? p->t1 : p->t0)) {
            c->oom = true;
            return;
        }
    }
    if (!p->instant && !tf_chrome_lane_note(c, ln, p))
        return;
    ln->n_slices++;
    unsigned depth = c->o->depth > 0 ? (unsigned)c->o->depth : TF_CHROME_DEPTH;
    /* An event on the critical path is a bar of its own, whatever its
     * width, and one nested deeper than the rows drawn is drawn in the
     * last of them, over the slice it is nested in. */
    bool crit = c->cp_set && !p->instant &&
                tf_cp_set_has(c->cp_set, p->t0, p->t1, tf_strtab_str(&c->strs, p->name));
    if (row >= depth && !crit) {
        ln->n_hidden++;
        ln->n_annot_hidden += annot;
        return;
    }
    if (row >= depth)
        row = depth - 1;
    if (row + 1 > st->max_row)
        st->max_row = (unsigned)row + 1;
    while (st->n_acc <= row) {
        if (!TF_GROW(st->acc, st->n_acc, st->cap_acc)) {
            c->oom = true;
            return;
        }
        memset(&st->acc[st->n_acc++], 0, sizeof *st->acc);
    }
    /* Instants merge among themselves, in an accumulator of their own:
     * the slices of their row do not stop them merging. */
    struct obar b = {
        .t0 = t0,
        .t1 = t1,
        .busy = t1 - t0,
        .name = p->name,
        .cat = p->cat,
        .args = p->args,
        .color = p->color,
        .row = (unsigned)row,
        .clip_left = p->t0 < c->w0,
        .clip_right = p->open_end || p->t1 > c->w1,
        .instant = p->instant,
        .annot = annot,
    };
    if (!p->instant) {
        if (t1 - t0 >= c->bin_ns || crit)
            push_bar(c, ln, &b);
        else
            add_thin(c, ln, &st->acc[row], &b);
        return;
    }
    struct acc *a = &ln->iacc;
    if (a->on && t0 - a->b.t1 < c->bin_ns) {
        a->b.merged = (a->b.merged ? a->b.merged : 1) + 1;
        a->b.mixed = a->b.mixed || a->b.name != b.name;
        if (t1 > a->b.t1)
            a->b.t1 = t1;
        return;
    }
    flush(c, ln, a);
    a->on = true;
    a->b = b;
}

static int by_start(const void *x, const void *y)
{
    const struct pend *a = x, *b = y;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    /* Longer first, so a parent comes before the children it starts with;
     * instants after slices. */
    int64_t da = a->open_end ? INT64_MAX : a->t1 - a->t0;
    int64_t db = b->open_end ? INT64_MAX : b->t1 - b->t0;
    if (da != db)
        return da > db ? -1 : 1;
    if (a->instant != b->instant)
        return a->instant ? 1 : -1;
    return a->name < b->name ? -1 : a->name > b->name;
}

/* Sorts what waits and places the first `n` (all with n = SIZE_MAX).  The
 * loader's order is most often the order already (an export's rows come
 * by start): then nothing is sorted (glibc's qsort, a merge sort, leaves
 * a sorted array as it is too). */
static void drain(struct chrome *c, struct lane *ln, size_t n)
{
    size_t sorted = 1;
    while (sorted < ln->n_pend && by_start(&ln->pend[sorted - 1], &ln->pend[sorted]) <= 0)
        sorted++;
    if (sorted < ln->n_pend)
        qsort(ln->pend, ln->n_pend, sizeof *ln->pend, by_start);
    if (n > ln->n_pend)
        n = ln->n_pend;
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++)
        place(c, ln, &ln->pend[i]);
    memmove(ln->pend, ln->pend + n, (ln->n_pend - n) * sizeof *ln->pend);
    ln->n_pend -= n;
}

void tf_chrome_rows_before(struct chrome *c, struct lane *ln, int64_t t)
{
    size_t n = 0;
    for (size_t i = 0; i < ln->n_pend; i++)
        n += ln->pend[i].t0 < t;
    if (n)
        drain(c, ln, n);
}

bool tf_chrome_rows_add(struct chrome *c, struct lane *ln, const struct pend *p)
{
    if (!TF_GROW(ln->pend, ln->n_pend, ln->cap_pend))
        return c->oom = true, false;
    ln->pend[ln->n_pend++] = *p;
    if (ln->n_pend >= REORDER)
        drain(c, ln, REORDER / 2);
    return !c->oom;
}

/* The two stacks one above the other: the annotations' rows on top, as
 * many as the depth leaves beside the work's (each stack alone is already
 * within it). */
static void stack_rows(struct chrome *c, struct lane *ln)
{
    unsigned work = ln->st[0].max_row, annots = ln->st[1].max_row;
    ln->annot_rows = 0;
    ln->max_row = work > annots ? work : annots;
    if (!work || !annots)
        return;
    unsigned depth = c->o->depth > 0 ? (unsigned)c->o->depth : TF_CHROME_DEPTH;
    unsigned keep = depth - work < annots ? depth - work : annots;
    size_t k = 0;
    for (size_t i = 0; i < ln->n_bars; i++) {
        struct obar *b = &ln->bars[i];
        if (b->annot && b->row >= keep) {
            size_t n = b->n_parts ? b->merged : 1;
            ln->n_hidden += n;
            ln->n_annot_hidden += n;
            continue;
        }
        if (!b->annot)
            b->row += keep;
        ln->bars[k++] = *b;
    }
    ln->n_bars = k;
    ln->annot_rows = keep;
    ln->max_row = keep + work;
}

void tf_chrome_rows_finish(struct chrome *c, struct lane *ln)
{
    drain(c, ln, SIZE_MAX);
    for (int s = 0; s < 2; s++)
        for (unsigned r = 0; r < ln->st[s].n_acc; r++)
            flush(c, ln, &ln->st[s].acc[r]);
    flush(c, ln, &ln->iacc);
    stack_rows(c, ln);
    if (!ln->busy_sorted)
        tf_ivset_normalize(&ln->busy);
    ln->busy_sorted = true;
}

bool tf_chrome_is_annotation(const char *cat)
{
    return cat && strcmp(cat, TF_CHROME_ANNOT_CAT) == 0;
}

/* --- bars -------------------------------------------------------------------------- */

static int bar_order(const void *x, const void *y)
{
    const struct obar *a = x, *b = y;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    return (a->t1 > b->t1) - (a->t1 < b->t1);
}

void tf_chrome_sort_bars(struct lane *ln)
{
    if (ln->n_bars > 1)
        qsort(ln->bars, ln->n_bars, sizeof *ln->bars, bar_order);
}

size_t tf_chrome_bar_parts(const struct lane *ln, const struct obar *b, struct part *out)
{
    if (!b->n_parts) {
        out[0] = (struct part){b->name, b->cat, b->color, b->t1 - b->t0};
        return 1;
    }
    size_t n = b->n_parts < TF_SHARES_MAX ? b->n_parts : TF_SHARES_MAX;
    memcpy(out, ln->parts + b->part0, n * sizeof *out);
    return n;
}

int tf_chrome_row_at(const struct lane *ln, int64_t t, bool next)
{
    int best = -1;
    int64_t best_t0 = INT64_MAX;
    for (size_t k = 0; k < ln->n_bars; k++) {
        const struct obar *b = &ln->bars[k];
        if (b->instant)
            continue;
        if (!next && b->t0 <= t && t <= b->t1 && (int)b->row > best)
            best = (int)b->row;
        if (next && b->t0 >= t && b->t0 < best_t0) {
            best_t0 = b->t0;
            best = (int)b->row;
        }
    }
    return best;
}

int tf_chrome_row_of(const struct chrome *c, const struct lane *ln, int64_t t0, int64_t t1)
{
    int64_t a = t0 < c->w0 ? c->w0 : t0, b = t1 > c->w1 ? c->w1 : t1;
    for (size_t k = 0; k < ln->n_bars; k++) {
        const struct obar *o = &ln->bars[k];
        if (!o->instant && !o->merged && o->t0 == a && o->t1 == b)
            return (int)o->row;
    }
    return tf_chrome_row_at(ln, a, false);
}

static int by_mark(const void *x, const void *y)
{
    const struct mark *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    if (a->scope != b->scope)
        return a->scope < b->scope ? -1 : 1;
    if (a->proc != b->proc)
        return a->proc < b->proc ? -1 : 1;
    return (a->name > b->name) - (a->name < b->name);
}

void tf_chrome_fit_marks(struct chrome *c, size_t rows, const size_t *proc_rows,
                         size_t max_bars)
{
    if (c->n_marks_in > 1)
        qsort(c->marks, c->n_marks_in, sizeof *c->marks, by_mark);
    int64_t thr = c->bin_ns;
    for (int round = 0; round < 64; round++) {
        /* Marks of one scope (and process) closer than thr: one mark. */
        size_t k = 0;
        for (size_t i = 0; i < c->n_marks_in; i++) {
            struct mark *m = &c->marks[i];
            size_t j = k;
            while (j > 0 && (c->marks[j - 1].scope != m->scope || c->marks[j - 1].proc != m->proc) &&
                   m->ts - c->marks[j - 1].t1 < thr)
                j--;
            struct mark *a = j > 0 ? &c->marks[j - 1] : NULL;
            if (a && a->scope == m->scope && a->proc == m->proc && m->ts - a->t1 < thr) {
                a->merged = (a->merged ? a->merged : 1) + (m->merged ? m->merged : 1);
                if (m->t1 > a->t1)
                    a->t1 = m->t1;
                continue;
            }
            c->marks[k++] = *m;
        }
        c->n_marks_in = k;
        size_t bars = 0;
        for (size_t i = 0; i < k; i++)
            bars += c->marks[i].scope == 'g' ? rows : proc_rows[c->marks[i].proc];
        if (bars <= max_bars)
            break;
        thr *= 2;
    }
}
