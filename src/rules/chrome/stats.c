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

#include "base/jsonlite.h"
#include "base/num.h"

/* --- GPU work ---------------------------------------------------------------------- */

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
void tf_chrome_gpu_event(struct chrome *c, const struct tf_tef_rec *r, int64_t lo, int64_t hi)
{
    int64_t t0 = r->ts > lo ? r->ts : lo, t1 = r->ts + r->dur < hi ? r->ts + r->dur : hi;
    if (r->ph != 'X' || t1 <= t0 || c->o->no_stats || !r->cat || stream_of(r) == -1)
        return;
    const char *cat = tf_chrome_canon_cat(r->cat); /* the older Kineto names too */
    if (strcmp(cat, "cuda_runtime") == 0 || strcmp(cat, "cuda_driver") == 0 ||
        strcmp(cat, "Trace") == 0)
        return;
    enum tf_kernel_class k = tf_stats_kernel_class(r->name, cat);
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
bool tf_chrome_stats(struct chrome *c, const struct tf_opts *o, struct tf_figure *f,
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
        tf_chrome_proc_label(&c->procs[proc_of_group[g]], &labels);
        tf_buf_putc(&labels, '\0');
        ok = !labels.oom;
    }
    for (size_t g = 0; ok && g < n_groups; g++)
        groups[g].label = labels.data + at[g];
    ok = ok && tf_stats_fill(f, &clk, sets, groups, n_groups, o);
    if (c->hta) {
        ok = ok && tf_hta_fill(c->hta, f, o->stats_trace_scope, c->w0, c->w1);
    } else if (ok && c->gpu_all.n) {
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
