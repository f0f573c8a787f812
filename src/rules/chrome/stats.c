/* stats.c - the generic Chrome mode's overlap statistics: the GPU work of
 * the records (kernels, memcpy and memset on a GPU stream, for the GPU
 * breakdown of the window or of the whole trace), and, once the lanes are
 * picked, each drawn lane's busy time in the window grouped by process
 * and by --group, and the --annotate line.  The interval algebra and the
 * table are rules/stats.c's; the lanes' busy sets are gathered as their
 * slices are placed (rows.c).
 */
#include "rules/chrome/chrome_int.h"

#include <stdlib.h>
#include <string.h>

#include "base/hash.h"
#include "base/jsonlite.h"
#include "base/num.h"

/* --- GPU work ---------------------------------------------------------------------- */

static bool json_ws(unsigned char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r';
}

/* The value of args.stream when the bytes say it at once: "stream" occurs
 * once in the args, as a key of the args object itself (after '{' or ','
 * and before ':', with no '{' or '[' before it, so at depth 1: the args
 * are valid JSON, so quotes not after a backslash delimit strings).  Then
 * it is the member tf_jl_get would find, without walking the others.
 * NULL when it is not that simple (tf_jl_get decides). */
static const unsigned char *stream_at_once(const unsigned char *a, size_t len,
                                           const unsigned char *key, size_t *n)
{
    const unsigned char *end = a + len;
    const unsigned char *b = key;
    while (b > a && json_ws(b[-1]))
        b--;
    if (b == a || (b[-1] != '{' && b[-1] != ','))
        return NULL;
    if (memchr(a + 1, '{', (size_t)(key - a - 1)) || memchr(a + 1, '[', (size_t)(key - a - 1)))
        return NULL;
    const unsigned char *v = key + 8;
    while (v < end && json_ws(*v))
        v++;
    if (v == end || *v != ':')
        return NULL;
    v++;
    while (v < end && json_ws(*v))
        v++;
    /* The value's end: a string's closing quote, or the first of , } ws. */
    const unsigned char *e = v;
    if (e < end && *e == '"') {
        for (e++; e < end && *e != '"'; e++)
            if (*e == '\\')
                e++;
        if (e >= end)
            return NULL;
        e++;
    } else {
        while (e < end && *e != ',' && *e != '}' && !json_ws(*e))
            e++;
    }
    if (e == v)
        return NULL;
    *n = (size_t)(e - v);
    return v;
}

/* args.stream as HTA reads it (Python's int() of the value): a number
 * (truncated), a boolean, or a string of an integer; anything else is -1,
 * "no stream". */
static long long stream_of(const struct tf_tef_rec *r)
{
    if (r->has_stream)
        return r->stream;
    if (!r->args)
        return -1;
    /* Most events have no "stream" at all: look for its bytes first
     * ('m' is rarer than '"': find it, then the rest of "stream"). */
    const unsigned char *a = r->args, *end = a + r->args_len, *key = NULL;
    size_t seen = 0;
    for (const unsigned char *q = a + 6; end - q >= 2; q++) {
        q = memchr(q, 'm', (size_t)(end - q) - 1);
        if (!q)
            break;
        if (q[1] == '"' && memcmp(q - 6, "\"strea", 6) == 0) {
            key = q - 6;
            seen++;
        }
    }
    if (!seen)
        return -1;
    size_t n = 0;
    const unsigned char *v = seen == 1 ? stream_at_once(a, r->args_len, key, &n) : NULL;
    if (!v)
        v = tf_jl_get(r->args, r->args_len, "stream", &n);
    if (!v || n == 0)
        return -1;
    if (v[0] == 't' || v[0] == 'f')
        return v[0] == 't';
    if (v[0] == '"') {
        /* int("  7 "): blanks, a sign, digits (with single underscores). */
        const unsigned char *p = v + 1, *e = v + n - 1;
        while (p < e && (*p == ' ' || *p == '\t'))
            p++;
        while (e > p && (e[-1] == ' ' || e[-1] == '\t'))
            e--;
        bool neg = p < e && *p == '-';
        if (p < e && (*p == '-' || *p == '+'))
            p++;
        if (p == e || *p == '_' || e[-1] == '_')
            return -1;
        long long x = 0;
        for (; p < e; p++) {
            if (*p == '_' && p[1] != '_')
                continue;
            if (*p < '0' || *p > '9' || x > 100000000000000000LL)
                return -1;
            x = x * 10 + (*p - '0');
        }
        return neg ? -x : x;
    }
    double x;
    if (!tf_jl_double(v, n, &x) || !(x > -1e18 && x < 1e18))
        return -1;
    return (long long)x; /* truncation, as int(float) */
}

/* --- folding the past ---------------------------------------------------------------- */

/* Busy intervals added between two folds: what a fold's sweep sorts. */
#define FOLD_EVERY 16384

void tf_chrome_order_note(struct chrome *c, const struct tf_tef_rec *r)
{
    /* A B/E pair comes at its end, after its children, and a CPU's run at
     * the switch that ends it: how far its start comes before the latest
     * one read is the lag the fold keeps back. */
    if (r->open_end) {
        /* A slice that never ended comes at the end of the trace, its
         * start long past: nothing is folded past its start (open_min)
         * rather than measuring it as a lag. */
        if (!c->order_open || r->ts < c->open_min)
            c->open_min = r->ts;
        c->order_open = true;
        return;
    }
    if (c->order_any && r->ts < c->order_ts) {
        /* (saturating: a lag past INT64_MAX is no order at all) */
        uint64_t lag = (uint64_t)c->order_ts - (uint64_t)r->ts;
        if (lag > (uint64_t)INT64_MAX)
            c->in_order = false;
        else if ((int64_t)lag > c->order_lag)
            c->order_lag = (int64_t)lag;
    }
    if (!c->order_any || r->ts > c->order_ts)
        c->order_ts = r->ts;
    c->order_any = true;
}

/* pos_max less the lag, and not past the start of a slice that never
 * ended: the time before which no record is still to come (INT64_MIN when
 * that is before every time). */
static int64_t pos_of(const struct chrome *c)
{
    int64_t pos = c->pos_max < INT64_MIN + c->order_lag ? INT64_MIN : c->pos_max - c->order_lag;
    return c->order_open && c->open_min < pos ? c->open_min : pos;
}

void tf_chrome_fold_note(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!c->fold_decided) {
        const struct tf_opts *o = c->o;
        /* A lean first pass (the export's, given both ends of the window)
         * did not see every record, so it could not check their order. */
        c->folding = c->in_order && !c->index_lean && !c->hta && !o->no_stats && !o->no_fold;
        c->fold_decided = true;
        c->pos_max = r->ts;
        c->pos = pos_of(c);
    }
    if (!c->folding)
        return;
    if (r->ts < c->pos) {
        /* Not the order pass 1 saw: no more folding, and what was folded
         * is wrong if this reaches before the last cut. */
        c->folding = false;
        c->fold_broken = c->fold.any && r->ts < c->fold_pos;
        return;
    }
    if (r->open_end)
        return; /* (at or after open_min: pass 1 saw it) */
    if (r->ts > c->pos_max) {
        c->pos_max = r->ts;
        c->pos = pos_of(c);
    }
}

/* Where the busy sets are cut: at the start of the record being read.
 * With ps ticks, what is yet to come starts at or after pos ns - 500 ps
 * (its start rounded to pos). */
static int64_t fold_at(const struct chrome *c)
{
    return c->fine ? tf_chrome_busy_tick(c, c->pos, -500) : c->pos;
}

void tf_chrome_fold_maybe(struct chrome *c)
{
    if (!c->folding || c->busy_added < FOLD_EVERY)
        return;
    struct tf_ivset **sets = malloc((c->n_lanes ? c->n_lanes : 1) * sizeof *sets);
    if (!sets) {
        c->oom = true;
        return;
    }
    for (size_t i = 0; i < c->n_lanes; i++) {
        struct lane *ln = &c->lanes[i];
        tf_chrome_rows_before(c, ln, c->pos);
        if (!ln->busy_sorted)
            tf_ivset_normalize(&ln->busy);
        ln->busy_sorted = true;
        sets[i] = &ln->busy;
    }
    if (!tf_ivfold_cut(&c->fold, sets, c->n_lanes, fold_at(c)))
        c->oom = true;
    c->fold_pos = c->pos;
    c->busy_added = 0;
    free(sets);
}

void tf_chrome_fold_end(struct chrome *c)
{
    /* (a trace that never grew enough for a fold keeps its sets whole, as
     * its statistics always were) */
    if (!c->folding || !c->fold.any || c->oom)
        return;
    c->pos = c->w1; /* every busy interval is clipped to the window */
    c->busy_added = FOLD_EVERY;
    tf_chrome_fold_maybe(c);
}

/* Keeps the GPU sets small: merge once they have doubled, and fold what
 * lies before the record being read when folding. */
static void gpu_tidy(struct chrome *c)
{
    if (c->gpu_added < 4096 || c->gpu_added < c->gpu_all.n / 2)
        return;
    tf_ivset_normalize(&c->gpu_all);
    tf_ivset_normalize(&c->gpu_comp);
    tf_ivset_normalize(&c->gpu_comm);
    c->gpu_added = 0;
    if (c->folding && c->pass2 &&
        !tf_stats_gpu_fold(&c->gpu_past, &c->gpu_all, &c->gpu_comp, &c->gpu_comm, fold_at(c)))
        c->oom = true;
}

/* A complete event's GPU work, [lo, hi) once clipped: a kernel, memcpy or
 * memset on a GPU stream (an integer args.stream other than -1), not a
 * runtime or driver call, not synchronisation (man page, STATISTICS). */
/* tf_kernel_class, remembered per name: a trace repeats a few
 * hundred kernel names (long C++ ones) millions of times.  The cache is
 * open addressing on a hash of the name's length and its first and last
 * 16 bytes (cheap for long names), each slot checked against the whole
 * name; once TF_CHROME_CLASS_CACHE names are in it, others are classified
 * each time. */
static uint32_t name_key(const char *name, size_t n)
{
    uint32_t h = tf_fnv1a(&n, sizeof n);
    if (n <= 32)
        return h ^ tf_fnv1a(name, n);
    return h ^ tf_fnv1a(name, 16) ^ (tf_fnv1a(name + n - 16, 16) * 31u);
}

/* The class of a name not in the memo: the cache's slot for it (NULL
 * once the cache is full and it is not there), or classified now. */
static enum tf_kernel_class kernel_class_slow(struct chrome *c, const char *name,
                                             const struct tf_chrome_class_slot **slot)
{
    struct tf_chrome_class_cache *k = &c->gpu_classes;
    *slot = NULL;
    size_t n = strlen(name);
    uint32_t h = name_key(name, n);
    if (!k->slots) {
        k->slots = calloc(2 * TF_CHROME_CLASS_CACHE, sizeof *k->slots);
        if (!k->slots)
            return tf_kernel_classify(name, NULL);
    }
    size_t mask = 2 * TF_CHROME_CLASS_CACHE - 1;
    for (size_t i = h & mask;; i = (i + 1) & mask) {
        struct tf_chrome_class_slot *s = &k->slots[i];
        if (!s->name) {
            enum tf_kernel_class cls = tf_kernel_classify(name, NULL);
            if (k->n < TF_CHROME_CLASS_CACHE && (s->name = tf_arena_strndup(&k->arena, name, n))) {
                s->hash = h;
                s->len = n;
                s->cls = (unsigned char)cls;
                k->n++;
                *slot = s;
            }
            return cls;
        }
        if (s->hash == h && s->len == n && memcmp(s->name, name, n) == 0) {
            *slot = s;
            return (enum tf_kernel_class)s->cls;
        }
    }
}

static enum tf_kernel_class kernel_class(struct chrome *c, const char *name)
{
    if (!name)
        return tf_kernel_classify(name, NULL);
    struct tf_chrome_class_cache *k = &c->gpu_classes;
    uintptr_t a = (uintptr_t)name;
    size_t m = tf_addr_slot(name, TF_CHROME_CLASS_MEMO);
    const struct tf_chrome_class_slot *s = k->memo[m].slot;
    if (s && k->memo[m].addr == a && strcmp(s->name, name) == 0)
        return (enum tf_kernel_class)s->cls;
    enum tf_kernel_class cls = kernel_class_slow(c, name, &s);
    k->memo[m].addr = a;
    k->memo[m].slot = s;
    return cls;
}

/* What a category says of a complete event on a GPU stream: */
enum {
    CAT_UNKNOWN, /* not looked at yet (the memo's zero) */
    CAT_CALL,    /* a runtime or driver call, or the profiler's span: no GPU work */
    CAT_SYNC,    /* synchronisation: no GPU work either, but kept apart (HTA) */
    CAT_WORK     /* GPU work, of the name's kernel class */
};

static int cat_kind(struct chrome *c, const char *raw)
{
    struct tf_chrome_class_cache *k = &c->gpu_classes;
    uintptr_t a = (uintptr_t)raw;
    if (k->cat_kind != CAT_UNKNOWN && k->cat_addr == a && strcmp(k->cat, raw) == 0)
        return k->cat_kind;
    const char *cat = tf_chrome_canon_cat(raw); /* the older Kineto names too */
    int kind = strcmp(cat, "cuda_runtime") == 0 || strcmp(cat, "cuda_driver") == 0 ||
                       strcmp(cat, "Trace") == 0
                   ? CAT_CALL
               : strcmp(cat, "cuda_sync") == 0 ? CAT_SYNC
                                               : CAT_WORK;
    size_t n = strlen(raw);
    if (n < sizeof k->cat) { /* else not remembered */
        memcpy(k->cat, raw, n + 1);
        k->cat_addr = a;
        k->cat_kind = kind;
    }
    return kind;
}

void tf_chrome_gpu_event(struct chrome *c, const struct tf_tef_rec *r, bool window)
{
    int64_t t0 = window ? tf_chrome_busy_tick(c, r->ts, r->ps0) : r->ts;
    int64_t t1 = window ? tf_chrome_busy_tick(c, r->ts + r->dur, r->ps1) : r->ts + r->dur;
    if (r->ph != 'X' || t1 <= t0 || c->o->no_stats || !r->cat || stream_of(r) == -1)
        return;
    int kind = cat_kind(c, r->cat);
    if (kind == CAT_CALL)
        return;
    enum tf_kernel_class k = kind == CAT_SYNC ? TF_KERNEL_NONE : kernel_class(c, r->name);
    if (k == TF_KERNEL_NONE)
        return;
    bool ok = tf_ivset_add(&c->gpu_all, t0, t1);
    if (k == TF_KERNEL_COMPUTE)
        ok = ok && tf_ivset_add(&c->gpu_comp, t0, t1);
    else if (k == TF_KERNEL_COMM)
        ok = ok && tf_ivset_add(&c->gpu_comm, t0, t1);
    if (!ok)
        c->oom = true;
    c->gpu_added++;
    gpu_tidy(c);
}

/* --- the window's statistics ------------------------------------------------------- */

/* The --annotate line: the GPU breakdown when there is GPU work, else each
 * group's busy share of the window (the first four). */
static bool chrome_summary(struct tf_figure *f)
{
    const struct tf_stats *s = &f->stats;
    char a[TF_NUM_MAX], b[TF_NUM_MAX], e[TF_NUM_MAX];
    struct tf_buf line;
    tf_buf_init(&line);
    if (s->has_gpu && s->gpu.kernel_span_ms > 0) {
        double span = s->gpu.kernel_span_ms;
        bool tpu = s->n_devices > 0; /* every device a TPU: its ops are the kernels */
        for (size_t i = 0; i < s->n_devices; i++)
            tpu = tpu && strcmp(s->devices[i].kind, "TPU") == 0;
        tf_buf_printf(&line, "%s compute %s %%, non-compute %s %%, idle %s %%",
                      tpu ? "TPU" : "GPU",
                      tf_fmt_num(a, 100.0 * s->gpu.compute_ms / span, 0),
                      tf_fmt_num(b, 100.0 * s->gpu.non_compute_ms / span, 0),
                      tf_fmt_num(e, 100.0 * s->gpu.idle_ms / span, 0));
        if (s->gpu.has_comm)
            tf_buf_printf(&line, ", comm/compute overlap %s %%",
                          tf_fmt_num(a, s->gpu.comm_comp_overlap_pct, 0));
        if (s->gpu.scope_trace)
            tf_buf_puts(&line, " (whole trace)");
    } else {
        for (size_t i = 0; i < s->n_groups && i < 4; i++)
            tf_buf_printf(&line, "%s%s busy %s %%", i ? ", " : "", s->groups[i].label,
                          tf_fmt_num(a, s->window_ms > 0 ? 100.0 * s->groups[i].busy_ms /
                                                               s->window_ms
                                                         : 0.0,
                                     0));
    }
    f->stats.summary = tf_figure_buf(f, &line);
    tf_buf_fini(&line);
    return f->stats.summary != NULL;
}

/* --- an HPC job's ranks ----------------------------------------------------------------- */

#define MAX_PARADIGMS 64

static int by_paradigm_time(const void *x, const void *y)
{
    const struct tf_stat_paradigm *a = x, *b = y;
    if (a->ms != b->ms)
        return a->ms > b->ms ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* Each rank's MPI time and the paradigms' table, from the loader's
 * measures (TF_TEF_PARADIGM): the figure's groups 0 .. n_groups are the
 * processes proc_of_group[]. */
static bool hpc_stats(struct chrome *c, struct tf_figure *f, const size_t *proc_of_group,
                      size_t n_groups)
{
    struct tf_stats *s = &f->stats;
    uint32_t cats[MAX_PARADIGMS];
    size_t n_cats = 0;
    for (size_t i = 0; i < c->n_par; i++) {
        size_t j = 0;
        while (j < n_cats && cats[j] != c->par[i].cat)
            j++;
        if (!c->par[i].mpi && j == n_cats && n_cats < MAX_PARADIGMS)
            cats[n_cats++] = c->par[i].cat;
    }
    s->paradigms = calloc(n_cats ? n_cats : 1, sizeof *s->paradigms);
    if (!s->paradigms)
        return false;
    s->n_paradigms = n_cats;
    bool ok = true;
    for (size_t k = 0; ok && k < n_cats; k++) {
        struct tf_stat_paradigm *p = &s->paradigms[k];
        p->name = tf_figure_str(f, tf_strtab_str(&c->strs, cats[k]));
        p->group_ms = calloc(s->n_groups ? s->n_groups : 1, sizeof *p->group_ms);
        ok = p->name && p->group_ms;
    }
    for (size_t g = 0; ok && g < n_groups && g < s->n_groups; g++) {
        s->groups[g].has_mpi = true;
        for (size_t i = 0; i < c->n_par; i++) {
            const struct par_time *pt = &c->par[i];
            if (pt->proc != proc_of_group[g])
                continue;
            double ms = (double)pt->ns / 1e6;
            if (pt->mpi) {
                s->groups[g].mpi_ms += ms;
                continue;
            }
            for (size_t k = 0; k < n_cats; k++)
                if (cats[k] == pt->cat) {
                    s->paradigms[k].group_ms[g] += ms;
                    s->paradigms[k].ms += ms;
                }
        }
    }
    if (ok && n_cats > 1) /* group_ms moves with its paradigm */
        qsort(s->paradigms, n_cats, sizeof *s->paradigms, by_paradigm_time);
    return ok;
}

/* The lanes' folded past with the figure's lane indexes (the drawn lanes
 * only). */
static bool fold_for_figure(const struct chrome *c, const size_t *pick, size_t n_pick,
                            struct tf_ivfold *out)
{
    uint32_t *map = malloc((c->n_lanes ? c->n_lanes : 1) * sizeof *map);
    if (!map) {
        tf_ivfold_init(out);
        return false;
    }
    for (size_t i = 0; i < c->n_lanes; i++)
        map[i] = UINT32_MAX;
    for (size_t i = 0; i < n_pick; i++)
        map[pick[i]] = (uint32_t)i;
    bool ok = tf_ivfold_remap(&c->fold, map, c->n_lanes, out);
    free(map);
    return ok;
}

/* The overlap statistics of the window: each drawn lane's busy time (the
 * exact union of its slices, before any merging into dense spans), one
 * group per process, the --group groups, and the GPU breakdown. */
static int by_cpu_time(const void *x, const void *y)
{
    const struct tf_stat_cpu_proc *a = x, *b = y;
    if (a->ms != b->ms)
        return a->ms > b->ms ? -1 : 1;
    return strcmp(a->name, b->name);
}

/* A system trace's CPU lanes: how many are drawn and their busy time (the
 * utilisation), and each process's time on the CPUs (events.c). */
static bool cpu_stats(struct chrome *c, struct tf_figure *f, const size_t *pick, size_t n_pick)
{
    struct tf_stats *s = &f->stats;
    if (!c->n_cpu)
        return true;
    for (size_t i = 0; i < n_pick && i < f->n_lanes; i++) {
        const struct tf_id *pid = &c->procs[c->thrs[c->lanes[pick[i]].thread].proc].pid;
        if (c->lanes[pick[i]].counter || pid->kind != TF_ID_STR || strncmp(pid->str, "CPU ", 4))
            continue;
        s->n_cpus++;
        s->cpu_busy_ms += s->lane_busy_ms ? s->lane_busy_ms[i] : 0;
    }
    s->cpu_procs = calloc(c->n_cpu, sizeof *s->cpu_procs);
    if (!s->cpu_procs)
        return false;
    for (size_t k = 0; k < c->n_cpu; k++) {
        s->cpu_procs[k].name = tf_figure_str(f, tf_strtab_str(&c->strs, c->cpu[k].proc));
        s->cpu_procs[k].ms = (double)c->cpu[k].ns / 1e6;
        if (!s->cpu_procs[k].name)
            return false;
    }
    s->n_cpu_procs = c->n_cpu;
    qsort(s->cpu_procs, s->n_cpu_procs, sizeof *s->cpu_procs, by_cpu_time);
    return true;
}

/* The groups that are devices (a "process_device" record), named as the
 * groups are. */
static bool device_stats(const struct chrome *c, struct tf_figure *f, const size_t *proc_of_group,
                         size_t n_groups)
{
    struct tf_stats *s = &f->stats;
    for (size_t g = 0; g < n_groups && g < s->n_groups; g++) {
        const struct proc *p = &c->procs[proc_of_group[g]];
        if (!p->dev_kind)
            continue;
        if (!s->devices && !(s->devices = calloc(n_groups, sizeof *s->devices)))
            return false;
        struct tf_stat_device *v = &s->devices[s->n_devices++];
        v->device = s->groups[g].label;
        v->kind = tf_figure_str(f, p->dev_kind);
        v->name = p->dev_name && *p->dev_name ? tf_figure_str(f, p->dev_name) : NULL;
        v->vendor = p->dev_vendor && *p->dev_vendor ? tf_figure_str(f, p->dev_vendor) : NULL;
        if (!v->kind || (p->dev_name && *p->dev_name && !v->name) ||
            (p->dev_vendor && *p->dev_vendor && !v->vendor))
            return false;
    }
    return true;
}

bool tf_chrome_stats(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                     const size_t *pick, size_t n_pick)
{
    if (!c->fine_decided)
        tf_chrome_busy_ticks(c);
    /* the busy sets' ticks; the GPU sets' are ns of the whole trace with
     * --stats-scope trace */
    struct tf_stats_clock clk = {c->fine ? 1e9 : 1e6, c->bw0, c->bw1};
    struct tf_stats_clock gclk = o->stats_trace_scope ? (struct tf_stats_clock){1e6, c->w0, c->w1}
                                                      : clk;
    struct tf_ivset *sets = calloc(n_pick ? n_pick : 1, sizeof *sets);
    size_t *idx = calloc(n_pick ? n_pick : 1, sizeof *idx);
    size_t *proc_of_group = calloc(n_pick ? n_pick : 1, sizeof *proc_of_group);
    struct tf_stats_group_in *groups = calloc(n_pick ? n_pick : 1, sizeof *groups);
    struct tf_buf labels;
    tf_buf_init(&labels);
    bool ok = sets && idx && proc_of_group && groups;
    /* The lanes' own sets, normalized and clipped to the window where they
     * are (no copy: a large trace's sets hold most of its memory). */
    for (size_t i = 0; ok && i < n_pick; i++) {
        struct tf_ivset *b = &c->lanes[pick[i]].busy;
        tf_ivset_normalize(b);
        tf_ivset_clip(b, c->bw0, c->bw1);
        c->lanes[pick[i]].busy_sorted = true;
        sets[i] = *b;
    }
    /* Groups: the processes, in the order their first lane is drawn; the
     * lanes of group g are idx[first[g] ..], gathered process by process. */
    size_t n_groups = 0, used = 0;
    for (size_t i = 0; ok && i < n_pick; i++) {
        if (c->lanes[pick[i]].counter)
            continue; /* busy at no time: in no group */
        size_t p = c->thrs[c->lanes[pick[i]].thread].proc;
        bool seen = false;
        for (size_t g = 0; g < n_groups && !seen; g++)
            seen = proc_of_group[g] == p;
        if (seen)
            continue;
        size_t first = used;
        for (size_t k = i; k < n_pick; k++)
            if (c->thrs[c->lanes[pick[k]].thread].proc == p && !c->lanes[pick[k]].counter)
                idx[used++] = k;
        proc_of_group[n_groups] = p;
        groups[n_groups++] = (struct tf_stats_group_in){NULL, idx + first, used - first};
    }
    /* Their labels, once the buffer no longer moves. */
    size_t *at = calloc(n_groups ? n_groups : 1, sizeof *at);
    ok = ok && at;
    for (size_t g = 0; ok && g < n_groups; g++) {
        at[g] = labels.len;
        tf_chrome_proc_label(&c->procs[proc_of_group[g]], &labels);
        tf_buf_putc(&labels, '\0');
        ok = !labels.oom;
    }
    for (size_t g = 0; ok && g < n_groups; g++)
        groups[g].label = labels.data + at[g];
    struct tf_ivfold fold;
    ok = ok && fold_for_figure(c, pick, n_pick, &fold);
    ok = ok && tf_stats_fill_folded(f, &clk, sets, &fold, groups, n_groups, o);
    f->stats.ms_dec = c->fine ? 9 : 0; /* ps ticks: printed to the ps */
    tf_ivfold_fini(&fold);
    ok = ok && (!c->hpc || hpc_stats(c, f, proc_of_group, n_groups));
    ok = ok && device_stats(c, f, proc_of_group, n_groups);
    if (c->hta) {
        ok = ok && tf_hta_fill(c->hta, f, o->stats_trace_scope, c->w0, c->w1);
    } else if (ok && (c->gpu_all.n || c->gpu_past.any)) {
        tf_ivset_normalize(&c->gpu_all);
        tf_ivset_normalize(&c->gpu_comp);
        tf_ivset_normalize(&c->gpu_comm);
        tf_stats_gpu_breakdown_folded(f, &gclk, &c->gpu_all, &c->gpu_comp, &c->gpu_comm,
                                      &c->gpu_past);
        f->stats.gpu.scope_trace = o->stats_trace_scope;
    }
    ok = ok && cpu_stats(c, f, pick, n_pick);
    ok = ok && (!c->cp || tf_cp_fill(c->cp, f, c->w0));
    ok = ok && chrome_summary(f);
    free(sets); /* the lanes' */
    free(idx);
    free(proc_of_group);
    free(groups);
    free(at);
    tf_buf_fini(&labels);
    return ok;
}
