/* critpath_hta.c - the orders HTA gives equal times (rules/critpath_int.h).
 * HTA sorts its frames with pandas' sort_values by one column: numpy's
 * quicksort, which is not stable, so which of two rows at one microsecond
 * comes first depends on the whole column (rules/npsort.h).  Under
 * --stats-compat hta the critical path sorts as HTA does, from the same
 * rows in the same order: the kernels and syncs of the window (its
 * _construct_graph_from_kernels), the launches and GPU rows of its
 * queue lengths (TraceCounters), and the launches beside which it places
 * a cudaEventRecord and a cudaStreamWaitEvent (the kernel an event
 * records, the kernel that waits for it).
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
    for (size_t i = 0; i < n; i++) {
        ng += cp->rows[i].stream != -1;
        nl += cp->rows[i].stream == -1 && (cp->rows[i].kind & K_LAUNCH);
    }
    struct crow *gpu = malloc((ng ? ng : 1) * sizeof *gpu);
    struct crow *lau = malloc((nl ? nl : 1) * sizeof *lau);
    bool ok = gpu && lau;
    ng = nl = 0;
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
            bool gpurow = pass == 1 && r->stream != -1 && first_of(lau, nl, r->corr) < nl;
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
        r->q = (signed char)(qc[s].q == 0 || qc[s].q == 1 ? qc[s].q : 2); /* 0 and 1 read */
    }
    free(qc);
    free(e);
    free(gpu);
    free(lau);
    return ok;
}

/* --- the kernels of cudaEventRecord and cudaStreamWaitEvent ------------------------- */

/* Rows picked by `want`, in row order, then sorted by start as numpy sorts. */
static struct ix *picked(const struct tf_cp *cp, bool (*want)(const struct tf_cp *, size_t),
                         size_t *n)
{
    size_t m = 0;
    for (size_t i = 0; i < cp->n_rows; i++)
        m += want(cp, i);
    struct ix *v = malloc((m ? m : 1) * sizeof *v);
    *n = 0;
    if (!v)
        return NULL;
    for (size_t i = 0; i < cp->n_rows; i++)
        if (want(cp, i))
            v[(*n)++] = (struct ix){0, cp->rows[i].ts, (uint32_t)i};
    if (!tf_cp_np_order(v, *n)) {
        free(v);
        return NULL;
    }
    return v;
}

/* HTA's runtime_calls: a launch joined to a GPU row (its index_correlation
 * a kernel's).  The launch names are HTA's (K_LAUNCH). */
static bool is_launch(const struct tf_cp *cp, size_t i)
{
    const struct row *r = &cp->rows[i];
    return r->stream == -1 && (r->kind & K_LAUNCH) && r->link != NONE &&
           cp->rows[r->link].stream != -1;
}

static bool is_record(const struct tf_cp *cp, size_t i)
{
    const struct row *r = &cp->rows[i];
    return r->stream == -1 && tf_cp_named(cp, r, "cudaEventRecord");
}

/* A cudaStreamWaitEvent joined to its GPU row (on the waiting stream). */
static bool is_wait(const struct tf_cp *cp, size_t i)
{
    const struct row *r = &cp->rows[i];
    return r->stream == -1 && r->link != NONE && cp->rows[r->link].stream != -1 &&
           tf_cp_named(cp, r, "cudaStreamWaitEvent");
}

/* A group of HTA's comb frames: (pid, tid, stream) or (gpu, stream). */
struct grp {
    uint32_t a, b;
    int64_t stream;
    int64_t id; /* the running max or min launch id */
};

static struct grp *group(struct grp **g, size_t *n, size_t *cap, uint32_t a, uint32_t b,
                         int64_t stream, int64_t id0)
{
    for (size_t i = 0; i < *n; i++)
        if ((*g)[i].a == a && (*g)[i].b == b && (*g)[i].stream == stream)
            return &(*g)[i];
    if (!TF_GROW(*g, *n, *cap))
        return NULL;
    (*g)[*n] = (struct grp){a, b, stream, id0};
    return &(*g)[(*n)++];
}

/* The event of a cudaEventRecord: its correlation's stream and GPU, from
 * the first row that waits on it (args.wait_on_stream and its pid; ws:
 * those rows by the correlation waited on), or false. */
static bool record_stream(const struct tf_cp *cp, const struct crow *ws, size_t nws, int64_t corr,
                          int64_t *stream, uint32_t *pidk)
{
    size_t j = first_of(ws, nws, corr);
    if (j == nws)
        return false;
    const struct row *r = &cp->rows[ws[j].row];
    *stream = tf_cp_wait_of(cp->waits, cp->n_waits, ws[j].row)->stream; /* ws: rows with one */
    *pidk = r->pidk;
    return true;
}

/* Concatenated launches (l, nl) and others (o, no), sorted by start as
 * numpy sorts; the entries' key: a launch's id (its place in l), or -1. */
static struct ix *comb(const struct ix *l, size_t nl, const struct ix *o, size_t no)
{
    struct ix *c = malloc((nl + no ? nl + no : 1) * sizeof *c);
    if (!c)
        return NULL;
    for (size_t i = 0; i < nl; i++)
        c[i] = (struct ix){(int64_t)i, l[i].t, l[i].row};
    for (size_t i = 0; i < no; i++)
        c[nl + i] = (struct ix){-1, o[i].t, o[i].row};
    if (!tf_cp_np_order(c, nl + no)) {
        free(c);
        return NULL;
    }
    return c;
}

bool tf_cp_hta_event_links(struct tf_cp *cp)
{
    size_t nl = 0, nr = 0, nw = 0, ng = 0, capg = 0;
    struct ix *l = picked(cp, is_launch, &nl), *rec = picked(cp, is_record, &nr);
    struct ix *w = picked(cp, is_wait, &nw), *c = NULL;
    struct grp *g = NULL;
    size_t nws = 0;
    for (size_t j = 0; j < cp->n_waits; j++)
        nws += cp->waits[j].stream > -1;
    struct crow *ws = malloc((nws ? nws : 1) * sizeof *ws);
    nws = 0;
    bool ok = l && rec && w && ws;
    for (size_t j = 0; ok && j < cp->n_waits; j++) /* in row order */
        if (cp->waits[j].stream > -1)
            ws[nws++] = (struct crow){cp->waits[j].corr, cp->waits[j].row};
    if (ok)
        qsort(ws, nws, sizeof *ws, crow_cmp);
    /* the records with an event stream (the others HTA drops) */
    size_t k = 0;
    struct ix *rs = NULL;
    if (ok && !(rs = malloc((nr ? nr : 1) * sizeof *rs)))
        ok = false;
    for (size_t i = 0; ok && i < nr; i++) {
        int64_t stream;
        uint32_t pidk;
        if (record_stream(cp, ws, nws, cp->rows[rec[i].row].corr, &stream, &pidk))
            rs[k++] = (struct ix){stream, rec[i].t, rec[i].row};
    }
    /* each record: the largest launch id at or before it in the comb of
     * its GPU and stream */
    free(cp->hta_prev);
    cp->hta_prev = NULL;
    cp->n_hta_prev = 0;
    if (ok && !(cp->hta_prev = malloc((k ? k : 1) * sizeof *cp->hta_prev)))
        ok = false;
    if (ok && !(c = comb(l, nl, rs, k)))
        ok = false;
    for (size_t i = 0; ok && i < nl + k; i++) {
        const struct row *r = &cp->rows[c[i].row];
        bool launch = c[i].key >= 0;
        int64_t stream;
        uint32_t pidk;
        if (launch) {
            stream = cp->rows[r->link].stream;
            pidk = cp->rows[r->link].pidk;
        } else if (!record_stream(cp, ws, nws, r->corr, &stream, &pidk)) {
            continue;
        }
        struct grp *gr = group(&g, &ng, &capg, pidk, 0, stream, -1);
        if (!gr) {
            ok = false;
            break;
        }
        if (launch && c[i].key > gr->id)
            gr->id = c[i].key;
        if (!launch && gr->id >= 0)
            cp->hta_prev[cp->n_hta_prev++] =
                (struct crow){r->corr, cp->rows[l[gr->id].row].link};
    }
    if (ok)
        qsort(cp->hta_prev, cp->n_hta_prev, sizeof *cp->hta_prev, crow_cmp);
    free(c);
    c = NULL;
    ng = 0;
    /* each cudaStreamWaitEvent: the smallest launch id at or after it in
     * the comb of its thread and waiting stream */
    free(cp->hta_next);
    cp->hta_next = NULL;
    cp->n_hta_next = 0;
    if (ok && !(cp->hta_next = malloc((nw ? nw : 1) * sizeof *cp->hta_next)))
        ok = false;
    if (ok && !(c = comb(l, nl, w, nw)))
        ok = false;
    for (size_t i = nl + nw; ok && i-- > 0;) {
        const struct row *r = &cp->rows[c[i].row];
        bool launch = c[i].key >= 0;
        struct grp *gr = group(&g, &ng, &capg, r->pidk, r->tidk, cp->rows[r->link].stream,
                               INT64_MAX);
        if (!gr) {
            ok = false;
            break;
        }
        if (launch && c[i].key < gr->id)
            gr->id = c[i].key;
        if (!launch && gr->id != INT64_MAX)
            cp->hta_next[cp->n_hta_next++] =
                (struct crow){(int64_t)c[i].row, cp->rows[l[gr->id].row].link};
    }
    if (ok)
        qsort(cp->hta_next, cp->n_hta_next, sizeof *cp->hta_next, crow_cmp);
    free(c);
    free(g);
    free(l);
    free(rec);
    free(rs);
    free(w);
    free(ws);
    return ok;
}

uint32_t tf_cp_hta_recorded(const struct tf_cp *cp, int64_t corr)
{
    size_t j = first_of(cp->hta_prev, cp->n_hta_prev, corr);
    return j < cp->n_hta_prev ? cp->hta_prev[j].row : NONE;
}

uint32_t tf_cp_hta_waiting(const struct tf_cp *cp, uint32_t call)
{
    size_t j = first_of(cp->hta_next, cp->n_hta_next, (int64_t)call);
    return j < cp->n_hta_next ? cp->hta_next[j].row : NONE;
}
