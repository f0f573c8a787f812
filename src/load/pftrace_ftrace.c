/* pftrace_ftrace.c - the Linux kernel's view in a Perfetto trace: ftrace
 * bundles (sched_switch, compact_sched, print and zero events carrying
 * atrace, cpu_frequency, cpu_idle, task_newtask / task_rename comms) and
 * process_tree; see pftrace.h (what becomes what).
 *
 * CPU lanes.  Each CPU remembers the task it last switched in and since
 * when; the next switch on that CPU ends it: a slice on lane "CPU N" named
 * by the task's comm, in its process's category, unless it is the idle
 * task (pid 0).  Time before a CPU's first switch, and after its last, is
 * not drawn (nothing says what ran).
 *
 * Atrace.  Slices are per emitting thread (the ftrace event's pid is the
 * tid) on a stack: B|tgid|name opens, E closes the innermost, on the lane
 * (tgid, tid).  C|tgid|name|value is a counter of process tgid; S|/F|
 * (async, by name and cookie) a slice on the process's lane named after
 * it.  The kernel's `zero` events carry the same (flag 1 begin, 2 end, 4
 * counter; 8/16 async begin/end) with the tgid in their pid.  GPU
 * counters, frequencies and render stages are pftrace_gpu.c's.
 */
#include "load/pftrace_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/hash.h"

#define MAX_CPUS 4096

/* --- CPUs ---------------------------------------------------------------------- */

static struct pf_cpu *cpu_of(struct pf *p, uint64_t cpu)
{
    if (cpu >= MAX_CPUS)
        return NULL;
    if (cpu >= p->n_cpus) {
        struct pf_cpu *v = realloc(p->cpus, (size_t)(cpu + 1) * sizeof *v);
        if (!v)
            return NULL;
        memset(v + p->n_cpus, 0, (size_t)(cpu + 1 - p->n_cpus) * sizeof *v);
        p->cpus = v;
        p->n_cpus = (size_t)cpu + 1;
    }
    return &p->cpus[cpu];
}

static void cpu_lane(size_t cpu, char *lab, size_t n, struct tf_id *id)
{
    snprintf(lab, n, "CPU %zu", cpu);
    *id = (struct tf_id){TF_ID_STR, 0, lab};
}

static const char *pf_proc_name(const struct pf *p, int64_t pid)
{
    uint64_t k;
    if (pf_map_get(&p->proc_of, (uint64_t)pid, &k) && p->procs[k - 1].name)
        return pf_s(p, p->procs[k - 1].name);
    return NULL;
}

/* The task running on cpu since c->since ends at ts. */
static bool run_ends(struct pf *p, size_t cpu, struct pf_cpu *c, int64_t ts)
{
    if (!c->on || c->tid == 0 || ts < c->since)
        return true;
    char lab[32];
    struct tf_id lane;
    cpu_lane(cpu, lab, sizeof lab, &lane);
    const struct pf_thread *t = pf_thread(p, c->tid);
    if (!t)
        return tf_diag_oom(p->d, p->file);
    const char *cat = NULL;
    int64_t tgid = t->tgid >= 0 ? t->tgid : c->tid;
    if (p->pass == 2) {
        cat = pf_proc_name(p, tgid);
        tf_buf_clear(&p->args);
        tf_buf_printf(&p->args, "{\"tid\":%lld,\"pid\":%lld", (long long)c->tid,
                      (long long)tgid);
        if (cat) {
            tf_buf_puts(&p->args, ",\"process\":");
            tf_buf_json_str(&p->args, cat);
        }
        tf_buf_putc(&p->args, '}');
        if (p->args.oom)
            return tf_diag_oom(p->d, p->file);
    }
    const char *comm = c->comm ? pf_s(p, c->comm) : t->name ? pf_s(p, t->name) : "";
    char alt[32];
    if (!*comm) {
        snprintf(alt, sizeof alt, "tid %lld", (long long)c->tid);
        comm = alt;
    }
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'X';
    r.pid = lane;
    r.tid = lane;
    r.name = comm;
    r.cat = "sched";
    /* coloured by process, as Perfetto's UI does: a colour of Paul Tol's
     * muted scheme by the process's name (its pid when it has none) */
    static const uint32_t muted[] = {0xCC6677, 0x332288, 0xDDCC77, 0x117733, 0x88CCEE,
                                     0x882255, 0x44AA99, 0x999933, 0xAA4499};
    char pidtxt[24];
    snprintf(pidtxt, sizeof pidtxt, "%lld", (long long)tgid);
    const char *key = t->tgid >= 0 && pf_proc_name(p, tgid) ? pf_proc_name(p, tgid) : pidtxt;
    r.has_rgb = true;
    r.rgb = muted[tf_fnv1a(key, strlen(key)) % (sizeof muted / sizeof muted[0])];
    r.ts = c->since;
    r.dur = ts - c->since;
    r.has_dur = true;
    if (p->pass == 2) {
        r.args = (const unsigned char *)p->args.data;
        r.args_len = p->args.len;
    }
    return pf_emit(p, &r);
}

static bool switch_to(struct pf *p, uint64_t cpu, int64_t ts, int64_t next, uint32_t comm)
{
    struct pf_cpu *c = cpu_of(p, cpu);
    if (!c)
        return cpu >= MAX_CPUS ? true : tf_diag_oom(p->d, p->file);
    p->has_sched = true;
    if (!run_ends(p, (size_t)cpu, c, ts))
        return false;
    c->on = true;
    c->tid = next;
    c->since = ts;
    c->comm = comm;
    if (comm && next)
        pf_name_thread(p, next, -1, comm, 1);
    return true;
}

/* --- atrace -------------------------------------------------------------------- */

static struct pf_stack *atrace_stack(struct pf *p, int64_t tid)
{
    uint64_t k;
    if (pf_map_get(&p->atrace_of, (uint64_t)tid, &k))
        return &p->atr[k - 1];
    size_t cap = p->cap_atr;
    if (!TF_GROW(p->atr, p->n_atr, p->cap_atr))
        return NULL;
    if (p->cap_atr != cap) {
        int64_t *t = realloc(p->atr_tid, p->cap_atr * sizeof *t);
        if (!t)
            return NULL;
        p->atr_tid = t;
    }
    if (!pf_map_put(&p->atrace_of, (uint64_t)tid, p->n_atr + 1))
        return NULL;
    memset(&p->atr[p->n_atr], 0, sizeof p->atr[0]);
    p->atr_tid[p->n_atr] = tid;
    return &p->atr[p->n_atr++];
}

/* The lane of an atrace thread: its process's, as far as known. */
static void atrace_lane(struct pf *p, int64_t tid, int64_t tgid, struct tf_id *pid,
                        struct tf_id *t)
{
    if (tgid <= 0) {
        const struct pf_thread *th = pf_thread(p, tid);
        tgid = th && th->tgid >= 0 ? th->tgid : tid;
    }
    *pid = (struct tf_id){TF_ID_NUM, tgid, NULL};
    *t = (struct tf_id){TF_ID_NUM, tid, NULL};
}

static bool atrace_begin(struct pf *p, int64_t tid, int64_t tgid, uint32_t name, int64_t ts)
{
    struct pf_stack *st = atrace_stack(p, tid);
    if (!st)
        return tf_diag_oom(p->d, p->file);
    if (tgid > 0)
        pf_name_thread(p, tid, tgid, 0, 0);
    return pf_push(p, st, name, pf_cstr(p, "atrace"), ts, NULL);
}

static bool atrace_end(struct pf *p, int64_t tid, int64_t tgid, int64_t ts)
{
    struct pf_stack *st = atrace_stack(p, tid);
    if (!st)
        return tf_diag_oom(p->d, p->file);
    struct tf_id pid, t;
    atrace_lane(p, tid, tgid, &pid, &t);
    return pf_pop(p, st, &pid, &t, ts, false);
}

/* An async slice S|/F|: kept by (tgid, name, cookie) in the flows map's
 * sibling, a small list (few are open at a time). */
struct async_open {
    int64_t tgid, cookie, ts;
    uint32_t name;
};
static bool atrace_async(struct pf *p, bool begin, int64_t tgid, uint32_t name, int64_t cookie,
                         int64_t ts)
{
    /* open async slices of one (tgid, name) live in one of the atrace
     * stacks (keyed by a negative id), each with its cookie: F ends the
     * latest S of its cookie, whatever opened since */
    uint64_t key = ((uint64_t)name << 32) ^ (uint64_t)(tgid & 0xffffffff);
    int64_t skey = -(int64_t)(key & 0x3fffffffffffffffULL) - 1;
    struct pf_stack *st = atrace_stack(p, skey);
    if (!st)
        return tf_diag_oom(p->d, p->file);
    if (begin) {
        if (!pf_push(p, st, name, pf_cstr(p, "atrace async"), ts, NULL))
            return false;
        st->v[st->n - 1].cookie = cookie;
        return true;
    }
    size_t i = st->n;
    while (i > 0 && st->v[i - 1].cookie != cookie)
        i--;
    if (i == 0) {
        p->n_unmatched_end += p->pass == 1;
        return true;
    }
    struct pf_frame f = st->v[i - 1];
    memmove(st->v + i - 1, st->v + i, (st->n - i) * sizeof *st->v);
    st->n--;
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'X';
    r.pid = (struct tf_id){TF_ID_NUM, tgid, NULL};
    r.tid = (struct tf_id){TF_ID_STR, 0, pf_s(p, name)};
    r.name = pf_s(p, f.name);
    r.cat = pf_s(p, f.cat);
    r.ts = f.ts;
    r.dur = ts > f.ts ? ts - f.ts : 0;
    r.has_dur = true;
    free(f.args);
    return pf_emit(p, &r);
}

static int64_t num_of(const char *s, size_t n, bool *ok)
{
    char tmp[32];
    if (n == 0 || n >= sizeof tmp) {
        *ok = false;
        return 0;
    }
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char *end;
    long long v = strtoll(tmp, &end, 10);
    *ok = *end == 0;
    return v;
}

static double dbl_of(const char *s, size_t n, bool *ok)
{
    char tmp[48];
    if (n == 0 || n >= sizeof tmp) {
        *ok = false;
        return 0;
    }
    memcpy(tmp, s, n);
    tmp[n] = 0;
    char *end;
    double v = strtod(tmp, &end);
    *ok = end != tmp && (*end == 0 || *end == ' ');
    return v;
}

/* --- atrace in time order -------------------------------------------------------
 * Ftrace comes in per-CPU bundles: a thread that moved between CPUs has its
 * begin in one bundle and its end in another, written later or earlier.
 * Atrace events therefore wait in a buffer of at most AEV_MAX; when it is
 * full, the earlier half (by time, ties in file order) is applied, and at
 * the end of the pass the rest. */
#define AEV_MAX ((size_t)1 << 18)

struct pf_aev {
    int64_t ts, tid, tgid, cookie;
    double v;
    uint64_t seq;
    uint32_t name;
    char kind; /* B E C S F */
};

static int aev_cmp(const void *x, const void *y)
{
    const struct pf_aev *a = x, *b = y;
    if (a->ts != b->ts)
        return a->ts < b->ts ? -1 : 1;
    return (a->seq > b->seq) - (a->seq < b->seq);
}

static bool aev_apply(struct pf *p, const struct pf_aev *e)
{
    switch (e->kind) {
    case 'B': return atrace_begin(p, e->tid, e->tgid, e->name, e->ts);
    case 'E': return atrace_end(p, e->tid, e->tgid, e->ts);
    case 'C': {
        /* the line's pid is the process's, as in B|: it names the
         * emitting thread's process too */
        if (e->tgid > 0)
            pf_name_thread(p, e->tid, e->tgid, 0, 0);
        struct tf_id pid = {TF_ID_NUM, e->tgid, NULL};
        return pf_counter(p, &pid, pf_s(p, e->name), NULL, e->ts, e->v);
    }
    default: return atrace_async(p, e->kind == 'S', e->tgid, e->name, e->cookie, e->ts);
    }
}

static bool aev_flush(struct pf *p, size_t n)
{
    if (!p->n_aev)
        return true;
    qsort(p->aev, p->n_aev, sizeof *p->aev, aev_cmp);
    for (size_t i = 0; i < n; i++)
        if (!aev_apply(p, &p->aev[i]))
            return false;
    memmove(p->aev, p->aev + n, (p->n_aev - n) * sizeof *p->aev);
    p->n_aev -= n;
    return true;
}

static bool aev_push(struct pf *p, char kind, int64_t ts, int64_t tid, int64_t tgid,
                     uint32_t name, double v, int64_t cookie)
{
    if (p->n_aev == AEV_MAX && !aev_flush(p, AEV_MAX / 2))
        return false;
    if (!TF_GROW(p->aev, p->n_aev, p->cap_aev))
        return tf_diag_oom(p->d, p->file);
    p->aev[p->n_aev++] = (struct pf_aev){ts, tid, tgid, cookie, v, p->aev_seq++, name, kind};
    return true;
}

/* One atrace line "B|1234|name" of thread tid at ts. */
static bool atrace_line(struct pf *p, int64_t tid, const char *s, size_t n, int64_t ts)
{
    while (n && (s[n - 1] == '\n' || s[n - 1] == '\0'))
        n--;
    if (n < 1 || (n > 1 && s[1] != '|'))
        return true;
    char ph = s[0];
    /* f[0] the tgid, f[1] the name (it may hold '|'), f[2] a C value or an
     * S/F cookie (after the last '|') */
    const char *f[3] = {NULL, NULL, NULL};
    size_t len[3] = {0, 0, 0}, nf = 0;
    const char *end = s + n;
    if (n > 2) {
        f[0] = s + 2;
        const char *bar = memchr(f[0], '|', (size_t)(end - f[0]));
        len[0] = bar ? (size_t)(bar - f[0]) : (size_t)(end - f[0]);
        nf = 1;
        if (bar) {
            f[1] = bar + 1;
            len[1] = (size_t)(end - f[1]);
            nf = 2;
            if (ph == 'C' || ph == 'S' || ph == 'F') {
                const char *last = NULL;
                for (const char *x = f[1]; x < end; x++)
                    if (*x == '|')
                        last = x;
                if (last) {
                    len[1] = (size_t)(last - f[1]);
                    f[2] = last + 1;
                    len[2] = (size_t)(end - f[2]);
                    nf = 3;
                }
            }
        }
    }
    bool ok = true;
    int64_t tgid = nf >= 1 ? num_of(f[0], len[0], &ok) : 0;
    if (!ok)
        tgid = 0;
    switch (ph) {
    case 'B':
        if (nf < 2)
            return true;
        return aev_push(p, 'B', ts, tid, tgid, pf_str(p, (const uint8_t *)f[1], len[1]), 0, 0);
    case 'E':
        return aev_push(p, 'E', ts, tid, tgid, 0, 0, 0);
    case 'C': {
        if (nf < 3)
            return true;
        double v = dbl_of(f[2], len[2], &ok);
        if (!ok)
            return true;
        return aev_push(p, 'C', ts, tid, tgid, pf_str(p, (const uint8_t *)f[1], len[1]), v, 0);
    }
    case 'S':
    case 'F': {
        if (nf < 2)
            return true;
        int64_t cookie = nf >= 3 ? num_of(f[2], len[2], &ok) : 0;
        return aev_push(p, ph, ts, tid, tgid, pf_str(p, (const uint8_t *)f[1], len[1]), 0,
                        cookie);
    }
    default:
        return true;
    }
}

/* --- ftrace events ------------------------------------------------------------- */

struct zero {
    int64_t flag, pid, value;
    uint32_t name;
};

static bool sub_fields(struct pf *p, const struct tf_pb *msg, uint64_t *v, uint32_t *s,
                       size_t n)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num >= n)
            continue;
        if (f.wt == TF_PB_LEN)
            s[f.num] = pf_str(p, f.data, f.len);
        else
            v[f.num] = f.v;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

static bool cpu_counter(struct pf *p, size_t cpu, const char *what, int64_t ts, double v)
{
    char lab[32];
    struct tf_id lane;
    cpu_lane(cpu, lab, sizeof lab, &lane);
    char name[48];
    snprintf(name, sizeof name, "%s", what);
    return pf_counter(p, &lane, name, NULL, ts, v);
}

static bool ftrace_event(struct pf *p, uint64_t cpu, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    uint64_t raw_ts = 0;
    int64_t pid = 0;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            raw_ts = f.v;
        else if (f.num == 2 && f.wt == TF_PB_VARINT)
            pid = (int32_t)f.v;
    }
    if (k < 0)
        return pf_pb_fail(p, &r);
    int64_t ts = pf_time(p, 6, raw_ts);
    r = *msg;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt != TF_PB_LEN || f.num < 3)
            continue;
        tf_pb_sub(&sub, &r, &f);
        uint64_t v[8] = {0};
        uint32_t s[8] = {0};
        bool ok = true;
        switch (f.num) {
        case 3: { /* print */
            struct tf_pb q = sub;
            struct tf_pb_field g;
            int j;
            while ((j = tf_pb_next(&q, &g)) > 0)
                if (g.num == 2 && g.wt == TF_PB_LEN &&
                    !atrace_line(p, pid, (const char *)g.data, g.len, ts))
                    return false;
            if (j < 0)
                return pf_pb_fail(p, &q);
            break;
        }
        case 4: /* sched_switch: prev_comm 1, prev_pid 2, next_comm 5, next_pid 6 */
            ok = sub_fields(p, &sub, v, s, 8) &&
                 switch_to(p, cpu, ts, (int32_t)v[6], s[5]);
            if (ok && v[2] && s[1])
                pf_name_thread(p, (int32_t)v[2], -1, s[1], 1);
            break;
        case 11: /* cpu_frequency: state 1, cpu_id 2 */
            if (p->other_lanes)
                break; /* off when the figure has other lanes */
            ok = sub_fields(p, &sub, v, s, 3) && v[2] < MAX_CPUS &&
                 cpu_of(p, v[2]) && cpu_counter(p, (size_t)v[2], "cpufreq", ts, (double)v[1]);
            break;
        case 13: /* cpu_idle */
            if (p->other_lanes)
                break;
            ok = sub_fields(p, &sub, v, s, 3);
            if (ok && v[2] < MAX_CPUS && cpu_of(p, v[2]))
                ok = cpu_counter(p, (size_t)v[2], "cpuidle", ts,
                                 v[1] == 0xffffffffu ? -1.0 : (double)v[1]);
            break;
        case 235: /* task_newtask: pid 1, comm 2 */
            ok = sub_fields(p, &sub, v, s, 3);
            if (ok && s[2])
                pf_name_thread(p, (int32_t)v[1], -1, s[2], 1);
            break;
        case 236: /* task_rename: pid 1, newcomm 3 */
            ok = sub_fields(p, &sub, v, s, 4);
            if (ok && s[3])
                pf_name_thread(p, (int32_t)v[1], -1, s[3], 1);
            break;
        case 332: /* gpu_frequency: gpu_id 1, state 2; off as cpu_frequency is */
            if (p->other_lanes)
                break;
            ok = sub_fields(p, &sub, v, s, 3) && pf_gpu_frequency(p, (int64_t)v[1], ts, (double)v[2]);
            break;
        case 331: { /* zero: flag 1, name 2, pid 3 (tgid), value 4 */
            ok = sub_fields(p, &sub, v, s, 5);
            if (!ok)
                break;
            int64_t tgid = (int32_t)v[3];
            int flag = (int)v[1];
            if (flag == 1)
                ok = aev_push(p, 'B', ts, pid, tgid, s[2], 0, 0);
            else if (flag == 2)
                ok = aev_push(p, 'E', ts, pid, tgid, 0, 0, 0);
            else if (flag == 4)
                ok = aev_push(p, 'C', ts, pid, tgid, s[2], (double)(int64_t)v[4], 0);
            else if (flag == 8 || flag == 16)
                ok = aev_push(p, flag == 8 ? 'S' : 'F', ts, pid, tgid, s[2], 0, (int64_t)v[4]);
            break;
        }
        default:
            break;
        }
        if (!ok)
            return tf_diag_failed(p->d) ? false : tf_diag_oom(p->d, p->file);
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

/* --- compact_sched --------------------------------------------------------------- */

struct u64v {
    uint64_t *v;
    size_t n, cap;
};

static bool u64v_push(void *ctx, uint64_t x)
{
    struct u64v *a = ctx;
    if (!TF_GROW(a->v, a->n, a->cap))
        return false;
    a->v[a->n++] = x;
    return true;
}

static bool compact_sched(struct pf *p, uint64_t cpu, const struct tf_pb *msg)
{
    struct tf_pb r = *msg;
    struct tf_pb_field f;
    int k;
    struct u64v ts = {0}, pid = {0}, comm = {0}, strs = {0};
    bool ok = true;
    while (ok && (k = tf_pb_next(&r, &f)) > 0) {
        if (f.num == 1)
            ok = tf_pb_each(&f, 0, u64v_push, &ts);
        else if (f.num == 3)
            ok = tf_pb_each(&f, 0, u64v_push, &pid);
        else if (f.num == 6)
            ok = tf_pb_each(&f, 0, u64v_push, &comm);
        else if (f.num == 5 && f.wt == TF_PB_LEN)
            ok = u64v_push(&strs, pf_str(p, f.data, f.len));
        if (!ok && !tf_diag_failed(p->d))
            pf_bad(p, f.at, "compact_sched: a packed field is damaged");
    }
    if (ok && k < 0)
        ok = pf_pb_fail(p, &r);
    uint64_t t = 0;
    for (size_t i = 0; ok && i < ts.n; i++) {
        t += ts.v[i];
        int64_t next = i < pid.n ? (int32_t)pid.v[i] : 0;
        uint32_t c = i < comm.n && comm.v[i] < strs.n ? (uint32_t)strs.v[comm.v[i]] : 0;
        ok = switch_to(p, cpu, pf_time(p, 6, t), next, c);
    }
    free(ts.v);
    free(pid.v);
    free(comm.v);
    free(strs.v);
    return ok;
}

bool pf_ftrace_bundle(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f;
    int k;
    uint64_t cpu = 0;
    while ((k = tf_pb_next(&r, &f)) > 0)
        if (f.num == 1 && f.wt == TF_PB_VARINT)
            cpu = f.v;
    if (k < 0)
        return pf_pb_fail(p, &r);
    r = *msg;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&sub, &r, &f);
        if (f.num == 2 && !ftrace_event(p, cpu, &sub))
            return false;
        if (f.num == 4 && !compact_sched(p, cpu, &sub))
            return false;
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

bool pf_ftrace_lanes(const struct tf_pb *msg)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f, g;
    while (tf_pb_next(&r, &f) > 0) {
        if (f.num == 4 && f.wt == TF_PB_LEN)
            return true;
        if (f.num != 2 || f.wt != TF_PB_LEN)
            continue;
        tf_pb_sub(&sub, &r, &f);
        while (tf_pb_next(&sub, &g) > 0)
            if (g.wt == TF_PB_LEN && (g.num == 3 || g.num == 4 || g.num == 331))
                return true;
    }
    return false;
}

/* --- process_tree ---------------------------------------------------------------- */

bool pf_process_tree(struct pf *p, const struct tf_pb *msg)
{
    struct tf_pb r = *msg, sub;
    struct tf_pb_field f, g;
    int k, j;
    while ((k = tf_pb_next(&r, &f)) > 0) {
        if (f.wt != TF_PB_LEN || (f.num != 1 && f.num != 2))
            continue;
        tf_pb_sub(&sub, &r, &f);
        int64_t id = 0, tgid = -1;
        uint32_t name = 0;
        while ((j = tf_pb_next(&sub, &g)) > 0) {
            if (g.num == 1 && g.wt == TF_PB_VARINT)
                id = (int32_t)g.v;
            else if (f.num == 2 && g.num == 3 && g.wt == TF_PB_VARINT)
                tgid = (int32_t)g.v;
            else if (f.num == 2 && g.num == 2 && g.wt == TF_PB_LEN)
                name = pf_str(p, g.data, g.len);
            else if (f.num == 1 && g.num == 3 && g.wt == TF_PB_LEN && !name)
                name = pf_str(p, g.data, g.len);
        }
        if (j < 0)
            return pf_pb_fail(p, &sub);
        if (f.num == 1) {
            pf_name_proc(p, id, name, 1);
            pf_name_thread(p, id, id, 0, 2); /* its main thread */
        } else {
            pf_name_thread(p, id, tgid, name, 2);
        }
    }
    return k < 0 ? pf_pb_fail(p, &r) : true;
}

/* --- passes ---------------------------------------------------------------------- */

bool pf_ftrace_end(struct pf *p)
{
    if (!aev_flush(p, p->n_aev))
        return false;
    for (size_t i = 0; i < p->n_atr; i++) {
        struct tf_id pid, t;
        int64_t tid = p->atr_tid[i];
        if (tid < 0)
            continue; /* an async slice never finished: left out */
        atrace_lane(p, tid, 0, &pid, &t);
        while (p->atr[i].n)
            if (!pf_pop(p, &p->atr[i], &pid, &t, 0, true))
                return false;
    }
    return true;
}

void pf_ftrace_reset(struct pf *p)
{
    p->n_aev = 0;
    p->aev_seq = 0;
    for (size_t i = 0; i < p->n_cpus; i++)
        p->cpus[i].on = false;
    for (size_t i = 0; i < p->n_atr; i++) {
        for (size_t j = 0; j < p->atr[i].n; j++)
            free(p->atr[i].v[j].args);
        p->atr[i].n = 0;
    }
}
