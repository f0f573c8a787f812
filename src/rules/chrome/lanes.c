/* lanes.c - the generic Chrome mode's lanes: who a lane is (one per
 * thread, its process and thread known by pid and tid), what the metadata
 * says of them (names, labels, sort indices), the label a lane shows (its
 * process and thread parts, and the smallest difference that tells alike
 * labels apart), the order lanes are drawn in, and which lanes a figure
 * draws: --hide, --ranks (the rank of an HPC job's thread), the default
 * rules (lanes that repeat or only sum up others, clang's summaries, the
 * profiler's own span; not with --all-lanes), --lanes and its renames (a
 * miss lists the labels there are), and the cap (--max-lanes; a system
 * trace's threads and counters by system.c's rules); after pass 1 also
 * which threads' lanes a figure would draw, for the window.  It does not
 * fill lanes with slices (rows.c).
 */
#include "rules/chrome/chrome_int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "base/jsonlite.h"

#define SAMPLE 4096 /* slices per lane compared by the duplicate rule */

/* --- processes and threads --------------------------------------------------------- */

/* An id kept by the mode: a string one copied into *hold. */
static void own_id(struct chrome *c, struct tf_id *dst, char **hold, const struct tf_id *src)
{
    *dst = *src;
    if (src->kind == TF_ID_STR) {
        *hold = tf_strdup_oom(src->str, &c->oom);
        dst->str = *hold;
    }
}

/* The number of the key in c->tmp in tab (new keys get the next one);
 * false when out of memory. */
static bool key_id(struct chrome *c, struct tf_strtab *tab, uint32_t *id)
{
    if (c->tmp.oom || !tf_strtab_id(tab, c->tmp.data, id))
        return c->oom = true, false;
    return true;
}

static size_t thread_of(struct chrome *c, const struct tf_id *pid, const struct tf_id *tid);

/* The process of pid, created when new; SIZE_MAX when out of memory. */
static size_t proc_of(struct chrome *c, const struct tf_id *pid)
{
    tf_buf_clear(&c->tmp);
    tf_id_key(&c->tmp, pid);
    uint32_t id;
    if (!key_id(c, &c->proc_keys, &id))
        return SIZE_MAX;
    if (id < c->n_procs)
        return id;
    if (!TF_GROW(c->procs, c->n_procs, c->cap_procs))
        return c->oom = true, SIZE_MAX;
    struct proc *p = &c->procs[c->n_procs++];
    memset(p, 0, sizeof *p);
    own_id(c, &p->pid, &p->pid_str, pid);
    return id;
}

size_t tf_chrome_process(struct chrome *c, const struct tf_id *pid)
{
    return proc_of(c, pid);
}

static bool same_id(const struct tf_id *a, const struct tf_id *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == TF_ID_NUM)
        return a->num == b->num;
    if (a->kind == TF_ID_STR)
        return strcmp(a->str, b->str) == 0;
    return true;
}

size_t tf_chrome_thread(struct chrome *c, const struct tf_id *pid, const struct tf_id *tid)
{
    /* Pass 1 asks for every event's thread: the last few found first. */
    for (size_t i = 0; i < TF_CHROME_THREAD_CACHE; i++) {
        size_t t = c->thr_cache[i];
        if (t && !c->thrs[t - 1].counter && same_id(&c->thrs[t - 1].tid, tid) &&
            same_id(&c->procs[c->thrs[t - 1].proc].pid, pid))
            return t - 1;
    }
    size_t t = thread_of(c, pid, tid);
    if (t != SIZE_MAX) {
        c->thr_cache[c->thr_cache_next] = t + 1;
        c->thr_cache_next = (c->thr_cache_next + 1) % TF_CHROME_THREAD_CACHE;
    }
    return t;
}

/* The thread keyed by c->tmp, of process p: its index in *idx (SIZE_MAX
 * on failure), and a new, zeroed record when the key is new (else NULL). */
static struct thr *keyed_thread(struct chrome *c, size_t p, size_t *idx)
{
    uint32_t id;
    *idx = SIZE_MAX;
    if (!key_id(c, &c->thr_keys, &id))
        return NULL;
    if (id < c->n_thrs) {
        *idx = id;
        return NULL;
    }
    if (!TF_GROW(c->thrs, c->n_thrs, c->cap_thrs)) {
        c->oom = true;
        return NULL;
    }
    struct thr *t = &c->thrs[c->n_thrs++];
    memset(t, 0, sizeof *t);
    t->proc = p;
    *idx = id;
    return t;
}

static size_t thread_of(struct chrome *c, const struct tf_id *pid, const struct tf_id *tid)
{
    size_t p = proc_of(c, pid);
    if (p == SIZE_MAX)
        return SIZE_MAX;
    tf_buf_clear(&c->tmp);
    tf_id_key(&c->tmp, pid);
    tf_buf_putc(&c->tmp, '|');
    tf_id_key(&c->tmp, tid);
    size_t id;
    struct thr *t = keyed_thread(c, p, &id);
    if (t)
        own_id(c, &t->tid, &t->tid_str, tid);
    return id;
}

size_t tf_chrome_counter_thread(struct chrome *c, size_t p, size_t series, const char *label)
{
    /* Keyed by the series (two may share a label), apart from every
     * thread: tf_id_key never starts with 'c'. */
    tf_buf_clear(&c->tmp);
    tf_id_key(&c->tmp, &c->procs[p].pid);
    tf_buf_printf(&c->tmp, "|c%zu", series);
    size_t id;
    struct thr *t = keyed_thread(c, p, &id);
    if (t) {
        t->counter = true;
        t->name = tf_strdup_oom(label, &c->oom);
        if (!t->name)
            return SIZE_MAX;
    }
    return id;
}

/* A string member of args, decoded; NULL when absent or not a string. */
static char *arg_str(struct chrome *c, const struct tf_tef_rec *r, const char *key)
{
    size_t n;
    const unsigned char *v = r->args ? tf_jl_get(r->args, r->args_len, key, &n) : NULL;
    if (!v || n < 2 || v[0] != '"')
        return NULL;
    tf_buf_clear(&c->tmp);
    tf_jl_string(v + 1, n - 2, &c->tmp);
    if (c->tmp.oom)
        return c->oom = true, NULL;
    return tf_strdup_oom(c->tmp.data ? c->tmp.data : "", &c->oom);
}

/* An integer member of args (a number, or a string holding one, as some
 * writers give sort indexes). */
static bool arg_int(const struct tf_tef_rec *r, const char *key, long long *out)
{
    size_t n;
    const unsigned char *v = r->args ? tf_jl_get(r->args, r->args_len, key, &n) : NULL;
    if (v && n >= 2 && v[0] == '"')
        v++, n -= 2;
    int64_t x;
    if (!v || !tf_jl_fixed(v, n, 0, &x))
        return false;
    *out = x;
    return true;
}

static void set_str(char **slot, char *s)
{
    if (!s)
        return;
    free(*slot);
    *slot = s;
}

void tf_chrome_meta(struct chrome *c, const struct tf_tef_rec *r)
{
    if (r->has_ppid) { /* a system trace's process tree (any name record) */
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX) {
            c->procs[p].has_ppid = true;
            c->procs[p].ppid = r->ppid;
        }
    }
    if (strcmp(r->name, "process_name") == 0) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX)
            set_str(&c->procs[p].name, arg_str(c, r, "name"));
    } else if (strcmp(r->name, "process_labels") == 0) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX)
            set_str(&c->procs[p].labels, arg_str(c, r, "labels"));
    } else if (strcmp(r->name, "process_device") == 0) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX) {
            set_str(&c->procs[p].dev_kind, arg_str(c, r, "kind"));
            set_str(&c->procs[p].dev_name, arg_str(c, r, "name"));
            set_str(&c->procs[p].dev_vendor, arg_str(c, r, "vendor"));
        }
    } else if (strcmp(r->name, "process_sort_index") == 0) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX)
            c->procs[p].has_sort = arg_int(r, "sort_index", &c->procs[p].sort);
    } else if (strcmp(r->name, "thread_name") == 0) {
        size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
        if (t != SIZE_MAX)
            set_str(&c->thrs[t].name, arg_str(c, r, "name"));
    } else if (strcmp(r->name, "thread_sort_index") == 0) {
        size_t t = tf_chrome_thread(c, &r->pid, &r->tid);
        if (t != SIZE_MAX)
            c->thrs[t].has_sort = arg_int(r, "sort_index", &c->thrs[t].sort);
    }
}

/* --- ranks: which rank a thread is of, and --ranks --------------------------------- */

bool tf_chrome_rank_of(const struct chrome *c, size_t t, long long *rank)
{
    if (!c->hpc || t >= c->n_thrs)
        return false;
    const struct thr *th = &c->thrs[t];
    const struct tf_id *pid = &c->procs[th->proc].pid;
    if (pid->kind == TF_ID_NUM && pid->num >= 0) {
        *rank = pid->num;
        return true;
    }
    /* a GPU stream of a rank: "stream M (rank R)" */
    const char *s = th->tid.kind == TF_ID_STR ? strstr(th->tid.str, "(rank ") : NULL;
    if (!s)
        return false;
    char *end;
    long long r = strtoll(s + 6, &end, 10);
    if (end == s + 6 || *end != ')')
        return false;
    *rank = r;
    return true;
}

bool tf_chrome_rank_selected(const struct chrome *c, size_t t)
{
    if (!c->o->n_ranks || !c->hpc)
        return true;
    long long r;
    return tf_chrome_rank_of(c, t, &r) && tf_ov_rank_in(c->o->ranks, c->o->n_ranks, r);
}

/* --- lanes ------------------------------------------------------------------------- */

struct lane *tf_chrome_lane_for(struct chrome *c, size_t t)
{
    while (c->n_lane_of_thr <= t) {
        if (!TF_GROW(c->lane_of_thr, c->n_lane_of_thr, c->cap_lane_of_thr)) {
            c->oom = true;
            return NULL;
        }
        c->lane_of_thr[c->n_lane_of_thr++] = 0;
    }
    size_t slot = c->lane_of_thr[t];
    if (slot && slot <= c->n_lanes && c->lanes[slot - 1].thread == t)
        return &c->lanes[slot - 1];
    if (!TF_GROW(c->lanes, c->n_lanes, c->cap_lanes)) {
        c->oom = true;
        return NULL;
    }
    struct lane *ln = &c->lanes[c->n_lanes++];
    memset(ln, 0, sizeof *ln);
    ln->thread = t;
    ln->busy_sorted = true;
    c->lane_of_thr[t] = c->n_lanes;
    return ln;
}

bool tf_chrome_lane_note(struct chrome *c, struct lane *ln, const struct pend *p)
{
    if (ln->n_slices == 0)
        ln->all_total = ln->all_span = true;
    if (!p->span)
        ln->all_span = false;
    if (ln->all_total && strncmp(tf_strtab_str(&c->strs, p->name), "Total ", 6) != 0)
        ln->all_total = false;
    if (ln->n_sample < SAMPLE && !c->ov) { /* (an overview keeps no duplicates' test) */
        if (!TF_GROW(ln->sample, ln->n_sample, ln->cap_sample))
            return c->oom = true, false;
        uint64_t h = 1469598103934665603ULL;
        uint64_t parts[3] = {p->name, (uint64_t)p->t0, (uint64_t)p->t1};
        for (int k = 0; k < 3; k++)
            h = (h ^ parts[k]) * 1099511628211ULL;
        ln->sample[ln->n_sample++] = h;
    }
    return true;
}

/* --- order ------------------------------------------------------------------------- */

/* A lane (or thread) to order, with what the order reads of it (qsort has
 * no context argument, and a static one would not let two traces be built
 * at once). */
struct lane_key {
    size_t lane;
    const struct thr *t;
    const struct proc *p;
};

/* The author's order: process_sort_index, pid, thread_sort_index, tid. */
static int lane_order(const void *x, const void *y)
{
    const struct lane_key *ka = x, *kb = y;
    const struct thr *a = ka->t, *b = kb->t;
    const struct proc *pa = ka->p, *pb = kb->p;
    if (a->proc != b->proc) {
        if (pa->has_sort != pb->has_sort || (pa->has_sort && pa->sort != pb->sort)) {
            long long sa = pa->has_sort ? pa->sort : 0, sb = pb->has_sort ? pb->sort : 0;
            if (sa != sb)
                return sa < sb ? -1 : 1;
        }
        int k = tf_chrome_cmp_id(&pa->pid, &pb->pid);
        if (k)
            return k;
    }
    /* A process's counters come first, as in Perfetto and chrome://tracing. */
    if (a->counter != b->counter)
        return a->counter ? -1 : 1;
    if (a->counter)
        return tf_chrome_natural_cmp(a->name, b->name);
    if (a->has_sort != b->has_sort || (a->has_sort && a->sort != b->sort)) {
        long long sa = a->has_sort ? a->sort : 0, sb = b->has_sort ? b->sort : 0;
        if (sa != sb)
            return sa < sb ? -1 : 1;
    }
    return tf_chrome_cmp_id(&a->tid, &b->tid);
}

/* Sorts indices into the author's order: lane indices, or thread indices
 * with `threads`; false when out of memory. */
static bool sort_author(const struct chrome *c, size_t *order, size_t n, bool threads)
{
    if (n < 2)
        return true;
    struct lane_key *k = malloc(n * sizeof *k);
    if (!k)
        return false;
    for (size_t i = 0; i < n; i++) {
        const struct thr *t = &c->thrs[threads ? order[i] : c->lanes[order[i]].thread];
        k[i] = (struct lane_key){order[i], t, &c->procs[t->proc]};
    }
    qsort(k, n, sizeof *k, lane_order);
    for (size_t i = 0; i < n; i++)
        order[i] = k[i].lane;
    free(k);
    return true;
}

/* --- which lanes ------------------------------------------------------------------- */

static bool glob_any(const char *const *pats, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (fnmatch(pats[i], s, 0) == 0)
            return true;
    return false;
}

/* Default patterns of lanes that repeat others (unless --all-lanes). */
static const char *const default_hide[] = {
    "*/stream:all Compute*", /* TensorFlow: every GPU stream again in one lane */
};

static int cmp_u64(const void *x, const void *y)
{
    uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
    return (a > b) - (a < b);
}

static bool has_hash(const uint64_t *v, size_t n, uint64_t h)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] == h)
            return true;
        if (v[mid] < h)
            lo = mid + 1;
        else
            hi = mid;
    }
    return false;
}

/* Lane `a` only repeats slices of other kept lanes and holds more than any
 * of them (an aggregate such as TensorFlow's memcpy lane), or the same as
 * one that comes before it (a duplicate). */
static bool repeats_others(struct chrome *c, const size_t *keep, size_t n_keep, size_t a,
                           size_t pos)
{
    const struct lane *la = &c->lanes[a];
    if (la->n_sample == 0 || la->n_slices > SAMPLE)
        return false;
    size_t covered = 0;
    bool bigger_than_all = true, same_as_earlier = false;
    for (size_t k = 0; k < n_keep; k++) {
        size_t b = keep[k];
        if (b == a)
            continue;
        const struct lane *lb = &c->lanes[b];
        if (lb->n_sample == 0 || lb->n_slices > SAMPLE)
            continue;
        size_t shared = 0;
        for (size_t i = 0; i < la->n_sample; i++)
            shared += has_hash(lb->sample, lb->n_sample, la->sample[i]);
        if (!shared)
            continue;
        covered += shared;
        if (lb->n_slices >= la->n_slices)
            bigger_than_all = false;
        if (shared == la->n_sample && lb->n_slices == la->n_slices && k < pos)
            same_as_earlier = true;
    }
    return covered >= la->n_sample && (bigger_than_all || same_as_earlier);
}

void tf_chrome_pick_fini(struct chrome_pick *p)
{
    free(p->lanes);
    free(p->rename);
}

/* --lanes matching nothing: the message lists the labels it could have
 * matched (those left after --hide and the default rules), and says so
 * when a default-hidden lane would have matched. */
static void lanes_miss(const struct chrome *c, const struct tf_opts *o, const size_t *keep,
                       size_t n_keep, const size_t *hidden, size_t n_hidden, struct tf_buf *msg)
{
    tf_buf_puts(msg, "--lanes: no lane label matches");
    for (size_t q = 0; q < o->n_lanes; q++) {
        const char *eq = strchr(o->lanes[q], '=');
        int len = eq ? (int)(eq - o->lanes[q]) : (int)strlen(o->lanes[q]);
        tf_buf_printf(msg, "%s \"%.*s\"", q ? "," : "", len > 100 ? 100 : len, o->lanes[q]);
    }
    tf_buf_printf(msg, "; the %zu label%s:", n_keep, n_keep == 1 ? " is" : "s are");
    size_t shown = 0;
    for (size_t i = 0; i < n_keep && msg->len < 700; i++, shown++)
        tf_buf_printf(msg, "%s \"%.120s\"", i ? "," : "", c->lanes[keep[i]].label);
    if (shown < n_keep)
        tf_buf_printf(msg, ", and %zu more", n_keep - shown);
    struct tf_buf pat;
    tf_buf_init(&pat);
    size_t n_match = 0, first = SIZE_MAX;
    for (size_t i = 0; i < n_hidden; i++) {
        bool hit = false;
        for (size_t q = 0; q < o->n_lanes && !hit; q++) {
            const char *eq = strchr(o->lanes[q], '=');
            tf_buf_clear(&pat);
            tf_buf_putn(&pat, o->lanes[q], eq ? (size_t)(eq - o->lanes[q]) : strlen(o->lanes[q]));
            hit = !pat.oom && fnmatch(pat.data ? pat.data : "", c->lanes[hidden[i]].label, 0) == 0;
        }
        if (hit && n_match++ == 0)
            first = hidden[i];
    }
    tf_buf_fini(&pat);
    if (n_match)
        tf_buf_printf(msg, " (\"%.120s\"%s hidden by default: --all-lanes draws %s)",
                      c->lanes[first].label, n_match > 1 ? " and others are" : " is",
                      n_match > 1 ? "them" : "it");
}

/* Lanes with something drawn (counter lanes hold a value in the window)
 * into order[], labelled together (alike labels told apart); *n_bar: those
 * of slices.  False when out of memory. */
static bool drawn_lanes(struct chrome *c, size_t *order, size_t *ts, struct chrome_label *lb,
                        size_t *n_order, size_t *n_bar)
{
    size_t n = 0;
    *n_bar = 0;
    for (size_t i = 0; i < c->n_lanes; i++)
        if (c->lanes[i].counter || c->lanes[i].n_bars > 0) {
            ts[n] = c->lanes[i].thread;
            order[n++] = i;
            *n_bar += !c->lanes[i].counter;
        }
    *n_order = n;
    if (!tf_chrome_labels(c, ts, n, lb))
        return false;
    for (size_t i = 0; i < n; i++) {
        struct lane *ln = &c->lanes[order[i]];
        tf_chrome_labels_fini(&ln->lbl, 1);
        ln->lbl = lb[i];
        memset(&lb[i], 0, sizeof lb[i]);
        ln->label = ln->lbl.label;
    }
    return true;
}

/* --hide, then the default rules, on the lanes in order: keeps the others
 * at the front of order[] (their count is returned), the hidden ones by
 * the default rules go to hidden[]. */
static size_t hide_lanes(const struct chrome *c, const struct tf_opts *o, size_t *order,
                         size_t n_order, size_t n_bar, size_t *hidden, size_t *n_hidden)
{
    size_t n_keep = 0;
    for (size_t i = 0; i < n_order; i++) {
        const char *label = c->lanes[order[i]].label;
        if (o->n_hide && glob_any(o->hide, o->n_hide, label))
            continue;
        if (!tf_chrome_rank_selected(c, c->lanes[order[i]].thread))
            continue;
        if (!o->all_lanes &&
            (glob_any(default_hide, sizeof default_hide / sizeof default_hide[0], label) ||
             ((c->lanes[order[i]].all_total || c->lanes[order[i]].all_span) && n_bar > 1))) {
            hidden[(*n_hidden)++] = order[i];
            continue;
        }
        order[n_keep++] = order[i];
    }
    return n_keep;
}

/* A lane's probes: PROBES of its slices' hashes, spread over their sorted
 * order.  A lane that repeats others has each of them in another lane. */
#define PROBES 8

struct probe {
    uint64_t h;
    size_t k;     /* its lane's place in order[] */
    unsigned j;   /* which of its probes */
};

static int cmp_probe(const void *x, const void *y)
{
    const struct probe *a = x, *b = y;
    if (a->h != b->h)
        return a->h < b->h ? -1 : 1;
    if (a->k != b->k)
        return a->k < b->k ? -1 : 1;
    return (a->j > b->j) - (a->j < b->j);
}

/* maybe[k]: every probe of lane order[k] is among another kept lane's
 * samples; only such lanes can repeat others (repeats_others).  Each
 * lane's samples are looked up among the probes once: O(samples log
 * lanes), where testing every pair of lanes took O(lanes^2 samples) (an
 * HPC job's thousands of ranks). */
static bool repeat_candidates(const struct chrome *c, const size_t *order, size_t n, bool *maybe)
{
    struct probe *p = malloc((n ? n : 1) * PROBES * sizeof *p);
    uint8_t *found = calloc(n ? n : 1, sizeof *found); /* a bit per probe found */
    uint8_t *want = calloc(n ? n : 1, sizeof *want);
    if (!p || !found || !want) {
        free(p);
        free(found);
        free(want);
        return false;
    }
    size_t np = 0;
    for (size_t k = 0; k < n; k++) {
        const struct lane *ln = &c->lanes[order[k]];
        if (!ln->n_sample || ln->n_slices > SAMPLE)
            continue;
        unsigned m = ln->n_sample < PROBES ? (unsigned)ln->n_sample : PROBES;
        for (unsigned j = 0; j < m; j++)
            p[np++] = (struct probe){ln->sample[(size_t)j * (ln->n_sample - 1) / (m > 1 ? m - 1 : 1)],
                                     k, j};
        want[k] = (uint8_t)((1u << m) - 1);
    }
    qsort(p, np, sizeof *p, cmp_probe);
    for (size_t k = 0; k < n && np; k++) {
        const struct lane *ln = &c->lanes[order[k]];
        if (ln->n_slices > SAMPLE)
            continue;
        for (size_t i = 0; i < ln->n_sample; i++) {
            uint64_t h = ln->sample[i];
            size_t lo = 0, hi = np;
            while (lo < hi) {
                size_t mid = lo + (hi - lo) / 2;
                if (p[mid].h < h)
                    lo = mid + 1;
                else
                    hi = mid;
            }
            for (; lo < np && p[lo].h == h; lo++)
                if (p[lo].k != k)
                    found[p[lo].k] |= (uint8_t)(1u << p[lo].j);
        }
    }
    for (size_t k = 0; k < n; k++)
        maybe[k] = want[k] && found[k] == want[k];
    free(p);
    free(found);
    free(want);
    return true;
}

/* Aggregates and duplicates of the lanes kept so far go to hidden[]. */
static bool drop_repeats(struct chrome *c, size_t *order, size_t *n_keep, size_t *hidden,
                         size_t *n_hidden)
{
    for (size_t i = 0; i < *n_keep; i++) {
        struct lane *ln = &c->lanes[order[i]];
        if (ln->n_sample > 1)
            qsort(ln->sample, ln->n_sample, sizeof *ln->sample, cmp_u64);
    }
    bool *drop = calloc(*n_keep ? *n_keep : 1, sizeof *drop);
    bool *maybe = calloc(*n_keep ? *n_keep : 1, sizeof *maybe);
    if (!drop || !maybe || !repeat_candidates(c, order, *n_keep, maybe)) {
        free(drop);
        free(maybe);
        return false;
    }
    for (size_t i = 0; i < *n_keep; i++)
        drop[i] = maybe[i] && repeats_others(c, order, *n_keep, order[i], i);
    free(maybe);
    size_t k = 0;
    for (size_t i = 0; i < *n_keep; i++) {
        if (drop[i])
            hidden[(*n_hidden)++] = order[i];
        else
            order[k++] = order[i];
    }
    *n_keep = k;
    free(drop);
    return true;
}

/* --lanes picks and orders the kept lanes (PATTERN=LABEL also renames the
 * lanes it picks) into pick[] and rename[]; *n_pick of them.  False when
 * out of memory. */
static bool pick_by_pattern(const struct chrome *c, const struct tf_opts *o, const size_t *order,
                            size_t n_keep, size_t *pick, const char **rename, size_t *n_pick)
{
    struct tf_buf pat;
    tf_buf_init(&pat);
    bool ok = true;
    for (size_t q = 0; ok && q < o->n_lanes; q++) {
        const char *eq = strchr(o->lanes[q], '=');
        tf_buf_clear(&pat);
        tf_buf_putn(&pat, o->lanes[q], eq ? (size_t)(eq - o->lanes[q]) : strlen(o->lanes[q]));
        if (!(ok = !pat.oom))
            break;
        for (size_t i = 0; i < n_keep; i++) {
            bool taken = false;
            for (size_t k = 0; k < *n_pick; k++)
                taken |= pick[k] == order[i];
            if (!taken && fnmatch(pat.data ? pat.data : "", c->lanes[order[i]].label, 0) == 0) {
                rename[*n_pick] = eq ? eq + 1 : NULL;
                pick[(*n_pick)++] = order[i];
            }
        }
    }
    tf_buf_fini(&pat);
    return ok;
}

/* Whether picked lane l is one of a system trace's threads (pass 0) or
 * counters (pass 1). */
static bool system_kind(const struct chrome *c, size_t l, int pass)
{
    return pass ? c->lanes[l].counter != 0
                : !c->lanes[l].counter && !tf_chrome_cpu_lane(c, l);
}

/* A system trace's picked lanes that stay (caller-freed, per p->lanes[i]):
 * every CPU lane, its busiest `room` threads and its most varying
 * p->ccap counters (system.c); NULL when out of memory. */
static bool *system_keep(struct chrome *c, const struct chrome_pick *p, size_t n_pick,
                         size_t room)
{
    size_t *v = malloc((n_pick ? n_pick : 1) * sizeof *v);
    bool *keep = calloc(n_pick ? n_pick : 1, sizeof *keep);
    bool *k2 = calloc(n_pick ? n_pick : 1, sizeof *k2);
    bool ok = v && keep && k2;
    for (size_t i = 0; ok && i < n_pick; i++)
        keep[i] = !system_kind(c, p->lanes[i], 0) && !system_kind(c, p->lanes[i], 1);
    for (int pass = 0; ok && pass < 2; pass++) {
        size_t n = 0;
        for (size_t i = 0; i < n_pick; i++)
            if (system_kind(c, p->lanes[i], pass))
                v[n++] = p->lanes[i];
        ok = tf_chrome_system_keep(c, v, n, pass ? p->ccap : room, pass == 1, k2);
        for (size_t i = 0, j = 0; ok && i < n_pick; i++)
            if (system_kind(c, p->lanes[i], pass))
                keep[i] = k2[j++];
    }
    free(v);
    free(k2);
    if (!ok) {
        free(keep);
        return NULL;
    }
    return keep;
}

/* The caps: one on lanes of slices, one on counter lanes; p->n lanes of
 * pick[] stay.  A system trace's (one with CPU lanes) keeps its busiest
 * threads and its most varying counters (system.c), unless --lanes chose
 * them; the others keep the first ones.  False when out of memory. */
static bool cap_lanes(struct chrome *c, const struct tf_opts *o, struct chrome_pick *p,
                      size_t n_pick)
{
    p->cap = o->max_lanes > 0 ? (size_t)o->max_lanes
             : c->hpc        ? TF_CHROME_MAX_RANK_LANES
                             : TF_CHROME_MAX_LANES;
    p->ccap = o->max_counters > 0 ? (size_t)o->max_counters : TF_CHROME_MAX_COUNTERS;
    /* A system trace's CPU lanes ("CPU 0".., after the threads) keep their
     * room under the cap: the threads' lanes take what they leave, and at
     * least half of it. */
    size_t n_cpu = 0, n_other = 0;
    for (size_t i = 0; i < n_pick; i++) {
        if (c->lanes[p->lanes[i]].counter)
            continue;
        if (tf_chrome_cpu_lane(c, p->lanes[i]))
            n_cpu++;
        else
            n_other++;
    }
    size_t room_other = p->cap > n_cpu ? p->cap - n_cpu : 0;
    if (room_other < p->cap / 2)
        room_other = p->cap / 2;
    if (n_cpu && o->max_lanes <= 0) {
        /* By default a system trace's figure is its CPUs under a few of its
         * threads: the height would cut the CPU lanes, which come last. */
        if (room_other > p->cap / 4)
            room_other = p->cap / 4;
        /* and no counter track when the threads fill the rest */
        if (o->max_counters <= 0)
            p->ccap = n_other >= room_other ? 0 : p->ccap > 2 ? 2 : p->ccap;
    }
    if (room_other > n_other)
        room_other = n_other;
    /* Which threads and counters a system trace keeps. */
    bool *keep = NULL;
    if (n_cpu && !o->n_lanes && !(keep = system_keep(c, p, n_pick, room_other)))
        return false;
    size_t room_cpu = p->cap - room_other, n_cpu_kept = 0, n_other_kept = 0;
    size_t n_kept = 0, n_slices = 0;
    for (size_t i = 0; i < n_pick; i++) {
        bool counter = c->lanes[p->lanes[i]].counter != 0;
        size_t *n = counter ? &p->n_counters : &n_slices;
        bool cpu = !counter && n_cpu && tf_chrome_cpu_lane(c, p->lanes[i]);
        if ((keep && !keep[i]) || *n >= (counter ? p->ccap : p->cap) ||
            (!counter && n_cpu && (cpu ? n_cpu_kept >= room_cpu : n_other_kept >= room_other))) {
            ++*(counter ? &p->n_ccut : &p->n_cut);
            continue;
        }
        (*n)++;
        if (!counter)
            ++*(cpu ? &n_cpu_kept : &n_other_kept);
        p->rename[n_kept] = p->rename[i];
        p->lanes[n_kept++] = p->lanes[i];
    }
    p->n = n_kept;
    free(keep);
    return true;
}

bool tf_chrome_pick_lanes(struct chrome *c, const struct tf_opts *o, struct chrome_pick *p,
                          struct tf_diag *d)
{
    memset(p, 0, sizeof *p);
    size_t nl = c->n_lanes ? c->n_lanes : 1;
    size_t *order = malloc(nl * sizeof *order);
    size_t *hidden = malloc(nl * sizeof *hidden); /* by the default rules */
    size_t *pick = p->lanes = malloc(nl * sizeof *p->lanes);
    const char **rename = p->rename = calloc(nl, sizeof *p->rename);
    size_t *ts = calloc(nl, sizeof *ts);
    struct chrome_label *lb = calloc(nl, sizeof *lb);
    struct tf_buf msg;
    tf_buf_init(&msg);
    bool ok = order && hidden && pick && rename && ts && lb;
    const char *fail = NULL;
    enum tf_exit fail_code = TF_EBADINPUT;

    /* The lanes drawn, in the author's order. */
    size_t n_order = 0, n_bar_lanes = 0;
    ok = ok && drawn_lanes(c, order, ts, lb, &n_order, &n_bar_lanes);
    if (ok && n_order == 0)
        fail = "nothing to draw in the window";
    if (ok && !fail)
        ok = sort_author(c, order, n_order, false);
    size_t n_keep = 0, n_hidden = 0;
    if (ok && !fail)
        n_keep = hide_lanes(c, o, order, n_order, n_bar_lanes, hidden, &n_hidden);
    if (ok && !fail && !o->all_lanes)
        ok = drop_repeats(c, order, &n_keep, hidden, &n_hidden);
    p->n_by_default = n_hidden;
    if (ok && !fail && n_keep == 0)
        fail = "every lane is hidden (--hide, or --all-lanes to see the default-hidden ones)",
        fail_code = TF_EUSAGE;
    size_t n_pick = 0;
    if (ok && !fail && o->n_lanes) {
        ok = pick_by_pattern(c, o, order, n_keep, pick, rename, &n_pick);
        if (ok && n_pick == 0) {
            lanes_miss(c, o, order, n_keep, hidden, n_hidden, &msg);
            fail = msg.oom || !msg.data ? "--lanes: no lane label matches" : msg.data;
            fail_code = TF_EUSAGE;
        }
    } else if (ok && !fail) {
        memcpy(pick, order, n_keep * sizeof *pick);
        n_pick = n_keep;
    }
    if (ok && !fail)
        ok = cap_lanes(c, o, p, n_pick);
    else
        ok = cap_lanes(c, o, p, 0) && ok;
    if (fail)
        tf_diag_error(d, fail_code, "%s", fail);
    if (lb)
        tf_chrome_labels_fini(lb, nl);
    free(lb);
    free(ts);
    free(order);
    free(hidden);
    tf_buf_fini(&msg);
    if (!ok)
        return tf_diag_oom(d, NULL);
    return !fail;
}

bool tf_chrome_window_threads(struct chrome *c, const struct tf_opts *o, size_t **def,
                              size_t *n_def, size_t **shown, size_t *n_shown)
{
    *def = *shown = NULL;
    *n_def = *n_shown = 0;
    size_t nt = c->n_thrs ? c->n_thrs : 1;
    size_t *v = calloc(nt, sizeof *v), *w = calloc(nt, sizeof *w);
    struct chrome_label *lb = calloc(nt, sizeof *lb);
    const char **label = calloc(nt, sizeof *label);
    bool *taken = calloc(nt, sizeof *taken);
    bool ok = v && w && lb && label && taken;
    size_t n = 0;
    for (size_t t = 0; ok && t < c->n_thrs; t++)
        if (c->thrs[t].ext.count)
            v[n++] = t;
    /* Labels and the order, by thread; then the rules pick_lanes applies
     * that pass 1 can know: the default ones (def), then --hide, --lanes
     * and the cap (shown). */
    ok = ok && tf_chrome_labels(c, v, n, lb);
    for (size_t i = 0; ok && i < n; i++)
        label[v[i]] = lb[i].label;
    ok = ok && sort_author(c, v, n, true);
    size_t k = 0, n_bar = 0;
    for (size_t i = 0; ok && i < n; i++)
        n_bar += !c->thrs[v[i]].counter;
    for (size_t i = 0; ok && i < n; i++) {
        const char *l = label[v[i]];
        if (!o->all_lanes &&
            (glob_any(default_hide, sizeof default_hide / sizeof default_hide[0], l) ||
             (c->thrs[v[i]].ext.all_total && n_bar > 1)))
            continue;
        v[k++] = v[i];
    }
    n = k;
    size_t m = 0;
    for (size_t i = 0; ok && i < n; i++)
        if (!(o->n_hide && glob_any(o->hide, o->n_hide, label[v[i]])) &&
            tf_chrome_rank_selected(c, v[i]))
            w[m++] = v[i];
    if (ok && o->n_lanes) {
        /* In the order of the patterns, as --lanes draws them. */
        struct tf_buf pat;
        tf_buf_init(&pat);
        size_t *pick = malloc((m ? m : 1) * sizeof *pick);
        ok = pick != NULL;
        k = 0;
        for (size_t q = 0; ok && q < o->n_lanes; q++) {
            const char *eq = strchr(o->lanes[q], '=');
            tf_buf_clear(&pat);
            tf_buf_putn(&pat, o->lanes[q], eq ? (size_t)(eq - o->lanes[q]) : strlen(o->lanes[q]));
            ok = !pat.oom;
            for (size_t i = 0; ok && i < m; i++)
                if (!taken[i] && fnmatch(pat.data ? pat.data : "", label[w[i]], 0) == 0) {
                    taken[i] = true;
                    pick[k++] = w[i];
                }
        }
        if (ok) {
            memcpy(w, pick, k * sizeof *w);
            m = k;
        }
        free(pick);
        tf_buf_fini(&pat);
    }
    /* The caps, as pick_lanes applies them: lanes of slices, counters. */
    size_t cap = o->max_lanes > 0 ? (size_t)o->max_lanes
                 : c->hpc        ? TF_CHROME_MAX_RANK_LANES
                                 : TF_CHROME_MAX_LANES;
    size_t ccap = o->max_counters > 0 ? (size_t)o->max_counters : TF_CHROME_MAX_COUNTERS;
    /* Lanes of instants alone rank after those of slices (their busy
     * time is nil): they take what room the cap leaves. */
    size_t n_slices = 0, n_counters = 0;
    for (size_t i = 0; ok && i < m; i++)
        taken[i] = false;
    k = 0;
    for (int round = 0; ok && round < 2; round++)
        for (size_t i = 0; i < m; i++) {
            const struct thr *t = &c->thrs[w[i]];
            if (taken[i] || (round == 0 && !t->counter && !t->ext.any_slice))
                continue;
            size_t *cnt = t->counter ? &n_counters : &n_slices;
            if (*cnt >= (t->counter ? ccap : cap))
                continue;
            (*cnt)++;
            taken[i] = true;
        }
    for (size_t i = 0; ok && i < m; i++)
        if (taken[i])
            w[k++] = w[i];
    if (ok)
        m = k;
    if (lb)
        tf_chrome_labels_fini(lb, nt);
    free(lb);
    free(label);
    free(taken);
    if (!ok) {
        free(v);
        free(w);
        return c->oom = true, false;
    }
    *def = v;
    *n_def = n;
    *shown = w;
    *n_shown = m;
    return true;
}
