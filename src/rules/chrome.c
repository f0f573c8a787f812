/* chrome.c - the generic Chrome mode: any Trace Event Format trace (PyTorch
 * profiler/Kineto, Chrome, Perfetto JSON, TensorFlow, clang -ftime-trace)
 * into a figure of the window the author picks.  Pure rules: the loader
 * (load/tef.c) hands over records; nothing here reads a file or draws.
 *
 * IMPLEMENTATION NOTES
 *
 * Two passes (see load/tef.h).  Pass 1 (index) keeps what names the lanes
 * (process and thread names, labels, sort indices), where the trace's time
 * lies (clusters, below), and the occurrences of --window-event.  window()
 * then fixes the window.  Pass 2 (collect) keeps, per lane, the slices and
 * instants that reach into the window.  finish() lays them out in rows and
 * merges what is too thin to draw apart; build() turns that into the model.
 *
 * Time.  Nanoseconds on the trace clock, as int64_t; the figure's x axis is
 * in us, ms or s from the window start, whichever suits the span.
 *
 * Clusters.  A few events on another clock (days away) must not squash the
 * default window.  Pass 1 keeps the events' extents as at most MAX_CLUSTERS
 * disjoint intervals, merging any two closer than a gap that doubles
 * whenever there would be more.  The default window is then grown from the
 * cluster holding the most events towards its neighbours, taking in each
 * one that holds at least 1 % of the events or lies closer than the span
 * already taken; what is left out is reported once.  The origin of --from
 * and --to is the start of that window.
 *
 * Rows.  A lane's slices, in start order (ties: the longer first), each go
 * to the first row that is free at their start: nested slices stack as a
 * flame chart, and slices that overlap without nesting (they exist) go to
 * the next free row rather than being dropped.  A lane's slices are sorted
 * in batches of REORDER: the loader's order within a lane is nearly the
 * time order in every trace seen, and a slice that comes later than that
 * is still drawn, in the first row free at its start (counted, and said
 * once, as its nesting may then be off).
 *
 * Level of detail.  In each row, a slice narrower than the merging
 * threshold whose neighbour is as close joins a dense span, which keeps
 * the count of its slices and the exact time they cover.  When the figure
 * would still hold more than TF_CHROME_MAX_BARS bars, the threshold doubles
 * and the spans are merged again.
 */
#include "rules/chrome.h"

#include <fnmatch.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/hash.h"
#include "base/jsonlite.h"
#include "base/num.h"
#include "base/strtab.h"
#include "rules/stats.h"
#include "rules/ticks.h"

#define MAX_CLUSTERS 64
#define REORDER 8192
#define SAMPLE 4096     /* slices per lane compared by the duplicate rule */
#define TIP_NAME_MAX 400 /* bytes of a name in a tooltip */
#define SVG_BUDGET 270000 /* bytes: an SVG stays under 300 KB */
#define NONE UINT32_MAX

/* --- time -------------------------------------------------------------------- */

bool tf_chrome_parse_time(const char *s, int64_t *ns)
{
    char *end;
    if (!s || !*s || !(s[0] == '-' || s[0] == '.' || (s[0] >= '0' && s[0] <= '9')))
        return false;
    /* Digits only, so no locale can change what strtod reads. */
    size_t k = 0;
    while (s[k] == '-' || s[k] == '.' || (s[k] >= '0' && s[k] <= '9'))
        k++;
    char num[64];
    if (k == 0 || k >= sizeof num)
        return false;
    memcpy(num, s, k);
    num[k] = '\0';
    double v = strtod(num, &end);
    if (end != num + k || !isfinite(v))
        return false;
    const char *u = s + k;
    double scale;
    if (*u == '\0' || strcmp(u, "ms") == 0)
        scale = 1e6;
    else if (strcmp(u, "us") == 0 || strcmp(u, "\xC2\xB5s") == 0)
        scale = 1e3;
    else if (strcmp(u, "ns") == 0)
        scale = 1.0;
    else if (strcmp(u, "s") == 0)
        scale = 1e9;
    else
        return false;
    double x = v * scale;
    if (!(fabs(x) < 9e18))
        return false;
    *ns = (int64_t)llround(x);
    return true;
}

/* --- names --------------------------------------------------------------------- */

/* Name shortening (see chrome.h).  Brackets are matched as balanced groups;
 * the "operator" tokens (operator(), operator<, operator->, ...) count as
 * plain identifiers. */

static bool ident_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '_' || c == '$';
}

/* Length of an operator token at s ("operator()", "operator<<", ...), or 0. */
static size_t operator_len(const char *s, size_t n)
{
    if (n < 9 || strncmp(s, "operator", 8) != 0 || (n > 8 && ident_char(s[8])))
        return 0;
    size_t i = 8;
    while (i < n && s[i] == ' ')
        i++;
    if (i + 1 < n && s[i] == '(' && s[i + 1] == ')')
        return i + 2;
    if (i + 1 < n && s[i] == '[' && s[i + 1] == ']')
        return i + 2;
    static const char ops[] = "+-*/%^&|~!=<>,";
    size_t k = i;
    while (k < n && k < i + 3 && strchr(ops, s[k]) && s[k])
        k++;
    return k > i ? k : 0;
}

/* The index of the bracket matching the opening one at s[i], or n. */
static size_t match_close(const char *s, size_t n, size_t i)
{
    int depth = 0;
    for (size_t k = i; k < n; k++) {
        size_t op = operator_len(s + k, n - k);
        if (op) {
            k += op - 1;
            continue;
        }
        char c = s[k];
        if (c == '(' || c == '<' || c == '[' || c == '{')
            depth++;
        else if (c == ')' || c == '>' || c == ']' || c == '}') {
            if (c == '>' && k > 0 && s[k - 1] == '-')
                continue;
            if (--depth == 0)
                return k;
        }
    }
    return n;
}

/* The index of the bracket opening the closing one at s[i] (backwards), or
 * SIZE_MAX. */
static size_t match_open(const char *s, size_t i)
{
    int depth = 0;
    for (size_t k = i + 1; k-- > 0;) {
        char c = s[k];
        if (c == ')' || c == '>' || c == ']' || c == '}')
            depth++;
        else if (c == '(' || c == '<' || c == '[' || c == '{') {
            if (--depth == 0)
                return k;
        }
        if (k == 0)
            break;
    }
    return SIZE_MAX;
}

static void put_span(char *out, size_t n, const char *s, size_t len)
{
    if (len >= n)
        len = n - 1;
    memcpy(out, s, len);
    out[len] = '\0';
}

/* Python-ish names: "dir/file.py(12): fn", "nn.Module: Linear_0",
 * "<built-in method add of ...>", "<built-in function linear>",
 * "<class 'pkg.Name'>".  True when one matched (out filled). */
static bool python_name(const char *name, char *out, size_t n)
{
    size_t len = strlen(name);
    const char *py = strstr(name, ".py(");
    if (py) {
        const char *colon = strstr(py, "): ");
        if (colon) {
            snprintf(out, n, "%s", colon + 3);
            return true;
        }
    }
    if (strncmp(name, "nn.Module: ", 11) == 0) {
        snprintf(out, n, "%s", name + 11);
        return true;
    }
    static const char *const builtin[] = {"<built-in method ", "<built-in function "};
    for (size_t b = 0; b < 2; b++) {
        size_t bl = strlen(builtin[b]);
        if (strncmp(name, builtin[b], bl) == 0) {
            size_t e = bl;
            while (e < len && name[e] != ' ' && name[e] != '>')
                e++;
            put_span(out, n, name + bl, e - bl);
            return true;
        }
    }
    if (strncmp(name, "<class '", 8) == 0 && len > 10 && name[len - 1] == '>' &&
        name[len - 2] == '\'') {
        size_t e = len - 2, b = e;
        while (b > 8 && name[b - 1] != '.')
            b--;
        put_span(out, n, name + b, e - b);
        return true;
    }
    return false;
}

void tf_chrome_short_name(const char *name, char *out, size_t n)
{
    if (n == 0)
        return;
    if (python_name(name, out, n))
        return;
    size_t len = strlen(name);
    /* Trailing qualifiers. */
    for (;;) {
        while (len > 0 && name[len - 1] == ' ')
            len--;
        if (len >= 6 && strncmp(name + len - 6, " const", 6) == 0)
            len -= 6;
        else if (len >= 9 && strncmp(name + len - 9, " noexcept", 9) == 0)
            len -= 9;
        else if (len > 0 && name[len - 1] == '&')
            len--;
        else
            break;
    }
    /* A signature ends in ')' whose '(' follows an identifier, '>' or an
     * operator token directly. */
    size_t open = len > 0 && name[len - 1] == ')' ? match_open(name, len - 1) : SIZE_MAX;
    /* match_open does not know "operator<(": look for an operator token
     * ending right before a '(' of the last group. */
    for (size_t k = len >= 12 ? len - 12 : 0; open != SIZE_MAX && k < len; k++)
        if (operator_len(name + k, len - k) && name[k + operator_len(name + k, len - k)] == '(' &&
            k + operator_len(name + k, len - k) < open) {
            open = k + operator_len(name + k, len - k);
            break;
        }
    bool op_before = false;
    for (size_t k = open != SIZE_MAX && open >= 12 ? open - 12 : 0; open != SIZE_MAX && k < open; k++)
        op_before |= operator_len(name + k, open - k) == open - k;
    if (open == SIZE_MAX || open == 0 ||
        !(ident_char(name[open - 1]) || name[open - 1] == '>' || op_before)) {
        snprintf(out, n, "%s", name);
        return;
    }
    /* Whatever precedes the parameter list: the last depth-0 word. */
    size_t end = open, start = 0;
    for (size_t k = 0; k < end; k++) {
        size_t op = operator_len(name + k, end - k);
        if (op) {
            k += op - 1;
            continue;
        }
        char c = name[k];
        if (c == '(' || c == '<' || c == '[' || c == '{') {
            size_t m = match_close(name, end, k);
            k = m < end ? m : end - 1;
        } else if (c == ' ') {
            start = k + 1;
        }
    }
    /* Its depth-0 "::" parts: keep the last that names something (not a
     * lambda, "operator()" or an anonymous namespace). */
    size_t part_b[64], part_e[64], np = 0;
    size_t b = start;
    for (size_t k = start; k < end && np < 63; k++) {
        size_t op = operator_len(name + k, end - k);
        if (op) {
            k += op - 1;
            continue;
        }
        char c = name[k];
        if (c == '(' || c == '<' || c == '[' || c == '{') {
            size_t m = match_close(name, end, k);
            k = m < end ? m : end - 1;
        } else if (c == ':' && k + 1 < end && name[k + 1] == ':') {
            part_b[np] = b, part_e[np] = k, np++;
            b = k + 2;
            k++;
        }
    }
    part_b[np] = b, part_e[np] = end, np++;
    size_t pick = np;
    while (pick > 0) {
        const char *p = name + part_b[pick - 1];
        size_t pl = part_e[pick - 1] - part_b[pick - 1];
        bool skip = pl == 0 || p[0] == '{' || p[0] == '(' ||
                    (pl >= 10 && strncmp(p, "operator()", 10) == 0);
        if (!skip)
            break;
        pick--;
    }
    if (pick == 0) {
        snprintf(out, n, "%s", name);
        return;
    }
    size_t pb = part_b[pick - 1], pe = part_e[pick - 1];
    /* Without its template arguments ("fn<4, T>" -> "fn"); a generic
     * "kernel" wrapper is named after its first template argument when
     * that is a long identifier, else after its scope. */
    size_t tb = pe;
    for (size_t k = pb; k < pe; k++) {
        if (operator_len(name + k, pe - k)) {
            k += operator_len(name + k, pe - k) - 1;
            continue;
        }
        if (name[k] == '<') {
            tb = k;
            break;
        }
    }
    /* ... and without a parameter list of its own ("bar()"). */
    if (tb == pe && pe > pb && name[pe - 1] == ')') {
        size_t ob = match_open(name, pe - 1);
        if (ob != SIZE_MAX && ob > pb)
            tb = ob;
    }
    size_t bl = tb - pb;
    bool wrapper = (bl == 6 && strncmp(name + pb, "kernel", 6) == 0) ||
                   (bl == 6 && strncmp(name + pb, "Kernel", 6) == 0) ||
                   (bl == 13 && strncmp(name + pb, "device_kernel", 13) == 0);
    if (wrapper && tb < pe) {
        size_t ab = tb + 1, ae = ab;
        while (ae < pe && ident_char(name[ae]))
            ae++;
        if (ae - ab >= 8 && ae < pe && (name[ae] == '>' || name[ae] == ',')) {
            put_span(out, n, name + ab, ae - ab);
            return;
        }
        if (pick >= 2) {
            size_t sb = part_b[pick - 2], se = part_e[pick - 2];
            char scope[128];
            size_t sl = se - sb;
            size_t lt = sl;
            for (size_t k = 0; k < sl; k++)
                if (name[sb + k] == '<') {
                    lt = k;
                    break;
                }
            put_span(scope, sizeof scope, name + sb, lt);
            snprintf(out, n, "%s::%.*s", scope, (int)bl, name + pb);
            return;
        }
    }
    put_span(out, n, name + pb, bl);
}

/* --- metadata -------------------------------------------------------------------- */

struct proc {
    struct tf_id pid;
    char *pid_str;
    char *name, *labels;
    bool has_sort;
    long long sort;
    size_t n_drawn; /* its lanes with something drawn (set by build) */
};

struct thr {
    size_t proc;
    struct tf_id tid;
    char *tid_str;
    char *name;
    bool has_sort;
    long long sort;
};

/* --- pass 2: lanes ------------------------------------------------------------------- */

/* A slice or instant waiting for its row. */
struct pend {
    int64_t t0, t1;
    uint32_t name, cat, args;
    uint32_t color; /* cname or NONE */
    bool instant, open_end;
    bool span; /* the profiler's own span (profiler_span) */
};

/* A bar ready for the figure. */
struct obar {
    int64_t t0, t1; /* clipped to the window */
    int64_t busy;   /* dense: the time its slices cover */
    uint32_t name, cat, args, color;
    unsigned row;
    uint32_t merged; /* 0: one slice */
    bool clip_left, clip_right, instant;
};

/* What is being merged in one row. */
struct acc {
    bool on;
    struct obar b;
};

struct lane {
    size_t thread; /* index into thrs */
    struct pend *pend;
    size_t n_pend, cap_pend;
    int64_t watermark; /* start of the last slice placed */
    bool any_placed;
    int64_t *row_end;  /* per row: end of its last slice */
    size_t n_rows, cap_rows;
    struct acc *acc;   /* per row */
    size_t n_acc, cap_acc;
    struct obar *bars;
    size_t n_bars, cap_bars;
    unsigned max_row;  /* deepest row used + 1 */
    size_t n_slices, n_hidden;
    /* Who it is, for the default rules: a hash of each of its first
     * SAMPLE slices (name, start, end), and whether every slice is named
     * "Total ..." (clang's summaries). */
    uint64_t *sample;
    size_t n_sample, cap_sample;
    bool all_total;
    bool all_span; /* every slice is the profiler's span */
    /* the union of its slices in the window, for the statistics */
    struct tf_ivset busy;
    bool busy_sorted; /* busy is normalized: slices came in start order */
};

struct flow_end {
    char *id;
    char ph;
    size_t lane;
    int64_t ts;
    char bp;
};

struct occ {
    int64_t t0, t1;
};

struct chrome {
    const struct tf_opts *o;
    /* pass 1 */
    struct tf_strtab proc_keys, thr_keys;
    struct proc *procs;
    size_t n_procs, cap_procs;
    struct thr *thrs;
    size_t n_thrs, cap_thrs;
    struct {
        int64_t lo, hi;
        size_t count;
    } clusters[MAX_CLUSTERS + 1];
    size_t n_clusters;
    int64_t gap;
    size_t n_drawable;
    struct occ *occ; /* a max-heap on t0 of the earliest K occurrences */
    size_t n_occ, cap_occ, n_occ_all;
    size_t n_stray;
    bool has_clock_origin; /* the trace's own origin (TF_TEF_ORIGIN) */
    int64_t clock_origin;
    /* the window */
    int64_t w0, w1, origin;
    int64_t thr_ns; /* merging threshold */
    /* pass 2 */
    struct tf_strtab strs; /* names, categories, args text */
    uint32_t empty;
    struct lane *lanes;
    size_t n_lanes, cap_lanes;
    size_t *lane_of_thr; /* thread index -> lane + 1 */
    size_t n_lane_of_thr, cap_lane_of_thr;
    struct flow_end *flows;
    size_t n_flows, cap_flows;
    size_t n_late, n_wide_instants;
    /* GPU work for the breakdown (the window's, or the trace's with
     * --stats-scope trace): every counted event, compute, communication */
    struct tf_ivset gpu_all, gpu_comp, gpu_comm;
    size_t gpu_added; /* intervals added since the last normalize */
    struct tf_buf tmp;
    bool oom;
};

static char *xstrdup(struct chrome *c, const char *s)
{
    char *p = s ? strdup(s) : NULL;
    if (s && !p)
        c->oom = true;
    return p;
}

/* An id kept by the mode: a string one copied into *hold. */
static void own_id(struct chrome *c, struct tf_id *dst, char **hold, const struct tf_id *src)
{
    *dst = *src;
    if (src->kind == TF_ID_STR) {
        *hold = xstrdup(c, src->str);
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

static size_t thr_of(struct chrome *c, const struct tf_id *pid, const struct tf_id *tid)
{
    size_t p = proc_of(c, pid);
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
    return xstrdup(c, c->tmp.data ? c->tmp.data : "");
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

static void meta(struct chrome *c, const struct tf_tef_rec *r)
{
    if (strcmp(r->name, "process_name") == 0) {
        size_t p = proc_of(c, &r->pid);
        if (p != SIZE_MAX)
            set_str(&c->procs[p].name, arg_str(c, r, "name"));
    } else if (strcmp(r->name, "process_labels") == 0) {
        size_t p = proc_of(c, &r->pid);
        if (p != SIZE_MAX)
            set_str(&c->procs[p].labels, arg_str(c, r, "labels"));
    } else if (strcmp(r->name, "process_sort_index") == 0) {
        size_t p = proc_of(c, &r->pid);
        if (p != SIZE_MAX)
            c->procs[p].has_sort = arg_int(r, "sort_index", &c->procs[p].sort);
    } else if (strcmp(r->name, "thread_name") == 0) {
        size_t t = thr_of(c, &r->pid, &r->tid);
        if (t != SIZE_MAX)
            set_str(&c->thrs[t].name, arg_str(c, r, "name"));
    } else if (strcmp(r->name, "thread_sort_index") == 0) {
        size_t t = thr_of(c, &r->pid, &r->tid);
        if (t != SIZE_MAX)
            c->thrs[t].has_sort = arg_int(r, "sort_index", &c->thrs[t].sort);
    }
}

/* --- pass 1: where the time lies --------------------------------------------------- */

static void merge_clusters(struct chrome *c)
{
    size_t k = 0;
    for (size_t i = 0; i < c->n_clusters; i++) {
        if (k && c->clusters[i].lo - c->clusters[k - 1].hi <= c->gap) {
            if (c->clusters[i].hi > c->clusters[k - 1].hi)
                c->clusters[k - 1].hi = c->clusters[i].hi;
            c->clusters[k - 1].count += c->clusters[i].count;
        } else {
            c->clusters[k++] = c->clusters[i];
        }
    }
    c->n_clusters = k;
}

static void add_extent(struct chrome *c, int64_t lo, int64_t hi)
{
    c->n_drawable++;
    size_t n = c->n_clusters;
    /* The common case: inside or next to the last cluster touched. */
    for (size_t i = n; i-- > 0;) {
        if (lo > c->clusters[i].hi + c->gap)
            break;
        if (hi >= c->clusters[i].lo - c->gap) {
            if (lo < c->clusters[i].lo)
                c->clusters[i].lo = lo;
            if (hi > c->clusters[i].hi)
                c->clusters[i].hi = hi;
            c->clusters[i].count++;
            /* It may now touch its neighbours. */
            if ((i > 0 && c->clusters[i].lo - c->clusters[i - 1].hi <= c->gap) ||
                (i + 1 < n && c->clusters[i + 1].lo - c->clusters[i].hi <= c->gap))
                merge_clusters(c);
            return;
        }
    }
    /* A new cluster, in order. */
    size_t at = n;
    while (at > 0 && c->clusters[at - 1].lo > lo)
        at--;
    memmove(&c->clusters[at + 1], &c->clusters[at], (n - at) * sizeof c->clusters[0]);
    c->clusters[at].lo = lo;
    c->clusters[at].hi = hi;
    c->clusters[at].count = 1;
    c->n_clusters++;
    while (c->n_clusters > MAX_CLUSTERS) {
        c->gap = c->gap ? c->gap * 2 : 1000;
        merge_clusters(c);
    }
}

/* A --window-event occurrence: keep the K earliest starts. */
static void add_occurrence(struct chrome *c, int64_t t0, int64_t t1)
{
    size_t k = c->o->occurrence > 0 ? (size_t)c->o->occurrence : 1;
    c->n_occ_all++;
    if (c->n_occ == k) {
        if (t0 >= c->occ[0].t0)
            return;
        /* Replace the root and sift down. */
        c->occ[0].t0 = t0;
        c->occ[0].t1 = t1;
        for (size_t i = 0;;) {
            size_t l = 2 * i + 1, r = l + 1, m = i;
            if (l < c->n_occ && c->occ[l].t0 > c->occ[m].t0)
                m = l;
            if (r < c->n_occ && c->occ[r].t0 > c->occ[m].t0)
                m = r;
            if (m == i)
                break;
            struct occ tmp = c->occ[i];
            c->occ[i] = c->occ[m];
            c->occ[m] = tmp;
            i = m;
        }
        return;
    }
    if (!TF_GROW(c->occ, c->n_occ, c->cap_occ)) {
        c->oom = true;
        return;
    }
    size_t i = c->n_occ++;
    c->occ[i].t0 = t0;
    c->occ[i].t1 = t1;
    while (i > 0 && c->occ[(i - 1) / 2].t0 < c->occ[i].t0) {
        struct occ tmp = c->occ[i];
        c->occ[i] = c->occ[(i - 1) / 2];
        c->occ[(i - 1) / 2] = tmp;
        i = (i - 1) / 2;
    }
}

/* The profiler's own span (Kineto: cat "Trace" in the process "Spans"),
 * which may start long before the first event: it does not set the
 * default window, and its lane is not drawn by default. */
static bool profiler_span(const struct tf_tef_rec *r)
{
    return r->pid.kind == TF_ID_STR && strcmp(r->pid.str, "Spans") == 0 &&
           (!r->cat || strcmp(r->cat, "Trace") == 0);
}

/* --- GPU work, for the statistics ------------------------------------------------- */

/* args.stream as HTA reads it (Python's int() of the value): a number
 * (truncated), a boolean, or a string of an integer; anything else is -1,
 * "no stream". */
static long long stream_of(const struct tf_tef_rec *r)
{
    if (!r->args)
        return -1;
    /* Most events have no "stream" at all: look for its bytes first. */
    const unsigned char *a = r->args, *end = a + r->args_len;
    bool seen = false;
    /* 'm' is rarer than '"': find it, then the rest of "stream". */
    for (const unsigned char *q = a + 6; !seen && end - q >= 2; q++) {
        q = memchr(q, 'm', (size_t)(end - q) - 1);
        if (!q)
            break;
        seen = q[1] == '"' && memcmp(q - 6, "\"strea", 6) == 0;
    }
    if (!seen)
        return -1;
    size_t n;
    const unsigned char *v = tf_jl_get(r->args, r->args_len, "stream", &n);
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

/* Keeps the GPU sets small: merge once they have doubled. */
static void gpu_tidy(struct chrome *c)
{
    if (c->gpu_added < 4096 || c->gpu_added < c->gpu_all.n / 2)
        return;
    tf_ivset_normalize(&c->gpu_all);
    tf_ivset_normalize(&c->gpu_comp);
    tf_ivset_normalize(&c->gpu_comm);
    c->gpu_added = 0;
}

/* A complete event's GPU work, [lo, hi) once clipped: a kernel, memcpy or
 * memset on a GPU stream (an integer args.stream other than -1), not a
 * runtime or driver call, not synchronisation (man page, STATISTICS). */
static void gpu_event(struct chrome *c, const struct tf_tef_rec *r, int64_t lo, int64_t hi)
{
    int64_t t0 = r->ts > lo ? r->ts : lo, t1 = r->ts + r->dur < hi ? r->ts + r->dur : hi;
    if (r->ph != 'X' || t1 <= t0 || c->o->no_stats || !r->cat || stream_of(r) == -1)
        return;
    if (strcmp(r->cat, "cuda_runtime") == 0 || strcmp(r->cat, "cuda_driver") == 0 ||
        strcmp(r->cat, "Trace") == 0)
        return;
    enum tf_kernel_class k = tf_stats_kernel_class(r->name, r->cat);
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

static bool index_rec(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    switch (r->kind) {
    case TF_TEF_META:
        meta(c, r);
        break;
    case TF_TEF_ORIGIN:
        c->has_clock_origin = true;
        c->clock_origin = r->ts;
        break;
    case TF_TEF_SLICE:
        if (c->o->stats_trace_scope)
            gpu_event(c, r, INT64_MIN, INT64_MAX);
        if (profiler_span(r))
            break;
        if (!r->open_end)
            add_extent(c, r->ts, r->ts + r->dur);
        else
            add_extent(c, r->ts, r->ts);
        if (c->o->window_event && !r->open_end && strcmp(r->name, c->o->window_event) == 0)
            add_occurrence(c, r->ts, r->ts + r->dur);
        break;
    case TF_TEF_INSTANT:
        if (r->scope == 't' || r->scope == 0)
            add_extent(c, r->ts, r->ts);
        break;
    case TF_TEF_ASYNC:
        if (c->o->async)
            add_extent(c, r->ts, r->ts + (r->open_end ? 0 : r->dur));
        break;
    default:
        break;
    }
    return !c->oom;
}

static bool choose_window(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    struct chrome *c = ctx;
    const struct tf_opts *o = c->o;
    /* A loader that can read selectively (index_lean) hands over no
     * extents when the window does not need them. */
    bool explicit_window = o->window_event || (o->has_from && o->has_to);
    if (c->n_drawable == 0 && !(explicit_window && c->has_clock_origin))
        return tf_diag_error(d, TF_EBADINPUT,
                             "nothing to draw: no slices or instants (X, B/E, i events)");
    /* The main run of clusters: from the fullest one outwards. */
    size_t best = 0;
    for (size_t i = 1; i < c->n_clusters; i++)
        if (c->clusters[i].count > c->clusters[best].count)
            best = i;
    size_t a = best, b = best;
    size_t min_count = c->n_drawable / 100;
    for (; c->n_clusters > 0;) {
        int64_t span = c->clusters[b].hi - c->clusters[a].lo;
        bool grew = false;
        if (a > 0 && (c->clusters[a - 1].count > min_count ||
                      c->clusters[a].lo - c->clusters[a - 1].hi <= span)) {
            a--;
            grew = true;
        }
        span = c->clusters[b].hi - c->clusters[a].lo;
        if (b + 1 < c->n_clusters && (c->clusters[b + 1].count > min_count ||
                                      c->clusters[b + 1].lo - c->clusters[b].hi <= span)) {
            b++;
            grew = true;
        }
        if (!grew)
            break;
    }
    for (size_t i = 0; i < c->n_clusters; i++)
        if (i < a || i > b)
            c->n_stray += c->clusters[i].count;
    int64_t w0 = c->n_clusters ? c->clusters[a].lo : 0, w1 = c->n_clusters ? c->clusters[b].hi : 0;
    c->origin = c->has_clock_origin ? c->clock_origin : w0;
    if (o->window_event) {
        size_t k = o->occurrence > 0 ? (size_t)o->occurrence : 1;
        if (c->n_occ_all == 0)
            return tf_diag_error(d, TF_EBADINPUT, "--window-event: no complete event named \"%.200s\"",
                                 o->window_event);
        if (c->n_occ < k)
            return tf_diag_error(d, TF_EBADINPUT,
                                 "--window-event: only %zu events named \"%.200s\", not %zu",
                                 c->n_occ_all, o->window_event, k);
        w0 = c->occ[0].t0; /* the heap's root: the K-th earliest */
        w1 = c->occ[0].t1;
    } else {
        if (o->has_from)
            w0 = c->origin + o->from_ns;
        if (o->has_to)
            w1 = c->origin + o->to_ns;
    }
    if (o->pad_pct > 0) {
        double pad = (double)(w1 - w0) * o->pad_pct / 100.0;
        w0 -= (int64_t)llround(pad);
        w1 += (int64_t)llround(pad);
    }
    if (w1 <= w0) {
        if (w1 == w0 && !o->has_from && !o->has_to && !o->window_event) {
            /* Only instants at one time: a window of 1 us around them. */
            w0 -= 500;
            w1 += 500;
        } else {
            return tf_diag_error(d, TF_EBADINPUT, "the window is empty (it ends where it starts)");
        }
    }
    c->w0 = w0;
    c->w1 = w1;
    *lo = w0;
    *hi = w1;
    return true;
}

/* --- pass 2 ---------------------------------------------------------------------- */

/* The lane of thread t (created when new). */
static struct lane *lane_for(struct chrome *c, size_t t)
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

/* A dense span or single slice leaves the row's accumulator. */
static void flush_acc(struct chrome *c, struct lane *ln, unsigned row)
{
    struct acc *a = &ln->acc[row];
    if (!a->on)
        return;
    a->on = false;
    if (!TF_GROW(ln->bars, ln->n_bars, ln->cap_bars)) {
        c->oom = true;
        return;
    }
    ln->bars[ln->n_bars++] = a->b;
}

static uint32_t color_of_cname(const char *cname);

/* Places one slice (in start order) in its row, and merges it. */
static void place(struct chrome *c, struct lane *ln, const struct pend *p)
{
    if (ln->any_placed && p->t0 < ln->watermark)
        c->n_late++;
    ln->watermark = p->t0;
    ln->any_placed = true;
    int64_t t0 = p->t0 < c->w0 ? c->w0 : p->t0;
    int64_t t1 = p->open_end || p->t1 > c->w1 ? c->w1 : p->t1;
    if (t1 < t0)
        t1 = t0;
    /* The lane's busy time (slices only), merged as it grows. */
    if (!p->instant && t1 > t0 && !c->o->no_stats) {
        struct tf_ivset *u = &ln->busy;
        struct tf_ival *last = u->n ? &u->v[u->n - 1] : NULL;
        if (last && t0 >= last->lo && t0 <= last->hi) {
            if (t1 > last->hi)
                last->hi = t1;
        } else {
            if (last && t0 < last->lo)
                ln->busy_sorted = false;
            if (!tf_ivset_add(u, t0, t1))
                c->oom = true;
        }
    }
    /* Its row: the first free at its start.  Instants go on row 0. */
    unsigned row = 0;
    if (!p->instant) {
        while (row < ln->n_rows && ln->row_end[row] > p->t0)
            row++;
        if (row == ln->n_rows) {
            if (!TF_GROW(ln->row_end, ln->n_rows, ln->cap_rows)) {
                c->oom = true;
                return;
            }
            ln->n_rows++;
        }
        ln->row_end[row] = p->open_end ? INT64_MAX : p->t1 > p->t0 ? p->t1 : p->t0;
    }
    if (!p->instant) {
        if (ln->n_slices == 0)
            ln->all_total = ln->all_span = true;
        if (!p->span)
            ln->all_span = false;
        if (ln->all_total && strncmp(tf_strtab_str(&c->strs, p->name), "Total ", 6) != 0)
            ln->all_total = false;
        if (ln->n_sample < SAMPLE) {
            if (!TF_GROW(ln->sample, ln->n_sample, ln->cap_sample)) {
                c->oom = true;
                return;
            }
            uint64_t h = 1469598103934665603ULL;
            uint64_t parts[3] = {p->name, (uint64_t)p->t0, (uint64_t)p->t1};
            for (int k = 0; k < 3; k++)
                h = (h ^ parts[k]) * 1099511628211ULL;
            ln->sample[ln->n_sample++] = h;
        }
    }
    ln->n_slices++;
    unsigned depth = c->o->depth > 0 ? (unsigned)c->o->depth : TF_CHROME_DEPTH;
    if (row >= depth) {
        ln->n_hidden++;
        return;
    }
    if (row + 1 > ln->max_row)
        ln->max_row = row + 1;
    while (ln->n_acc <= row) {
        if (!TF_GROW(ln->acc, ln->n_acc, ln->cap_acc)) {
            c->oom = true;
            return;
        }
        memset(&ln->acc[ln->n_acc++], 0, sizeof *ln->acc);
    }
    /* Instants merge among themselves on a row of their own (kept apart
     * by the flag: a slice flushes pending instants and the other way). */
    struct obar b = {
        .t0 = t0,
        .t1 = t1,
        .busy = t1 - t0,
        .name = p->name,
        .cat = p->cat,
        .args = p->args,
        .color = p->color,
        .row = row,
        .clip_left = p->t0 < c->w0,
        .clip_right = p->open_end || p->t1 > c->w1,
        .instant = p->instant,
    };
    struct acc *a = &ln->acc[row];
    bool thin = t1 - t0 < c->thr_ns;
    if (a->on && thin && a->b.instant == b.instant && t0 - a->b.t1 < c->thr_ns &&
        (a->b.t1 - a->b.t0 < c->thr_ns || a->b.merged)) {
        if (!a->b.merged)
            a->b.merged = 1;
        a->b.merged++;
        if (t1 > a->b.t1)
            a->b.t1 = t1;
        a->b.busy += t1 - t0;
        a->b.clip_right = a->b.clip_right || b.clip_right;
        return;
    }
    flush_acc(c, ln, row);
    a->on = true;
    a->b = b;
    if (!thin)
        flush_acc(c, ln, row);
}

static int by_start(const void *x, const void *y)
{
    const struct pend *a = x, *b = y;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    /* Longer first, so a parent comes before the children it starts with;
     * instants after slices. */
    int64_t da = a->open_end ? INT64_MAX : a->t1 - a->t0;
    int64_t db = b->open_end ? INT64_MAX : b->t1 - b->t0;
    if (da != db)
        return da > db ? -1 : 1;
    if (a->instant != b->instant)
        return a->instant ? 1 : -1;
    return a->name < b->name ? -1 : a->name > b->name;
}

/* Sorts what waits and places the first `n` (all with n = SIZE_MAX). */
static void drain(struct chrome *c, struct lane *ln, size_t n)
{
    if (ln->n_pend > 1)
        qsort(ln->pend, ln->n_pend, sizeof *ln->pend, by_start);
    if (n > ln->n_pend)
        n = ln->n_pend;
    if (n == 0)
        return;
    for (size_t i = 0; i < n; i++)
        place(c, ln, &ln->pend[i]);
    memmove(ln->pend, ln->pend + n, (ln->n_pend - n) * sizeof *ln->pend);
    ln->n_pend -= n;
}

/* The text of the args worth a tooltip: a few named ones, else the first
 * few scalars. */
static uint32_t args_text(struct chrome *c, const struct tf_tef_rec *r)
{
    if (!r->args)
        return c->empty;
    static const char *const useful[] = {"stream", "grid", "block", "correlation",
                                         "External id", "bytes", "device", "Memcpy Bytes"};
    struct tf_buf *b = &c->tmp;
    tf_buf_clear(b);
    tf_buf_putn(b, "", 0);
    size_t shown = 0;
    const unsigned char *p = r->args;
    size_t n = r->args_len;
    /* Named first, in the order above; else up to three scalars. */
    for (int pass = 0; pass < 2 && shown < 4; pass++) {
        for (size_t i = 0; i < n && shown < 4; i++) {
            if (p[i] != '"')
                continue;
            size_t ke = i + 1;
            while (ke < n && p[ke] != '"')
                ke += p[ke] == '\\' ? 2 : 1;
            if (ke >= n)
                break;
            size_t j = ke + 1;
            while (j < n && (p[j] == ' ' || p[j] == '\n' || p[j] == '\t' || p[j] == '\r'))
                j++;
            if (j >= n || p[j] != ':') {
                i = ke;
                continue;
            }
            j++;
            while (j < n && (p[j] == ' ' || p[j] == '\n' || p[j] == '\t' || p[j] == '\r'))
                j++;
            size_t ve = j;
            bool scalar = j < n && p[j] != '{' && p[j] != '[';
            if (j < n && p[j] == '"') {
                ve = j + 1;
                while (ve < n && p[ve] != '"')
                    ve += p[ve] == '\\' ? 2 : 1;
                ve++;
            } else {
                while (ve < n && p[ve] != ',' && p[ve] != '}' && p[ve] != ']')
                    ve++;
            }
            size_t klen = ke - i - 1;
            bool named = false;
            for (size_t k = 0; k < sizeof useful / sizeof useful[0]; k++)
                named |= strlen(useful[k]) == klen && memcmp(useful[k], p + i + 1, klen) == 0;
            if (scalar && ve - j < 80 && (pass == 0 ? named : (!named && shown < 3))) {
                if (shown)
                    tf_buf_puts(b, ", ");
                tf_buf_putn(b, (const char *)p + i + 1, klen);
                tf_buf_puts(b, ": ");
                if (p[j] == '"')
                    tf_buf_putn(b, (const char *)p + j + 1, ve - j >= 2 ? ve - j - 2 : 0);
                else
                    tf_buf_putn(b, (const char *)p + j, ve - j);
                shown++;
            }
            /* Skip the value (containers by bracket depth). */
            if (!scalar) {
                int depth = 0;
                for (ve = j; ve < n; ve++) {
                    if (p[ve] == '"') {
                        ve++;
                        while (ve < n && p[ve] != '"')
                            ve += p[ve] == '\\' ? 2 : 1;
                    } else if (p[ve] == '{' || p[ve] == '[') {
                        depth++;
                    } else if ((p[ve] == '}' || p[ve] == ']') && --depth == 0) {
                        break;
                    }
                }
            }
            i = ve;
        }
        if (pass == 0 && shown)
            break;
    }
    uint32_t id = c->empty;
    if (b->oom || !tf_strtab_id(&c->strs, b->data ? b->data : "", &id))
        c->oom = true;
    return id;
}

static bool collect_rec(void *ctx, const struct tf_tef_rec *r, struct tf_diag *d)
{
    struct chrome *c = ctx;
    (void)d;
    if (r->kind == TF_TEF_META) { /* names that come with the events (an export's) */
        meta(c, r);
        return !c->oom;
    }
    if (r->kind == TF_TEF_FLOW || (r->kind == TF_TEF_SLICE && r->bind_id)) {
        if (!c->o->flows)
            goto slice;
        size_t t = thr_of(c, &r->pid, &r->tid);
        struct lane *ln = t == SIZE_MAX ? NULL : lane_for(c, t);
        const char *id = r->kind == TF_TEF_FLOW ? r->id : r->bind_id;
        if (ln && id) {
            char ph = r->kind == TF_TEF_FLOW ? r->ph : r->flow_out ? 's' : 'f';
            int reps = r->kind == TF_TEF_SLICE && r->flow_in && r->flow_out ? 2 : 1;
            for (int k = 0; k < reps; k++) {
                if (!TF_GROW(c->flows, c->n_flows, c->cap_flows))
                    return c->oom = true, false;
                struct flow_end *fe = &c->flows[c->n_flows];
                fe->id = xstrdup(c, id);
                fe->ph = reps == 2 ? (k ? 's' : 'f') : ph;
                fe->lane = (size_t)(ln - c->lanes);
                fe->ts = r->kind == TF_TEF_SLICE && fe->ph == 's' ? r->ts + r->dur : r->ts;
                fe->bp = r->bp;
                c->n_flows++;
            }
        }
        if (r->kind == TF_TEF_FLOW)
            return !c->oom;
    }
slice:
    if (r->kind == TF_TEF_SLICE && !c->o->stats_trace_scope)
        gpu_event(c, r, c->w0, c->w1);
    if (r->kind == TF_TEF_ASYNC && !c->o->async)
        return true;
    if (r->kind != TF_TEF_SLICE && r->kind != TF_TEF_INSTANT && r->kind != TF_TEF_ASYNC)
        return true;
    if (r->kind == TF_TEF_INSTANT && r->tid.kind == TF_ID_STR &&
        strncmp(r->tid.str, "async ", 6) == 0 && !c->o->async)
        return true;
    /* Instants of a whole process or of the trace belong to no lane. */
    if (r->kind == TF_TEF_INSTANT && r->scope != 't') {
        c->n_wide_instants++;
        return true;
    }
    /* A slice that only touches the window (ends at its start, begins at
     * its end: the next step after a --window-event) shows nothing of
     * itself; a zero-length one on the edge is still inside. */
    int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
    if (r->ts > c->w1 || (!r->open_end && end < c->w0))
        return true; /* outside (async pairs reach here unfiltered) */
    if ((end > r->ts || r->open_end) && (r->ts >= c->w1 || (!r->open_end && end <= c->w0)))
        return true;
    size_t t = thr_of(c, &r->pid, &r->tid);
    struct lane *ln = t == SIZE_MAX ? NULL : lane_for(c, t);
    if (!ln)
        return false;
    struct pend p = {
        .t0 = r->ts,
        .t1 = r->ts + (r->dur > 0 ? r->dur : 0),
        .color = r->has_rgb ? r->rgb & 0xFFFFFFu : r->cname ? color_of_cname(r->cname) : NONE,
        .instant = r->kind == TF_TEF_INSTANT,
        .open_end = r->open_end,
        .span = profiler_span(r),
    };
    if (!tf_strtab_id(&c->strs, r->name, &p.name) ||
        !tf_strtab_id(&c->strs, r->cat ? r->cat : "", &p.cat))
        return c->oom = true, false;
    /* The args a tooltip shows, kept only for slices wide enough to be
     * drawn on their own: the thin ones end in dense spans, and keeping
     * a text per slice would hold the window's every event. */
    p.args = p.t1 - p.t0 >= c->thr_ns ? args_text(c, r) : c->empty;
    if (!TF_GROW(ln->pend, ln->n_pend, ln->cap_pend))
        return c->oom = true, false;
    ln->pend[ln->n_pend++] = p;
    if (ln->n_pend >= REORDER)
        drain(c, ln, REORDER / 2);
    return !c->oom;
}

static bool finish_rec(void *ctx, struct tf_diag *d)
{
    struct chrome *c = ctx;
    for (size_t i = 0; i < c->n_lanes; i++) {
        struct lane *ln = &c->lanes[i];
        drain(c, ln, SIZE_MAX);
        for (unsigned r = 0; r < ln->n_acc; r++)
            flush_acc(c, ln, r);
        if (!ln->busy_sorted)
            tf_ivset_normalize(&ln->busy);
        ln->busy_sorted = true;
    }
    if (c->oom)
        return tf_diag_oom(d, NULL);
    return true;
}

/* --- colours ------------------------------------------------------------------- */

/* Chrome's reserved colour names, as trace-viewer draws them (FACTS 1.6);
 * any other cname is ignored. */
static uint32_t color_of_cname(const char *cname)
{
    static const struct {
        const char *name;
        uint32_t rgb;
    } table[] = {
        {"thread_state_uninterruptible", 0xB67D8F}, {"thread_state_iowait", 0xFF8C00},
        {"thread_state_running", 0x7EC894},        {"thread_state_runnable", 0x85A0D2},
        {"thread_state_sleeping", 0xF0F0F0},       {"thread_state_unknown", 0xC79B7D},
        {"background_memory_dump", 0x00B4B4},      {"light_memory_dump", 0x0000B4},
        {"detailed_memory_dump", 0xB400B4},        {"vsync_highlight_color", 0x0000FF},
        {"generic_work", 0x7D7D7D},                {"good", 0x007D00},
        {"bad", 0xB47D00},                         {"terrible", 0xB40000},
        {"black", 0x000000},                       {"grey", 0xDDDDDD},
        {"white", 0xFFFFFF},                       {"yellow", 0xFFFF00},
        {"olive", 0x646400},                       {"rail_response", 0x4387FD},
        {"rail_animation", 0xF44A3F},              {"rail_idle", 0xEE8E00},
        {"rail_load", 0x0DA861},                   {"startup", 0xE6E600},
        {"heap_dump_stack_frame", 0x808080},       {"heap_dump_object_type", 0x0000FF},
        {"heap_dump_child_node_arrow", 0xCC6600},  {"cq_build_running", 0xFFFF77},
        {"cq_build_passed", 0x99EE66},             {"cq_build_failed", 0xEE8888},
        {"cq_build_abandoned", 0xBBBBBB},          {"cq_build_attempt_runnig", 0xDEDE4B},
        {"cq_build_attempt_passed", 0x67DA23},     {"cq_build_attempt_failed", 0xC55151},
    };
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        if (strcmp(cname, table[i].name) == 0)
            return table[i].rgb;
    return NONE;
}

/* Paul Tol's colour-blind-safe "muted" scheme for the categories profilers
 * use (FACTS: Tol, SRON/EPS/TN/09-002, 2021). */
static const struct {
    const char *cat;
    uint32_t rgb;
} known_cats[] = {
    {"kernel", 0x332288},          {"mtia_ccp_events", 0x332288},
    {"collective_comm", 0xCC6677}, {"gpu_memcpy", 0x88CCEE},
    {"gpu_memset", 0x44AA99},      {"cuda_runtime", 0xDDCC77},
    {"cuda_driver", 0xDDCC77},     {"xpu_runtime", 0xDDCC77},
    {"xpu_driver", 0xDDCC77},      {"mtia_runtime", 0xDDCC77},
    {"privateuse1_runtime", 0xDDCC77}, {"privateuse1_driver", 0xDDCC77},
    {"cpu_op", 0x117733},          {"user_annotation", 0xAA4499},
    {"gpu_user_annotation", 0x882255}, {"python_function", 0x999933},
    {"cuda_sync", 0xDDDDDD},       {"Trace", 0xDDDDDD},
    {"overhead", 0xDDDDDD},
    /* Nsight Systems exports (load/nsys_rows.h): NVTX ranges as the
     * annotations they are, OS runtime calls as the waits they mostly are */
    {"nvtx", 0xAA4499},            {"osrt", 0xDDDDDD},
};

/* Any other category: Tol's "light" scheme, by an FNV-1a hash of its name,
 * probing to the next free colour within one figure. */
static const uint32_t spare_colors[8] = {
    0x77AADD, 0xEE8866, 0xEEDD88, 0xFFAABB, 0x99DDFF, 0x44BB99, 0xBBCC33, 0xAAAA00,
};

#define NCCL_COLOR 0xCC6677u

static bool known_color(const char *cat, uint32_t *rgb)
{
    for (size_t i = 0; i < sizeof known_cats / sizeof known_cats[0]; i++)
        if (strcmp(cat, known_cats[i].cat) == 0) {
            *rgb = known_cats[i].rgb;
            return true;
        }
    return false;
}

/* --color rules: the first whose glob matches the name, or the category. */
static bool rule_color(const struct tf_opts *o, const char *name, const char *cat,
                       uint32_t *rgb)
{
    for (size_t i = 0; i < o->n_colors; i++)
        if (fnmatch(o->colors[i].pattern, name, 0) == 0 ||
            fnmatch(o->colors[i].pattern, cat, 0) == 0) {
            *rgb = o->colors[i].rgb;
            return true;
        }
    return false;
}

static uint32_t label_color_on(uint32_t rgb)
{
    double r = (rgb >> 16) & 0xFF, g = (rgb >> 8) & 0xFF, b = rgb & 0xFF;
    return 0.299 * r + 0.587 * g + 0.114 * b > 150 ? TF_COLOR_BLACK : TF_COLOR_WHITE;
}

/* --- the figure ----------------------------------------------------------------------- */

static void trimmed(const char *s, struct tf_buf *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    size_t n = strlen(s);
    while (n > 0 && (s[n - 1] == ' ' || s[n - 1] == '\t'))
        n--;
    tf_buf_putn(out, s, n);
}

static void id_label(struct tf_buf *b, const char *what, const struct tf_id *id)
{
    if (id->kind == TF_ID_NUM)
        tf_buf_printf(b, "%s %lld", what, id->num);
    else if (id->kind == TF_ID_STR)
        tf_buf_printf(b, "%s %s", what, id->str);
    else
        tf_buf_printf(b, "%s ?", what);
}

/* A TensorFlow device path as people say it: "/job:localhost/replica:0/
 * task:0/device:GPU:0 Compute" is "GPU:0 Compute", "/device:GPU:0/stream:15
 * Compute" is "GPU:0/stream:15 Compute".  Other names stay as they are. */
static void process_name(const char *s, struct tf_buf *out)
{
    while (*s == ' ' || *s == '\t')
        s++;
    if (strncmp(s, "/job:", 5) != 0 && strncmp(s, "/device:", 8) != 0) {
        trimmed(s, out);
        return;
    }
    struct tf_buf b;
    tf_buf_init(&b);
    bool first = true;
    while (*s == '/') {
        const char *seg = ++s;
        while (*s && *s != '/')
            s++;
        size_t n = (size_t)(s - seg);
        if ((n >= 4 && memcmp(seg, "job:", 4) == 0) || (n >= 8 && memcmp(seg, "replica:", 8) == 0) ||
            (n >= 5 && memcmp(seg, "task:", 5) == 0))
            continue;
        if (n >= 7 && memcmp(seg, "device:", 7) == 0)
            seg += 7, n -= 7;
        if (!first)
            tf_buf_putc(&b, '/');
        tf_buf_putn(&b, seg, n);
        first = false;
    }
    tf_buf_puts(&b, s);
    trimmed(b.data ? b.data : "", out);
    if (b.oom)
        out->oom = true;
    tf_buf_fini(&b);
}

/* "process / thread" from the metadata, else from the ids; a process's
 * only lane, of a thread without a name, is the process's name alone. */
/* A process's label (appended to out); true when it has a name. */
static bool proc_label(const struct proc *p, struct tf_buf *out)
{
    size_t n0 = out->len;
    /* Kineto names its GPU processes after the host program and labels
     * them "GPU 0": the label says more (but not its host's "CPU"). */
    if (p->labels && *p->labels && strcmp(p->labels, "CPU") != 0)
        trimmed(p->labels, out);
    else if (p->name && *p->name)
        process_name(p->name, out);
    if (out->len > n0)
        return true;
    id_label(out, "pid", &p->pid);
    return false;
}

static void lane_label(const struct chrome *c, size_t t, struct tf_buf *out)
{
    const struct thr *th = &c->thrs[t];
    const struct proc *p = &c->procs[th->proc];
    struct tf_buf pl, tl;
    tf_buf_init(&pl);
    tf_buf_init(&tl);
    bool named = proc_label(p, &pl);
    if (th->name && *th->name)
        trimmed(th->name, &tl);
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

static const struct chrome *sort_ctx;

static int lane_order(const void *x, const void *y)
{
    const struct chrome *c = sort_ctx;
    const struct thr *a = &c->thrs[c->lanes[*(const size_t *)x].thread];
    const struct thr *b = &c->thrs[c->lanes[*(const size_t *)y].thread];
    const struct proc *pa = &c->procs[a->proc], *pb = &c->procs[b->proc];
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
    if (a->has_sort != b->has_sort || (a->has_sort && a->sort != b->sort)) {
        long long sa = a->has_sort ? a->sort : 0, sb = b->has_sort ? b->sort : 0;
        if (sa != sb)
            return sa < sb ? -1 : 1;
    }
    return cmp_id(&a->tid, &b->tid);
}

/* The axis unit for a span (ns): its name and ns per unit. */
static void axis_unit(int64_t span, const char **unit, double *per)
{
    if (span >= 10000000000LL) {
        *unit = "s";
        *per = 1e9;
    } else if (span >= 10000000LL) {
        *unit = "ms";
        *per = 1e6;
    } else {
        *unit = "\xC2\xB5s";
        *per = 1e3;
    }
}

/* Re-merges a lane's bars with a coarser threshold (they are in row, then
 * start order within each row once sorted). */
static int bar_order(const void *x, const void *y)
{
    const struct obar *a = x, *b = y;
    if (a->row != b->row)
        return a->row < b->row ? -1 : 1;
    if (a->t0 != b->t0)
        return a->t0 < b->t0 ? -1 : 1;
    return (a->t1 > b->t1) - (a->t1 < b->t1);
}

static void coarsen(struct lane *ln, int64_t thr)
{
    if (ln->n_bars < 2)
        return;
    qsort(ln->bars, ln->n_bars, sizeof *ln->bars, bar_order);
    size_t k = 0;
    for (size_t i = 0; i < ln->n_bars; i++) {
        struct obar *b = &ln->bars[i];
        if (k > 0) {
            struct obar *a = &ln->bars[k - 1];
            bool thin_a = a->t1 - a->t0 < thr, thin_b = b->t1 - b->t0 < thr;
            if (a->row == b->row && a->instant == b->instant && thin_a && thin_b &&
                b->t0 - a->t1 < thr) {
                uint32_t ma = a->merged ? a->merged : 1, mb = b->merged ? b->merged : 1;
                a->merged = ma + mb;
                a->busy += b->busy;
                if (b->t1 > a->t1)
                    a->t1 = b->t1;
                a->clip_right = a->clip_right || b->clip_right;
                continue;
            }
        }
        ln->bars[k++] = *b;
    }
    ln->n_bars = k;
}

static bool glob_any(const char *const *pats, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++)
        if (fnmatch(pats[i], s, 0) == 0)
            return true;
    return false;
}

/* Splits a comma-separated --lanes value list: each element may itself
 * hold commas; the CLI passes them split already. */

static bool build(const struct tf_mode_input *in, const struct tf_opts *o, struct tf_figure *f,
                  struct tf_diag *d);

/* --- the mode's table entry ------------------------------------------------------------- */

static struct chrome *chrome_new(const struct tf_opts *o)
{
    struct chrome *c = calloc(1, sizeof *c);
    if (!c)
        return NULL;
    c->o = o;
    tf_strtab_init(&c->proc_keys);
    tf_strtab_init(&c->thr_keys);
    tf_strtab_init(&c->strs);
    tf_buf_init(&c->tmp);
    if (!tf_strtab_id(&c->strs, "", &c->empty)) {
        tf_strtab_fini(&c->strs);
        free(c);
        return NULL;
    }
    return c;
}

static void chrome_free(struct chrome *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->n_procs; i++) {
        free(c->procs[i].pid_str);
        free(c->procs[i].name);
        free(c->procs[i].labels);
    }
    for (size_t i = 0; i < c->n_thrs; i++) {
        free(c->thrs[i].tid_str);
        free(c->thrs[i].name);
    }
    for (size_t i = 0; i < c->n_lanes; i++) {
        struct lane *ln = &c->lanes[i];
        free(ln->pend);
        free(ln->row_end);
        free(ln->acc);
        free(ln->bars);
        free(ln->sample);
        tf_ivset_fini(&ln->busy);
    }
    tf_ivset_fini(&c->gpu_all);
    tf_ivset_fini(&c->gpu_comp);
    tf_ivset_fini(&c->gpu_comm);
    for (size_t i = 0; i < c->n_flows; i++)
        free(c->flows[i].id);
    free(c->flows);
    free(c->procs);
    free(c->thrs);
    free(c->occ);
    free(c->lanes);
    free(c->lane_of_thr);
    tf_strtab_fini(&c->proc_keys);
    tf_strtab_fini(&c->thr_keys);
    tf_strtab_fini(&c->strs);
    tf_buf_fini(&c->tmp);
    free(c);
}

/* The merging threshold once the window is known: TF_CHROME_LOD_PT of a
 * plot about 640 pt wide. */
static bool window_cb(void *ctx, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    struct chrome *c = ctx;
    if (!choose_window(ctx, lo, hi, d))
        return false;
    double thr = (double)(c->w1 - c->w0) * TF_CHROME_LOD_PT / 640.0;
    c->thr_ns = thr < 1.0 ? 1 : (int64_t)thr;
    return true;
}

static bool begin(const struct tf_opts *o, struct tf_trace *t, struct tf_keep *k,
                  struct tf_diag *d)
{
    struct chrome *c = chrome_new(o);
    if (!c)
        return tf_diag_oom(d, NULL);
    t->generic_state = c;
    k->tef = (struct tf_tef_sink){
        .index = index_rec,
        .window = window_cb,
        .collect = collect_rec,
        .finish = finish_rec,
        .ctx = c,
        .args_pass1 = o->stats_trace_scope,
        .index_lean = o->window_event || (o->has_from && o->has_to),
        .index_name = o->window_event,
        .osrt = o->osrt,
    };
    k->state = c;
    return true;
}

static void end(struct tf_keep *k)
{
    (void)k; /* the state lives with the trace until the figure is built */
}

static void release(void *state)
{
    chrome_free(state);
}

const struct tf_mode tf_mode_chrome = {
    .name = "chrome",
    .summary = "any Chrome / Perfetto / PyTorch-profiler trace (Trace Event Format)",
    .kind = TF_TRACE_CHROME,
    .begin = begin,
    .end = end,
    .release = release,
    .build = build,
};

/* --- build ---------------------------------------------------------------------------- */

/* --- the statistics ------------------------------------------------------------ */

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
        tf_buf_printf(&line, "GPU compute %s %%, non-compute %s %%, idle %s %%",
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

/* The overlap statistics of the window: each drawn lane's busy time (the
 * exact union of its slices, before any merging into dense spans), one
 * group per process, the --group groups, and the GPU breakdown. */
static bool chrome_stats(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                         const size_t *pick, size_t n_pick)
{
    struct tf_stats_clock clk = {1e6, c->w0, c->w1};
    struct tf_ivset *sets = calloc(n_pick ? n_pick : 1, sizeof *sets);
    size_t *idx = calloc(n_pick ? n_pick : 1, sizeof *idx);
    size_t *proc_of_group = calloc(n_pick ? n_pick : 1, sizeof *proc_of_group);
    struct tf_stats_group_in *groups = calloc(n_pick ? n_pick : 1, sizeof *groups);
    struct tf_buf labels;
    tf_buf_init(&labels);
    bool ok = sets && idx && proc_of_group && groups;
    for (size_t i = 0; ok && i < n_pick; i++) {
        const struct tf_ivset *b = &c->lanes[pick[i]].busy;
        for (size_t k = 0; ok && k < b->n; k++)
            ok = tf_ivset_add(&sets[i], b->v[k].lo, b->v[k].hi);
        tf_ivset_normalize(&sets[i]);
        tf_ivset_clip(&sets[i], c->w0, c->w1);
    }
    /* Groups: the processes, in the order their first lane is drawn; the
     * lanes of group g are idx[first[g] ..], gathered process by process. */
    size_t n_groups = 0, used = 0;
    for (size_t i = 0; ok && i < n_pick; i++) {
        size_t p = c->thrs[c->lanes[pick[i]].thread].proc;
        bool seen = false;
        for (size_t g = 0; g < n_groups && !seen; g++)
            seen = proc_of_group[g] == p;
        if (seen)
            continue;
        size_t first = used;
        for (size_t k = i; k < n_pick; k++)
            if (c->thrs[c->lanes[pick[k]].thread].proc == p)
                idx[used++] = k;
        proc_of_group[n_groups] = p;
        groups[n_groups++] = (struct tf_stats_group_in){NULL, idx + first, used - first};
    }
    /* Their labels, once the buffer no longer moves. */
    size_t *at = calloc(n_groups ? n_groups : 1, sizeof *at);
    ok = ok && at;
    for (size_t g = 0; ok && g < n_groups; g++) {
        at[g] = labels.len;
        proc_label(&c->procs[proc_of_group[g]], &labels);
        tf_buf_putc(&labels, '\0');
        ok = !labels.oom;
    }
    for (size_t g = 0; ok && g < n_groups; g++)
        groups[g].label = labels.data + at[g];
    ok = ok && tf_stats_fill(f, &clk, sets, groups, n_groups, o);
    if (ok && c->gpu_all.n) {
        tf_ivset_normalize(&c->gpu_all);
        tf_ivset_normalize(&c->gpu_comp);
        tf_ivset_normalize(&c->gpu_comm);
        tf_stats_gpu_breakdown(f, &clk, &c->gpu_all, &c->gpu_comp, &c->gpu_comm);
        f->stats.gpu.scope_trace = o->stats_trace_scope;
    }
    ok = ok && chrome_summary(f);
    for (size_t i = 0; sets && i < n_pick; i++)
        tf_ivset_fini(&sets[i]);
    free(sets);
    free(idx);
    free(proc_of_group);
    free(groups);
    free(at);
    tf_buf_fini(&labels);
    return ok;
}

/* --- which lanes ----------------------------------------------------------- */

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

/* --- build ---------------------------------------------------------------------------- */

/* The categories' colours: the palette for known ones; the others sorted
 * by name, each at its hash's slot of the spare colours or the next free
 * one. */
struct cat_color {
    uint32_t cat;
    uint32_t rgb;
};

static int by_cat_name(const void *x, const void *y)
{
    const struct chrome *c = sort_ctx;
    const struct cat_color *a = x, *b = y;
    return strcmp(tf_strtab_str(&c->strs, a->cat), tf_strtab_str(&c->strs, b->cat));
}

static bool color_categories(struct chrome *c, const size_t *pick, size_t n_pick,
                             struct cat_color **out, size_t *n_out)
{
    struct cat_color *v = NULL;
    size_t n = 0, cap = 0;
    for (size_t i = 0; i < n_pick; i++) {
        const struct lane *ln = &c->lanes[pick[i]];
        for (size_t k = 0; k < ln->n_bars; k++) {
            uint32_t cat = ln->bars[k].cat;
            bool seen = false;
            for (size_t j = 0; j < n && !seen; j++)
                seen = v[j].cat == cat;
            if (seen)
                continue;
            if (!TF_GROW(v, n, cap)) {
                free(v);
                return false;
            }
            v[n++] = (struct cat_color){cat, NONE};
        }
    }
    sort_ctx = c;
    if (n > 1)
        qsort(v, n, sizeof *v, by_cat_name);
    bool used[8] = {false};
    size_t n_used = 0;
    for (size_t i = 0; i < n; i++) {
        const char *cat = tf_strtab_str(&c->strs, v[i].cat);
        if (known_color(cat, &v[i].rgb))
            continue;
        size_t slot = tf_fnv1a(cat, strlen(cat)) % 8;
        for (size_t k = 0; k < 8 && n_used < 8 && used[slot]; k++)
            slot = (slot + 1) % 8;
        if (!used[slot])
            n_used++;
        used[slot] = true;
        v[i].rgb = spare_colors[slot];
    }
    *out = v;
    *n_out = n;
    return true;
}

/* The deepest drawn bar of a lane that holds time t (or, with `next`, the
 * first that starts at or after it): its row, -1 when none. */
static int row_at(const struct lane *ln, int64_t t, bool next)
{
    int best = -1;
    int64_t best_t0 = INT64_MAX;
    for (size_t k = 0; k < ln->n_bars; k++) {
        const struct obar *b = &ln->bars[k];
        if (b->instant)
            continue;
        if (!next && b->t0 <= t && t <= b->t1 && (int)b->row > best)
            best = (int)b->row;
        if (next && b->t0 >= t && b->t0 < best_t0) {
            best_t0 = b->t0;
            best = (int)b->row;
        }
    }
    return best;
}

static int by_flow_id(const void *x, const void *y)
{
    const struct flow_end *a = x, *b = y;
    int k = strcmp(a->id, b->id);
    if (k)
        return k;
    return (a->ts > b->ts) - (a->ts < b->ts);
}

/* Arrows from each s (or t) to the next t or f of its id, both ends on
 * drawn lanes. */
static bool add_arrows(struct chrome *c, struct tf_figure *f, const size_t *fig_lane, double per)
{
    if (c->n_flows > 1)
        qsort(c->flows, c->n_flows, sizeof *c->flows, by_flow_id);
    for (size_t i = 0; i + 1 < c->n_flows; i++) {
        const struct flow_end *a = &c->flows[i], *b = &c->flows[i + 1];
        if (strcmp(a->id, b->id) != 0 || a->ph == 'f' || b->ph == 's')
            continue;
        size_t la = fig_lane[a->lane], lb = fig_lane[b->lane];
        if (la == SIZE_MAX || lb == SIZE_MAX)
            continue;
        if (a->ts < c->w0 || a->ts > c->w1 || b->ts < c->w0 || b->ts > c->w1)
            continue;
        int ra = row_at(&c->lanes[a->lane], a->ts, false);
        int rb = row_at(&c->lanes[b->lane], b->ts, b->bp != 'e' && b->ph == 'f');
        struct tf_arrow arrow = {
            .lane0 = la,
            .lane1 = lb,
            .row0 = ra < 0 ? 0 : (unsigned)ra,
            .row1 = rb < 0 ? 0 : (unsigned)rb,
            .x0 = (double)(a->ts - c->w0) / per,
            .x1 = (double)(b->ts - c->w0) / per,
        };
        if (!tf_figure_add_arrow(f, &arrow))
            return false;
    }
    return true;
}

/* An estimate of a bar's bytes in the SVG: markup and its tooltip. */
static size_t svg_cost(const struct chrome *c, const struct obar *b)
{
    size_t n = 240;
    if (!b->merged) {
        size_t name = strlen(tf_strtab_str(&c->strs, b->name));
        n += 2 * (name < TIP_NAME_MAX ? name : TIP_NAME_MAX);
        n += strlen(tf_strtab_str(&c->strs, b->args));
    }
    return n;
}

/* One bar of the figure from a drawn one. */
static bool add_bar(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
                    const struct obar *ob, const struct cat_color *cc, size_t n_cc, double per,
                    const char *unit)
{
    const char *name = tf_strtab_str(&c->strs, ob->name);
    const char *cat = tf_strtab_str(&c->strs, ob->cat);
    uint32_t rgb = 0;
    for (size_t i = 0; i < n_cc; i++)
        if (cc[i].cat == ob->cat)
            rgb = cc[i].rgb;
    char key[96];
    bool nccl = strcmp(cat, "kernel") == 0 &&
                (strncmp(name, "nccl", 4) == 0 || strncmp(name, "rccl", 4) == 0 ||
                 strstr(name, " nccl") != NULL);
    if (nccl) {
        rgb = NCCL_COLOR;
        snprintf(key, sizeof key, "cat/kernel/nccl");
    } else {
        snprintf(key, sizeof key, "cat/%s", *cat ? cat : "none");
    }
    size_t ci = tf_figure_category(f, key, rgb);
    if (ci == (size_t)-1)
        return false;
    if (!f->cats[ci].name) {
        f->cats[ci].name = tf_figure_str(f, cat);
        f->cats[ci].label = tf_figure_str(f, nccl ? "NCCL kernel" : *cat ? cat : "(no category)");
        if (!f->cats[ci].name || !f->cats[ci].label)
            return false;
    }
    uint32_t bar_rgb = f->cats[ci].color, rule;
    if (rule_color(o, name, cat, &rule))
        bar_rgb = rule;
    else if (ob->color != NONE)
        bar_rgb = ob->color;
    struct tf_bar *b = tf_figure_add_bar(f);
    if (!b)
        return false;
    b->lane = f->n_lanes - 1;
    b->row = ob->row;
    b->cat = ci;
    b->shape = ob->instant ? TF_SHAPE_INSTANT : ob->merged ? TF_SHAPE_DENSE : TF_SHAPE_SLICE;
    b->merged = ob->merged;
    b->busy = (double)ob->busy / per;
    b->start_ms = (double)ob->t0 / 1e6;
    b->dur_ms = (double)(ob->t1 - ob->t0) / 1e6;
    b->x0 = (double)(ob->t0 - c->w0) / per;
    b->x1 = (double)(ob->t1 - c->w0) / per;
    b->clip_left = ob->clip_left;
    b->clip_right = ob->clip_right;
    b->color = bar_rgb;
    b->label_color = label_color_on(bar_rgb);
    struct tf_buf tip;
    tf_buf_init(&tip);
    char num[TF_NUM_MAX], num2[TF_NUM_MAX];
    double len = (double)(ob->t1 - ob->t0);
    if (ob->merged) {
        b->name = f->cats[ci].label;
        tf_buf_printf(&tip, "%u %s slices \xC2\xB7 busy %s%% of %s %s", (unsigned)ob->merged,
                      f->cats[ci].label, tf_fmt_num(num, 100.0 * (double)ob->busy / (len > 0 ? len : 1), 0),
                      tf_fmt_num(num2, len / per, 3), unit);
    } else {
        b->name = tf_figure_str(f, name);
        char shortn[128];
        tf_chrome_short_name(name, shortn, sizeof shortn);
        if (!ob->instant && *shortn && !(b->label = tf_figure_str(f, shortn)))
            return false;
        size_t nlen = strlen(name);
        if (nlen > TIP_NAME_MAX) {
            tf_buf_putn(&tip, name, TIP_NAME_MAX);
            tf_buf_puts(&tip, "\xE2\x80\xA6");
        } else {
            tf_buf_puts(&tip, name);
        }
        if (*cat)
            tf_buf_printf(&tip, " \xC2\xB7 %s", cat);
        tf_buf_printf(&tip, " \xC2\xB7 at %s %s",
                      tf_fmt_num(num, (double)(ob->t0 - c->w0) / per, 3), unit);
        if (!ob->instant)
            tf_buf_printf(&tip, " \xC2\xB7 %s %s", tf_fmt_num(num2, len / per, 3), unit);
        const char *args = tf_strtab_str(&c->strs, ob->args);
        if (*args)
            tf_buf_printf(&tip, " \xC2\xB7 %s", args);
    }
    b->title = tf_figure_buf(f, &tip);
    tf_buf_fini(&tip);
    return b->name && b->title;
}

static bool build(const struct tf_mode_input *in, const struct tf_opts *o, struct tf_figure *f,
                  struct tf_diag *d)
{
    struct chrome *c = in->trace->generic_state;
    if (!c || !in->trace->generic)
        return tf_diag_error(d, TF_EBADINPUT, "not read as a generic Chrome trace");
    if (in->breakdown)
        tf_diag_warn(d, "%s: the breakdown panel is drawn only for pipelined timelines",
                     in->breakdown_file);
    if (c->n_late)
        tf_diag_warn(d, "%s: %zu slice%s came long after their time in the file; their rows "
                        "may not show their nesting",
                     in->file, c->n_late, c->n_late == 1 ? "" : "s");
    size_t nl = c->n_lanes ? c->n_lanes : 1;
    size_t *order = malloc(nl * sizeof *order), *pick = malloc(nl * sizeof *pick);
    size_t *fig_lane = malloc(nl * sizeof *fig_lane);
    struct cat_color *cc = NULL;
    size_t n_cc = 0;
    struct tf_buf label;
    tf_buf_init(&label);
    bool ok = order && pick && fig_lane;
    const char *fail = NULL;
    enum tf_exit fail_code = TF_EBADINPUT;

    /* Lanes with something drawn, in the author's order. */
    size_t n_order = 0;
    for (size_t i = 0; ok && i < c->n_lanes; i++) {
        fig_lane[i] = SIZE_MAX;
        if (c->lanes[i].n_bars > 0) {
            order[n_order++] = i;
            c->procs[c->thrs[c->lanes[i].thread].proc].n_drawn++;
        }
    }
    if (ok && n_order == 0)
        fail = "nothing to draw in the window";
    sort_ctx = c;
    if (ok && !fail && n_order > 1)
        qsort(order, n_order, sizeof *order, lane_order);
    /* --hide, then the default rules, on the lanes in order. */
    size_t n_keep = 0, n_by_hide = 0, n_by_default = 0;
    for (size_t i = 0; ok && !fail && i < n_order; i++) {
        lane_label(c, c->lanes[order[i]].thread, &label);
        if (!(ok = !label.oom))
            break;
        if (o->n_hide && glob_any(o->hide, o->n_hide, label.data)) {
            n_by_hide++;
            continue;
        }
        if (!o->all_lanes &&
            (glob_any(default_hide, sizeof default_hide / sizeof default_hide[0], label.data) ||
             ((c->lanes[order[i]].all_total || c->lanes[order[i]].all_span) && n_order > 1))) {
            n_by_default++;
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
                n_by_default++;
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
    const char **rename = calloc(nl, sizeof *rename);
    ok = ok && rename;
    if (ok && !fail && o->n_lanes) {
        /* PATTERN=LABEL also renames the lanes it picks. */
        struct tf_buf pat;
        tf_buf_init(&pat);
        for (size_t p = 0; ok && p < o->n_lanes; p++) {
            const char *eq = strchr(o->lanes[p], '=');
            tf_buf_clear(&pat);
            tf_buf_putn(&pat, o->lanes[p], eq ? (size_t)(eq - o->lanes[p]) : strlen(o->lanes[p]));
            if (!(ok = !pat.oom))
                break;
            for (size_t i = 0; ok && i < n_keep; i++) {
                lane_label(c, c->lanes[order[i]].thread, &label);
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
    size_t cap = o->max_lanes > 0 ? (size_t)o->max_lanes : TF_CHROME_MAX_LANES;
    size_t n_cut = 0;
    if (ok && !fail && n_pick > cap) {
        n_cut = n_pick - cap;
        n_pick = cap;
    }
    if (ok && fail) {
        free(order);
        free(pick);
        free(rename);
        free(fig_lane);
        tf_buf_fini(&label);
        return tf_diag_error(d, fail_code, "%s", fail);
    }

    /* The budget: coarsen until the SVG fits. */
    int64_t thr = c->thr_ns;
    for (int round = 0; ok && round < 40; round++) {
        size_t bytes = 0;
        for (size_t i = 0; i < n_pick; i++)
            for (size_t k = 0; k < c->lanes[pick[i]].n_bars; k++)
                bytes += svg_cost(c, &c->lanes[pick[i]].bars[k]);
        if (bytes <= SVG_BUDGET)
            break;
        thr *= 2;
        for (size_t i = 0; i < n_pick; i++)
            coarsen(&c->lanes[pick[i]], thr);
    }
    ok = ok && color_categories(c, pick, n_pick, &cc, &n_cc);

    const char *unit;
    double per;
    int64_t span = c->w1 - c->w0;
    axis_unit(span, &unit, &per);
    f->mode = tf_mode_chrome.name;
    f->schema = "tracefig-figure-2";
    f->clock_unit = "us";
    f->window_start = (double)c->w0 / 1e3;
    f->window_end = (double)c->w1 / 1e3;
    f->x_span = (double)span / per;
    f->zigzag_amp = f->x_span * 0.004;
    f->axis.unit = unit;
    char title[32];
    snprintf(title, sizeof title, "Time (%s)", unit);
    f->axis.title = tf_figure_str(f, title);
    double ticks[TF_TICKS_MAX];
    size_t nt = tf_nice_ticks(0.0, f->x_span, 8, ticks, TF_TICKS_MAX);
    ok = ok && f->axis.title && tf_figure_set_ticks(f, ticks, nt);

    /* Lanes and their bars. */
    unsigned total_rows = 0;
    size_t n_hidden_rows = 0;
    for (size_t i = 0; ok && i < n_pick; i++) {
        struct lane *ln = &c->lanes[pick[i]];
        const struct thr *th = &c->thrs[ln->thread];
        lane_label(c, ln->thread, &label);
        struct tf_lane *fl = tf_figure_add_lane(f, NULL, rename[i] ? rename[i] : label.data);
        if (!fl) {
            ok = false;
            break;
        }
        fig_lane[pick[i]] = f->n_lanes - 1;
        n_hidden_rows += ln->n_hidden;
        fl->rows = ln->max_row ? ln->max_row : 1;
        total_rows += fl->rows;
        fl->pid = c->procs[th->proc].pid;
        fl->tid = th->tid;
        if (fl->pid.kind == TF_ID_STR)
            fl->pid.str = tf_figure_str(f, fl->pid.str);
        if (fl->tid.kind == TF_ID_STR)
            fl->tid.str = tf_figure_str(f, fl->tid.str);
        if (ln->n_bars > 1)
            qsort(ln->bars, ln->n_bars, sizeof *ln->bars, bar_order);
        for (size_t k = 0; ok && k < ln->n_bars; k++)
            ok = add_bar(c, o, f, &ln->bars[k], cc, n_cc, per, unit);
    }
    /* Legend: the categories drawn, in first-drawn order. */
    for (size_t i = 0; ok && i < f->n_cats; i++)
        ok = tf_figure_add_legend(f, f->cats[i].label ? f->cats[i].label : f->cats[i].key, i);
    ok = ok && (!o->flows || add_arrows(c, f, fig_lane, per));
    ok = ok && (o->no_stats || chrome_stats(c, o, f, pick, n_pick));
    /* Notes: what is not drawn, and how to draw it. */
    char note[240];
    if (ok && n_cut) {
        snprintf(note, sizeof note,
                 "%zu more lane%s not drawn (at most %zu): choose with --lanes or --max-lanes",
                 n_cut, n_cut == 1 ? "" : "s", cap);
        ok = tf_figure_add_note(f, note);
        tf_diag_warn(d, "%s: %s", in->file, note);
    }
    if (ok && n_by_default) {
        snprintf(note, sizeof note,
                 "%zu lane%s that repeat%s others or only sum%s them up not drawn: "
                 "--all-lanes draws them",
                 n_by_default, n_by_default == 1 ? "" : "s", n_by_default == 1 ? "s" : "",
                 n_by_default == 1 ? "s" : "");
        ok = tf_figure_add_note(f, note);
    }
    if (ok && c->n_stray && !o->has_from && !o->has_to && !o->window_event) {
        snprintf(note, sizeof note,
                 "%zu event%s far from the rest (another clock?) left out of the window: "
                 "--from/--to show them",
                 c->n_stray, c->n_stray == 1 ? "" : "s");
        ok = tf_figure_add_note(f, note);
        tf_diag_warn(d, "%s: %s", in->file, note);
    }
    if (ok && n_hidden_rows) {
        snprintf(note, sizeof note, "%zu slice%s nested deeper than %lld rows not drawn: --depth",
                 n_hidden_rows, n_hidden_rows == 1 ? "" : "s",
                 o->depth > 0 ? o->depth : (long long)TF_CHROME_DEPTH);
        ok = tf_figure_add_note(f, note);
    }
    (void)n_by_hide;
    f->flame = true;
    f->width_pt = 720;
    f->height_pt = 60.0 + 15.0 * (double)total_rows + 40.0;
    if (f->height_pt < 160)
        f->height_pt = 160;
    char dtitle[160];
    snprintf(dtitle, sizeof dtitle, "Trace timeline, %zu lane%s", f->n_lanes,
             f->n_lanes == 1 ? "" : "s");
    ok = ok && tf_figure_describe(f, dtitle, "Trace timeline");
    free(order);
    free(pick);
    free(rename);
    free(fig_lane);
    free(cc);
    tf_buf_fini(&label);
    return ok || tf_diag_oom(d, NULL);
}
