/* critpath_hta.c - the orders HTA gives equal times (rules/critpath_int.h).
 * HTA sorts its frames with pandas' sort_values by one column: numpy's
 * quicksort, which is not stable, so which of two rows at one microsecond
 * comes first depends on the whole column (rules/npsort.h).  Under
 * --stats-compat hta the critical path sorts as HTA does, from the same
 * rows in the same order: the kernels and syncs of the window (its
 * _construct_graph_from_kernels), and the launches and GPU rows of its
 * queue lengths (TraceCounters).
 */
#include "rules/critpath_int.h"

#include <stdlib.h>
#include <string.h>

#include "rules/npsort.h"

bool tf_cp_np_order(struct ix *v, size_t n)
{
    if (n < 2)
        return true;
    int64_t *key = calloc(n, sizeof *key); /* calloc: gcc cannot see the loop fill it */
    uint32_t *ix = malloc(n * sizeof *ix);
    struct ix *tmp = malloc(n * sizeof *tmp);
    bool ok = key && ix && tmp;
    if (ok) {
        for (size_t i = 0; i < n; i++) {
            key[i] = v[i].t;
            ix[i] = (uint32_t)i;
        }
        tf_np_argsort(key, ix, n);
        for (size_t i = 0; i < n; i++)
            tmp[i] = v[ix[i]];
        memcpy(v, tmp, n * sizeof *v);
    }
    free(key);
    free(ix);
    free(tmp);
    return ok;
}

/* (correlation, row), by correlation then row. */
struct crow {
    int64_t corr;
    uint32_t row;
};

static int crow_cmp(const void *a, const void *b)
{
    const struct crow *x = a, *y = b;
    if (x->corr != y->corr)
        return x->corr < y->corr ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* The first of v[0..n) with correlation c, or n. */
static size_t first_of(const struct crow *v, size_t n, int64_t c)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (v[m].corr < c)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < n && v[lo].corr == c ? lo : n;
}

struct qcount {
    int64_t stream;
    int32_t q;
};

/* HTA's queue lengths: its launches (the launch names), each once per GPU
 * row (a stream) of its correlation, else once with no stream; then the
 * GPU rows whose correlation a launch has; all sorted by start as numpy
 * sorts; then per stream +1 at a launch, -1 at a GPU row.  A launch keeps
 * the count after its last entry. */
bool tf_cp_hta_queues(struct tf_cp *cp)
{
    size_t n = cp->n_rows, ng = 0, nl = 0;
    struct crow *gpu = malloc((n ? n : 1) * sizeof *gpu);
    struct crow *lau = malloc((n ? n : 1) * sizeof *lau);
    bool ok = gpu && lau;
    for (size_t i = 0; ok && i < n; i++) {
        const struct row *r = &cp->rows[i];
        if (r->stream != -1)
            gpu[ng++] = (struct crow){r->corr, (uint32_t)i};
        else if (r->kind & K_LAUNCH)
            lau[nl++] = (struct crow){r->corr, (uint32_t)i};
    }
    if (ok) {
        qsort(gpu, ng, sizeof *gpu, crow_cmp);
        qsort(lau, nl, sizeof *lau, crow_cmp);
    }
    /* entries: key = the stream (INT64_MIN: none), t = the start */
    size_t ne = 0, cap = 0;
    struct ix *e = NULL;
    for (size_t pass = 0; ok && pass < 2; pass++) {
        for (size_t i = 0; ok && i < n; i++) {
            const struct row *r = &cp->rows[i];
            bool launch = r->stream == -1 && (r->kind & K_LAUNCH);
            bool gpurow = r->stream != -1 && first_of(lau, nl, r->corr) < nl;
            if (pass == 0 && launch) {
                size_t j = first_of(gpu, ng, r->corr);
                do {
                    if (!TF_GROW(e, ne, cap)) {
                        ok = false;
                        break;
                    }
                    int64_t s = j < ng ? cp->rows[gpu[j].row].stream : INT64_MIN;
                    e[ne++] = (struct ix){s, r->ts, (uint32_t)i};
                } while (++j < ng && gpu[j].corr == r->corr);
            } else if (pass == 1 && gpurow) {
                if (!TF_GROW(e, ne, cap))
                    ok = false;
                else
                    e[ne++] = (struct ix){r->stream, r->ts, (uint32_t)i};
            }
        }
    }
    ok = ok && tf_cp_np_order(e, ne);
    struct qcount *qc = NULL;
    size_t nq = 0, capq = 0;
    for (size_t k = 0; ok && k < ne; k++) {
        if (e[k].key == INT64_MIN)
            continue;
        size_t s = 0;
        while (s < nq && qc[s].stream != e[k].key)
            s++;
        if (s == nq) {
            if (!TF_GROW(qc, nq, capq)) {
                ok = false;
                break;
            }
            qc[nq++] = (struct qcount){e[k].key, 0};
        }
        struct row *r = &cp->rows[e[k].row];
        qc[s].q += r->stream == -1 ? 1 : -1;
        r->q = qc[s].q;
    }
    free(qc);
    free(e);
    free(gpu);
    free(lau);
    return ok;
}
