/* hta_calc.c - the arithmetic of HTA's temporal breakdown and overlap, on
 * rows already in HTA's order (rules/hta.h): NumPy's sort order, pandas'
 * interval merge, and the two results.
 *
 * Why NumPy's own order: HTA rounds starts up and ends down, so a kernel
 * shorter than a microsecond can end before it starts.  Its merge starts
 * a new interval at every row that starts after all earlier ends, and such
 * a row, alone, adds a negative length; whether it is alone depends on
 * where the sort put it among rows of the same start.  pandas sorts with
 * NumPy's quicksort, an introsort that is not stable, so the order of
 * ties is NumPy's and nobody else's: this file sorts the same way
 * (rules/npsort_impl.h: median-of-three partitions, insertion sort from 16
 * items down, a heapsort after 2 log2(n) levels) so that its ties come out
 * as NumPy's do.  The unit tests compare it with NumPy on arrays full of
 * ties.
 */
#include "rules/hta.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

/* NumPy's comparison of floats: NaN sorts last. */
static bool lt(double a, double b)
{
    return a < b || (b != b && a == a);
}

#define NP_NAME np_argsort
#define NP_KEY double
#define NP_IDX size_t
#define NP_LT(a, b) lt(a, b)
#define NP_STATIC
#include "rules/npsort_impl.h"

void tf_hta_argsort(const double *v, size_t *idx, size_t n)
{
    for (size_t i = 0; i < n; i++)
        idx[i] = i;
    np_argsort(v, idx, n);
}

size_t tf_hta_merge(const struct tf_hta_iv *in, size_t n, struct tf_hta_iv *out, size_t *order)
{
    if (n == 0)
        return 0;
    double *ts = calloc(n, sizeof *ts);
    size_t *idx = malloc(n * sizeof *idx);
    size_t m = 0;
    if (!ts || !idx) {
        free(ts);
        free(idx);
        return SIZE_MAX;
    }
    for (size_t i = 0; i < n; i++)
        ts[i] = in[i].ts;
    tf_hta_argsort(ts, idx, n);
    if (order)
        memcpy(order, idx, n * sizeof *idx);
    /* A group starts where ts > the running maximum of the earlier ends
     * (pandas: (ts > end.shift().cummax()).cumsum()); its start is its
     * first row's, its end the largest. */
    double cummax = 0;
    for (size_t k = 0; k < n; k++) {
        const struct tf_hta_iv *r = &in[idx[k]];
        if (k == 0 || r->ts > cummax) {
            out[m++] = *r;
        } else if (r->end > out[m - 1].end) {
            out[m - 1].end = r->end;
        }
        if (k == 0 || r->end > cummax)
            cummax = r->end;
    }
    /* sort_values(by="ts") of the groups, NumPy's way again. */
    for (size_t g = 0; g < m; g++)
        ts[g] = out[g].ts;
    tf_hta_argsort(ts, idx, m);
    struct tf_hta_iv *tmp = malloc(m * sizeof *tmp);
    if (tmp) {
        for (size_t g = 0; g < m; g++)
            tmp[g] = out[idx[g]];
        memcpy(out, tmp, m * sizeof *tmp);
    }
    free(tmp);
    free(ts);
    free(idx);
    return tmp ? m : SIZE_MAX;
}

/* Sum of end - ts, as pandas computes it: end.sum() - ts.sum(). */
static double merged_len(const struct tf_hta_iv *g, size_t m)
{
    double e = 0, s = 0;
    for (size_t i = 0; i < m; i++)
        e += g[i].end, s += g[i].ts;
    return e - s;
}

/* The rows of k of one type, in k's order, merged into *out; the count,
 * or SIZE_MAX when out of memory. */
static size_t merge_type(const struct tf_hta_iv *k, const unsigned char *type, size_t n,
                         unsigned char want, struct tf_hta_iv **out)
{
    struct tf_hta_iv *sel = malloc((n ? n : 1) * sizeof *sel);
    *out = malloc((n ? n : 1) * sizeof **out);
    size_t c = 0;
    if (!sel || !*out) {
        free(sel);
        return SIZE_MAX;
    }
    for (size_t i = 0; i < n; i++)
        if (type[i] == want)
            sel[c++] = k[i];
    size_t m = tf_hta_merge(sel, c, *out, NULL);
    free(sel);
    return m;
}

struct edge {
    double t;
    int d;
};

static int edge_order(const void *a, const void *b)
{
    double x = ((const struct edge *)a)->t, y = ((const struct edge *)b)->t;
    return x < y ? -1 : x > y;
}

/* get_comm_comp_overlap: the time during which the running sum of +1/-1
 * (communication) and +2/-2 (computation) at the merged intervals' ends
 * is 3, over the merged communication time.  Ties at one time give
 * zero-length steps, so their order does not matter. */
static bool overlap(const struct tf_hta_iv *comm, size_t nc, const struct tf_hta_iv *comp,
                    size_t np, struct tf_hta_numbers *o)
{
    size_t n = 2 * (nc + np);
    struct edge *e = malloc((n ? n : 1) * sizeof *e);
    if (!e)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < nc; i++) {
        e[k++] = (struct edge){comm[i].ts, 1};
        e[k++] = (struct edge){comm[i].end, -1};
    }
    for (size_t i = 0; i < np; i++) {
        e[k++] = (struct edge){comp[i].ts, 2};
        e[k++] = (struct edge){comp[i].end, -2};
    }
    qsort(e, n, sizeof *e, edge_order);
    double both = 0;
    int run = 0;
    for (size_t i = 0; i < n; i++) {
        run += e[i].d;
        if (run == 3 && i + 1 < n)
            both += e[i + 1].t - e[i].t;
    }
    free(e);
    o->comm_us = merged_len(comm, nc);
    double ratio = both / o->comm_us;
    o->has_overlap = isfinite(ratio);
    o->overlap_pct = o->has_overlap ? 100.0 * ratio : 0.0;
    return true;
}

bool tf_hta_numbers(const struct tf_hta_iv *k, const unsigned char *type, size_t n,
                    struct tf_hta_numbers *out)
{
    memset(out, 0, sizeof *out);
    if (n == 0)
        return true;
    /* get_temporal_breakdown: every kernel, then the compute ones in the
     * order the first sort left them. */
    size_t *idx = malloc(n * sizeof *idx);
    struct tf_hta_iv *sorted = malloc(n * sizeof *sorted), *all = malloc(n * sizeof *all);
    unsigned char *stype = malloc(n);
    struct tf_hta_iv *comp = NULL, *comp2 = NULL, *comm = NULL;
    bool ok = idx && sorted && all && stype;
    if (ok) {
        /* merge_kernel_intervals sorts the frame in place: the compute
         * rows are then taken in that order, and sorted once more. */
        size_t m = tf_hta_merge(k, n, all, idx);
        for (size_t i = 0; m != SIZE_MAX && i < n; i++) {
            sorted[i] = k[idx[i]];
            stype[i] = type[idx[i]];
        }
        size_t mc = m == SIZE_MAX ? SIZE_MAX : merge_type(sorted, stype, n, TF_HTA_COMPUTE, &comp);
        ok = m != SIZE_MAX && mc != SIZE_MAX;
        if (ok) {
            out->kernel_us = all[m - 1].end - all[0].ts;
            out->idle_us = out->kernel_us - merged_len(all, m);
            out->compute_us = merged_len(comp, mc);
            out->non_compute_us = out->kernel_us - out->compute_us - out->idle_us;
            out->assert_failed = !(out->idle_us <= out->kernel_us) ||
                                 !(out->compute_us <= out->kernel_us) ||
                                 !(out->non_compute_us >= 0);
        }
    }
    /* get_comm_comp_overlap: both types in HTA's row order. */
    if (ok) {
        size_t np = merge_type(k, type, n, TF_HTA_COMPUTE, &comp2);
        size_t nc = np == SIZE_MAX ? SIZE_MAX : merge_type(k, type, n, TF_HTA_COMM, &comm);
        ok = np != SIZE_MAX && nc != SIZE_MAX && overlap(comm, nc, comp2, np, out);
    }
    free(idx);
    free(sorted);
    free(all);
    free(stype);
    free(comp);
    free(comp2);
    free(comm);
    return ok;
}
