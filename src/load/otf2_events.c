/* otf2_events.c - an OTF2 location's events into trace records: slices
 * from Enter/Leave (mis-nesting, MeasurementOnOff), collectives, messages
 * as flows, metrics as counter samples, each rank's time per paradigm,
 * and the two passes; see otf2_conv.h (what becomes what) and the notes
 * at the top of otf2_conv.c (how).
 */
#include "load/otf2_int.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- events ---------------------------------------------------------------------- */

/* Ticks of the archive's clock as ns from its global offset. */
static int64_t ns_of(const struct tf_otf2 *n, uint64_t t)
{
    bool neg = t < n->offset;
    uint64_t dt = neg ? n->offset - t : t - n->offset;
    uint64_t q = dt / n->res, rem = dt % n->res;
    double v;
    if (n->res == 1000000000ULL)
        v = (double)dt;
    else if (n->res <= 18000000000ULL && q < 9000000000ULL)
        v = (double)(q * 1000000000ULL) + (double)(rem * 1000000000ULL / n->res);
    else
        v = (double)dt * 1e9 / (double)n->res;
    if (v > 4e18)
        v = 4e18;
    return neg ? -(int64_t)v : (int64_t)v;
}

bool tf_otf2_enter(struct tf_otf2 *n, uint64_t t, uint32_t region, struct tf_diag *d)
{
    (void)d;
    size_t k = tf_otf2_map_get(&n->m_region, region);
    if (!n->cur || k == SIZE_MAX)
        return true;
    if (!TF_GROW(n->stack, n->n_stack, n->cap_stack))
        return tf_diag_oom(d, n->file);
    n->stack[n->n_stack] = (struct frame){(uint32_t)k, n->off ? INT64_MIN : ns_of(n, t),
                                          (unsigned)n->n_stack + 1, false};
    n->n_stack++;
    return true;
}

static bool slice(struct tf_otf2 *n, const char *name, const char *cat, int64_t t0, int64_t t1,
                  unsigned depth, bool open_end, struct tf_diag *d)
{
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'B';
    r.pid = n->cur->pid;
    r.tid = n->cur->tid;
    r.name = name;
    r.cat = cat;
    r.ts = t0;
    r.dur = open_end || t1 < t0 ? 0 : t1 - t0;
    r.has_dur = !open_end;
    r.open_end = open_end;
    r.depth = depth;
    return tf_otf2_emit(n, &r, d);
}

/* A frame's category: its region's, an MPI call's "MPI collective" when
 * it held a collective operation. */
static const char *frame_cat(const struct tf_otf2 *n, const struct frame *f)
{
    const char *cat = n->regions[f->region].cat;
    return f->coll && strcmp(cat, "MPI") == 0 ? "MPI collective" : cat;
}

static bool is_mpi(const char *cat)
{
    return strncmp(cat, "MPI", 3) == 0;
}

static bool acc_add(struct tf_otf2 *n, const char *cat, bool mpi, int64_t lo, int64_t hi)
{
    size_t k = 0;
    while (k < n->n_accs && (n->accs[k].mpi != mpi || (!mpi && strcmp(n->accs[k].cat, cat) != 0)))
        k++;
    if (k == n->n_accs) {
        if (!TF_GROW(n->accs, n->n_accs, n->cap_accs))
            return false;
        n->accs[n->n_accs++] = (struct par_acc){.cat = cat, .mpi = mpi};
    }
    struct par_acc *a = &n->accs[k];
    if (a->n && lo <= a->v[a->n - 1].hi && lo >= a->v[a->n - 1].lo) {
        if (hi > a->v[a->n - 1].hi)
            a->v[a->n - 1].hi = hi;
        return true;
    }
    if (!TF_GROW(a->v, a->n, a->cap))
        return false;
    a->v[a->n++] = (struct piece){lo, hi};
    return true;
}

/* Pass 2: the piece [t0, t1) of a slice of category cat whose enclosing
 * open frames are stack[0 .. below), for the rank's time per paradigm. */
static bool account(struct tf_otf2 *n, const char *cat, size_t below, int64_t t0, int64_t t1,
                    bool open_end)
{
    if (n->pass != 2 || n->cur->group >= n->n_lgs)
        return true;
    int64_t lo = t0 > n->w0 ? t0 : n->w0, hi = open_end || t1 > n->w1 ? n->w1 : t1;
    if (hi <= lo)
        return true;
    bool outer = true, outer_mpi = true;
    for (size_t k = 0; k < below && k < n->n_stack; k++) {
        const char *a = frame_cat(n, &n->stack[k]);
        outer = outer && strcmp(a, cat) != 0;
        outer_mpi = outer_mpi && !is_mpi(a);
    }
    return (!outer || acc_add(n, cat, false, lo, hi)) &&
           (!outer_mpi || !is_mpi(cat) || acc_add(n, NULL, true, lo, hi));
}

static int by_lo(const void *x, const void *y)
{
    const struct piece *a = x, *b = y;
    return (a->lo > b->lo) - (a->lo < b->lo);
}

/* The rank read so far: its time per paradigm, to collect(). */
static bool flush_rank(struct tf_otf2 *n, struct tf_diag *d)
{
    for (size_t k = 0; k < n->n_accs; k++) {
        struct par_acc *a = &n->accs[k];
        if (a->n > 1)
            qsort(a->v, a->n, sizeof *a->v, by_lo);
        int64_t total = 0, lo = 0, hi = INT64_MIN;
        for (size_t i = 0; i < a->n; i++) {
            if (a->v[i].lo > hi) {
                if (hi != INT64_MIN)
                    total += hi - lo;
                lo = a->v[i].lo;
                hi = a->v[i].hi;
            } else if (a->v[i].hi > hi) {
                hi = a->v[i].hi;
            }
        }
        if (hi != INT64_MIN)
            total += hi - lo;
        free(a->v);
        a->v = NULL;
        a->n = a->cap = 0;
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_PARADIGM;
        r.pid = n->acc_pid;
        r.name = "";
        r.cat = a->mpi ? NULL : a->cat;
        r.dur = total;
        /* no place in the file: the events' numbering stays pass 1's */
        size_t idx = n->idx;
        bool ok = tf_otf2_emit(n, &r, d);
        n->idx = idx;
        if (!ok)
            return false;
    }
    n->n_accs = 0;
    n->acc_group = SIZE_MAX;
    return true;
}

bool tf_otf2_location(struct tf_otf2 *n, uint64_t ref, struct tf_diag *d)
{
    size_t i = tf_otf2_map_get(&n->m_loc, ref);
    n->cur = i == SIZE_MAX ? NULL : &n->locs[i];
    size_t g = n->cur ? n->cur->group : SIZE_MAX;
    if (n->acc_group != SIZE_MAX && g != n->acc_group && !flush_rank(n, d))
        return false;
    if (n->cur && g < n->n_lgs && n->acc_group == SIZE_MAX) {
        /* the pid of the rank's (or GPU's) records, for its measures */
        n->acc_group = g;
        n->acc_pid = n->cur->pid;
        if (n->cur->pid.kind == TF_ID_STR) {
            snprintf(n->acc_pid_str, sizeof n->acc_pid_str, "%s", n->cur->pid_str);
            n->acc_pid.str = n->acc_pid_str;
        }
    }
    n->n_stack = 0;
    n->in_coll = n->off = n->loc_had_off = false;
    return true;
}

static bool close_frame(struct tf_otf2 *n, const struct frame *f, size_t below, int64_t t1,
                        bool open_end, struct tf_diag *d)
{
    if (f->t0 == INT64_MIN || !n->cur->lane)
        return true; /* measurement was off: no piece open */
    const char *cat = frame_cat(n, f);
    if (!account(n, cat, below, f->t0, t1, open_end))
        return tf_diag_oom(d, n->file);
    return slice(n, tf_otf2_str(n, n->regions[f->region].name), cat, f->t0, t1, f->depth, open_end, d);
}

bool tf_otf2_leave(struct tf_otf2 *n, uint64_t t, uint32_t region, struct tf_diag *d)
{
    size_t k = tf_otf2_map_get(&n->m_region, region);
    if (!n->cur || k == SIZE_MAX)
        return true;
    if (n->n_stack == 0) {
        n->n_idle_leaves += n->pass == 1;
        return true;
    }
    size_t i = n->n_stack;
    while (i > 0 && n->stack[i - 1].region != k)
        i--;
    if (i == 0) {
        /* OTF2's events nest: a Leave of a region not open (a task
         * entered under a new name, left under its old one) ends the
         * innermost open region. */
        n->n_stray_leaves += n->pass == 1;
        i = n->n_stack;
    } else if (i != n->n_stack) {
        n->n_misnested += n->pass == 1;
    }
    struct frame f = n->stack[i - 1];
    /* its enclosing frames are those below it, still on the stack */
    bool ok = close_frame(n, &f, i - 1, ns_of(n, t), false, d);
    memmove(&n->stack[i - 1], &n->stack[i], (n->n_stack - i) * sizeof *n->stack);
    n->n_stack--;
    return ok;
}

/* The location a rank of communicator comm names; false when unknown. */
static bool peer_location(const struct tf_otf2 *n, uint32_t comm, uint32_t rank, uint64_t *loc)
{
    size_t c = tf_otf2_map_get(&n->m_comm, comm);
    size_t g = c == SIZE_MAX ? SIZE_MAX : tf_otf2_map_get(&n->m_group, n->comms[c]);
    if (g != SIZE_MAX) {
        const struct group *gr = &n->groups[g];
        if (gr->type == TF_OTF2_GROUP_COMM_SELF) {
            *loc = n->cur->ref;
            return true;
        }
        if (gr->type == TF_OTF2_GROUP_COMM_LOCATIONS && rank < gr->n) {
            *loc = gr->members[rank];
            return true;
        }
        if (gr->type == TF_OTF2_GROUP_COMM_GROUP && rank < gr->n) {
            uint64_t world = gr->members[rank];
            for (size_t i = 0; i < n->n_groups; i++)
                if (n->groups[i].type == TF_OTF2_GROUP_COMM_LOCATIONS &&
                    n->groups[i].paradigm == gr->paradigm && world < n->groups[i].n) {
                    *loc = n->groups[i].members[world];
                    return true;
                }
        }
    }
    /* No groups: the first CPU location of the rank of that number. */
    for (size_t i = 0; i < n->n_locs; i++) {
        const struct location *l = &n->locs[i];
        if (l->group < n->n_lgs && n->lgs[l->group].rank == (long long)rank &&
            n->lgs[l->group].type != TF_OTF2_LG_ACCELERATOR && l->type != TF_OTF2_LOC_METRIC) {
            *loc = l->ref;
            return true;
        }
    }
    return false;
}

static bool message(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                    bool send, struct tf_diag *d)
{
    if (n->pass == 1 || !n->cur || !n->cur->lane)
        return true;
    uint64_t other;
    if (!peer_location(n, comm, peer, &other))
        return true;
    uint64_t from = send ? n->cur->ref : other, to = send ? other : n->cur->ref;
    uint64_t key = tf_otf2_mix(from) ^ tf_otf2_mix(to * 31 + comm) ^ tf_otf2_mix((uint64_t)tag << 32 | comm);
    /* the map holds one channel per key: a collision of keys probes on */
    size_t ci = SIZE_MAX;
    for (uint64_t k = key;; k = tf_otf2_mix(k + 1)) {
        size_t i = tf_otf2_map_get(&n->m_chan, k);
        if (i == SIZE_MAX) {
            if (!TF_GROW(n->chans, n->n_chans, n->cap_chans) ||
                !tf_otf2_map_put(&n->m_chan, k, (uint32_t)n->n_chans))
                return tf_diag_oom(d, n->file);
            n->chans[n->n_chans] = (struct channel){from, to, comm, tag, 0, 0};
            ci = n->n_chans++;
            break;
        }
        const struct channel *c = &n->chans[i];
        if (c->from == from && c->to == to && c->comm == comm && c->tag == tag) {
            ci = i;
            break;
        }
    }
    struct channel *c = &n->chans[ci];
    uint64_t seq = send ? c->sends++ : c->recvs++;
    tf_buf_clear(&n->flow);
    tf_buf_printf(&n->flow, "otf2 %zu.%llu", ci, (unsigned long long)seq);
    if (n->flow.oom)
        return tf_diag_oom(d, n->file);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_FLOW;
    r.ph = send ? 's' : 'f';
    r.pid = n->cur->pid;
    r.tid = n->cur->tid;
    r.name = r.cat = "";
    r.ts = ns_of(n, t);
    r.id = n->flow.data;
    r.bp = send ? 0 : 'e';
    return tf_otf2_emit(n, &r, d);
}

bool tf_otf2_send(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                  struct tf_diag *d)
{
    return message(n, t, peer, comm, tag, true, d);
}

bool tf_otf2_recv(struct tf_otf2 *n, uint64_t t, uint32_t peer, uint32_t comm, uint32_t tag,
                  struct tf_diag *d)
{
    return message(n, t, peer, comm, tag, false, d);
}

void tf_otf2_coll_begin(struct tf_otf2 *n, uint64_t t)
{
    n->in_coll = true;
    n->coll_t0 = n->off ? INT64_MIN : ns_of(n, t);
}

static const char *coll_name(int op)
{
    static const char *const names[] = {
        "MPI_Barrier",   "MPI_Bcast",     "MPI_Gather",         "MPI_Gatherv",
        "MPI_Scatter",   "MPI_Scatterv",  "MPI_Allgather",      "MPI_Allgatherv",
        "MPI_Alltoall",  "MPI_Alltoallv", "MPI_Alltoallw",      "MPI_Allreduce",
        "MPI_Reduce",    "MPI_Reduce_scatter", "MPI_Scan",      "MPI_Exscan",
        "MPI_Reduce_scatter_block",
    };
    return op >= 0 && op < (int)(sizeof names / sizeof names[0]) ? names[op] : "MPI collective";
}

bool tf_otf2_coll_end(struct tf_otf2 *n, uint64_t t, int op, struct tf_diag *d)
{
    if (!n->cur || !n->in_coll)
        return true;
    n->in_coll = false;
    /* Communicator and window handles (MPI_Init's, MPI_Comm_split's) are
     * no data collective: their calls stay "MPI". */
    if (op < 0 || op > 16)
        return true;
    struct frame *top = n->n_stack ? &n->stack[n->n_stack - 1] : NULL;
    if (top && strncmp(n->regions[top->region].cat, "MPI", 3) == 0) {
        top->coll = true; /* the MPI call is the collective's slice */
        return true;
    }
    if (n->coll_t0 == INT64_MIN || !n->cur->lane)
        return true;
    if (!account(n, "MPI collective", n->n_stack, n->coll_t0, ns_of(n, t), false))
        return tf_diag_oom(d, n->file);
    return slice(n, coll_name(op), "MPI collective", n->coll_t0, ns_of(n, t),
                 (unsigned)n->n_stack + 1, false, d);
}

/* A value as JSON text ("null" for one that is not finite). */
static void put_value(struct tf_buf *b, uint8_t type, union tf_otf2_value v)
{
    if (type == TF_OTF2_TYPE_INT64)
        tf_buf_printf(b, "%lld", (long long)v.i);
    else if (type == TF_OTF2_TYPE_UINT64)
        tf_buf_printf(b, "%llu", (unsigned long long)v.u);
    else if (isfinite(v.d))
        tf_buf_printf(b, "%.17g", v.d);
    else
        tf_buf_puts(b, "null");
}

bool tf_otf2_metric(struct tf_otf2 *n, uint64_t t, uint32_t metric, size_t count,
                    const uint8_t *types, const union tf_otf2_value *values, struct tf_diag *d)
{
    size_t m = tf_otf2_map_get(&n->m_metric, metric);
    if (!n->cur || m == SIZE_MAX)
        return true;
    if (n->metrics[m].instance)
        m = tf_otf2_map_get(&n->m_metric, n->metrics[m].cls);
    if (m == SIZE_MAX || n->metrics[m].instance) {
        n->n_bad_metric += n->pass == 1;
        return true;
    }
    const struct metric *mc = &n->metrics[m];
    const struct lgroup *g = n->cur->group < n->n_lgs ? &n->lgs[n->cur->group] : NULL;
    /* a thread of a rank of several names its series apart */
    bool own = g && g->n_threads > 1 && n->cur->lane;
    int64_t ts = ns_of(n, t);
    for (size_t i = 0; i < count && i < mc->n; i++) {
        if (mc->members[i] == UINT32_MAX)
            continue;
        const struct member *mb = &n->members[mc->members[i]];
        tf_buf_clear(&n->args);
        tf_buf_puts(&n->args, "{");
        if (own)
            tf_buf_printf(&n->args, "\"thread %lld\"", n->cur->ordinal);
        else
            tf_buf_puts(&n->args, "\"\"");
        tf_buf_putc(&n->args, ':');
        put_value(&n->args, types[i], values[i]);
        tf_buf_putc(&n->args, '}');
        if (n->args.oom)
            return tf_diag_oom(d, n->file);
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_COUNTER;
        r.ph = 'C';
        r.pid = n->cur->pid;
        r.tid = n->cur->tid;
        r.name = tf_otf2_str(n, mb->name);
        r.unit = mb->unit;
        r.ts = ts;
        r.args = (const unsigned char *)n->args.data;
        r.args_len = n->args.len;
        if (!tf_otf2_emit(n, &r, d))
            return false;
    }
    return true;
}

bool tf_otf2_onoff(struct tf_otf2 *n, uint64_t t, int mode, struct tf_diag *d)
{
    if (!n->cur)
        return true;
    int64_t ts = ns_of(n, t);
    if (mode == TF_OTF2_MEASUREMENT_OFF && !n->off) {
        n->off = true;
        if (n->pass == 1) {
            n->n_off++;
            n->n_off_ranks += !n->loc_had_off;
        }
        n->loc_had_off = true;
        for (size_t i = 0; i < n->n_stack; i++)
            if (!close_frame(n, &n->stack[i], i, ts, false, d))
                return false;
        for (size_t i = 0; i < n->n_stack; i++)
            n->stack[i].t0 = INT64_MIN;
    } else if (mode == TF_OTF2_MEASUREMENT_ON && n->off) {
        n->off = false;
        for (size_t i = 0; i < n->n_stack; i++)
            n->stack[i].t0 = ts;
    }
    return true;
}

bool tf_otf2_location_end(struct tf_otf2 *n, struct tf_diag *d)
{
    if (!n->cur)
        return true;
    for (size_t i = 0; i < n->n_stack; i++) {
        n->n_never_left += n->pass == 1;
        if (!close_frame(n, &n->stack[i], i, 0, true, d))
            return false;
    }
    n->n_stack = 0;
    if (n->pass == 2 && n->cur->lane) {
        /* its lane has all it gets: the mode may reduce it (a job's overview) */
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_LANE_DONE;
        r.pid = n->cur->pid;
        r.tid = n->cur->tid;
        r.name = "";
        size_t idx = n->idx;
        bool ok = tf_otf2_emit(n, &r, d);
        n->idx = idx; /* no place in the file */
        if (!ok)
            return false;
    }
    n->cur = NULL;
    return true;
}

/* --- the passes ------------------------------------------------------------------ */

bool tf_otf2_window(struct tf_otf2 *n, int64_t *lo, int64_t *hi, struct tf_diag *d)
{
    if (n->n_off) {
        tf_buf_clear(&n->name);
        tf_buf_printf(&n->name,
                      "measurement switched off %zu time%s (on %zu location%s): the gaps in "
                      "the lanes are not recorded",
                      n->n_off, n->n_off == 1 ? "" : "s", n->n_off_ranks,
                      n->n_off_ranks == 1 ? "" : "s");
        if (n->name.oom)
            return tf_diag_oom(d, n->file);
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_NOTE;
        r.name = n->name.data;
        if (!tf_otf2_emit(n, &r, d))
            return false;
    }
    *lo = INT64_MIN;
    *hi = INT64_MAX;
    if (n->sink->window && !n->sink->window(n->sink->ctx, lo, hi, d)) {
        tf_diag_prefix(d, n->file);
        return false;
    }
    n->w0 = *lo;
    n->w1 = *hi;
    n->pass = 2;
    n->idx = n->idx0;
    return true;
}

bool tf_otf2_finish(struct tf_otf2 *n, struct tf_diag *d)
{
    if (n->acc_group != SIZE_MAX && !flush_rank(n, d))
        return false;
    if (n->sink->finish && !n->sink->finish(n->sink->ctx, d)) {
        tf_diag_prefix(d, n->file);
        return false;
    }
    if (n->n_misnested || n->n_stray_leaves || n->n_idle_leaves || n->n_never_left) {
        tf_buf_clear(&n->name);
        const char *sep = "";
        if (n->n_misnested) {
            tf_buf_printf(&n->name,
                          "%zu Leave%s did not match the innermost open region (each closed "
                          "its own region)",
                          n->n_misnested, n->n_misnested == 1 ? "" : "s");
            sep = "; ";
        }
        if (n->n_stray_leaves) {
            tf_buf_printf(&n->name,
                          "%s%zu Leave%s named a region that was not open; each closed the "
                          "innermost one",
                          sep, n->n_stray_leaves, n->n_stray_leaves == 1 ? "" : "s");
            sep = "; ";
        }
        if (n->n_idle_leaves) {
            tf_buf_printf(&n->name, "%s%zu Leave%s with no region open (ignored)", sep,
                          n->n_idle_leaves, n->n_idle_leaves == 1 ? "" : "s");
            sep = "; ";
        }
        if (n->n_never_left)
            tf_buf_printf(&n->name, "%s%zu region%s never left (drawn to the end)", sep,
                          n->n_never_left, n->n_never_left == 1 ? "" : "s");
        if (!n->name.oom)
            tf_diag_warn(d, "%s: %s", n->file, n->name.data);
    }
    if (n->n_bad_metric)
        tf_diag_warn(d, "%s: %zu metric event%s of an undefined metric class: left out",
                     n->file, n->n_bad_metric, n->n_bad_metric == 1 ? "" : "s");
    return true;
}
