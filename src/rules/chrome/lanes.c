/* lanes.c - the generic Chrome mode's lanes: who a lane is (one per
 * thread, its process and thread known by pid and tid), what the metadata
 * says of them (names, labels, sort indices), the label a lane shows, the
 * order lanes are drawn in, and which lanes a figure draws: --hide, the
 * default rules (lanes that repeat or only sum up others, clang's
 * summaries, the profiler's own span; not with --all-lanes), --lanes and
 * its renames, and the cap (--max-lanes).  It does not fill lanes with
 * slices (rows.c).
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
        *hold = tf_chrome_strdup(c, src->str);
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

size_t tf_chrome_process(struct chrome *c, const struct tf_id *pid)
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

size_t tf_chrome_thread(struct chrome *c, const struct tf_id *pid, const struct tf_id *tid)
{
    size_t p = tf_chrome_process(c, pid);
    if (p == SIZE_MAX)
        return SIZE_MAX;
    tf_buf_clear(&c->tmp);
    tf_id_key(&c->tmp, pid);
    tf_buf_putc(&c->tmp, '|');
    tf_id_key(&c->tmp, tid);
    uint32_t id;
    if (!key_id(c, &c->thr_keys, &id))
        return SIZE_MAX;
    if (id < c->n_thrs)
        return id;
    if (!TF_GROW(c->thrs, c->n_thrs, c->cap_thrs))
        return c->oom = true, SIZE_MAX;
    struct thr *t = &c->thrs[c->n_thrs++];
    memset(t, 0, sizeof *t);
    t->proc = p;
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
    uint32_t id;
    if (!key_id(c, &c->thr_keys, &id))
        return SIZE_MAX;
    if (id < c->n_thrs)
        return id;
    if (!TF_GROW(c->thrs, c->n_thrs, c->cap_thrs))
        return c->oom = true, SIZE_MAX;
    struct thr *t = &c->thrs[c->n_thrs++];
    memset(t, 0, sizeof *t);
    t->proc = p;
    t->counter = true;
    t->name = tf_chrome_strdup(c, label);
    return t->name ? id : SIZE_MAX;
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
    return tf_chrome_strdup(c, c->tmp.data ? c->tmp.data : "");
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
    if (strcmp(r->name, "process_name") == 0) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX)
            set_str(&c->procs[p].name, arg_str(c, r, "name"));
    } else if (strcmp(r->name, "process_labels") == 0) {
        size_t p = tf_chrome_process(c, &r->pid);
        if (p != SIZE_MAX)
            set_str(&c->procs[p].labels, arg_str(c, r, "labels"));
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
    if (ln->n_sample < SAMPLE) {
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

/* --- labels ------------------------------------------------------------------------ */

static void id_label(struct tf_buf *b, const char *what, const struct tf_id *id)
{
    if (id->kind == TF_ID_NUM)
        tf_buf_printf(b, "%s %lld", what, id->num);
    else if (id->kind == TF_ID_STR)
        tf_buf_printf(b, "%s %s", what, id->str);
    else
        tf_buf_printf(b, "%s ?", what);
}

bool tf_chrome_proc_label(const struct proc *p, struct tf_buf *out)
{
    size_t n0 = out->len;
    /* Kineto names its GPU processes after the host program and labels
     * them "GPU 0": the label says more (but not its host's "CPU"). */
    if (p->labels && *p->labels && strcmp(p->labels, "CPU") != 0)
        tf_chrome_trimmed(p->labels, out);
    else if (p->name && *p->name)
        tf_chrome_process_name(p->name, out);
    if (out->len > n0)
        return true;
    id_label(out, "pid", &p->pid);
    return false;
}

/* "process / thread" from the metadata, else from the ids; a process's
 * only lane, of a thread without a name, is the process's name alone. */
void tf_chrome_lane_label(const struct chrome *c, size_t t, struct tf_buf *out)
{
    const struct thr *th = &c->thrs[t];
    const struct proc *p = &c->procs[th->proc];
    struct tf_buf pl, tl;
    tf_buf_init(&pl);
    tf_buf_init(&tl);
    bool named = tf_chrome_proc_label(p, &pl);
    if (th->name && *th->name)
        tf_chrome_trimmed(th->name, &tl);
    else if (th->tid.kind == TF_ID_STR && strncmp(th->tid.str, "async ", 6) == 0)
        tf_buf_puts(&tl, th->tid.str); /* the loader's lane of async events */
    if (!tl.len && named && p->n_drawn == 1)
        tf_buf_puts(&tl, pl.data);
    if (!tl.len)
        id_label(&tl, "tid", &th->tid);
    tf_buf_clear(out);
    if (pl.data && tl.data && strcmp(pl.data, tl.data) == 0)
        tf_buf_puts(out, pl.data);
    else
        tf_buf_printf(out, "%s / %s", pl.data ? pl.data : "", tl.data ? tl.data : "");
    tf_buf_fini(&pl);
    tf_buf_fini(&tl);
}

/* Kineto's thread names carry the id: "thread 4037 (python3.8)" is the
 * name "python3.8" and the id "4037". */
static bool kineto_thread(const char *s, struct tf_buf *name, struct tf_buf *id)
{
    if (strncmp(s, "thread ", 7) != 0)
        return false;
    const char *d = s + 7, *e = d;
    while (*e >= '0' && *e <= '9')
        e++;
    size_t n = strlen(e);
    if (e == d || n < 3 || e[0] != ' ' || e[1] != '(' || e[n - 1] != ')')
        return false;
    tf_buf_putn(name, e + 2, n - 3);
    tf_buf_putn(id, d, (size_t)(e - d));
    return true;
}

bool tf_chrome_split_label(const char *label, struct tf_buf *group, struct tf_buf *name,
                           struct tf_buf *id)
{
    const char *slash = label ? strstr(label, " / ") : NULL;
    if (!slash || slash == label || !slash[3])
        return false;
    tf_buf_putn(group, label, (size_t)(slash - label));
    if (!kineto_thread(slash + 3, name, id))
        tf_buf_puts(name, slash + 3);
    return true;
}

bool tf_chrome_lane_parts(const struct chrome *c, size_t t, struct tf_buf *group,
                          struct tf_buf *name, struct tf_buf *id)
{
    const struct thr *th = &c->thrs[t];
    const struct proc *p = &c->procs[th->proc];
    struct tf_buf full;
    tf_buf_init(&full);
    tf_chrome_lane_label(c, t, &full);
    tf_chrome_proc_label(p, group);
    bool parts = full.data && group->data && strcmp(full.data, group->data) != 0;
    tf_buf_fini(&full);
    if (!parts)
        return false;
    struct tf_buf tn;
    tf_buf_init(&tn);
    if (th->name && *th->name)
        tf_chrome_trimmed(th->name, &tn);
    if (tn.len && kineto_thread(tn.data, name, id)) {
        tf_buf_fini(&tn);
        return true;
    }
    if (tn.len) {
        tf_buf_puts(name, tn.data);
        if (th->tid.kind == TF_ID_NUM)
            tf_buf_printf(id, "%lld", th->tid.num);
    } else if (th->tid.kind == TF_ID_STR && strncmp(th->tid.str, "async ", 6) == 0) {
        tf_buf_puts(name, th->tid.str);
    } else {
        id_label(name, "tid", &th->tid);
    }
    tf_buf_fini(&tn);
    return true;
}

/* --- order ------------------------------------------------------------------------- */

/* Text with numbers in it, in the order people count: "stream 7" before
 * "stream 20" before "stream 100" (runs of digits compare by value); ties
 * (as "07" and "7") fall back to the bytes, so the order stays total. */
static int natural_cmp(const char *a, const char *b)
{
    const unsigned char *p = (const unsigned char *)a, *q = (const unsigned char *)b;
    while (*p && *q) {
        if (*p >= '0' && *p <= '9' && *q >= '0' && *q <= '9') {
            while (*p == '0')
                p++;
            while (*q == '0')
                q++;
            size_t m = 0, n = 0;
            while (p[m] >= '0' && p[m] <= '9')
                m++;
            while (q[n] >= '0' && q[n] <= '9')
                n++;
            if (m != n)
                return m < n ? -1 : 1;
            int k = memcmp(p, q, m);
            if (k)
                return k < 0 ? -1 : 1;
            p += m;
            q += n;
            continue;
        }
        if (*p != *q)
            return *p < *q ? -1 : 1;
        p++;
        q++;
    }
    if (*p || *q)
        return *p ? 1 : -1;
    return strcmp(a, b);
}

/* Ids compare as numbers before strings, numbers numerically, strings
 * naturally. */
static int cmp_id(const struct tf_id *a, const struct tf_id *b)
{
    if (a->kind != b->kind)
        return a->kind == TF_ID_NUM ? -1 : b->kind == TF_ID_NUM ? 1 : (int)a->kind - (int)b->kind;
    if (a->kind == TF_ID_NUM)
        return (a->num > b->num) - (a->num < b->num);
    if (a->kind == TF_ID_STR)
        return natural_cmp(a->str, b->str);
    return 0;
}

/* A lane to order, with what the order reads of it (qsort has no context
 * argument, and a static one would not let two traces be built at once). */
struct lane_key {
    size_t lane;
    const struct thr *t;
    const struct proc *p;
};

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
        int k = cmp_id(&pa->pid, &pb->pid);
        if (k)
            return k;
    }
    /* A process's counters come first, as in Perfetto and chrome://tracing. */
    if (a->counter != b->counter)
        return a->counter ? -1 : 1;
    if (a->counter)
        return natural_cmp(a->name, b->name);
    if (a->has_sort != b->has_sort || (a->has_sort && a->sort != b->sort)) {
        long long sa = a->has_sort ? a->sort : 0, sb = b->has_sort ? b->sort : 0;
        if (sa != sb)
            return sa < sb ? -1 : 1;
    }
    return cmp_id(&a->tid, &b->tid);
}

/* Sorts lane indices into the author's order; false when out of memory. */
static bool sort_lanes(const struct chrome *c, size_t *order, size_t n)
{
    if (n < 2)
        return true;
    struct lane_key *k = malloc(n * sizeof *k);
    if (!k)
        return false;
    for (size_t i = 0; i < n; i++) {
        const struct thr *t = &c->thrs[c->lanes[order[i]].thread];
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

bool tf_chrome_pick_lanes(struct chrome *c, const struct tf_opts *o, struct chrome_pick *p,
                          struct tf_diag *d)
{
    memset(p, 0, sizeof *p);
    size_t nl = c->n_lanes ? c->n_lanes : 1;
    size_t *order = malloc(nl * sizeof *order);
    size_t *pick = p->lanes = malloc(nl * sizeof *p->lanes);
    const char **rename = p->rename = calloc(nl, sizeof *p->rename);
    struct tf_buf label;
    tf_buf_init(&label);
    bool ok = order && pick && rename;
    const char *fail = NULL;
    enum tf_exit fail_code = TF_EBADINPUT;

    /* Lanes with something drawn, in the author's order. */
    size_t n_order = 0, n_bar_lanes = 0;
    for (size_t i = 0; ok && i < c->n_lanes; i++) {
        if (c->lanes[i].counter) {
            order[n_order++] = i; /* it holds a value in the window */
        } else if (c->lanes[i].n_bars > 0) {
            order[n_order++] = i;
            n_bar_lanes++;
            c->procs[c->thrs[c->lanes[i].thread].proc].n_drawn++;
        }
    }
    if (ok && n_order == 0)
        fail = "nothing to draw in the window";
    if (ok && !fail)
        ok = sort_lanes(c, order, n_order);
    /* --hide, then the default rules, on the lanes in order. */
    size_t n_keep = 0;
    for (size_t i = 0; ok && !fail && i < n_order; i++) {
        tf_chrome_lane_label(c, c->lanes[order[i]].thread, &label);
        if (!(ok = !label.oom))
            break;
        if (o->n_hide && glob_any(o->hide, o->n_hide, label.data))
            continue;
        if (!o->all_lanes &&
            (glob_any(default_hide, sizeof default_hide / sizeof default_hide[0], label.data) ||
             ((c->lanes[order[i]].all_total || c->lanes[order[i]].all_span) && n_bar_lanes > 1))) {
            p->n_by_default++;
            continue;
        }
        order[n_keep++] = order[i];
    }
    if (ok && !fail && !o->all_lanes) {
        /* Aggregates and duplicates of the lanes kept so far. */
        size_t k = 0;
        for (size_t i = 0; i < n_keep; i++) {
            struct lane *ln = &c->lanes[order[i]];
            if (ln->n_sample > 1)
                qsort(ln->sample, ln->n_sample, sizeof *ln->sample, cmp_u64);
        }
        bool *drop = calloc(n_keep ? n_keep : 1, sizeof *drop);
        if (!drop)
            ok = false;
        for (size_t i = 0; ok && i < n_keep; i++)
            drop[i] = repeats_others(c, order, n_keep, order[i], i);
        for (size_t i = 0; ok && i < n_keep; i++) {
            if (drop[i])
                p->n_by_default++;
            else
                order[k++] = order[i];
        }
        if (ok)
            n_keep = k;
        free(drop);
    }
    if (ok && !fail && n_keep == 0)
        fail = "every lane is hidden (--hide, or --all-lanes to see the default-hidden ones)",
        fail_code = TF_EUSAGE;
    /* --lanes picks and orders. */
    size_t n_pick = 0;
    if (ok && !fail && o->n_lanes) {
        /* PATTERN=LABEL also renames the lanes it picks. */
        struct tf_buf pat;
        tf_buf_init(&pat);
        for (size_t q = 0; ok && q < o->n_lanes; q++) {
            const char *eq = strchr(o->lanes[q], '=');
            tf_buf_clear(&pat);
            tf_buf_putn(&pat, o->lanes[q], eq ? (size_t)(eq - o->lanes[q]) : strlen(o->lanes[q]));
            if (!(ok = !pat.oom))
                break;
            for (size_t i = 0; ok && i < n_keep; i++) {
                tf_chrome_lane_label(c, c->lanes[order[i]].thread, &label);
                bool taken = false;
                for (size_t k = 0; k < n_pick; k++)
                    taken |= pick[k] == order[i];
                if (!taken && fnmatch(pat.data ? pat.data : "", label.data, 0) == 0) {
                    rename[n_pick] = eq ? eq + 1 : NULL;
                    pick[n_pick++] = order[i];
                }
            }
        }
        tf_buf_fini(&pat);
        if (n_pick == 0)
            fail = "--lanes: no lane label matches", fail_code = TF_EUSAGE;
    } else if (ok && !fail) {
        memcpy(pick, order, n_keep * sizeof *pick);
        n_pick = n_keep;
    }
    /* The caps: one on lanes of slices, one on counter lanes. */
    p->cap = o->max_lanes > 0 ? (size_t)o->max_lanes : TF_CHROME_MAX_LANES;
    p->ccap = o->max_counters > 0 ? (size_t)o->max_counters : TF_CHROME_MAX_COUNTERS;
    size_t n_kept = 0, n_slices = 0;
    for (size_t i = 0; ok && !fail && i < n_pick; i++) {
        bool counter = c->lanes[pick[i]].counter != 0;
        size_t *n = counter ? &p->n_counters : &n_slices;
        if (*n >= (counter ? p->ccap : p->cap)) {
            ++*(counter ? &p->n_ccut : &p->n_cut);
            continue;
        }
        (*n)++;
        rename[n_kept] = rename[i];
        pick[n_kept++] = pick[i];
    }
    p->n = n_kept;
    free(order);
    tf_buf_fini(&label);
    if (!ok)
        return tf_diag_oom(d, NULL);
    if (fail)
        return tf_diag_error(d, fail_code, "%s", fail);
    return true;
}
