/* critpath_int.h - what critpath.c, critpath_rows.c and critpath_join.c
 * share of the critical path's collector: its rows (one per complete event of pass 1),
 * its ac2g flow ends, and the state (rules/critpath.h is the interface).
 */
#ifndef TF_CRITPATH_INT_H
#define TF_CRITPATH_INT_H

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "base/strtab.h"
#include "rules/critpath.h"

#define NONE UINT32_MAX
#define KK_THRESHOLD_NS 1500000 /* HTA's KERNEL_KERNEL_DELAY_THRESHOLD_US */

enum { K_OP = 1, K_RUNTIME = 2, K_SYNC = 4, K_LAUNCH = 8, K_LOCK = 16, K_BLOCKING = 32,
       K_ANNOT = 64, K_STEP = 128 };

/* 64 bytes: pass 1 keeps one per runtime call and GPU row of the trace
 * (and per CPU operator without the reader's look at the window), so what
 * few rows carry (a Stream Wait Event's stream and correlation) is kept
 * aside (cp->waits), the pid is read back from its key (tf_cp_row_pid),
 * the category is kept as the one bit read of it, the thread's key is
 * made where the call stacks are walked, and the queue length is kept
 * only as far as the graph reads it. */
struct row {
    int64_t ts, end;
    int64_t stream, corr;
    uint32_t name;
    uint32_t pidk, tidk; /* its pid's and tid's keys */
    uint32_t link;       /* the row of the other end of its correlation, NONE */
    uint32_t start_node, end_node;
    uint32_t ksync;      /* a kernel: the kernel it waits for (Stream Wait Event), NONE */
    unsigned char kind;
    unsigned char call;  /* a CPU row: its synchronisation call (SC_*), 0 none */
    signed char q;       /* its queue length (launches and kernels): 0, 1, 2 (more
                            or less), -1 none */
    bool cpu_op;         /* its category is cpu_op */
};

/* A row's args.wait_on_stream and wait_on_cuda_event_record_corr_id
 * (-1: absent), for the rows that have one of them, in row order: `row`
 * follows the row when the rows are merged or filtered. */
struct wait {
    int64_t stream, corr;
    uint32_t row;
};

/* The wait of row i (cp->waits is in row order), or NULL. */
static inline const struct wait *tf_cp_wait_of(const struct wait *w, size_t n, uint32_t i)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t m = (lo + hi) / 2;
        if (w[m].row < i)
            lo = m + 1;
        else
            hi = m;
    }
    return lo < n && w[lo].row == i ? &w[lo] : NULL;
}

/* The synchronisation calls of the CUDA and HIP runtimes, by name: what
 * a trace without cuda_sync rows (Nsight Systems, rocpd) says of them. */
enum { SC_DEVICE = 1, SC_STREAM, SC_EVENT, SC_WAIT };

/* A row to sort: a key (a stream, a thread), a time, the row. */
struct ix {
    int64_t key;
    int64_t t;
    uint32_t row;
};

/* (correlation, row), by correlation then row (critpath_hta.c). */
struct crow {
    int64_t corr;
    uint32_t row;
};

/* An ac2g flow's end: 's' at a launch, 'f' at its GPU row. */
struct flow {
    int64_t ts;
    uint32_t pidk, tidk, id;
    char ph, bp;
};

/* A complete event whose name holds --window-event's (critpath_inst.c):
 * its extent (ns, as read), its start as HTA reads it, its correlation,
 * and whether HTA's GPUKernelFilter takes it. */
struct cp_inst {
    int64_t t0, t1, hts, corr;
    bool gpu;
};

/* A thread of pure rows (pidk, tidk), the earliest start of them so far. */
struct pthr {
    uint32_t pidk, tidk;
    int64_t min_ts;
};

/* A pure row that starts earlier than every one before it on its thread. */
struct pfirst {
    uint32_t thr; /* pthr */
    int64_t ts;
    uint64_t idx;
};

struct tf_cp {
    bool hta;
    /* HTA's CRITICAL_PATH_ADD_ZERO_WEIGHT_LAUNCH_EDGE=1 (under hta only):
     * every kernel not reached by its launch edge gets one of weight 0. */
    bool zero_launch;
    /* The reader's ts column (tf_cp_columns), or NULL: HTA's rounding
     * (tf_cp_hta_round) is done while it says ts_float, and once more over
     * every row by tf_cp_run when it does at the end. */
    const struct tf_tef_columns *cols;
    struct flow *flows;
    size_t n_flows, cap_flows;
    struct tf_strtab strs;
    uint32_t *flags;     /* what each string of strs says as a name or category, 0: not yet */
    size_t n_flags, cap_flags;
    struct tf_buf key, tmp;
    bool memo_set;       /* the last numeric (pid, tid) and its keys */
    long long memo_pid, memo_tid;
    uint32_t memo_pidk, memo_tidk;
    struct row *rows;
    size_t n_rows, cap_rows;
    struct wait *waits;
    size_t n_waits, cap_waits;
    bool has_sync;       /* cuda_sync rows */
    bool has_calls;      /* synchronisation calls joined by name (SC_*) */
    bool gpu_nocorr;     /* a GPU row (not an annotation or sync) without a correlation id */
    struct tf_strtab steps;  /* distinct ProfilerStep#N names (HTA's step symbols) */
    bool sym_cuda, sym_hip, sym_mtia;
    /* The reader's look at the window before pass 2 (tf_tef_sink's
     * prepass): pass 1 then keeps no pure CPU row (an operator with no
     * stream, correlation, wait, step or sync: one only the window's graph
     * reads), and the look takes the window's (every one with pre_all: the
     * ac2g flows' joins need them all).  What pass 1 keeps of the others:
     * their count (HTA's filter counts them) and, per thread, those that
     * start earlier than every one before them on it (the threads' order). */
    bool pre, pre_all;
    bool has_flows;      /* ac2g flow ends (in flows unless pre) */
    int64_t pre_w0, pre_w1;
    uint64_t *idx;       /* with pre: each row's place in the file */
    struct row *prows;   /* the look's rows, and their places */
    uint64_t *pidx;
    size_t n_prows, cap_prows, cap_pidx, cap_idx;
    size_t n_pure;       /* pure rows not in rows */
    size_t n_look;       /* rows the look added (TRACEFIG_CP_STATS) */
    struct pthr *pthr;   /* the threads of pure rows */
    size_t n_pthr, cap_pthr, last_pthr;
    struct pfirst *pfirst;
    size_t n_pfirst, cap_pfirst;
    bool filt_on, filt_any; /* tf_cp_hta_filter left the CPU rows from before filt_lim */
    int64_t filt_lim;
    bool has_last_cat;
    uint32_t last_cat;
    const char *inst_pat;   /* tf_cp_instances_on's NAME, NULL: none noted */
    bool inst_glob;
    struct cp_inst *inst;   /* the events it names, in file order */
    size_t n_inst, cap_inst;
    /* under hta (critpath_hta.c): a record's correlation -> the kernel it
     * records; a cudaStreamWaitEvent's row -> the kernel that waits */
    struct crow *hta_prev, *hta_next;
    size_t n_hta_prev, n_hta_next;
    struct tf_cpg g;
    uint32_t *node_ev;   /* node -> row */
    bool *node_start;
    bool ran;
};

static inline const char *tf_cp_str(const struct tf_cp *cp, uint32_t id)
{
    return tf_strtab_str(&cp->strs, id);
}

/* Whether row r's name is name. */
static inline bool tf_cp_named(const struct tf_cp *cp, const struct row *r, const char *name)
{
    return strcmp(tf_cp_str(cp, r->name), name) == 0;
}

/* A row (named name) HTA's GPUKernelFilter takes: on a stream with a
 * correlation, or a device-wide sync (Event Sync, Context Sync). */
static inline bool tf_cp_hta_gpu(const struct row *r, const char *name)
{
    return (r->stream >= 0 && r->corr >= 0) || strcmp(name, "Event Sync") == 0 ||
           strcmp(name, "Context Sync") == 0;
}

static inline bool tf_cp_hta_gpu_row(const struct tf_cp *cp, const struct row *r)
{
    return tf_cp_hta_gpu(r, tf_cp_str(cp, r->name));
}

/* HTA's whole microseconds (round_down_time_stamps): starts up, ends
 * down; twice is once. */
static inline void tf_cp_hta_round(struct row *w)
{
    int64_t us = w->ts / 1000 + (w->ts % 1000 > 0);
    w->end = (w->end / 1000 - (w->end % 1000 < 0)) * 1000;
    w->ts = us * 1000;
}

/* Whether HTA rounds the trace's times (as far as pass 1 has read). */
static inline bool tf_cp_hta_rounds(const struct tf_cp *cp)
{
    return cp->hta && (!cp->cols || cp->cols->ts_float);
}

/* A CPU row HTA clips to the window: it starts in it, with a duration. */
static inline bool tf_cp_in_window(const struct row *r, int64_t w0, int64_t w1)
{
    return r->ts >= w0 && r->ts <= w1 && r->end > r->ts;
}

/* A row's numeric pid, -1 when its pid is a string (the key of a
 * number is 'i' and its digits: model/trace.c's tf_id_key). */
static inline long long tf_cp_row_pid(const struct tf_cp *cp, const struct row *r)
{
    const char *k = tf_cp_str(cp, r->pidk);
    return k[0] == 'i' ? strtoll(k + 1, NULL, 10) : -1;
}

/* critpath_join.c: HTA's rows (under --stats-compat hta), the ac2g flows'
 * joins, and the synchronisation calls of a trace without cuda_sync rows
 * (Nsight Systems, rocpd); false when out of memory. */
bool tf_cp_hta_filter(struct tf_cp *cp);
/* qsort's and bsearch's order of int64_t. */
int tf_cp_i64_cmp(const void *a, const void *b);
/* Whether HTA's load-time filter runs (several ProfilerStep#N names, not
 * MTIA), with the start of its last step's CPU row (*any: there is one);
 * and the correlations of the CPU rows it keeps (those before *lim),
 * sorted, or NULL when out of memory. */
bool tf_cp_hta_filters(const struct tf_cp *cp, bool *any, int64_t *lim);
int64_t *tf_cp_hta_kept(const struct tf_cp *cp, bool any, int64_t lim, size_t *nk);
bool tf_cp_flow_join(struct tf_cp *cp);
/* The sync kind of a runtime call's name (SC_*), 0 none. */
unsigned char tf_cp_sync_call(const char *name);
/* Beyond HTA (a trace without cuda_sync rows): each CPU row joined to a
 * GPU row is a launch, and each cudaStreamWaitEvent / hipStreamWaitEvent
 * in the window makes the first kernel its thread launches after it onto
 * another stream wait for the last kernel that thread launched before it. */
void tf_cp_calls_launches(struct tf_cp *cp);
bool tf_cp_calls_waits(struct tf_cp *cp, const bool *in);

/* critpath_hta.c: HTA's orders of equal times (numpy's unstable sort,
 * rules/npsort.h).  _np_order: v[0..n) by t as HTA's sort_values puts
 * them; _hta_queues: each launch's and GPU row's queue length (row.q) as
 * HTA's TraceCounters counts them.  false when out of memory. */
bool tf_cp_np_order(struct ix *v, size_t n);
bool tf_cp_hta_queues(struct tf_cp *cp);
/* HTA's kernel of each cudaEventRecord (the launch with the largest id at
 * or before it on its event's GPU and stream) and of each
 * cudaStreamWaitEvent (the smallest at or after it from its thread onto
 * the waiting stream), ids in numpy's order of the launches' starts; then
 * _recorded (a record's correlation) and _waiting (the call's row) give
 * them, NONE none. */
bool tf_cp_hta_event_links(struct tf_cp *cp);
uint32_t tf_cp_hta_recorded(const struct tf_cp *cp, int64_t corr);
uint32_t tf_cp_hta_waiting(const struct tf_cp *cp, uint32_t call);

/* critpath_inst.c: notes r (its row w) when its name holds the pattern. */
bool tf_cp_inst_note(struct tf_cp *cp, const struct tf_tef_rec *r, const struct row *w);

#endif
