/* critpath_rows.c - the critical path's collector (rules/critpath.h): the
 * state's life, and the rows of pass 1 and of the reader's look at the
 * window before pass 2 (tf_tef_sink's prepass), merged in file order.
 * Pass 1 keeps what the window's graph may need from anywhere in the
 * trace (runtime calls, GPU rows, steps, syncs, waits); with the look it
 * leaves out the pure CPU operators, which only the window's graph reads,
 * and the ac2g flows unless the joins need them.
 */
#include "rules/critpath_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/jsonlite.h"
#include "base/strtab.h"

void tf_cp_columns(struct tf_cp *cp, const struct tf_tef_columns *cols)
{
    cp->cols = cols;
}

struct tf_cp *tf_cp_new(bool hta)
{
    struct tf_cp *cp = calloc(1, sizeof *cp);
    if (!cp)
        return NULL;
    cp->hta = hta;
    tf_strtab_init(&cp->strs);
    tf_strtab_init(&cp->steps);
    tf_buf_init(&cp->key);
    tf_buf_init(&cp->tmp);
    return cp;
}

void tf_cp_free(struct tf_cp *cp)
{
    if (!cp)
        return;
    tf_strtab_fini(&cp->strs);
    tf_strtab_fini(&cp->steps);
    tf_buf_fini(&cp->key);
    tf_buf_fini(&cp->tmp);
    free(cp->rows);
    free(cp->idx);
    free(cp->prows);
    free(cp->pidx);
    free(cp->pthr);
    free(cp->pfirst);
    free(cp->waits);
    free(cp->flows);
    free(cp->flags);
    free(cp->inst);
    free(cp->hta_prev);
    free(cp->hta_next);
    tf_cpg_fini(&cp->g);
    free(cp->node_ev);
    free(cp->node_start);
    free(cp);
}



static bool is_one_of(const char *s, const char *const *list)
{
    for (; *list; list++)
        if (strcmp(s, *list) == 0)
            return true;
    return false;
}

static const char *const launch_names[] = {
    "cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cuLaunchKernelEx",
    "cudaMemcpyAsync", "cudaMemsetAsync", "runFunction - job_prep_and_submit_for_execution",
    "hipLaunchKernel", "hipExtModuleLaunchKernel", "hipMemsetAsync", "hipMemcpyAsync",
    "hipMemcpyWithStream", NULL};
static const char *const lock_names[] = {"cudaHostAlloc", "cudaLaunchKernel", "cudaMemcpyAsync",
                                         NULL};
static const char *const blocking_names[] = {
    "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventQuery", "cudaEventSynchronize",
    "cudaMemcpy", "cudaMemcpyAsync", NULL};

/* A runtime's or driver's category (Kineto's mtia_runtime, rocpd's
 * HIP_RUNTIME_API_EXT, Nsight's cuda_runtime): the calls of the graph
 * beyond HTA's cuda_runtime and cuda_driver. */
static bool runtime_cat(const char *cat)
{
    char low[64];
    size_t n = 0;
    for (; cat[n] && n + 1 < sizeof low; n++)
        low[n] = (char)(cat[n] >= 'A' && cat[n] <= 'Z' ? cat[n] - 'A' + 'a' : cat[n]);
    low[n] = 0;
    return strstr(low, "runtime") || strstr(low, "driver") || strstr(low, "_api");
}

/* Beyond HTA: HIP's blocking calls, and the driver's, as HTA's CUDA ones. */
static const char *const hip_blocking_names[] = {
    "hipDeviceSynchronize", "hipStreamSynchronize", "hipEventQuery", "hipEventSynchronize",
    "hipMemcpy", "hipMemcpyAsync", "cuCtxSynchronize", "cuStreamSynchronize",
    "cuEventSynchronize", NULL};

/* ^ProfilerStep#(\d+): HTA's step symbols. */
static bool step_name(const char *s)
{
    return strncmp(s, "ProfilerStep#", 13) == 0 && s[13] >= '0' && s[13] <= '9';
}

static bool thread_key(struct tf_cp *cp, const struct tf_tef_rec *r, uint32_t *pidk,
                       uint32_t *tidk);

/* The keys of a record's pid and tid. */
static bool thread_of(struct tf_cp *cp, const struct tf_tef_rec *r, uint32_t *pidk, uint32_t *tidk)
{
    /* the last numeric thread again (a trace's records come in runs) */
    bool num = r->pid.kind == TF_ID_NUM && r->tid.kind == TF_ID_NUM;
    if (num && cp->memo_set && r->pid.num == cp->memo_pid && r->tid.num == cp->memo_tid) {
        *pidk = cp->memo_pidk;
        *tidk = cp->memo_tidk;
        return true;
    }
    cp->memo_set = false;
    if (!thread_key(cp, r, pidk, tidk))
        return false;
    if (num) {
        cp->memo_set = true;
        cp->memo_pid = r->pid.num;
        cp->memo_tid = r->tid.num;
        cp->memo_pidk = *pidk;
        cp->memo_tidk = *tidk;
    }
    return true;
}

static bool thread_key(struct tf_cp *cp, const struct tf_tef_rec *r, uint32_t *pidk, uint32_t *tidk)
{
    tf_buf_clear(&cp->key);
    tf_id_key(&cp->key, &r->pid);
    if (!tf_strtab_id(&cp->strs, cp->key.data ? cp->key.data : "", pidk))
        return false;
    tf_buf_clear(&cp->tmp);
    tf_id_key(&cp->tmp, &r->tid);
    return tf_strtab_id(&cp->strs, cp->tmp.data ? cp->tmp.data : "", tidk);
}

/* An ac2g flow's end (Kineto's launch -> kernel arrow); HTA reads none.
 * With the look before pass 2 pass 1 only notes that there are some: the
 * look takes them when the joins need them (pre_all). */
static bool flow_rec(struct tf_cp *cp, const struct tf_tef_rec *r, bool keep)
{
    if (cp->hta || (r->ph != 's' && r->ph != 'f') || !r->cat || strcmp(r->cat, "ac2g") != 0 ||
        !r->id)
        return true;
    cp->has_flows = true;
    if (!keep)
        return true;
    struct flow fl = {.ts = r->ts, .ph = r->ph, .bp = r->bp};
    if (!thread_of(cp, r, &fl.pidk, &fl.tidk) || !tf_strtab_id(&cp->strs, r->id, &fl.id) ||
        !TF_GROW(cp->flows, cp->n_flows, cp->cap_flows))
        return false;
    cp->flows[cp->n_flows++] = fl;
    return true;
}

/* What a name says (cached by its string id): N_* bits, SC_* in the low
 * bits' byte. */
enum { N_DONE = 0x8000, N_LAUNCH = 0x100, N_LOCK = 0x200, N_BLOCKING = 0x400, N_STEP = 0x800,
       N_HIPBLOCK = 0x1000, N_CUDA = 0x2000, N_HIP = 0x4000, N_MTIA = 0x10000,
       /* of a category */
       C_OP = 0x20000, C_RUNTIME = 0x40000, C_ANNOT = 0x80000, C_SYNC = 0x100000,
       C_ANYRT = 0x200000, C_NOARGS = 0x400000, C_GPUANNOT = 0x800000, C_OLDOP = 0x1000000,
       C_CPUOP = 0x2000000 };

static uint32_t name_flags(const char *name)
{
    uint32_t f = N_DONE | tf_cp_sync_call(name);
    f |= is_one_of(name, launch_names) ? N_LAUNCH : 0;
    f |= is_one_of(name, lock_names) ? N_LOCK : 0;
    f |= is_one_of(name, blocking_names) ? N_BLOCKING : 0;
    f |= is_one_of(name, hip_blocking_names) ? N_HIPBLOCK : 0;
    f |= step_name(name) ? N_STEP : 0;
    f |= strcmp(name, "cudaLaunchKernel") == 0 ? N_CUDA : 0;
    f |= strcmp(name, "hipLaunchKernel") == 0 ? N_HIP : 0;
    f |= strcmp(name, "runFunction - job_prep_and_submit_for_execution") == 0 ? N_MTIA : 0;
    if (strcmp(name, "cpu_op") == 0 || strcmp(name, "cuda_runtime") == 0 ||
        strcmp(name, "cuda_driver") == 0)
        f |= C_OP;
    if (strcmp(name, "cuda_runtime") == 0 || strcmp(name, "cuda_driver") == 0)
        f |= C_RUNTIME;
    f |= strcmp(name, "user_annotation") == 0 ? C_ANNOT : 0;
    f |= strcmp(name, "cuda_sync") == 0 ? C_SYNC : 0;
    f |= runtime_cat(name) ? C_ANYRT : 0;
    f |= strcmp(name, "gpu_user_annotation") == 0 ? C_GPUANNOT : 0;
    f |= strcmp(name, "Operator") == 0 ? C_OLDOP : 0; /* PyTorch 1.8's Kineto: cpu_op */
    f |= strcmp(name, "cpu_op") == 0 ? C_CPUOP : 0;
    /* Kineto's operators and annotations carry no stream or correlation
     * in their args (only their inputs' shapes, long to walk) */
    if (strcmp(name, "cpu_op") == 0 || strcmp(name, "user_annotation") == 0 ||
        strcmp(name, "python_function") == 0)
        f |= C_NOARGS;
    return f;
}

/* The flags of string id (a name or a category), cached. */
static bool flags_of(struct tf_cp *cp, uint32_t id, uint32_t *out)
{
    while (cp->n_flags <= id) {
        if (!TF_GROW(cp->flags, cp->n_flags, cp->cap_flags))
            return false;
        cp->flags[cp->n_flags++] = 0;
    }
    if (!cp->flags[id])
        cp->flags[id] = name_flags(tf_cp_str(cp, id));
    *out = cp->flags[id];
    return true;
}

/* Whether p[0..n) holds the bytes s (sl of them), after `before` when it
 * is not 0. */
static bool has_sub(const unsigned char *p, size_t n, const char *s, size_t sl, char before)
{
    const unsigned char *e = p + n;
    for (const unsigned char *q = p; (size_t)(e - q) >= sl && (q = memchr(q, s[0], (size_t)(e - q) - sl + 1));
         q++)
        if (memcmp(q, s, sl) == 0 && (!before || (q > p && q[-1] == before)))
            return true;
    return false;
}

/* A number of the args as row_args reads it (tf_jl_double, truncated):
 * a JSON integer of up to 15 digits read directly (exact as a double),
 * else through tf_jl_double; false when not a finite number. */
static bool arg_i64(const unsigned char *v, size_t n, int64_t *out)
{
    size_t i = n && v[0] == '-';
    if (n > i && n - i <= 15 && (v[i] != '0' || n - i == 1)) {
        int64_t x = 0;
        size_t j = i;
        for (; j < n && v[j] >= '0' && v[j] <= '9'; j++)
            x = x * 10 + (v[j] - '0');
        if (j == n) {
            *out = i ? -x : x;
            return true;
        }
    }
    double x;
    if (!tf_jl_double(v, n, &x) || !isfinite(x))
        return false;
    *out = (int64_t)x;
    return true;
}

/* args.stream, correlation (or correlation_id), wait_on_stream,
 * wait_on_cuda_event_record_corr_id in one walk of the args (-1: absent or
 * not a number; the last of a key met twice).  The walk ends once stream
 * and correlation are read when the rest of the args names neither again
 * and no wait key is there (a kernel's many other args, its grid and
 * block, are not walked). */
static void row_args(const struct tf_tef_rec *r, struct row *w, struct wait *wt)
{
    /* correlation_id: XPlane's stat (xplane_emit.c), beyond HTA's keys */
    static const char *const keys[] = {"stream", "correlation", "wait_on_stream",
                                       "wait_on_cuda_event_record_corr_id", "correlation_id"};
    static const size_t lens[] = {6, 11, 14, 33, 14}; /* strlen of keys[] */
    int64_t *dst[] = {&w->stream, &w->corr, &wt->stream, &wt->corr, &w->corr};
    w->stream = w->corr = wt->stream = wt->corr = -1;
    if (!r->args)
        return;
    bool waits = has_sub(r->args, r->args_len, "wait_on_", 8, 0), seen[2] = {false, false};
    bool looked = false;
    size_t pos = 0, kl, vl;
    const unsigned char *k, *v;
    while (tf_jl_member(r->args, r->args_len, &pos, &k, &kl, &v, &vl)) {
        for (int i = 0; i < 5; i++) {
            if (kl != lens[i] || memcmp(k, keys[i], kl) != 0)
                continue;
            if (i < 2 || i == 4)
                seen[i == 4 ? 1 : i] = true;
            int64_t x;
            if (arg_i64(v, vl, &x))
                *dst[i] = x;
        }
        if (!waits && seen[0] && seen[1] && !looked) {
            looked = true;
            const unsigned char *rest = r->args + pos;
            size_t n = r->args_len - pos;
            if (!has_sub(rest, n, "stream\"", 7, '"') && !has_sub(rest, n, "correlation\"", 12, '"') &&
                !has_sub(rest, n, "correlation_id\"", 15, '"'))
                return;
        }
    }
}

/* A row HTA's GPUKernelFilter takes by name (critpath_join.c's
 * hta_gpu_row), or one every window's graph has (Stream Wait Event). */
static bool gpu_name(const char *n)
{
    return (n[0] == 'E' || n[0] == 'C' || n[0] == 'S') &&
           (strcmp(n, "Event Sync") == 0 || strcmp(n, "Context Sync") == 0 ||
            strcmp(n, "Stream Wait Event") == 0);
}

/* The row of an X event into *w (its name's id when !*pure), and its wait;
 * *pure: a CPU operator no window's graph reads from outside it (no
 * stream, correlation, wait, step, sync or synchronisation call). */
static bool make_row(struct tf_cp *cp, const struct tf_tef_rec *r, struct row *w,
                     struct wait *wt, bool *pure, uint32_t *catf)
{
    const char *cat = r->cat ? r->cat : "";
    *w = (struct row){.ksync = NONE, .link = NONE, .start_node = NONE, .end_node = NONE,
                      .q = -1};
    *wt = (struct wait){-1, -1, NONE};
    uint32_t nf, cf, catid;
    bool same_cat = cp->has_last_cat && strcmp(cat, tf_cp_str(cp, cp->last_cat)) == 0;
    if (same_cat)
        catid = cp->last_cat;
    else if (!tf_strtab_id(&cp->strs, cat, &catid))
        return false;
    cp->last_cat = catid;
    cp->has_last_cat = true;
    /* a name that says nothing (none of launch_names, lock_names, the
     * blocking calls, the sync calls, the steps starts so) is not looked up
     * before it is kept */
    char c0 = r->name[0];
    bool plain = c0 != 'c' && c0 != 'h' && c0 != 'r' && c0 != 'P';
    if (plain)
        nf = N_DONE;
    else if (!tf_strtab_id(&cp->strs, r->name, &w->name) || !flags_of(cp, w->name, &nf))
        return false;
    if (!flags_of(cp, catid, &cf))
        return false;
    *catf = cf;
    w->cpu_op = (cf & C_CPUOP) != 0;

    w->ts = r->ts;
    w->end = r->ts + r->dur;
    if (tf_cp_hta_rounds(cp)) /* HTA's whole microseconds */
        tf_cp_hta_round(w);
    if (cf & C_NOARGS)
        w->stream = w->corr = -1;
    else
        row_args(r, w, wt);
    if (r->has_stream)
        w->stream = r->stream;
    w->kind |= (cf & C_OP) ? K_OP : 0;
    w->kind |= (cf & C_RUNTIME) ? K_RUNTIME : 0;
    if (!cp->hta && w->stream == -1 && (cf & C_ANYRT)) /* beyond HTA: any runtime's calls */
        w->kind |= K_OP | K_RUNTIME;
    /* beyond HTA: PyTorch 1.8's operators, but for its steps (annotations
     * in later versions) */
    if (!cp->hta && w->stream == -1 && (cf & C_OLDOP) && !(nf & N_STEP))
        w->kind |= K_OP;
    if (!cp->hta && w->stream == -1)
        w->call = (unsigned char)(nf & 0xff);
    w->kind |= (cf & C_ANNOT) ? K_ANNOT : 0;
    if (cf & C_SYNC)
        w->kind |= K_SYNC;
    w->kind |= (nf & N_LAUNCH) ? K_LAUNCH : 0;
    w->kind |= (nf & N_LOCK) ? K_LOCK : 0;
    if ((nf & N_BLOCKING) || (!cp->hta && (nf & N_HIPBLOCK)))
        w->kind |= K_BLOCKING;
    if (nf & N_STEP)
        w->kind |= K_STEP;
    *pure = w->stream == -1 && w->corr < 0 && wt->stream == -1 && wt->corr == -1 &&
            !(w->kind & (K_SYNC | K_STEP)) && !w->call && !(cf & N_STEP) &&
            ((nf | cf) & (N_CUDA | N_HIP | N_MTIA)) == 0 && !gpu_name(r->name);
    if (!*pure && plain && !tf_strtab_id(&cp->strs, r->name, &w->name))
        return false;
    if (!thread_of(cp, r, &w->pidk, &w->tidk))
        return false;
    uint32_t sid;
    if (!*pure) {
        if ((nf & N_STEP) && !tf_strtab_id(&cp->steps, r->name, &sid))
            return false;
        if ((cf & N_STEP) && !tf_strtab_id(&cp->steps, cat, &sid))
            return false;
        cp->has_sync |= (cf & C_SYNC) != 0;
        cp->sym_cuda |= ((nf | cf) & N_CUDA) != 0;
        cp->sym_hip |= ((nf | cf) & N_HIP) != 0;
        cp->sym_mtia |= (nf & N_MTIA) != 0;
    }
    return true;
}

/* A pure row pass 1 leaves out: counted, and its thread's earliest. */
static bool pure_left(struct tf_cp *cp, const struct row *w, uint64_t idx)
{
    cp->n_pure++;
    size_t t = cp->last_pthr;
    if (t >= cp->n_pthr || cp->pthr[t].pidk != w->pidk || cp->pthr[t].tidk != w->tidk) {
        for (t = 0; t < cp->n_pthr; t++)
            if (cp->pthr[t].pidk == w->pidk && cp->pthr[t].tidk == w->tidk)
                break;
        if (t == cp->n_pthr) {
            if (!TF_GROW(cp->pthr, cp->n_pthr, cp->cap_pthr))
                return false;
            cp->pthr[cp->n_pthr++] = (struct pthr){w->pidk, w->tidk, INT64_MAX};
        }
        cp->last_pthr = t;
    }
    if (w->ts >= cp->pthr[t].min_ts)
        return true;
    cp->pthr[t].min_ts = w->ts;
    if (!TF_GROW(cp->pfirst, cp->n_pfirst, cp->cap_pfirst))
        return false;
    cp->pfirst[cp->n_pfirst++] = (struct pfirst){(uint32_t)t, w->ts, idx};
    return true;
}

static bool add_row(struct tf_cp *cp, const struct row *w, const struct wait *wt, uint64_t idx)
{
    if (cp->n_rows >= INT32_MAX || !TF_GROW(cp->rows, cp->n_rows, cp->cap_rows))
        return false;
    if (cp->pre) {
        size_t cap = cp->n_rows;
        if (!TF_GROW(cp->idx, cap, cp->cap_idx))
            return false;
        cp->idx[cp->n_rows] = idx;
    }
    if (wt->stream != -1 || wt->corr != -1) {
        if (!TF_GROW(cp->waits, cp->n_waits, cp->cap_waits))
            return false;
        cp->waits[cp->n_waits] = *wt;
        cp->waits[cp->n_waits++].row = (uint32_t)cp->n_rows;
    }
    cp->rows[cp->n_rows++] = *w;
    return true;
}

bool tf_cp_rec(struct tf_cp *cp, const struct tf_tef_rec *r)
{
    if (r->kind == TF_TEF_FLOW)
        return flow_rec(cp, r, !cp->pre);
    if (r->kind != TF_TEF_SLICE || r->ph != 'X' || !r->has_dur || !r->name)
        return true;
    struct row w;
    struct wait wt;
    bool pure;
    uint32_t cf;
    if (!make_row(cp, r, &w, &wt, &pure, &cf) || !tf_cp_inst_note(cp, r, &w))
        return false;
    if (pure && cp->pre)
        return pure_left(cp, &w, r->idx);
    if (pure && !tf_strtab_id(&cp->strs, r->name, &w.name)) /* make_row left it */
        return false;
    /* a kernel, memcpy or memset without a correlation id: the ac2g flows
     * may join it (not a GPU annotation, which has none) */
    cp->gpu_nocorr |= w.stream != -1 && w.corr < 0 && !(cf & (C_GPUANNOT | C_SYNC));
    return add_row(cp, &w, &wt, r->idx);
}

/* --- the look at the window before pass 2 ---------------------------------------- */

void tf_cp_prepass_on(struct tf_cp *cp)
{
    cp->pre = true;
}

bool tf_cp_prepass_wanted(const struct tf_cp *cp)
{
    return cp->pre;
}

bool tf_cp_prepass_range(struct tf_cp *cp, int64_t w0, int64_t w1, int64_t *lo, int64_t *hi)
{
    if (!cp->pre)
        return false;
    cp->pre_w0 = w0;
    cp->pre_w1 = w1;
    /* tf_cp_flow_join binds flows to rows anywhere: then every pure row */
    cp->pre_all = !cp->hta && cp->has_flows && cp->gpu_nocorr;
    *lo = cp->pre_all ? INT64_MIN : w0;
    *hi = cp->pre_all ? INT64_MAX : w1;
    return true;
}

bool tf_cp_prepass_rec(struct tf_cp *cp, const struct tf_tef_rec *r)
{
    if (r->kind == TF_TEF_FLOW)
        return !cp->pre_all || flow_rec(cp, r, true);
    if (r->kind != TF_TEF_SLICE || r->ph != 'X' || !r->has_dur || !r->name)
        return true;
    struct row w;
    struct wait wt;
    bool pure;
    uint32_t cf;
    if (!make_row(cp, r, &w, &wt, &pure, &cf))
        return false;
    if (!pure || (!cp->pre_all && !tf_cp_in_window(&w, cp->pre_w0, cp->pre_w1)))
        return true;
    if (!tf_strtab_id(&cp->strs, r->name, &w.name))
        return false;
    size_t cap = cp->n_prows;
    if (!TF_GROW(cp->prows, cp->n_prows, cp->cap_prows) ||
        !TF_GROW(cp->pidx, cap, cp->cap_pidx))
        return false;
    cp->prows[cp->n_prows] = w;
    cp->pidx[cp->n_prows++] = r->idx;
    return true;
}

/* The look's rows among pass 1's, in file order (as pass 1 would have
 * kept them), merged in place from the back. */
bool tf_cp_prepass_end(struct tf_cp *cp)
{
    size_t n = cp->n_rows + cp->n_prows;
    if (n >= INT32_MAX)
        return false;
    if (n > cp->cap_rows) {
        struct row *v = realloc(cp->rows, n * sizeof *v);
        if (!v)
            return false;
        cp->rows = v;
        cp->cap_rows = n;
    }
    if (n > cp->cap_idx) {
        uint64_t *ix = realloc(cp->idx, n * sizeof *ix);
        if (!ix)
            return false;
        cp->idx = ix;
        cp->cap_idx = n;
    }
    size_t a = cp->n_rows, b = cp->n_prows, k = n, wj = cp->n_waits;
    while (b > 0) {
        bool mine = a > 0 && cp->idx[a - 1] > cp->pidx[b - 1];
        k--;
        if (mine && wj > 0 && cp->waits[wj - 1].row == a - 1) /* the look's rows have none */
            cp->waits[--wj].row = (uint32_t)k;
        cp->rows[k] = mine ? cp->rows[a - 1] : cp->prows[b - 1];
        cp->idx[k] = mine ? cp->idx[a - 1] : cp->pidx[b - 1];
        if (mine)
            a--;
        else
            b--;
    }
    cp->n_rows = n;
    cp->n_look = cp->n_prows;
    cp->n_pure -= cp->n_prows;
    free(cp->prows);
    free(cp->pidx);
    cp->prows = NULL;
    cp->pidx = NULL;
    cp->n_prows = cp->cap_prows = cp->cap_pidx = 0;
    return true;
}
