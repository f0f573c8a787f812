/* critpath.c - the critical path's joins, queue lengths and graph (rules/critpath.h;
 * the rows: critpath_rows.c).  What it sets aside for the whole trace's
 * rows beyond them is small: 4 bytes a queue entry (launches and GPU
 * rows), the threads' keys made as the call stacks are walked.
 * The graph follows HTA's CPGraph (hta/analyzers/critical_path_analysis.py):
 * the order in which its nodes and edges are made here is the order HTA
 * makes them in, since the longest path's ties depend on it.
 */
#include "rules/critpath_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strtab.h"
#include "rules/kernels.h"

#define str tf_cp_str

/* --- joins ------------------------------------------------------------------------- */

static int ix_cmp(const void *a, const void *b)
{
    const struct ix *x = a, *y = b;
    if (x->key != y->key)
        return x->key < y->key ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* Joins each GPU row (a stream) to the CPU row of its correlation id. */
static bool join(struct tf_cp *cp)
{
    struct ix *cpu = malloc((cp->n_rows ? cp->n_rows : 1) * sizeof *cpu);
    if (!cpu)
        return false;
    size_t n = 0;
    for (size_t i = 0; i < cp->n_rows; i++)
        if (cp->rows[i].stream == -1 && cp->rows[i].corr >= 0 && !(cp->rows[i].kind & K_SYNC))
            cpu[n++] = (struct ix){cp->rows[i].corr, 0, (uint32_t)i};
    size_t up = 1; /* a trace's ids usually rise with its calls: then no sort */
    while (up < n && ix_cmp(&cpu[up - 1], &cpu[up]) < 0)
        up++;
    if (up < n)
        qsort(cpu, n, sizeof *cpu, ix_cmp);
    size_t at = n;
    for (size_t i = 0; i < cp->n_rows; i++) {
        struct row *r = &cp->rows[i];
        if ((r->stream == -1 && !(r->kind & K_SYNC)) || r->corr < 0)
            continue;
        /* the first id at or above r->corr: searched from the last one
         * found outwards (a trace's GPU rows come mostly in id order) */
        size_t lo = 0, hi = n, step = 1;
        if (at < n && cpu[at].key < r->corr) {
            lo = at + 1;
            while (lo + step < n && cpu[lo + step - 1].key < r->corr)
                lo += step, step *= 2;
            hi = lo + step < n ? lo + step : n;
        } else if (at < n) {
            hi = at;
            while (hi > step && cpu[hi - step].key >= r->corr)
                hi -= step, step *= 2;
            lo = hi > step ? hi - step : 0;
        }
        while (lo < hi) {
            size_t m = (lo + hi) / 2;
            if (cpu[m].key < r->corr)
                lo = m + 1;
            else
                hi = m;
        }
        at = lo;
        if (lo < n && cpu[lo].key == r->corr) {
            r->link = cpu[lo].row;
            /* HTA's index_correlation: the last of a launch's GPU rows (a
             * CUDA graph's); tracefig's own: the first */
            if (cp->hta || cp->rows[cpu[lo].row].link == NONE)
                cp->rows[cpu[lo].row].link = (uint32_t)i;
        }
    }
    free(cpu);
    return true;
}

/* Whether row a comes before row b in a queue: by start, then row. */
static inline bool q_before(const struct row *rows, uint32_t a, uint32_t b)
{
    return rows[a].ts < rows[b].ts || (rows[a].ts == rows[b].ts && a < b);
}

/* v[0..n) (one stream's rows, in row order) in (start, row) order (a
 * total order, so the one qsort would give): its ascending runs merged
 * pairwise, since a stream's launches and GPU rows come in time order on
 * each thread and in each part of the file.  4 bytes an entry, and the
 * merges' room (n entries) taken only when there are runs to merge. */
static bool queue_sort(const struct row *rows, uint32_t *v, size_t n)
{
    size_t runs = 1;
    for (size_t i = 1; i < n; i++)
        runs += q_before(rows, v[i], v[i - 1]);
    if (n < 2 || runs == 1)
        return true;
    size_t *b = malloc((runs + 1) * sizeof *b);
    uint32_t *tmp = malloc(n * sizeof *tmp);
    if (!b || !tmp) {
        free(b);
        free(tmp);
        return false;
    }
    size_t k = 0;
    b[k++] = 0;
    for (size_t i = 1; i < n; i++)
        if (q_before(rows, v[i], v[i - 1]))
            b[k++] = i;
    b[k] = n;
    uint32_t *src = v, *dst = tmp;
    while (runs > 1) {
        size_t nr = 0;
        for (size_t r = 0; r < runs; r += 2) {
            size_t lo = b[r], mid = b[r + 1], hi = r + 1 < runs ? b[r + 2] : mid;
            size_t x = lo, y = mid, o = lo;
            while (x < mid || y < hi)
                dst[o++] = y == hi || (x < mid && q_before(rows, src[x], src[y])) ? src[x++]
                                                                                 : src[y++];
            b[nr++] = lo;
        }
        b[nr] = n;
        runs = nr;
        uint32_t *t = src;
        src = dst;
        dst = t;
    }
    if (src != v)
        memcpy(v, src, n * sizeof *v);
    free(b);
    free(tmp);
    return true;
}

/* The stream a row queues on (launch: its GPU row's), or false. */
static bool queued(const struct tf_cp *cp, const struct row *r, int64_t *stream)
{
    if (r->stream == -1 && (r->kind & K_LAUNCH) && r->link != NONE)
        *stream = cp->rows[r->link].stream;
    else if (r->stream != -1 && r->link != NONE && (cp->rows[r->link].kind & K_LAUNCH))
        *stream = r->stream;
    else
        return false;
    return true;
}

/* The streams' keys, distinct and sorted (a growing list). */
struct skeys {
    int64_t *k;
    size_t *count;
    size_t n, cap, last;
};

/* The place of stream s in the list (added when new, the list then unsorted). */
static bool skey_at(struct skeys *s, int64_t key, size_t *at)
{
    if (s->last < s->n && s->k[s->last] == key) {
        *at = s->last;
        return true;
    }
    size_t j = 0;
    while (j < s->n && s->k[j] != key)
        j++;
    if (j == s->n) {
        size_t cap = s->cap;
        if (!TF_GROW(s->k, s->n, s->cap))
            return false;
        if (s->cap != cap) {
            size_t *c = realloc(s->count, s->cap * sizeof *c);
            if (!c)
                return false;
            s->count = c;
        }
        s->k[s->n] = key;
        s->count[s->n++] = 0;
    }
    s->last = j;
    *at = j;
    return true;
}

/* HTA's queue length: per stream, +1 at each launch joined to a kernel,
 * -1 at each such kernel, in (start, row) order.  The entries are placed
 * by stream (a stable count: their row order kept), then each stream's
 * sorted; 4 bytes an entry (its row), and the merges' room for one
 * stream. */
static bool queues(struct tf_cp *cp)
{
    if (cp->hta)
        return tf_cp_hta_queues(cp);
    struct skeys s = {0};
    int64_t key;
    size_t at, m = 0;
    bool ok = true;
    for (size_t i = 0; ok && i < cp->n_rows; i++)
        if (queued(cp, &cp->rows[i], &key) && (ok = skey_at(&s, key, &at)))
            s.count[at]++, m++;
    /* the streams in order (insertion sort: few), their counts with them */
    for (size_t i = 1; ok && i < s.n; i++)
        for (size_t j = i; j > 0 && s.k[j - 1] > s.k[j]; j--) {
            int64_t t = s.k[j];
            size_t c = s.count[j];
            s.k[j] = s.k[j - 1];
            s.count[j] = s.count[j - 1];
            s.k[j - 1] = t;
            s.count[j - 1] = c;
        }
    size_t *start = ok ? malloc((s.n + 1) * sizeof *start) : NULL;
    uint32_t *v = ok ? malloc((m ? m : 1) * sizeof *v) : NULL;
    ok = ok && start && v;
    if (ok) {
        start[0] = 0;
        for (size_t j = 0; j < s.n; j++)
            start[j + 1] = start[j] + s.count[j], s.count[j] = start[j];
        s.last = 0;
        for (size_t i = 0; i < cp->n_rows; i++) {
            if (!queued(cp, &cp->rows[i], &key))
                continue;
            if (s.k[s.last] != key) { /* sorted: its place */
                size_t lo = 0, hi = s.n;
                while (lo < hi) {
                    size_t mid = (lo + hi) / 2;
                    if (s.k[mid] < key)
                        lo = mid + 1;
                    else
                        hi = mid;
                }
                s.last = lo;
            }
            v[s.count[s.last]++] = (uint32_t)i;
        }
    }
    for (size_t j = 0; ok && j < s.n; j++) {
        ok = queue_sort(cp->rows, v + start[j], start[j + 1] - start[j]);
        int32_t q = 0;
        for (size_t i = start[j]; ok && i < start[j + 1]; i++) {
            struct row *r = &cp->rows[v[i]];
            q += r->stream == -1 ? 1 : -1;
            r->q = (signed char)(q == 0 || q == 1 ? q : 2); /* only 0 and 1 are read */
        }
    }
    free(s.k);
    free(s.count);
    free(start);
    free(v);
    return ok;
}

/* --- nodes --------------------------------------------------------------------------- */

static int node_cmp(const void *a, const void *b)
{
    const struct ix *x = a, *y = b;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    if (x->row != y->row)
        return x->row < y->row ? -1 : 1;
    return x->key < y->key ? -1 : x->key > y->key; /* start first */
}

#define in_window tf_cp_in_window

/* HTA's clipped rows: CPU rows that start in the window with a duration,
 * GPU rows whose launch does, and every Stream Wait Event. */
static bool clipped(const struct tf_cp *cp, const struct row *r, int64_t w0, int64_t w1)
{
    if (r->stream == -1)
        return in_window(r, w0, w1);
    if (strcmp(str(cp, r->name), "Stream Wait Event") == 0)
        return true;
    /* HTA joins a launch to one GPU row (its index_correlation): the others
     * of a CUDA graph are left out */
    if (r->link != NONE && cp->hta && cp->rows[r->link].link != (uint32_t)(r - cp->rows))
        return false;
    return r->link != NONE && in_window(&cp->rows[r->link], w0, w1);
}

static bool has_node(const struct tf_cp *cp, const struct row *r)
{
    return (r->kind & K_OP) || (r->stream != -1 && r->link != NONE && r->corr >= 0);
    (void)cp;
}

static bool make_nodes(struct tf_cp *cp, int64_t w0, int64_t w1, bool *in)
{
    size_t n = 0;
    for (size_t i = 0; i < cp->n_rows; i++) {
        in[i] = clipped(cp, &cp->rows[i], w0, w1);
        n += in[i] && has_node(cp, &cp->rows[i]);
    }
    struct ix *v = malloc((n ? 2 * n : 1) * sizeof *v);
    cp->node_ev = malloc((n ? 2 * n : 1) * sizeof *cp->node_ev);
    cp->node_start = malloc((n ? 2 * n : 1) * sizeof *cp->node_start);
    if (!v || !cp->node_ev || !cp->node_start || !tf_cpg_init(&cp->g, 2 * n)) {
        free(v);
        return false;
    }
    size_t k = 0;
    for (size_t i = 0; i < cp->n_rows; i++)
        if (in[i] && has_node(cp, &cp->rows[i])) {
            v[k++] = (struct ix){0, cp->rows[i].ts, (uint32_t)i};
            v[k++] = (struct ix){1, cp->rows[i].end, (uint32_t)i};
        }
    qsort(v, k, sizeof *v, node_cmp);
    for (size_t j = 0; j < k; j++) {
        struct row *r = &cp->rows[v[j].row];
        cp->node_ev[j] = v[j].row;
        cp->node_start[j] = v[j].key == 0;
        if (v[j].key == 0)
            r->start_node = (uint32_t)j;
        else
            r->end_node = (uint32_t)j;
    }
    free(v);
    return true;
}

static int64_t node_ts(const struct tf_cp *cp, uint32_t u)
{
    const struct row *r = &cp->rows[cp->node_ev[u]];
    return cp->node_start[u] ? r->ts : r->end;
}

/* HTA's _add_edge_helper (and _attribute_edge when attr is not -2). */
static bool edge(struct tf_cp *cp, uint32_t u, uint32_t v, unsigned char type, bool zero,
                 int64_t parent)
{
    int64_t w = type == TF_CPE_DEPENDENCY || type == TF_CPE_SYNC || zero
                    ? 0 : node_ts(cp, v) - node_ts(cp, u);
    uint32_t i = tf_cpg_add(&cp->g, u, v, type, w);
    if (i == NONE)
        return false;
    if (type == TF_CPE_KERNEL_KERNEL || (type == TF_CPE_OPERATOR && parent != -2)) {
        int64_t a;
        if (type == TF_CPE_KERNEL_KERNEL || cp->node_start[u])
            a = cp->node_ev[u];
        else if (!cp->node_start[v])
            a = cp->node_ev[v];
        else
            a = parent;
        cp->g.e[i].attr = a;
    }
    return true;
}

/* --- edges, in HTA's order ---------------------------------------------------------- */

static bool lock_node(const struct tf_cp *cp, uint32_t u)
{
    const struct row *r = &cp->rows[cp->node_ev[u]];
    return (r->kind & K_LOCK) && r->start_node != NONE && r->end_node != NONE;
}

static bool runtime_lock_edges(struct tf_cp *cp)
{
    size_t n = cp->g.n_nodes, ns = 0;
    uint32_t *stack = malloc((n ? n : 1) * sizeof *stack);
    if (!stack)
        return false;
    uint32_t last = NONE;
    bool ok = true;
    for (uint32_t u = 0; u < n && ok; u++) {
        if (!lock_node(cp, u))
            continue;
        if (cp->node_start[u]) {
            stack[ns++] = u;
        } else {
            while (ns && ok) {
                uint32_t p = stack[--ns];
                if (cp->node_ev[p] == cp->node_ev[u])
                    ok = edge(cp, p, u, TF_CPE_OPERATOR, false, cp->node_ev[u]);
                else
                    ok = edge(cp, p, u, TF_CPE_DEPENDENCY, false, -2);
            }
            if (ok && last != NONE && !cp->node_start[last])
                ok = edge(cp, last, u, TF_CPE_DEPENDENCY, false, -2);
        }
        last = u;
    }
    free(stack);
    return ok;
}

static bool shares_lock(const struct tf_cp *cp, uint32_t a, uint32_t b)
{
    return (cp->rows[cp->node_ev[a]].kind & K_LOCK) && (cp->rows[cp->node_ev[b]].kind & K_LOCK) &&
           (cp->node_start[a] || !cp->node_start[b]);
}

static int thr_cmp(const void *a, const void *b)
{
    const struct ix *x = a, *y = b;
    if (x->key != y->key) /* thread */
        return x->key < y->key ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return 0;
}

struct stk {
    const struct tf_cp *cp;
    uint32_t last;
    int depth;
    int64_t last_parent;
};

static bool stack_enter(struct tf_cp *cp, struct stk *s, uint32_t ev, int64_t parent)
{
    const struct row *r = &cp->rows[ev];
    if (r->start_node == NONE || r->end_node == NONE)
        return true;
    if (s->last != NONE && !shares_lock(cp, s->last, r->start_node)) {
        unsigned char t = s->depth == 0 ? TF_CPE_DEPENDENCY : TF_CPE_OPERATOR;
        if (!edge(cp, s->last, r->start_node, t, false, s->last_parent))
            return false;
    }
    s->last = r->start_node;
    s->last_parent = parent;
    s->depth++;
    return true;
}

static bool stack_exit(struct tf_cp *cp, struct stk *s, uint32_t ev, int64_t parent)
{
    const struct row *r = &cp->rows[ev];
    if (r->start_node == NONE || r->end_node == NONE)
        return true;
    if (s->last != NONE && !shares_lock(cp, s->last, r->end_node) &&
        !edge(cp, s->last, r->end_node, TF_CPE_OPERATOR, (r->kind & K_BLOCKING) != 0,
              s->last_parent))
        return false;
    s->last = r->end_node;
    s->last_parent = parent;
    s->depth--;
    return true;
}

/* The one thread (tid) whose CPU operators or annotations in the window
 * have `part` in their name, or NONE (HTA's _get_tid_for_event). */
static uint32_t tid_of(const struct tf_cp *cp, const bool *in, const char *part)
{
    uint32_t tid = NONE;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (!in[i])
            continue;
        bool op = (r->kind & K_ANNOT) || r->cpu_op;
        if (!op || !strstr(str(cp, r->name), part))
            continue;
        if (tid != NONE && tid != r->tidk)
            return NONE;
        tid = r->tidk;
    }
    return tid;
}

struct tkey {
    uint32_t pidk, t;
    uint64_t first;
};

static int tkey_cmp(const void *a, const void *b)
{
    const struct tkey *x = a, *y = b;
    if (x->pidk != y->pidk)
        return x->pidk < y->pidk ? -1 : 1;
    if (x->t != y->t)
        return x->t < y->t ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

static int tkey_first_cmp(const void *a, const void *b)
{
    const struct tkey *x = a, *y = b;
    return (x->first > y->first) - (x->first < y->first);
}

/* With the look before pass 2 (pure rows outside the window left out):
 * the threads' keys made in the order of their first rows in the file
 * among those HTA's filter kept, the order thread_keys makes them in when
 * every row is there (the threads' order in call_stack_edges). */
static bool first_keys(struct tf_cp *cp, bool remap, uint32_t fwd, uint32_t bwd)
{
    size_t n = cp->n_rows + cp->n_pfirst;
    struct tkey *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return false;
    size_t k = 0;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (k && v[k - 1].pidk == r->pidk && v[k - 1].t == (remap && r->tidk == bwd ? fwd : r->tidk))
            continue; /* a run of one thread's rows: its first is there */
        v[k++] = (struct tkey){r->pidk, remap && r->tidk == bwd ? fwd : r->tidk, cp->idx[i]};
    }
    for (size_t i = 0; i < cp->n_pfirst; i++) {
        const struct pfirst *p = &cp->pfirst[i];
        if (cp->filt_on && !(cp->filt_any && p->ts < cp->filt_lim))
            continue; /* HTA's filter left it out */
        const struct pthr *t = &cp->pthr[p->thr];
        v[k++] = (struct tkey){t->pidk, remap && t->tidk == bwd ? fwd : t->tidk, p->idx};
    }
    qsort(v, k, sizeof *v, tkey_cmp);
    size_t m = 0;
    for (size_t i = 0; i < k; i++)
        if (i == 0 || v[i].pidk != v[i - 1].pidk || v[i].t != v[i - 1].t)
            v[m++] = v[i];
    qsort(v, m, sizeof *v, tkey_first_cmp);
    uint32_t id;
    bool ok = true;
    for (size_t i = 0; i < m && ok; i++) {
        tf_buf_clear(&cp->key);
        tf_buf_printf(&cp->key, "%s\x1f%s", str(cp, v[i].pidk), str(cp, v[i].t));
        ok = tf_strtab_id(&cp->strs, cp->key.data, &id);
    }
    free(v);
    return ok;
}

/* HTA walks the backward thread (autograd) as part of the forward one
 * (forward) when each is one thread: the thread key of each row, made in
 * row order (the keys' ids give the threads' order), and into v[*n] each
 * CPU row of the window with its key (call_stack_edges' rows). */
static bool thread_keys(struct tf_cp *cp, const bool *in, struct ix *v, size_t *n)
{
    uint32_t fwd = tid_of(cp, in, "forward"), bwd = tid_of(cp, in, "autograd");
    bool remap = fwd != NONE && bwd != NONE && fwd != bwd;
    /* the keys of the last threads seen, by (pid, tid): the key made and
     * looked up once per thread, not once per row (the same ids, in the
     * same order, as when each row looks its key up) */
    struct {
        uint32_t pidk, tidk, thr;
    } memo[256];
    for (size_t j = 0; j < 256; j++)
        memo[j].pidk = NONE;
    if (cp->pre && !first_keys(cp, remap, fwd, bwd))
        return false;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        uint32_t t = remap && r->tidk == bwd ? fwd : r->tidk;
        size_t h = (r->pidk * 31u + t) & 255u;
        uint32_t thr = memo[h].thr;
        if (memo[h].pidk != r->pidk || memo[h].tidk != t) {
            tf_buf_clear(&cp->key);
            tf_buf_printf(&cp->key, "%s\x1f%s", str(cp, r->pidk), str(cp, t));
            if (!tf_strtab_id(&cp->strs, cp->key.data, &thr))
                return false;
            memo[h].pidk = r->pidk;
            memo[h].tidk = t;
            memo[h].thr = thr;
        }
        if (in[i] && r->stream == -1 && !(r->kind & K_SYNC))
            v[(*n)++] = (struct ix){thr, r->ts, (uint32_t)i};
    }
    return true;
}

/* Each CPU thread's call stack, walked depth first: an event nests in the
 * one open before it while it ends by that one's end. */
static bool call_stack_edges(struct tf_cp *cp, const bool *in)
{
    struct ix *v = malloc((cp->n_rows ? cp->n_rows : 1) * sizeof *v);
    uint32_t *open = malloc((cp->n_rows ? cp->n_rows : 1) * sizeof *open);
    if (!v || !open) {
        free(v);
        free(open);
        return false;
    }
    size_t n = 0;
    if (!thread_keys(cp, in, v, &n)) {
        free(v);
        free(open);
        return false;
    }
    qsort(v, n, sizeof *v, thr_cmp);
    /* within a thread: start, then the longer first, then file order */
    for (size_t a = 0; a < n;) {
        size_t b = a;
        while (b < n && v[b].key == v[a].key)
            b++;
        for (size_t i = a + 1; i < b; i++) { /* insertion sort on ties only */
            struct ix x = v[i];
            size_t j = i;
            while (j > a && v[j - 1].t == x.t &&
                   (cp->rows[v[j - 1].row].end < cp->rows[x.row].end ||
                    (cp->rows[v[j - 1].row].end == cp->rows[x.row].end && v[j - 1].row > x.row))) {
                v[j] = v[j - 1];
                j--;
            }
            v[j] = x;
        }
        struct stk s = {.cp = cp, .last = NONE, .last_parent = -1};
        size_t no = 0;
        bool ok = true;
        for (size_t i = a; i < b && ok; i++) {
            const struct row *r = &cp->rows[v[i].row];
            while (no && cp->rows[open[no - 1]].end <= r->ts && ok) {
                uint32_t e = open[--no];
                ok = stack_exit(cp, &s, e, no ? (int64_t)open[no - 1] : -1);
            }
            while (no && cp->rows[open[no - 1]].end < r->end && ok) {
                uint32_t e = open[--no]; /* overlaps without nesting: closed first */
                ok = stack_exit(cp, &s, e, no ? (int64_t)open[no - 1] : -1);
            }
            ok = ok && stack_enter(cp, &s, v[i].row, no ? (int64_t)open[no - 1] : -1);
            open[no++] = v[i].row;
        }
        while (no && ok) {
            uint32_t e = open[--no];
            ok = stack_exit(cp, &s, e, no ? (int64_t)open[no - 1] : -1);
        }
        if (!ok) {
            free(v);
            free(open);
            return false;
        }
        a = b;
    }
    free(v);
    free(open);
    return true;
}

/* --- GPU rows ---------------------------------------------------------------------- */

#define row_pid tf_cp_row_pid

/* The kernel of the last launch onto the stream a cudaEventRecord
 * (correlation c) recorded its event on, before the record; NONE. */
static uint32_t recorded_kernel(const struct tf_cp *cp, int64_t c)
{
    const struct row *rec = NULL;
    const struct wait *where = NULL; /* the first row (in row order) that waits on it */
    for (size_t i = 0; i < cp->n_rows && !rec; i++) {
        const struct row *r = &cp->rows[i];
        if (r->corr == c && r->stream == -1 && tf_cp_named(cp, r, "cudaEventRecord"))
            rec = r;
    }
    for (size_t j = 0; j < cp->n_waits && !where; j++)
        if (cp->waits[j].stream > -1 && cp->waits[j].corr == c)
            where = &cp->waits[j];
    if (!rec || !where)
        return NONE;
    int64_t wstream = where->stream, wpid = row_pid(cp, &cp->rows[where->row]);
    uint32_t best = NONE;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (!(r->kind & K_LAUNCH) || r->stream != -1 || r->link == NONE || r->ts > rec->ts)
            continue;
        const struct row *k = &cp->rows[r->link];
        if (k->stream != wstream || row_pid(cp, k) != wpid)
            continue;
        if (best == NONE || r->ts >= cp->rows[best].ts)
            best = (uint32_t)i;
    }
    return best == NONE ? NONE : cp->rows[best].link;
}

/* The kernel of the first launch onto `stream` from the thread of the
 * cudaStreamWaitEvent call w, at or after it; NONE. */
static uint32_t next_kernel(const struct tf_cp *cp, const struct row *w, int64_t stream)
{
    uint32_t best = NONE;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (!(r->kind & K_LAUNCH) || r->stream != -1 || r->link == NONE || r->pidk != w->pidk || r->tidk != w->tidk ||
            r->ts < w->ts || cp->rows[r->link].stream != stream)
            continue;
        if (best == NONE || r->ts < cp->rows[best].ts)
            best = (uint32_t)i;
    }
    return best == NONE ? NONE : cp->rows[best].link;
}

struct last {
    int64_t stream;
    uint32_t node;
};

static uint32_t *last_of(struct last *l, size_t *n, int64_t stream, bool make)
{
    for (size_t i = 0; i < *n; i++)
        if (l[i].stream == stream)
            return &l[i].node;
    if (!make)
        return NULL;
    l[*n] = (struct last){stream, NONE};
    return &l[(*n)++].node;
}

static bool sync_row(struct tf_cp *cp, const struct row *r, struct last *last, size_t n_last)
{
    const struct row *rt = &cp->rows[r->link];
    if (tf_cp_named(cp, r, "Stream Wait Event") || tf_cp_named(cp, r, "Event Sync")) {
        const struct wait *wt = tf_cp_wait_of(cp->waits, cp->n_waits, (uint32_t)(r - cp->rows));
        int64_t wcorr = wt ? wt->corr : -1;
        if (wcorr < 0)
            return true;
        uint32_t src = cp->hta ? tf_cp_hta_recorded(cp, wcorr) : recorded_kernel(cp, wcorr);
        if (src == NONE)
            return true;
        if (tf_cp_named(cp, r, "Stream Wait Event")) {
            uint32_t dst = cp->hta ? tf_cp_hta_waiting(cp, r->link) : next_kernel(cp, rt, r->stream);
            if (dst != NONE)
                cp->rows[dst].ksync = src;
            return true;
        }
        if (cp->rows[src].end_node != NONE && rt->end_node != NONE)
            return edge(cp, cp->rows[src].end_node, rt->end_node, TF_CPE_SYNC, false, -2);
        return true;
    }
    if (rt->end_node == NONE)
        return true;
    bool all = tf_cp_named(cp, r, "Context Sync");
    for (size_t i = 0; i < n_last; i++)
        if ((all || last[i].stream == r->stream) && last[i].node != NONE &&
            !edge(cp, last[i].node, rt->end_node, TF_CPE_SYNC, false, -2))
            return false;
    return true;
}

static bool kernel_row(struct tf_cp *cp, uint32_t i, struct last *last, size_t *n_last)
{
    struct row *r = &cp->rows[i];
    if (r->start_node == NONE || r->end_node == NONE)
        return true;
    const struct row *rt = &cp->rows[r->link];
    if (!edge(cp, r->start_node, r->end_node, TF_CPE_OPERATOR, false, -1))
        return false;
    uint32_t *ln = last_of(last, n_last, r->stream, true);
    uint32_t sync_end = NONE;
    bool has_sync = r->ksync != NONE;
    if (has_sync) {
        sync_end = cp->rows[r->ksync].end_node;
        if (sync_end != NONE && !edge(cp, sync_end, r->start_node, TF_CPE_SYNC, false, -2))
            return false;
        has_sync = sync_end != NONE;
        r->ksync = NONE;
    }
    int64_t last_ts = *ln != NONE ? node_ts(cp, *ln) : 0;
    bool launch = rt->q == 1 && r->q == 0 && (*ln == NONE || last_ts < rt->ts) &&
                  (!has_sync || node_ts(cp, sync_end) < rt->ts);
    if (launch) {
        if (rt->start_node != NONE &&
            !edge(cp, rt->start_node, r->start_node, TF_CPE_LAUNCH, false, -2))
            return false;
    } else if (*ln != NONE && r->ts - last_ts < KK_THRESHOLD_NS &&
               (!has_sync || node_ts(cp, sync_end) < last_ts)) {
        if (!edge(cp, *ln, r->start_node, TF_CPE_KERNEL_KERNEL, false, -2))
            return false;
    }
    /* HTA's causal launch edge (its tests turn it on): after the others, so
     * the order of edges, and of ties, stays HTA's. */
    if (!launch && cp->zero_launch && rt->start_node != NONE &&
        !edge(cp, rt->start_node, r->start_node, TF_CPE_LAUNCH, true, -2))
        return false;
    *ln = r->end_node;
    return true;
}

/* A synchronisation call of a trace without cuda_sync rows (beyond HTA):
 * a device sync waits for the last GPU row of every stream that ended by
 * its end, a stream or event sync for the one GPU row that ended last
 * while it blocked (the export does not say which stream or event). */
static bool call_row(struct tf_cp *cp, const struct row *r, struct last *last, size_t n_last)
{
    if (r->end_node == NONE)
        return true;
    uint32_t best = NONE;
    for (size_t i = 0; i < n_last; i++) {
        uint32_t u = last[i].node;
        if (u == NONE || node_ts(cp, u) > r->end)
            continue;
        if (r->call == SC_DEVICE) {
            if (!edge(cp, u, r->end_node, TF_CPE_SYNC, false, -2))
                return false;
        } else if (node_ts(cp, u) >= r->ts &&
                   (best == NONE || node_ts(cp, u) > node_ts(cp, best))) {
            best = u;
        }
    }
    return best == NONE || edge(cp, best, r->end_node, TF_CPE_SYNC, false, -2);
}

static bool kernel_edges(struct tf_cp *cp, const bool *in)
{
    struct ix *v = malloc((cp->n_rows ? cp->n_rows : 1) * sizeof *v);
    struct last *last = malloc((cp->n_rows ? cp->n_rows : 1) * sizeof *last);
    if (!v || !last) {
        free(v);
        free(last);
        return false;
    }
    size_t n = 0, n_last = 0;
    for (size_t i = 0; i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        if (in[i] && r->link != NONE &&
            (r->stream != -1 || tf_cp_named(cp, r, "Event Sync") || tf_cp_named(cp, r, "Context Sync")))
            v[n++] = (struct ix){0, (r->kind & K_SYNC) ? r->end : r->ts, (uint32_t)i};
        else if (in[i] && cp->has_calls && r->call && r->call != SC_WAIT)
            v[n++] = (struct ix){0, r->end, (uint32_t)i};
    }
    /* by time; under --stats-compat hta equal times in HTA's order */
    bool ok = true;
    if (cp->hta)
        ok = tf_cp_np_order(v, n);
    else
        qsort(v, n, sizeof *v, thr_cmp);
    for (size_t k = 0; k < n && ok; k++) {
        const struct row *r = &cp->rows[v[k].row];
        if (r->stream == -1 && r->call && !(r->kind & K_SYNC))
            ok = call_row(cp, r, last, n_last);
        else
            ok = (r->kind & K_SYNC) ? sync_row(cp, r, last, n_last)
                                    : kernel_row(cp, v[k].row, last, &n_last);
    }
    free(v);
    free(last);
    return ok;
}

/* TRACEFIG_CP_STATS set: what the collector keeps, on stderr (the tests'
 * check of its memory: the rows from anywhere in the trace and the look's
 * from the window; the CPU operators it only counts). */
static void rows_stats(const struct tf_cp *cp)
{
    if (!getenv("TRACEFIG_CP_STATS"))
        return;
    fprintf(stderr, "critpath rows: kept %zu, pass1 %zu, look %zu, counted %zu, bytes %zu\n",
            cp->n_rows, cp->n_rows - cp->n_look, cp->n_look, cp->n_pure,
            cp->n_rows * (sizeof(struct row) + (cp->pre ? sizeof *cp->idx : 0)));
}

bool tf_cp_run(struct tf_cp *cp, int64_t w0, int64_t w1, struct tf_diag *d)
{
    rows_stats(cp);
    const char *zero = getenv("CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE");
    cp->zero_launch = cp->hta && zero && strcmp(zero, "1") == 0;
    /* A row kept before the first fractional ts had a whole one: its end
     * is all that rounding changes, now that the column is known. */
    if (cp->hta && cp->cols && cp->cols->ts_float)
        for (size_t i = 0; i < cp->n_rows; i++)
            tf_cp_hta_round(&cp->rows[i]);
    bool *in = calloc(cp->n_rows ? cp->n_rows : 1, sizeof *in);
    bool ok = in && (!cp->hta || tf_cp_hta_filter(cp)) && tf_cp_flow_join(cp) && join(cp);
    bool calls = ok && !cp->hta && !cp->has_sync;
    if (calls)
        tf_cp_calls_launches(cp);
    ok = ok && queues(cp) &&
              make_nodes(cp, w0, w1, in);
    size_t joined = 0, gpu = 0;
    bool ids = false, launched = false;
    for (size_t i = 0; ok && i < cp->n_rows; i++) {
        const struct row *r = &cp->rows[i];
        bool g = r->stream != -1 && !(r->kind & K_SYNC);
        joined += in[i] && g && r->link != NONE;
        gpu += g && r->ts >= w0 && r->ts <= w1;
        ids |= g && r->corr >= 0;
        launched |= r->stream != -1 && r->link != NONE && (cp->rows[r->link].kind & K_LAUNCH);
    }
    /* HTA builds the graph of a window without GPU work (its CPU
     * operators) as long as the trace has a launch joined to GPU work
     * somewhere (its queue lengths); it fails without one. */
    if (ok && !joined && !(cp->hta && launched)) {
        free(in);
        if (!gpu)
            return tf_diag_error(d, TF_EBADINPUT,
                                 "no GPU kernel, memcpy or memset in the window: the critical "
                                 "path follows GPU work, and this window has none");
        if (ids)
            return tf_diag_error(d, TF_EBADINPUT,
                                 "no kernel in the window is joined to a launch: no runtime call "
                                 "in the window has their correlation ids");
        return tf_diag_error(d, TF_EBADINPUT,
                             "no kernel in the window is joined to a launch: the trace has no "
                             "correlation ids or ac2g flows");
    }
    for (size_t i = 0; calls && i < cp->n_rows; i++)
        cp->has_calls |= in[i] && cp->rows[i].call != 0;
    if (ok && calls && cp->has_calls)
        ok = tf_cp_calls_waits(cp, in);
    if (ok && !cp->has_sync && !cp->has_calls)
        tf_diag_warn(d, "the trace has no CUDA synchronization events (cuda_sync): the critical "
                        "path may be inaccurate");
    ok = ok && (!cp->hta || tf_cp_hta_event_links(cp));
    ok = ok && runtime_lock_edges(cp) && call_stack_edges(cp, in) && kernel_edges(cp, in);
    free(in);
    if (!ok)
        return tf_diag_oom(d, NULL);
    if (!tf_cpg_longest(&cp->g))
        return tf_diag_error(d, TF_EBADINPUT, "the critical path's graph has a cycle");
    if (cp->g.n_path < 2) /* HTA's window of CPU operators only, and none (it asserts) */
        return tf_diag_error(d, TF_EBADINPUT,
                             "no CPU operator or GPU work starts in the window: the critical "
                             "path is empty");
    cp->ran = true;
    return true;
}
