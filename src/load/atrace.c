/* atrace.c - Android's atrace marks, as both the Perfetto loader (print
 * and zero ftrace events, pftrace_ftrace.c) and the ftrace text loader
 * (tracing_mark_write lines, ftrace.c) read them: one reading, one set of
 * records; see pftrace_int.h.
 *
 * Slices are per emitting thread (the ftrace event's pid is the tid) on a
 * stack: B|tgid|name opens, E closes the innermost, on the lane (tgid,
 * tid).  C|tgid|name|value is a counter of process tgid; S|/F| (async, by
 * name and cookie) a slice on the process's lane named after it.  The
 * kernel's `zero` events carry the same (flag 1 begin, 2 end, 4 counter;
 * 8/16 async begin/end) with the tgid in their pid.
 */
#include "load/pftrace_int.h"

#include <stdlib.h>
#include <string.h>

static struct pf_stack *atrace_stack(struct pf *p, int64_t tid)
{
    uint64_t k;
    if (pf_map_get(&p->atrace_of, (uint64_t)tid, &k))
        return &p->atr[k - 1];
    size_t cap = p->cap_atr;
    if (!TF_GROW(p->atr, p->n_atr, p->cap_atr))
        return NULL;
    if (p->cap_atr != cap) {
        int64_t *t = realloc(p->atr_tid, p->cap_atr * sizeof *t);
        if (!t)
            return NULL;
        p->atr_tid = t;
    }
    if (!pf_map_put(&p->atrace_of, (uint64_t)tid, p->n_atr + 1))
        return NULL;
    memset(&p->atr[p->n_atr], 0, sizeof p->atr[0]);
    p->atr_tid[p->n_atr] = tid;
    return &p->atr[p->n_atr++];
}

/* The lane of an atrace thread: its process's, as far as known. */
static void atrace_lane(struct pf *p, int64_t tid, int64_t tgid, struct tf_id *pid,
                        struct tf_id *t)
{
    if (tgid <= 0) {
        const struct pf_thread *th = pf_thread(p, tid);
        tgid = th && th->tgid >= 0 ? th->tgid : tid;
    }
    *pid = (struct tf_id){TF_ID_NUM, tgid, NULL};
    *t = (struct tf_id){TF_ID_NUM, tid, NULL};
}

static bool atrace_begin(struct pf *p, int64_t tid, int64_t tgid, uint32_t name, int64_t ts)
{
    struct pf_stack *st = atrace_stack(p, tid);
    if (!st)
        return tf_diag_oom(p->d, p->file);
    if (tgid > 0)
        pf_name_thread(p, tid, tgid, 0, 0);
    return pf_push(p, st, name, pf_cstr(p, "atrace"), ts, NULL);
}

static bool atrace_end(struct pf *p, int64_t tid, int64_t tgid, int64_t ts)
{
    struct pf_stack *st = atrace_stack(p, tid);
    if (!st)
        return tf_diag_oom(p->d, p->file);
    struct tf_id pid, t;
    atrace_lane(p, tid, tgid, &pid, &t);
    return pf_pop(p, st, &pid, &t, ts, false);
}

/* An async slice S|/F|: kept by (tgid, name, cookie) in the flows map's
 * sibling, a small list (few are open at a time). */
struct async_open {
    int64_t tgid, cookie, ts;
    uint32_t name;
};
static bool atrace_async(struct pf *p, bool begin, int64_t tgid, uint32_t name, int64_t cookie,
                         int64_t ts)
{
    /* open async slices of one (tgid, name) live in one of the atrace
     * stacks (keyed by a negative id), each with its cookie: F ends the
     * latest S of its cookie, whatever opened since */
    uint64_t key = ((uint64_t)name << 32) ^ (uint64_t)(tgid & 0xffffffff);
    int64_t skey = -(int64_t)(key & 0x3fffffffffffffffULL) - 1;
    struct pf_stack *st = atrace_stack(p, skey);
    if (!st)
        return tf_diag_oom(p->d, p->file);
    if (begin) {
        if (!pf_push(p, st, name, pf_cstr(p, "atrace async"), ts, NULL))
            return false;
        st->v[st->n - 1].cookie = cookie;
        return true;
    }
    size_t i = st->n;
    while (i > 0 && st->v[i - 1].cookie != cookie)
        i--;
    if (i == 0) {
        p->n_unmatched_end += p->pass == 1;
        return true;
    }
    struct pf_frame f = st->v[i - 1];
    memmove(st->v + i - 1, st->v + i, (st->n - i) * sizeof *st->v);
    st->n--;
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'X';
    r.pid = (struct tf_id){TF_ID_NUM, tgid, NULL};
    r.tid = (struct tf_id){TF_ID_STR, 0, pf_s(p, name)};
    r.name = pf_s(p, f.name);
    r.cat = pf_s(p, f.cat);
    r.ts = f.ts;
    r.dur = ts > f.ts ? ts - f.ts : 0;
    r.has_dur = true;
    free(f.args);
    return pf_emit(p, &r);
}

static int64_t num_of(const char *s, size_t n, bool *ok)
{
    char tmp[32];
    if (n == 0 || n >= sizeof tmp) {
        *ok = false;
        return 0;
    }
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char *end;
    long long v = strtoll(tmp, &end, 10);
    *ok = *end == 0;
    return v;
}

static double dbl_of(const char *s, size_t n, bool *ok)
{
    char tmp[48];
    if (n == 0 || n >= sizeof tmp) {
        *ok = false;
        return 0;
    }
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char *end;
    double v = strtod(tmp, &end);
    *ok = end != tmp && (*end == 0 || *end == ' ');
    return v;
}

/* --- atrace in time order -------------------------------------------------------
 * Ftrace comes in per-CPU bundles: a thread that moved between CPUs has its
 * begin in one bundle and its end in another, written later or earlier.
 * Atrace events therefore wait in a buffer of at most AEV_MAX; when it is
 * full, the earlier half (by time, ties in file order) is applied, and at
 * the end of the pass the rest.  Text (ftrace.c) is in time order already,
 * across CPUs: its buffer is small (pf.aev_max), so its memory stays the
 * same however long the text. */
#define AEV_MAX ((size_t)1 << 18)

struct pf_aev {
    int64_t ts, tid, tgid, cookie;
    double v;
    uint64_t seq;
    uint32_t name;
    char kind; /* B E C S F */
};

static int aev_cmp(const void *x, const void *y)
{
    const struct pf_aev *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static bool aev_apply(struct pf *p, const struct pf_aev *e)
{
    switch (e->kind) {
    case 'B': return atrace_begin(p, e->tid, e->tgid, e->name, e->ts);
    case 'E': return atrace_end(p, e->tid, e->tgid, e->ts);
    case 'C': {
        /* the line's pid is the process's, as in B|: it names the
         * emitting thread's process too */
        if (e->tgid > 0)
            pf_name_thread(p, e->tid, e->tgid, 0, 0);
        struct tf_id pid = {TF_ID_NUM, e->tgid, NULL};
        return pf_counter(p, &pid, pf_s(p, e->name), NULL, e->ts, e->v);
    }
    default: return atrace_async(p, e->kind == 'S', e->tgid, e->name, e->cookie, e->ts);
    }
}

static bool aev_flush(struct pf *p, size_t n)
{
    if (!p->n_aev)
        return true;
    qsort(p->aev, p->n_aev, sizeof *p->aev, aev_cmp);
    for (size_t i = 0; i < n; i++)
        if (!aev_apply(p, &p->aev[i]))
            return false;
    memmove(p->aev, p->aev + n, (p->n_aev - n) * sizeof *p->aev);
    p->n_aev -= n;
    return true;
}

bool pf_atrace_push(struct pf *p, char kind, int64_t ts, int64_t tid, int64_t tgid,
                     uint32_t name, double v, int64_t cookie)
{
    size_t max = p->aev_max ? p->aev_max : AEV_MAX;
    if (p->n_aev >= max && !aev_flush(p, max / 2))
        return false;
    if (!TF_GROW(p->aev, p->n_aev, p->cap_aev))
        return tf_diag_oom(p->d, p->file);
    p->aev[p->n_aev++] = (struct pf_aev){ts, tid, tgid, cookie, v, p->aev_seq++, name, kind};
    return true;
}

/* One atrace line "B|1234|name" of thread tid at ts. */
bool pf_atrace_line(struct pf *p, int64_t tid, const char *s, size_t n, int64_t ts)
{
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\0'))
        n--;
    if (n < 1 || (n > 1 && s[1] != '|'))
        return true;
    char ph = s[0];
    /* f[0] the tgid, f[1] the name (it may hold '|'), f[2] a C value or an
     * S/F cookie (after the last '|') */
    const char *f[3] = {NULL, NULL, NULL};
    size_t len[3] = {0, 0, 0}, nf = 0;
    const char *end = s + n;
    if (n > 2) {
        f[0] = s + 2;
        const char *bar = memchr(f[0], '|', (size_t)(end - f[0]));
        len[0] = bar ? (size_t)(bar - f[0]) : (size_t)(end - f[0]);
        nf = 1;
        if (bar) {
            f[1] = bar + 1;
            len[1] = (size_t)(end - f[1]);
            nf = 2;
            if (ph == 'C' || ph == 'S' || ph == 'F') {
                const char *last = NULL;
                for (const char *x = f[1]; x < end; x++)
                    if (*x == '|')
                        last = x;
                if (last) {
                    len[1] = (size_t)(last - f[1]);
                    f[2] = last + 1;
                    len[2] = (size_t)(end - f[2]);
                    nf = 3;
                }
            }
        }
    }
    bool ok = true;
    int64_t tgid = nf >= 1 ? num_of(f[0], len[0], &ok) : 0;
    if (!ok)
        tgid = 0;
    switch (ph) {
    case 'B':
        if (nf < 2)
            return true;
        return pf_atrace_push(p, 'B', ts, tid, tgid, pf_str(p, (const uint8_t *)f[1], len[1]), 0, 0);
    case 'E':
        return pf_atrace_push(p, 'E', ts, tid, tgid, 0, 0, 0);
    case 'C': {
        if (nf < 3)
            return true;
        double v = dbl_of(f[2], len[2], &ok);
        if (!ok) {
            /* C|tgid|name|value|category (Android 12 on): the value
             * before the last '|' */
            const char *bar = NULL;
            for (const char *x = f[1]; x < f[2] - 1; x++)
                if (*x == '|')
                    bar = x;
            if (!bar)
                return true;
            v = dbl_of(bar + 1, (size_t)(f[2] - 1 - (bar + 1)), &ok);
            if (!ok)
                return true;
            len[1] = (size_t)(bar - f[1]);
        }
        return pf_atrace_push(p, 'C', ts, tid, tgid, pf_str(p, (const uint8_t *)f[1], len[1]), v, 0);
    }
    case 'S':
    case 'F': {
        if (nf < 2)
            return true;
        int64_t cookie = nf >= 3 ? num_of(f[2], len[2], &ok) : 0;
        return pf_atrace_push(p, ph, ts, tid, tgid, pf_str(p, (const uint8_t *)f[1], len[1]), 0,
                        cookie);
    }
    default:
        return true;
    }
}


/* --- the end of a pass ------------------------------------------------------------ */

bool pf_atrace_end(struct pf *p)
{
    if (!aev_flush(p, p->n_aev))
        return false;
    for (size_t i = 0; i < p->n_atr; i++) {
        struct tf_id pid, t;
        int64_t tid = p->atr_tid[i];
        if (tid < 0)
            continue; /* an async slice never finished: left out */
        atrace_lane(p, tid, 0, &pid, &t);
        while (p->atr[i].n)
            if (!pf_pop(p, &p->atr[i], &pid, &t, 0, true))
                return false;
    }
    return true;
}

void pf_atrace_reset(struct pf *p)
{
    p->n_aev = 0;
    p->aev_seq = 0;
    for (size_t i = 0; i < p->n_atr; i++) {
        for (size_t j = 0; j < p->atr[i].n; j++)
            free(p->atr[i].v[j].args);
        p->atr[i].n = 0;
    }
}
