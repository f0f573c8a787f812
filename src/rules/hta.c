/* hta.c - the rows HTA's TraceAnalysis keeps, and the errors it raises
 * (rules/hta.h).  What each step below mirrors in HTA (the package in
 * ../shared/hta, commit f4d0062, run on Debian's pandas 1.5.3 and NumPy
 * 1.24) is named where it is done:
 *   trace_parser.py  round_down_time_stamps, _compress_df (drops, args,
 *                    normalize_gpu_stream_numbers), infer_gpu_type;
 *   trace.py         transform_correlation_to_index, add_iteration,
 *                    _filter_irrelevant_gpu_kernels, _fix_mtia_memory_kernels;
 *   types.py         the name and category patterns.
 */
#include "rules/hta.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonlite.h"
#include "base/strtab.h"
#include "rules/stats.h"

/* --- names and categories (types.py), with Python's re semantics ------------ */

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

static bool digit(char c)
{
    return c >= '0' && c <= '9';
}

static bool py_space(char c)
{
    return c == ' ' || (c >= '\t' && c <= '\r') || (c >= 0x1c && c <= 0x1f);
}

/* ^ProfilerStep#(\d+): HTA's profiler step symbols. */
static bool step_name(const char *s)
{
    return starts(s, "ProfilerStep#") && digit(s[13]);
}

/* A name add_iteration cannot parse: it starts with "ProfilerStep" but
 * is not ProfilerStep\s*#\s*\d+ (HTA asserts). */
static bool bad_step_name(const char *s)
{
    if (!starts(s, "ProfilerStep"))
        return false;
    s += 12;
    while (py_space(*s))
        s++;
    if (*s++ != '#')
        return true;
    while (py_space(*s))
        s++;
    return !digit(*s);
}

/* KERNEL_CATEGORY_PATTERN, matched from the start. */
static bool kernel_cat(const char *c)
{
    return starts(c, "kernel") || (starts(c, "gpu_mem") && c[7] && c[7] != '\n') ||
           starts(c, "mtia_ccp_events");
}

/* CPU_EVENTS_CATEGORY_PATTERN: ^cpu_op, ^user_annotation$, ^(.+)_runtime. */
static bool cpu_cat(const char *c)
{
    if (starts(c, "cpu_op") || strcmp(c, "user_annotation") == 0 ||
        strcmp(c, "user_annotation\n") == 0)
        return true;
    const char *r = strstr(c + (c[0] && c[0] != '\n'), "_runtime"), *nl = strchr(c, '\n');
    return c[0] && c[0] != '\n' && r && (!nl || r < nl);
}

/* ^(hip)?Memcpy, ^(hip)?Memset, ^dma: the memory kernels _fix_mtia_memory_kernels
 * looks for. */
static bool memory_name(const char *s)
{
    return starts(s, "Memcpy") || starts(s, "hipMemcpy") || starts(s, "Memset") ||
           starts(s, "hipMemset") || starts(s, "dma");
}

/* --- the collector ---------------------------------------------------------------- */

enum {
    F_GPU = 1,     /* GPUKernelFilter: stream >= 0 and correlation >= 0, or a device sync */
    F_STEP = 2,    /* named ProfilerStep#N */
    F_CPUCAT = 4,  /* a CPU event category (the MTIA rule) */
    F_KCAT = 8,    /* a kernel category (the MTIA rule) */
    F_MEM = 16,    /* a memory kernel's name (the MTIA rule) */
};

struct row {
    double ts, dur;  /* us, as Python reads them */
    double corr;     /* args.correlation (-1 absent; NaN for null) */
    int64_t stream;  /* args.stream as normalize_gpu_stream_numbers leaves it */
    int64_t tid;     /* the MTIA rule's stream for memory kernels */
    unsigned char type, flags;
};

/* CPU rows without a correlation: how many start before the latest step
 * seen (lim), and the starts of the others, still to be decided. */
struct pending {
    bool has_lim;
    double lim;
    size_t below;
    double *ts;
    size_t n, cap;
};

struct tf_hta {
    struct tf_tef_columns cols;
    bool mtia_backend;            /* distributedInfo.backend holds mtia:hccl */
    bool sym_cuda, sym_hip, sym_mtia; /* infer_gpu_type's launch names */
    struct tf_strtab steps;       /* distinct ProfilerStep#N symbols */
    struct row *rows;
    size_t n_rows, cap_rows;
    size_t n_all, n_cpu;          /* rows HTA keeps; of them, not GPU rows */
    double min_ts, min_cpu_ts;    /* ceil'd */
    struct pending neg1;          /* CPU rows whose correlation is -1 */
    /* the first error HTA would raise at load time, in its order */
    int err_rank;
    char err[240];
    struct tf_buf tmp;
    /* results */
    bool done;
    struct tf_hta_iv *kern;       /* HTA's kernel rows (stream != -1), in its order */
    unsigned char *ktype;
    size_t n_kern;
    struct tf_hta_numbers num;
    bool has_num;
};

struct tf_hta *tf_hta_new(void)
{
    struct tf_hta *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    tf_strtab_init(&h->steps);
    tf_buf_init(&h->tmp);
    h->min_ts = h->min_cpu_ts = (double)INFINITY;
    return h;
}

void tf_hta_free(struct tf_hta *h)
{
    if (!h)
        return;
    tf_strtab_fini(&h->steps);
    tf_buf_fini(&h->tmp);
    free(h->rows);
    free(h->neg1.ts);
    free(h->kern);
    free(h->ktype);
    free(h);
}

struct tf_tef_columns *tf_hta_columns(struct tf_hta *h)
{
    return &h->cols;
}

void tf_hta_top(void *ctx, const unsigned char *val, size_t len)
{
    struct tf_hta *h = ctx;
    size_t n;
    const unsigned char *b = val[0] == '{' ? tf_jl_get(val, len, "backend", &n) : NULL;
    if (b && n >= 2 && b[0] == '"') {
        tf_jl_string(b + 1, n - 2, &h->tmp);
        h->mtia_backend = h->tmp.data && strstr(h->tmp.data, "mtia:hccl");
    }
}

/* Keeps the first error in HTA's order (rank: the step that raises). */
enum { E_STREAM = 1, E_CORR, E_SYMBOL, E_STEP };

static void load_error(struct tf_hta *h, int rank, const char *msg)
{
    if (h->err_rank && h->err_rank <= rank)
        return;
    h->err_rank = rank;
    snprintf(h->err, sizeof h->err, "%s", msg);
}

/* A number token as Python's float() reads it (correctly rounded). */
static double token_double(const unsigned char *p, size_t n)
{
    char buf[128];
    if (n >= sizeof buf) {
        double v = 0;
        tf_jl_double(p, n, &v);
        return v;
    }
    memcpy(buf, p, n);
    buf[n] = '\0';
    return strtod(buf, NULL);
}

/* numpy's float -> int64 cast (astype(int)): truncation, INT64_MIN out of range. */
static int64_t as_int(double x)
{
    return x > -9223372036854775808.0 && x < 9223372036854775808.0 ? (int64_t)x : INT64_MIN;
}

/* p[0..n) equals the lower-case q, ignoring ASCII case. */
static bool same_ascii(const char *p, const char *q, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if ((p[i] >= 'A' && p[i] <= 'Z' ? p[i] + 32 : p[i]) != q[i])
            return false;
    return true;
}

/* A string as pd.to_numeric(errors="coerce") reads it, then astype(int):
 * -1 for what is no number; false for inf (pandas then raises). */
static bool string_stream(const char *s, int64_t *out)
{
    size_t n = strlen(s);
    while (n && py_space(s[n - 1]))
        n--;
    while (n && py_space(*s))
        s++, n--;
    *out = -1;
    const char *p = s, *e = s + n;
    bool neg = p < e && *p == '-';
    if (p < e && (*p == '+' || *p == '-'))
        p++;
    size_t rest = (size_t)(e - p);
    if ((rest == 3 && same_ascii(p, "inf", 3)) || (rest == 8 && same_ascii(p, "infinity", 8)))
        return false;
    const char *q = p;
    size_t digits = 0;
    bool integral = true;
    while (q < e && digit(*q))
        q++, digits++;
    if (q < e && *q == '.') {
        integral = false;
        for (q++; q < e && digit(*q); q++)
            digits++;
    }
    if (digits == 0)
        return true;
    if (q < e && (*q == 'e' || *q == 'E')) {
        integral = false;
        q++;
        if (q < e && (*q == '+' || *q == '-'))
            q++;
        if (q == e || !digit(*q))
            return true;
        while (q < e && digit(*q))
            q++;
    }
    if (q != e)
        return true;
    char buf[128];
    if (n >= sizeof buf)
        return true;
    memcpy(buf, s, n);
    buf[n] = '\0';
    if (integral) {
        /* int64 when it fits; larger ones become uint64, then INT64_MIN. */
        uint64_t v = 0;
        bool big = false;
        for (const char *d = p; d < e; d++) {
            if (v > (UINT64_MAX - 9) / 10)
                big = true;
            v = v * 10 + (uint64_t)(*d - '0');
        }
        if (big || v > (uint64_t)INT64_MAX + (neg ? 1 : 0))
            *out = neg ? -1 : INT64_MIN; /* a negative overflow reads as NaN: -1 */
        else
            *out = neg ? (int64_t)(0 - v) : (int64_t)v;
        return true;
    }
    double x = strtod(buf, NULL);
    *out = isfinite(x) ? as_int(x) : -1; /* 1e400: pandas says NaN */
    return true;
}

/* args.stream as HTA normalizes it; false when pandas raises (inf). */
static bool stream_value(const unsigned char *v, size_t n, struct tf_hta *h, int64_t *out)
{
    *out = -1;
    if (!v || n == 0)
        return true;
    if (v[0] == 't' || v[0] == 'f') {
        *out = v[0] == 't';
        return true;
    }
    if (v[0] == '"') {
        tf_jl_string(v + 1, n - 2, &h->tmp);
        return string_stream(h->tmp.data ? h->tmp.data : "", out);
    }
    if (v[0] == '-' || digit((char)v[0])) {
        if (tf_jl_is_int(v, n)) {
            int64_t x;
            *out = tf_jl_fixed(v, n, 0, &x) ? x : INT64_MIN;
            return true;
        }
        double x = token_double(v, n);
        if (!isfinite(x))
            return false;
        *out = as_int(x);
    }
    return true;
}

/* args.correlation; false when it is of a type HTA cannot compare. */
static bool corr_value(const unsigned char *v, size_t n, double *out)
{
    *out = -1;
    if (!v || n == 0)
        return true;
    if (v[0] == 't' || v[0] == 'f')
        *out = v[0] == 't';
    else if (v[0] == 'n')
        *out = (double)NAN;
    else if (v[0] == '-' || digit((char)v[0]))
        *out = token_double(v, n);
    else
        return false;
    return true;
}

static void pending_limit(struct pending *p, double lim)
{
    if (p->has_lim && lim <= p->lim)
        return;
    p->has_lim = true;
    p->lim = lim;
    size_t k = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->ts[i] < lim)
            p->below++;
        else
            p->ts[k++] = p->ts[i];
    }
    p->n = k;
}

static bool pending_add(struct pending *p, double ts)
{
    if (p->has_lim && ts < p->lim) {
        p->below++;
        return true;
    }
    if (!TF_GROW(p->ts, p->n, p->cap))
        return false;
    p->ts[p->n++] = ts;
    return true;
}

bool tf_hta_rec(struct tf_hta *h, const struct tf_tef_rec *r)
{
    /* _compress_df: dropna(subset=["dur", "cat"]), then cat "Trace". */
    if (!r->dur_tok || !r->ts_tok || !r->cat_type || r->cat_type == 'n')
        return true;
    if (r->cat_type == 's' && r->cat && strcmp(r->cat, "Trace") == 0)
        return true;
    const char *name = r->name_type == 's' ? r->name : NULL;
    const char *cat = r->cat_type == 's' && r->cat ? r->cat : NULL;
    char msg[240];
    if (!name || !cat) {
        snprintf(msg, sizeof msg,
                 "HTA raises ValueError: traceEvents[%zu] has a %s that is not a string "
                 "(pandas cannot match it against HTA's patterns)",
                 r->idx, !name ? "name" : "category");
        load_error(h, E_SYMBOL, msg);
    }
    h->n_all++;
    struct row w = {0};
    w.ts = token_double(r->ts_tok, r->ts_tok_len);
    w.dur = token_double(r->dur_tok, r->dur_tok_len);
    w.tid = r->tid.kind == TF_ID_NUM ? (int32_t)(uint32_t)r->tid.num : -1;
    size_t sl = 0, cl = 0;
    const unsigned char *sv = r->args ? tf_jl_get(r->args, r->args_len, "stream", &sl) : NULL;
    const unsigned char *cv = r->args ? tf_jl_get(r->args, r->args_len, "correlation", &cl) : NULL;
    if (!stream_value(sv, sl, h, &w.stream)) {
        snprintf(msg, sizeof msg,
                 "HTA raises IntCastingNaNError: traceEvents[%zu].args.stream is infinite",
                 r->idx);
        load_error(h, E_STREAM, msg);
    }
    if (!corr_value(cv, cl, &w.corr)) {
        snprintf(msg, sizeof msg,
                 "HTA raises TypeError: traceEvents[%zu].args.correlation is not a number",
                 r->idx);
        load_error(h, E_CORR, msg);
    }
    double ts_c = ceil(w.ts);
    if (ts_c < h->min_ts)
        h->min_ts = ts_c;
    if (name) {
        if (bad_step_name(name)) {
            snprintf(msg, sizeof msg,
                     "HTA raises AssertionError: it cannot read the step number of \"%.80s\" "
                     "(traceEvents[%zu])",
                     name, r->idx);
            load_error(h, E_STEP, msg);
        }
        h->sym_cuda |= strcmp(name, "cudaLaunchKernel") == 0;
        h->sym_hip |= strcmp(name, "hipLaunchKernel") == 0;
        h->sym_mtia |= strcmp(name, "runFunction - job_prep_and_submit_for_execution") == 0;
        w.type = (unsigned char)tf_hta_kernel_type(name);
        if (step_name(name))
            w.flags |= F_STEP;
        if (memory_name(name))
            w.flags |= F_MEM;
    }
    uint32_t id;
    if (name && step_name(name) && !tf_strtab_id(&h->steps, name, &id))
        return false;
    if (cat) {
        h->sym_cuda |= strcmp(cat, "cudaLaunchKernel") == 0;
        h->sym_hip |= strcmp(cat, "hipLaunchKernel") == 0;
        if (step_name(cat) && !tf_strtab_id(&h->steps, cat, &id))
            return false;
        if (cpu_cat(cat))
            w.flags |= F_CPUCAT;
        if (kernel_cat(cat))
            w.flags |= F_KCAT;
    }
    bool sync = name && (strcmp(name, "Event Sync") == 0 || strcmp(name, "Context Sync") == 0);
    if ((w.stream >= 0 && w.corr >= 0) || sync)
        w.flags |= F_GPU;
    if (!(w.flags & F_GPU)) {
        h->n_cpu++;
        if (ts_c < h->min_cpu_ts)
            h->min_cpu_ts = ts_c;
        if (w.flags & F_STEP)
            pending_limit(&h->neg1, ts_c);
        if (w.corr == -1 && !pending_add(&h->neg1, ts_c))
            return false;
    }
    if (w.stream == -1 && w.corr == -1 && !(w.flags & (F_GPU | F_STEP | F_MEM)))
        return true;
    if (!TF_GROW(h->rows, h->n_rows, h->cap_rows))
        return false;
    h->rows[h->n_rows++] = w;
    return true;
}

/* --- after pass 1: HTA's rows ------------------------------------------------------ */

/* round_down_time_stamps: with a fractional (or absent) ts anywhere,
 * starts up and ends down; then the start of the trace is 0. */
static double start_of(const struct tf_hta *h, const struct row *w)
{
    return ceil(w->ts) - h->min_ts;
}

/* The end HTA's "end" column holds (before the alignment). */
static double raw_end(const struct tf_hta *h, const struct row *w)
{
    return h->cols.ts_float ? floor(w->ts + w->dur) : w->ts + w->dur;
}

static double end_of(const struct tf_hta *h, const struct row *w)
{
    double dur = h->cols.ts_float ? raw_end(h, w) - ceil(w->ts) : w->dur;
    return start_of(h, w) + dur;
}

/* A small map from correlation values to a number (open addressing on
 * the value's bits; NaN is one key). */
struct cmap {
    double *key;
    size_t *val;
    bool *used;
    size_t cap;
};

static uint64_t key_bits(double k)
{
    if (k != k)
        return 0x7ff8000000000000ULL;
    if (k == 0)
        k = 0; /* -0 is 0 */
    uint64_t b;
    memcpy(&b, &k, sizeof b);
    return b;
}

static bool cmap_init(struct cmap *m, size_t n)
{
    m->cap = 16;
    while (m->cap < 2 * n + 16)
        m->cap *= 2;
    m->key = malloc(m->cap * sizeof *m->key);
    m->val = calloc(m->cap, sizeof *m->val);
    m->used = calloc(m->cap, sizeof *m->used);
    return m->key && m->val && m->used;
}

static void cmap_fini(struct cmap *m)
{
    free(m->key);
    free(m->val);
    free(m->used);
}

/* The slot of k (new ones marked used, value 0). */
static size_t *cmap_slot(struct cmap *m, double k)
{
    uint64_t b = key_bits(k);
    size_t i = (size_t)((b * 0x9E3779B97F4A7C15ULL) >> 20) & (m->cap - 1);
    while (m->used[i] && key_bits(m->key[i]) != b)
        i = (i + 1) & (m->cap - 1);
    if (!m->used[i]) {
        m->used[i] = true;
        m->key[i] = k;
    }
    return &m->val[i];
}

static const size_t *cmap_find(const struct cmap *m, double k)
{
    uint64_t b = key_bits(k);
    size_t i = (size_t)((b * 0x9E3779B97F4A7C15ULL) >> 20) & (m->cap - 1);
    while (m->used[i]) {
        if (key_bits(m->key[i]) == b)
            return &m->val[i];
        i = (i + 1) & (m->cap - 1);
    }
    return NULL;
}

/* HTA's filter_gpu_kernels_with_cpu_correlation: the CPU rows that
 * start before the last step's start, and each GPU row once per CPU row of
 * its correlation, GPU rows first, grouped by correlation in the order the
 * values first appear (NaN last).  Into a new array; *n its length. */
static size_t *filter_gpu_correlated(struct tf_hta *h, size_t *n)
{
    size_t nr = h->n_rows;
    bool any_step = false;
    double lim = h->min_cpu_ts;
    for (size_t i = 0; i < nr; i++) {
        const struct row *w = &h->rows[i];
        if ((w->flags & (F_STEP | F_GPU)) == F_STEP) {
            double t = ceil(w->ts);
            lim = any_step && t < lim ? lim : t;
            any_step = true;
        }
    }
    if (!any_step)
        lim = h->min_cpu_ts; /* no CPU row starts before it: none stays */
    struct cmap count = {0}, group = {0};
    size_t *order = NULL, *gid = NULL, *start = NULL, *out = NULL;
    bool ok = cmap_init(&count, nr) && cmap_init(&group, nr);
    if (ok)
        *cmap_slot(&count, -1) = any_step ? h->neg1.below : 0;
    for (size_t i = 0; ok && i < nr; i++) {
        const struct row *w = &h->rows[i];
        if (!(w->flags & F_GPU) && w->corr != -1 && ceil(w->ts) < lim)
            ++*cmap_slot(&count, w->corr);
    }
    /* The merge: GPU rows grouped by correlation in the order the
     * values first appear (NaN last), each once per CPU row. */
    size_t n_groups = 0, total = 0, n_gpu = 0;
    gid = malloc((nr ? nr : 1) * sizeof *gid);
    ok = ok && gid;
    for (size_t i = 0; ok && i < nr; i++) {
        const struct row *w = &h->rows[i];
        if (!(w->flags & F_GPU) || w->corr != w->corr)
            continue;
        size_t *g = cmap_slot(&group, w->corr);
        if (*g == 0)
            *g = ++n_groups;
        gid[i] = *g - 1;
        n_gpu++;
    }
    size_t nan_group = n_groups;
    for (size_t i = 0; ok && i < nr; i++)
        if ((h->rows[i].flags & F_GPU) && h->rows[i].corr != h->rows[i].corr)
            gid[i] = nan_group, n_gpu++;
    start = calloc(n_groups + 2, sizeof *start);
    order = malloc((n_gpu ? n_gpu : 1) * sizeof *order);
    ok = ok && start && order;
    for (size_t i = 0; ok && i < nr; i++)
        if (h->rows[i].flags & F_GPU)
            start[gid[i] + 1]++;
    for (size_t g = 0; ok && g <= n_groups; g++)
        start[g + 1] += start[g];
    for (size_t i = 0; ok && i < nr; i++)
        if (h->rows[i].flags & F_GPU)
            order[start[gid[i]]++] = i;
    for (size_t k = 0; ok && k < n_gpu; k++) {
        const size_t *c = cmap_find(&count, h->rows[order[k]].corr);
        total += c ? *c : 0;
    }
    for (size_t i = 0; ok && i < nr; i++)
        total += !(h->rows[i].flags & F_GPU) && ceil(h->rows[i].ts) < lim;
    out = ok ? malloc((total ? total : 1) * sizeof *out) : NULL;
    ok = ok && out;
    for (size_t k = 0; ok && k < n_gpu; k++) {
        const size_t *c = cmap_find(&count, h->rows[order[k]].corr);
        for (size_t r = 0; c && r < *c; r++)
            out[(*n)++] = order[k];
    }
    for (size_t i = 0; ok && i < nr; i++)
        if (!(h->rows[i].flags & F_GPU) && ceil(h->rows[i].ts) < lim)
            out[(*n)++] = i;
    cmap_fini(&count);
    cmap_fini(&group);
    free(order);
    free(gid);
    free(start);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* HTA's filter_mtia_kernels_for_one_rank: the CPU rows within the steps,
 * the kernels they launched, and memory kernels that start within a step
 * (*stream: their tid when they had none).  Into a new array; *n its
 * length. */
static size_t *filter_mtia(struct tf_hta *h, int64_t *stream, size_t *n)
{
    size_t nr = h->n_rows;
    double t0 = (double)INFINITY, t1 = -(double)INFINITY;
    for (size_t i = 0; i < nr; i++) {
        const struct row *w = &h->rows[i];
        if ((w->flags & (F_STEP | F_CPUCAT)) == (F_STEP | F_CPUCAT)) {
            if (start_of(h, w) < t0)
                t0 = start_of(h, w);
            if (raw_end(h, w) > t1)
                t1 = raw_end(h, w);
        }
    }
    struct cmap ids;
    bool *keep = calloc(nr ? nr : 1, sizeof *keep);
    size_t *out = malloc((nr ? nr : 1) * sizeof *out);
    bool ok = keep && out && cmap_init(&ids, nr);
    for (size_t i = 0; ok && i < nr; i++) {
        const struct row *w = &h->rows[i];
        if ((w->flags & F_CPUCAT) && start_of(h, w) >= t0 && raw_end(h, w) <= t1) {
            keep[i] = true;
            if (w->corr != -1)
                *cmap_slot(&ids, w->corr) = 1;
        }
    }
    for (size_t i = 0; ok && i < nr; i++)
        if ((h->rows[i].flags & F_KCAT) && cmap_find(&ids, h->rows[i].corr))
            keep[i] = true;
    /* _fix_mtia_memory_kernels: memory kernels that start within a step
     * (any row so named), their stream their tid when they had none. */
    for (size_t s = 0; ok && s < nr; s++) {
        const struct row *st = &h->rows[s];
        if (!(st->flags & F_STEP))
            continue;
        double a = start_of(h, st), b = end_of(h, st);
        for (size_t i = 0; i < nr; i++) {
            const struct row *w = &h->rows[i];
            double t = start_of(h, w);
            if ((w->flags & F_MEM) && t >= a && t <= b) {
                keep[i] = true;
                if (h->rows[i].stream == -1)
                    stream[i] = w->tid;
            }
        }
    }
    for (size_t i = 0; ok && i < nr; i++)
        if (keep[i])
            out[(*n)++] = i;
    if (keep && out)
        cmap_fini(&ids);
    free(keep);
    if (!ok) {
        free(out);
        return NULL;
    }
    return out;
}

/* The rows HTA keeps, as indexes into h->rows in its order (repeats
 * included); *n their count.  NULL when out of memory. */
static size_t *step_filter(struct tf_hta *h, int64_t *stream, size_t *n)
{
    size_t nr = h->n_rows;
    bool mtia = h->mtia_backend || (!h->sym_cuda && !h->sym_hip && h->sym_mtia);
    *n = 0;
    if (h->steps.n < 2 || (!mtia && h->n_cpu == 0)) {
        size_t *all = malloc((nr ? nr : 1) * sizeof *all);
        for (size_t i = 0; all && i < nr; i++)
            all[i] = i;
        *n = nr;
        return all;
    }
    return mtia ? filter_mtia(h, stream, n) : filter_gpu_correlated(h, n);
}

static bool hta_fail(struct tf_diag *d, const char *msg)
{
    return tf_diag_error(d, TF_EBADINPUT, "--stats-compat hta: %s", msg);
}

bool tf_hta_finish(struct tf_hta *h, bool trace_scope, struct tf_diag *d)
{
    if (!h->cols.ts)
        return hta_fail(d, "HTA raises KeyError: 'ts': no element of traceEvents has a ts");
    if (!h->cols.dur || !h->cols.cat || h->n_all == 0)
        return hta_fail(d, "HTA finds nothing to analyse: no event has both a dur and a "
                           "category (TraceAnalysis reports no rank)");
    if (h->err_rank)
        return hta_fail(d, h->err);
    if (!h->cols.args)
        return hta_fail(d, "HTA raises KeyError: 'stream': no element of traceEvents has args");
    int64_t *stream = malloc((h->n_rows ? h->n_rows : 1) * sizeof *stream);
    if (!stream)
        return tf_diag_oom(d, NULL);
    for (size_t i = 0; i < h->n_rows; i++)
        stream[i] = h->rows[i].stream;
    size_t n_keep;
    size_t *keep = step_filter(h, stream, &n_keep);
    size_t n = 0;
    for (size_t k = 0; keep && k < n_keep; k++)
        n += stream[keep[k]] != -1;
    h->kern = malloc((n ? n : 1) * sizeof *h->kern);
    h->ktype = malloc(n ? n : 1);
    bool ok = keep && h->kern && h->ktype;
    for (size_t k = 0; ok && k < n_keep; k++) {
        const struct row *w = &h->rows[keep[k]];
        if (stream[keep[k]] == -1)
            continue;
        h->kern[h->n_kern] = (struct tf_hta_iv){start_of(h, w), end_of(h, w)};
        h->ktype[h->n_kern++] = w->type;
    }
    free(keep);
    free(stream);
    if (!ok)
        return tf_diag_oom(d, NULL);
    h->done = true;
    if (!trace_scope)
        return true;
    if (h->n_kern == 0)
        return hta_fail(d, "HTA raises IndexError: no GPU kernel (no event with a stream) is "
                           "left after its filters");
    if (!tf_hta_numbers(h->kern, h->ktype, h->n_kern, &h->num))
        return tf_diag_oom(d, NULL);
    if (h->num.assert_failed) {
        char msg[240];
        snprintf(msg, sizeof msg,
                 "HTA raises AssertionError: its rounding leaves idle %.0f us, compute %.0f us "
                 "and non-compute %.0f us in a span of %.0f us",
                 h->num.idle_us, h->num.compute_us, h->num.non_compute_us, h->num.kernel_us);
        return hta_fail(d, msg);
    }
    h->has_num = true;
    return true;
}

bool tf_hta_fill(const struct tf_hta *h, struct tf_figure *f, bool trace_scope, int64_t w0,
                 int64_t w1)
{
    struct tf_stats *s = &f->stats;
    s->compat = "hta";
    if (trace_scope) {
        if (!h->has_num)
            return true;
        struct tf_gpu_breakdown *g = &s->gpu;
        s->has_gpu = true;
        g->scope_trace = true;
        g->kernel_span_ms = h->num.kernel_us / 1000.0;
        g->idle_ms = h->num.idle_us / 1000.0;
        g->compute_ms = h->num.compute_us / 1000.0;
        g->non_compute_ms = h->num.non_compute_us / 1000.0;
        g->comm_ms = h->num.comm_us / 1000.0;
        g->has_comm = h->num.has_overlap;
        g->comm_comp_overlap_pct = h->num.overlap_pct;
        return true;
    }
    /* The window: HTA's rows (its times, its classes), clipped. */
    struct tf_ivset all, comp, comm;
    tf_ivset_init(&all);
    tf_ivset_init(&comp);
    tf_ivset_init(&comm);
    bool ok = true;
    for (size_t i = 0; ok && h->done && i < h->n_kern; i++) {
        double a = (h->kern[i].ts + h->min_ts) * 1000.0, b = (h->kern[i].end + h->min_ts) * 1000.0;
        int64_t lo = (int64_t)llround(a), hi = (int64_t)llround(b);
        lo = lo < w0 ? w0 : lo;
        hi = hi > w1 ? w1 : hi;
        if (hi <= lo)
            continue;
        ok = tf_ivset_add(&all, lo, hi);
        if (h->ktype[i] == TF_HTA_COMPUTE)
            ok = ok && tf_ivset_add(&comp, lo, hi);
        else if (h->ktype[i] == TF_HTA_COMM)
            ok = ok && tf_ivset_add(&comm, lo, hi);
    }
    if (ok && all.n) {
        struct tf_stats_clock clk = {1e6, w0, w1};
        tf_ivset_normalize(&all);
        tf_ivset_normalize(&comp);
        tf_ivset_normalize(&comm);
        tf_stats_gpu_breakdown(f, &clk, &all, &comp, &comm);
        s->gpu.scope_trace = false;
    }
    tf_ivset_fini(&all);
    tf_ivset_fini(&comp);
    tf_ivset_fini(&comm);
    return ok;
}
