/* overview.c - a job of many ranks in one figure; see overview.h.
 *
 * IMPLEMENTATION NOTES
 *
 * Strips.  A lane's work rows (below its annotations of GPU work, unless
 * it has nothing else) are spread into TF_OV_BINS bins of its own axis,
 * per row and class: a slice's drawn extent, a dense bar's classes (each
 * share times the bar's span, spread evenly over it).  A moment counts
 * once: in each bin the rows are taken from the deepest up, each row
 * adding what it covers beyond the rows below it (in a flame chart a
 * child lies inside its parent, so the row above covers at least what the
 * row below does), in its classes' proportions.  The strip keeps each
 * class's share of a bin in 1/65535ths: about 1 KB per class at 512 bins.
 * A lane with more classes than TF_SHARES_MAX folds the rest into the
 * last, as the rules' dense bars do.
 *
 * Rows.  Each member's bins are laid onto the figure's bins (its x times k
 * plus dx: its own axis to the figure's), a bin's time spread evenly over
 * the figure's bins it covers; a row sums its members' time per class in
 * rank order, which makes the sums the same whatever order the members
 * were read in, and divides by its bin's width and its members' count:
 * the mean share.  Only bins with ink become bars.
 */
#include "model/overview.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/num.h"

/* --- strips --------------------------------------------------------------------- */

/* t of time over [x0, x1) into bins of width bw (nb of them): evenly, a
 * zero-width extent into the bin of x0. */
static void spread(double *bins, size_t nb, double bw, double x0, double x1, double t)
{
    if (!(t > 0) || !(bw > 0))
        return;
    double lim = (double)nb * bw;
    if (x0 < 0)
        x0 = 0;
    if (x1 > lim)
        x1 = lim;
    if (!(x1 > x0)) {
        double x = x0 < lim ? x0 : lim;
        size_t k = (size_t)(x / bw);
        bins[k < nb ? k : nb - 1] += t;
        return;
    }
    double w = x1 - x0;
    size_t k0 = (size_t)(x0 / bw);
    for (size_t k = k0; k < nb; k++) {
        double lo = (double)k * bw, hi = lo + bw;
        if (lo >= x1)
            break;
        double a = x0 > lo ? x0 : lo, b = x1 < hi ? x1 : hi;
        if (b > a)
            bins[k] += t * (b - a) / w;
    }
}

/* The slot of category cat among cats[0 .. *n): a new one while there
 * are fewer than max, else the last. */
static size_t slot_in(size_t *cats, size_t *n, size_t max, size_t cat)
{
    for (size_t i = 0; i < *n; i++)
        if (cats[i] == cat)
            return i;
    if (*n < max) {
        cats[*n] = cat;
        return (*n)++;
    }
    return max - 1;
}

/* A strip's class slot for category cat. */
static size_t slot_of(struct tf_ov_strip *s, size_t cat)
{
    return slot_in(s->cat, &s->n_cls, TF_SHARES_MAX, cat);
}

/* The lane's work rows: [*r0, rows). */
static unsigned work_rows(const struct tf_lane *ln, unsigned *r0)
{
    unsigned rows = ln->rows ? ln->rows : 1;
    *r0 = ln->annot_rows > 0 && ln->annot_rows < rows ? ln->annot_rows : 0;
    return rows;
}

bool tf_ov_strip_make(const struct tf_figure *f, size_t lane, struct tf_ov_strip *s)
{
    memset(s, 0, sizeof *s);
    s->span = f->x_span;
    s->end = -1;
    if (!(f->x_span > 0) || lane >= f->n_lanes)
        return true;
    unsigned r0, rows = work_rows(&f->lanes[lane], &r0);
    /* The classes, in the order their bars come. */
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane != lane || b->row < r0 || b->row >= rows || b->shape == TF_SHAPE_INSTANT)
            continue;
        if (b->shape == TF_SHAPE_DENSE && b->n_shares)
            for (size_t k = 0; k < b->n_shares; k++)
                slot_of(s, b->shares[k].cat);
        else
            slot_of(s, b->cat);
    }
    if (s->n_cls == 0)
        return true;
    const size_t nb = TF_OV_BINS, nr = rows - r0, nc = s->n_cls;
    const double bw = f->x_span / (double)nb;
    double *acc = calloc(nr * nc * nb, sizeof *acc);
    double *out = calloc(nc * nb, sizeof *out);
    s->q = calloc(nc * nb, sizeof *s->q);
    if (!acc || !out || !s->q) {
        free(acc);
        free(out);
        return false;
    }
    struct tf_ov_strip probe = *s; /* slot_of again, without adding */
    for (size_t i = 0; i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane != lane || b->row < r0 || b->row >= rows || b->shape == TF_SHAPE_INSTANT)
            continue;
        double x0, x1;
        tf_bar_drawn_extent(f, b, &x0, &x1);
        double *row = acc + (size_t)(b->row - r0) * nc * nb;
        double inked = 0;
        if (b->shape == TF_SHAPE_SLICE) {
            inked = x1 - x0;
            spread(row + slot_of(&probe, b->cat) * nb, nb, bw, x0, x1, inked);
        } else {
            double w = b->x1 - b->x0, part = w > 0 ? (x1 - x0) / w : 1;
            if (!b->n_shares) {
                inked = b->busy * part;
                spread(row + slot_of(&probe, b->cat) * nb, nb, bw, x0, x1, inked);
            }
            for (size_t k = 0; k < b->n_shares; k++) {
                double t = b->shares[k].share * (x1 - x0);
                inked += t;
                spread(row + slot_of(&probe, b->shares[k].cat) * nb, nb, bw, x0, x1, t);
            }
        }
        if (inked > 0 && x1 > s->end)
            s->end = x1;
    }
    /* Each bin: the rows from the deepest up, each what it adds. */
    for (size_t k = 0; k < nb; k++) {
        double covered = 0;
        for (size_t r = nr; r-- > 0;) {
            const double *row = acc + r * nc * nb;
            double t = 0;
            for (size_t c = 0; c < nc; c++)
                t += row[c * nb + k];
            if (!(t > covered))
                continue;
            double add = t - covered;
            for (size_t c = 0; c < nc; c++)
                out[c * nb + k] += add * row[c * nb + k] / t;
            covered = t;
        }
        double scale = covered > bw ? bw / covered : 1.0;
        s->busy += covered * scale;
        for (size_t c = 0; c < nc; c++) {
            double v = out[c * nb + k] * scale / bw;
            long q = lround((v > 1 ? 1 : v) * TF_OV_Q);
            s->q[c * nb + k] = (uint16_t)(q < 0 ? 0 : q > (long)TF_OV_Q ? TF_OV_Q : q);
        }
    }
    free(acc);
    free(out);
    return true;
}

/* --- which lane ------------------------------------------------------------------- */

static bool is_gpu(const struct tf_lane *l)
{
    return (l->group && strncmp(l->group, "GPU", 3) == 0) ||
           (l->label && strncmp(l->label, "GPU ", 4) == 0);
}

static bool same_id(const struct tf_id *a, const struct tf_id *b)
{
    if (a->kind != b->kind || a->kind == TF_ID_NONE)
        return false;
    return a->kind == TF_ID_NUM ? a->num == b->num : strcmp(a->str, b->str) == 0;
}

size_t tf_ov_pick(const struct tf_figure *f, size_t first, size_t n, bool picked)
{
    size_t first_slices = SIZE_MAX, main = SIZE_MAX, gpu = SIZE_MAX;
    double *busy = calloc(n ? n : 1, sizeof *busy);
    for (size_t i = 0; busy && i < f->n_bars; i++) {
        const struct tf_bar *b = &f->bars[i];
        if (b->lane < first || b->lane - first >= n)
            continue;
        unsigned r0;
        work_rows(&f->lanes[b->lane], &r0);
        if (b->row < r0 || b->shape == TF_SHAPE_INSTANT)
            continue;
        double x0, x1;
        tf_bar_drawn_extent(f, b, &x0, &x1);
        busy[b->lane - first] += b->shape == TF_SHAPE_SLICE ? x1 - x0 : b->busy;
    }
    for (size_t i = first; i < first + n; i++) {
        const struct tf_lane *l = &f->lanes[i];
        if (l->kind == TF_LANE_COUNTER)
            continue;
        if (first_slices == SIZE_MAX)
            first_slices = i;
        if (main == SIZE_MAX && same_id(&l->pid, &l->tid))
            main = i;
        /* The busiest, the first of equals (busy NULL: the first). */
        if (is_gpu(l) && (gpu == SIZE_MAX || (busy && busy[i - first] > busy[gpu - first])))
            gpu = i;
    }
    free(busy);
    if (picked || first_slices == SIZE_MAX)
        return first_slices;
    return gpu != SIZE_MAX ? gpu : main != SIZE_MAX ? main : first_slices;
}

/* --- order ---------------------------------------------------------------------------- */

struct keyed {
    struct tf_ov_member m;
    double key;
};

static int by_key(const void *x, const void *y)
{
    const struct keyed *a = x, *b = y;
    if (a->key != b->key)
        return a->key < b->key ? -1 : 1;
    return (a->m.rank > b->m.rank) - (a->m.rank < b->m.rank);
}

/* A member's end on the figure's axis (-inf: none). */
static double end_of(const struct tf_ov_member *m)
{
    return m->s->end < 0 ? -HUGE_VAL : m->s->end * m->k + m->dx;
}

static double share_of(const struct tf_ov_member *m)
{
    return m->s->span > 0 ? m->s->busy / m->s->span : 0;
}

void tf_ov_order(struct tf_ov_member *m, size_t n, enum tf_rank_order order)
{
    struct keyed *k = malloc((n ? n : 1) * sizeof *k);
    if (!k)
        return; /* the order they came in; the rows are still right */
    for (size_t i = 0; i < n; i++) {
        k[i].m = m[i];
        k[i].key = order == TF_ORDER_FINISH ? end_of(&m[i])
                   : order == TF_ORDER_BUSY ? share_of(&m[i])
                                            : (double)m[i].rank;
    }
    qsort(k, n, sizeof *k, by_key);
    for (size_t i = 0; i < n; i++)
        m[i] = k[i].m;
    free(k);
}

/* --- a set of ranks ----------------------------------------------------------------- */

bool tf_ov_prune_legend(struct tf_figure *f, const struct tf_ov_member *m, size_t n)
{
    bool *inked = calloc(f->n_cats ? f->n_cats : 1, sizeof *inked);
    if (!inked)
        return false;
    for (size_t i = 0; i < n; i++)
        for (size_t c = 0; c < m[i].s->n_cls; c++)
            if (m[i].s->cat[c] < f->n_cats)
                inked[m[i].s->cat[c]] = true;
    size_t k = 0;
    for (size_t i = 0; i < f->n_legend; i++)
        if (f->legend[i].cat < f->n_cats && inked[f->legend[i].cat])
            f->legend[k++] = f->legend[i];
    f->n_legend = k;
    free(inked);
    return true;
}

/* --- the ranks' texts --------------------------------------------------------------- */

static int cmp_ll(const void *x, const void *y)
{
    long long a = *(const long long *)x, b = *(const long long *)y;
    return (a > b) - (a < b);
}

void tf_ov_ranks_list(struct tf_buf *out, const long long *ranks, size_t n, bool label)
{
    long long *v = malloc((n ? n : 1) * sizeof *v);
    if (!v) {
        out->oom = true;
        return;
    }
    memcpy(v, ranks, n * sizeof *v);
    qsort(v, n, sizeof *v, cmp_ll);
    if (label)
        tf_buf_puts(out, n == 1 ? "rank " : "ranks ");
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        while (j < n && v[j] == v[j - 1] + 1)
            j++;
        if (i)
            tf_buf_puts(out, label ? ", " : ",");
        tf_buf_printf(out, "%lld", v[i]);
        if (j - i > 1)
            tf_buf_printf(out, label ? "\xE2\x80\x93%lld" : "-%lld", v[j - 1]);
        i = j;
    }
    free(v);
}

bool tf_ov_rank_in(const struct tf_rank_range *r, size_t n, long long rank)
{
    if (n == 0)
        return true;
    for (size_t i = 0; i < n; i++)
        if (rank >= r[i].lo && rank <= r[i].hi)
            return true;
    return false;
}

/* A rank number at *p (digits), moving p past it. */
static bool rank_number(const char **p, long long *v)
{
    const char *s = *p;
    if (*s < '0' || *s > '9')
        return false;
    long long x = 0;
    while (*s >= '0' && *s <= '9') {
        if (x > (1LL << 40))
            return false;
        x = x * 10 + (*s++ - '0');
    }
    *v = x;
    *p = s;
    return true;
}

bool tf_ov_parse_ranks(const char *s, struct tf_rank_range **out, size_t *n, char *err,
                       size_t err_len)
{
    struct tf_rank_range *v = NULL;
    size_t nv = 0, cap = 0;
    const char *p = s;
    *out = NULL;
    *n = 0;
    for (;;) {
        const char *at = p;
        struct tf_rank_range r;
        bool ok = rank_number(&p, &r.lo);
        r.hi = r.lo;
        if (ok && *p == '-') {
            p++;
            ok = rank_number(&p, &r.hi) && r.hi >= r.lo;
        }
        if (!ok || (*p && *p != ',')) {
            snprintf(err, err_len,
                     "--ranks: expected ranks and ranges such as 0-7,769,1000-1023, got "
                     "'%.60s' at '%.20s'",
                     s, at);
            free(v);
            return false;
        }
        if (!TF_GROW(v, nv, cap)) {
            snprintf(err, err_len, "out of memory");
            free(v);
            return false;
        }
        v[nv++] = r;
        if (!*p)
            break;
        p++;
    }
    *out = v;
    *n = nv;
    return true;
}

/* --- rows ------------------------------------------------------------------------------ */

/* The classes of a row: figure categories, at most ROW_CLASSES (the rest
 * in the last). */
enum { ROW_CLASSES = 2 * TF_SHARES_MAX };

struct row_acc {
    size_t cat[ROW_CLASSES];
    size_t n;
    double *t; /* ROW_CLASSES x bins */
};

static size_t row_slot(struct row_acc *r, size_t cat)
{
    return slot_in(r->cat, &r->n, ROW_CLASSES, cat);
}

/* One member's strip onto the row's bins (the figure's, nb of width bw). */
static void lay_member(struct row_acc *r, const struct tf_ov_member *m, size_t nb, double bw)
{
    const struct tf_ov_strip *s = m->s;
    double obw = s->span / (double)TF_OV_BINS;
    for (size_t c = 0; c < s->n_cls; c++) {
        double *dst = r->t + row_slot(r, s->cat[c]) * nb;
        const uint16_t *q = s->q + c * TF_OV_BINS;
        for (size_t j = 0; j < TF_OV_BINS; j++) {
            if (!q[j])
                continue;
            double t = (double)q[j] / TF_OV_Q * obw * m->k;
            double x0 = (double)j * obw * m->k + m->dx;
            spread(dst, nb, bw, x0, x0 + obw * m->k, t);
        }
    }
}

static int share_desc(const void *x, const void *y)
{
    const struct tf_share *a = x, *b = y;
    if (a->share != b->share)
        return a->share > b->share ? -1 : 1;
    return (a->cat > b->cat) - (a->cat < b->cat);
}

/* The row's dense bars (lane `lane`, n_members ranks). */
static bool row_bars(struct tf_figure *f, size_t lane, const struct row_acc *r, size_t nb,
                     double bw, size_t n_members, double ms_per_unit, double clock_ms)
{
    for (size_t k = 0; k < nb; k++) {
        struct tf_share sh[ROW_CLASSES];
        size_t n = 0;
        double total = 0;
        for (size_t c = 0; c < r->n; c++) {
            double v = r->t[c * nb + k] / (bw * (double)n_members);
            if (v > 0) {
                sh[n++] = (struct tf_share){r->cat[c], v};
                total += v;
            }
        }
        if (!n)
            continue;
        double scale = total > 1 ? 1 / total : 1;
        for (size_t i = 0; i < n; i++)
            sh[i].share *= scale;
        qsort(sh, n, sizeof *sh, share_desc);
        for (; n > TF_SHARES_MAX; n--) /* the smallest into the last kept */
            sh[TF_SHARES_MAX - 1].share += sh[n - 1].share;
        struct tf_bar *b = tf_figure_add_bar(f);
        if (!b)
            return false;
        const struct tf_category *cat = &f->cats[sh[0].cat];
        memset(b, 0, sizeof *b);
        b->lane = lane;
        b->cat = sh[0].cat;
        b->shape = TF_SHAPE_DENSE;
        b->x0 = (double)k * bw;
        b->x1 = k + 1 == nb ? f->x_span : (double)(k + 1) * bw;
        b->color = cat->color;
        b->label_color = tf_color_text_on(cat->color);
        b->merged = n_members;
        b->busy = total * scale * (b->x1 - b->x0);
        b->name = tf_category_class(cat);
        b->start_ms = clock_ms + b->x0 * ms_per_unit;
        b->dur_ms = (b->x1 - b->x0) * ms_per_unit;
        if (!tf_figure_bar_shares(f, b, sh, n))
            return false;
    }
    return true;
}

static int cmp_d(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

static double median(double *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_d);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/* The spread across the ranks (f->overview.ranks filled). */
static bool spread_stats(struct tf_overview *o)
{
    size_t n = o->n_ranks, n_end = 0;
    double *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return false;
    o->min_rank = o->max_rank = o->last_rank = -1;
    for (size_t i = 0; i < n; i++) {
        const struct tf_rank_stat *r = &o->ranks[i];
        double p = r->window_ms > 0 ? 100.0 * r->busy_ms / r->window_ms : 0;
        v[i] = p;
        bool first = o->min_rank < 0;
        if (first || p < o->busy_min || (p == o->busy_min && r->rank < o->min_rank))
            o->busy_min = p, o->min_rank = r->rank;
        if (first || p > o->busy_max || (p == o->busy_max && r->rank < o->max_rank))
            o->busy_max = p, o->max_rank = r->rank;
    }
    o->busy_median = n ? median(v, n) : 0;
    for (size_t i = 0; i < n; i++)
        if (o->ranks[i].has_end)
            v[n_end++] = o->ranks[i].end_ms;
    o->has_last = n_end > 0;
    if (o->has_last) {
        double last = -HUGE_VAL;
        for (size_t i = 0; i < n; i++) {
            const struct tf_rank_stat *r = &o->ranks[i];
            if (r->has_end && (r->end_ms > last || (r->end_ms == last && r->rank < o->last_rank)))
                last = r->end_ms, o->last_rank = r->rank;
        }
        o->last_end_ms = last;
        double med = median(v, n_end); /* sorts v */
        o->after_median_ms = last - med;
        o->after_next_ms = n_end > 1 ? last - v[n_end - 2] : 0;
    }
    free(v);
    return true;
}

/* A member by its rank (and its place, for two alike). */
struct at_rank {
    long long rank;
    size_t i;
};

static int by_at_rank(const void *x, const void *y)
{
    const struct at_rank *a = x, *b = y;
    if (a->rank != b->rank)
        return a->rank < b->rank ? -1 : 1;
    return (a->i > b->i) - (a->i < b->i);
}

bool tf_ov_rows(struct tf_figure *f, const struct tf_ov_member *m, size_t n, size_t per_row,
                size_t bins, enum tf_rank_order order, const char *lane_text)
{
    struct tf_overview *o = &f->overview;
    if (per_row < 1)
        per_row = 1;
    if (bins < 1)
        bins = 1;
    double ms_per_unit = tf_unit_ns(f->axis.unit) / 1e6;
    /* the window's start in ms on the clock, for the bars' start_ms */
    double clock_ms = f->window_start * tf_unit_ns(f->clock_unit ? f->clock_unit : "us") / 1e6;
    double bw = f->x_span > 0 ? f->x_span / (double)bins : 1;
    o->on = true;
    o->n_ranks = n;
    o->per_row = per_row;
    o->order = order;
    o->lane = lane_text ? tf_figure_str(f, lane_text) : NULL;
    free(o->ranks);
    o->ranks = calloc(n ? n : 1, sizeof *o->ranks);
    struct row_acc r = {.t = malloc(ROW_CLASSES * bins * sizeof(double))};
    long long *rk = malloc(per_row * sizeof *rk);
    struct at_rank *at = malloc(per_row * sizeof *at);
    struct tf_buf text, list;
    tf_buf_init(&text);
    tf_buf_init(&list);
    bool ok = o->ranks && r.t && rk && at && (!lane_text || o->lane);
    for (size_t i0 = 0, row = 0; ok && i0 < n; i0 += per_row, row++) {
        size_t cnt = n - i0 < per_row ? n - i0 : per_row;
        r.n = 0;
        memset(r.t, 0, ROW_CLASSES * bins * sizeof(double));
        /* The row's members in rank order: its sums do not depend on the
         * order asked, nor on the order the ranks were read in. */
        for (size_t j = 0; j < cnt; j++)
            at[j] = (struct at_rank){m[i0 + j].rank, i0 + j};
        qsort(at, cnt, sizeof *at, by_at_rank);
        for (size_t j = 0; j < cnt; j++) {
            rk[j] = at[j].rank;
            lay_member(&r, &m[at[j].i], bins, bw);
        }
        const long long *sorted = rk;
        tf_buf_clear(&text);
        tf_buf_clear(&list);
        tf_ov_ranks_list(&text, sorted, cnt, true);
        tf_ov_ranks_list(&list, sorted, cnt, false);
        struct tf_lane *ln = text.oom ? NULL : tf_figure_add_lane(f, NULL, text.data);
        ok = ln && !list.oom;
        if (!ok)
            break;
        ln->n_ranks = cnt;
        ln->rank_lo = sorted[0];
        ln->rank_hi = sorted[cnt - 1];
        ln->ranks = tf_figure_buf(f, &list);
        ln->trace = cnt == 1 ? m[at[0].i].trace : SIZE_MAX; /* a row of one rank: its trace */
        ok = ln->ranks && row_bars(f, row, &r, bins, bw, cnt, ms_per_unit, clock_ms);
        for (size_t j = 0; ok && j < cnt; j++) {
            const struct tf_ov_member *x = &m[i0 + j];
            double per_ms = x->k * ms_per_unit; /* ms per unit of its own axis */
            o->ranks[i0 + j] = (struct tf_rank_stat){
                .rank = x->rank,
                .row = row,
                .trace = x->trace,
                .busy_ms = x->s->busy * per_ms,
                .window_ms = x->s->span * per_ms,
                .has_end = x->s->end >= 0,
                .end_ms = x->s->end >= 0 ? end_of(x) * ms_per_unit : 0,
            };
        }
    }
    free(r.t);
    free(rk);
    free(at);
    tf_buf_fini(&text);
    tf_buf_fini(&list);
    return ok && tf_ov_prune_legend(f, m, n) && spread_stats(o);
}
