/* critpath_join.c - the critical path's rows before its graph
 * (rules/critpath_int.h): the rows HTA keeps, the kernels joined to their
 * launches by Kineto's ac2g flows, and the synchronisation calls named in
 * a trace that has no cuda_sync rows.
 */
#include "rules/critpath_int.h"

#include <stdlib.h>
#include <string.h>

#define str tf_cp_str

/* --- HTA's rows ------------------------------------------------------------------- */

int tf_cp_i64_cmp(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return (x > y) - (x < y);
}

bool tf_cp_hta_filters(const struct tf_cp *cp, bool *any, int64_t *lim)
{
    bool mtia = !cp->sym_cuda && !cp->sym_hip && cp->sym_mtia;
    *any = false;
    *lim = 0;
    if (cp->steps.n < 2 || mtia)
        return false;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if ((r->kind & K_STEP) && !tf_cp_hta_gpu_row(cp, r) && (!*any || r->ts > *lim)) {
            *lim = r->ts;
            *any = true;
        }
    }
    return true;
}

int64_t *tf_cp_hta_kept(const struct tf_cp *cp, bool any, int64_t lim, size_t *nk)
{
    int64_t *kept = malloc((cp->n_rows ? cp->n_rows : 1) * sizeof *kept);
    *nk = 0;
    if (!kept)
        return NULL;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (!tf_cp_hta_gpu_row(cp, r) && any && r->ts < lim && r->corr >= 0)
            kept[(*nk)++] = r->corr;
    }
    qsort(kept, *nk, sizeof *kept, tf_cp_i64_cmp);
    return kept;
}

/* HTA's _filter_irrelevant_gpu_kernels (trace.py), as TraceAnalysis loads
 * a trace of several ProfilerStep#N names (not MTIA's): the CPU rows that
 * start before the last step's start, and the GPU rows whose correlation
 * one of them has.  The last step is out of HTA's reach: so are its rows. */
bool tf_cp_hta_filter(struct tf_cp *cp)
{
    bool any;
    int64_t lim;
    if (!tf_cp_hta_filters(cp, &any, &lim))
        return true;
    size_t n_cpu = 0;
    for (size_t i = 0; i < cp->n_rows; i++)
        n_cpu += !tf_cp_hta_gpu_row(cp, &cp->rows[i]);
    n_cpu += cp->n_pure; /* the pure CPU rows pass 1 left out (critpath_int.h) */
    if (!n_cpu)
        return true;
    cp->filt_on = true;
    size_t nk;
    int64_t *kept = tf_cp_hta_kept(cp, any, lim, &nk);
    if (!kept)
        return false;
    cp->filt_any = any;
    cp->filt_lim = lim;
    size_t k = 0, wj = 0, wn = 0;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        bool keep = tf_cp_hta_gpu_row(cp, r)
                        ? r->corr >= 0 && bsearch(&r->corr, kept, nk, sizeof *kept, tf_cp_i64_cmp)
                        : any && r->ts < lim;
        if (wj < cp->n_waits && cp->waits[wj].row == i) { /* its wait goes with it */
            if (keep) {
                cp->waits[wn] = cp->waits[wj];
                cp->waits[wn++].row = (uint32_t)k;
            }
            wj++;
        }
        if (keep) {
            if (cp->idx)
                cp->idx[k] = cp->idx[i];
            cp->rows[k++] = *r;
        }
    }
    cp->n_rows = k;
    cp->n_waits = wn;
    free(kept);
    return true;
}

/* Rows by thread, then start (the flows' binding). */
struct trow {
    uint64_t thr;
    int64_t ts;
    uint32_t row;
};

static int trow_cmp(const void *a, const void *b)
{
    const struct trow *x = a, *y = b;
    if (x->thr != y->thr)
        return x->thr < y->thr ? -1 : 1;
    if (x->ts != y->ts)
        return x->ts < y->ts ? -1 : 1;
    return (x->row > y->row) - (x->row < y->row);
}

/* The row a flow end binds to on its thread: the one that starts at its
 * time, else (bp "e", and every 's') the latest that encloses it, else
 * (an 'f' binding to the next slice) the first that starts after it. */
static uint32_t flow_row(const struct tf_cp *cp, const struct trow *v, size_t n,
                         const struct flow *fl)
{
    uint64_t thr = (uint64_t)fl->pidk << 32 | fl->tidk;
    size_t lo = 0, hi = n;
    while (lo < hi) { /* the first (thr, ts) above (thr, fl->ts) */
        size_t m = (lo + hi) / 2;
        if (v[m].thr < thr || (v[m].thr == thr && v[m].ts <= fl->ts))
            lo = m + 1;
        else
            hi = m;
    }
    if (lo > 0 && v[lo - 1].thr == thr && v[lo - 1].ts == fl->ts)
        return v[lo - 1].row;
    for (size_t k = lo, walked = 0; k > 0 && v[k - 1].thr == thr && walked < 64; k--, walked++)
        if (cp->rows[v[k - 1].row].end >= fl->ts)
            return v[k - 1].row;
    if (fl->ph == 'f' && fl->bp != 'e' && lo < n && v[lo].thr == thr)
        return v[lo].row;
    return NONE;
}

static int flow_cmp(const void *a, const void *b)
{
    const struct flow *x = a, *y = b;
    if (x->id != y->id)
        return x->id < y->id ? -1 : 1;
    return (x->ph > y->ph) - (x->ph < y->ph); /* 'f' before 's' */
}

#define FLOW_CORR (INT64_C(1) << 62) /* correlation ids made from flows */

/* Kineto's ac2g flows join a GPU row without a correlation id to its
 * launch: the GPU row takes the launch's id, or both take one of the
 * flow's own when the launch has none either. */
bool tf_cp_flow_join(struct tf_cp *cp)
{
    if (!cp->n_flows || !cp->gpu_nocorr) /* Kineto's usual trace: ids everywhere */
        return true;
    struct trow *v = malloc(cp->n_rows * sizeof *v + 1);
    if (!v)
        return false;
    for (size_t i = 0; i < cp->n_rows; i++)
        v[i] = (struct trow){(uint64_t)cp->rows[i].pidk << 32 | cp->rows[i].tidk,
                             cp->rows[i].ts, (uint32_t)i};
    qsort(v, cp->n_rows, sizeof *v, trow_cmp);
    qsort(cp->flows, cp->n_flows, sizeof *cp->flows, flow_cmp);
    for (size_t a = 0; a < cp->n_flows;) {
        size_t b = a;
        while (b < cp->n_flows && cp->flows[b].id == cp->flows[a].id)
            b++;
        /* one 's', its 'f's */
        uint32_t src = NONE;
        for (size_t k = a; k < b; k++)
            if (cp->flows[k].ph == 's')
                src = flow_row(cp, v, cp->n_rows, &cp->flows[k]);
        for (size_t k = a; k < b && src != NONE; k++) {
            if (cp->flows[k].ph != 'f')
                continue;
            uint32_t dst = flow_row(cp, v, cp->n_rows, &cp->flows[k]);
            struct row *l = &cp->rows[src];
            if (dst == NONE || dst == src || cp->rows[dst].corr >= 0 ||
                (cp->rows[dst].stream == -1 && !(cp->rows[dst].kind & K_SYNC)))
                continue;
            if (l->corr < 0)
                l->corr = FLOW_CORR + (int64_t)cp->flows[k].id;
            cp->rows[dst].corr = l->corr;
        }
        a = b;
    }
    free(v);
    return true;
}

/* --- synchronisation calls by name (Nsight Systems, rocpd) ---------------------- */

unsigned char tf_cp_sync_call(const char *name)
{
    static const struct {
        const char *name;
        unsigned char sc;
    } calls[] = {
        {"cudaDeviceSynchronize", SC_DEVICE}, {"hipDeviceSynchronize", SC_DEVICE},
        {"cuCtxSynchronize", SC_DEVICE},      {"cudaStreamSynchronize", SC_STREAM},
        {"hipStreamSynchronize", SC_STREAM},  {"cuStreamSynchronize", SC_STREAM},
        {"cudaEventSynchronize", SC_EVENT},   {"hipEventSynchronize", SC_EVENT},
        {"cuEventSynchronize", SC_EVENT},     {"cudaStreamWaitEvent", SC_WAIT},
        {"hipStreamWaitEvent", SC_WAIT},      {"cuStreamWaitEvent", SC_WAIT},
    };
    for (size_t i = 0; i < sizeof calls / sizeof calls[0]; i++)
        if (strcmp(name, calls[i].name) == 0)
            return calls[i].sc;
    return 0;
}

void tf_cp_calls_launches(struct tf_cp *cp)
{
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (r->stream != -1 && !(r->kind & K_SYNC) && r->link != NONE)
            cp->rows[r->link].kind |= K_LAUNCH;
    }
}

static int launch_cmp(const void *a, const void *b)
{
    return trow_cmp(a, b);
}

bool tf_cp_calls_waits(struct tf_cp *cp, const bool *in)
{
    size_t n = 0;
    for (size_t i = 0; i < cp->n_rows; i++)
        n += (cp->rows[i].kind & K_LAUNCH) && cp->rows[i].stream == -1 && cp->rows[i].link != NONE;
    struct trow *v = malloc(n * sizeof *v + 1);
    if (!v)
        return false;
    n = 0;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if ((r->kind & K_LAUNCH) && r->stream == -1 && r->link != NONE)
            v[n++] = (struct trow){(uint64_t)r->pidk << 32 | r->tidk, r->ts, (uint32_t)i};
    }
    qsort(v, n, sizeof *v, launch_cmp);
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *w = &cp->rows[i];
        if (!in[i] || w->call != SC_WAIT)
            continue;
        uint64_t thr = (uint64_t)w->pidk << 32 | w->tidk;
        size_t lo = 0, hi = n;
        while (lo < hi) { /* the first launch of the thread at or after the wait */
            size_t m = (lo + hi) / 2;
            if (v[m].thr < thr || (v[m].thr == thr && v[m].ts < w->ts))
                lo = m + 1;
            else
                hi = m;
        }
        if (lo == 0 || v[lo - 1].thr != thr)
            continue;
        uint32_t src = cp->rows[v[lo - 1].row].link;
        for (size_t k = lo; k < n && v[k].thr == thr; k++) {
            uint32_t dst = cp->rows[v[k].row].link;
            if (cp->rows[dst].stream != cp->rows[src].stream) {
                cp->rows[dst].ksync = src;
                break;
            }
        }
    }
    free(v);
    return true;
}
