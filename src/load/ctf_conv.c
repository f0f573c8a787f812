/* ctf_conv.c - a CTF trace's events (ctf_int.h, in time order) as the
 * generic mode's records, in its two passes; see ctf.h for what becomes
 * what.  Names first: a walk over the events learns every thread's best
 * name and process (lttng_statedump_process_state and sched_process_fork
 * over the comms of sched_switch; procname for user space), so both
 * passes make the same records.
 *
 * CPU lanes, as pftrace_ftrace.c makes them from a Perfetto trace (the
 * same records: lane "CPU N", category "sched", args tid, pid and process,
 * a colour by process), so the mode's rules for a system trace apply.
 * Discarded events on a CPU end what ran at the loss; the range lost is a
 * slice of category TF_LOST_CAT (drawn hatched, never counted as busy), and
 * the next switch's prev_tid says who ran from the loss's end.
 *
 * Kernel detail (--kernel-detail): system calls, soft and hard interrupts
 * nest under the thread on its CPU's lane (B/E records of depth 2 and
 * more); a switch ends those still open (the thread blocked in its call).
 */
#include "load/ctf_int.h"

#include "load/cpu_runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"
#include "base/hash.h"

#define MAX_CPUS 4096
#define MAX_DETAIL 16

/* --- a u64 -> u64 map ----------------------------------------------------------- */

struct cmap {
    uint64_t *keys, *vals; /* keys stored + 1 (0: empty) */
    size_t cap, n;
};

static size_t slot(uint64_t k, size_t cap)
{
    k ^= k >> 33;
    k *= 0xff51afd7ed558ccdULL;
    k ^= k >> 33;
    return (size_t)k & (cap - 1);
}

static bool cmap_get(const struct cmap *m, uint64_t key, uint64_t *val)
{
    if (!m->cap)
        return false;
    for (size_t s = slot(key, m->cap); m->keys[s]; s = (s + 1) & (m->cap - 1))
        if (m->keys[s] == key + 1) {
            *val = m->vals[s];
            return true;
        }
    return false;
}

static bool cmap_put(struct cmap *m, uint64_t key, uint64_t val)
{
    if ((m->n + 1) * 2 > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        uint64_t *k = calloc(cap, sizeof *k), *v = malloc(cap * sizeof *v);
        if (!k || !v) {
            free(k);
            free(v);
            return false;
        }
        for (size_t i = 0; i < m->cap; i++)
            if (m->keys[i]) {
                size_t s = slot(m->keys[i] - 1, cap);
                while (k[s])
                    s = (s + 1) & (cap - 1);
                k[s] = m->keys[i];
                v[s] = m->vals[i];
            }
        free(m->keys);
        free(m->vals);
        m->keys = k;
        m->vals = v;
        m->cap = cap;
    }
    size_t s = slot(key, m->cap);
    while (m->keys[s] && m->keys[s] != key + 1)
        s = (s + 1) & (m->cap - 1);
    if (!m->keys[s])
        m->n++;
    m->keys[s] = key + 1;
    m->vals[s] = val;
    return true;
}

static void cmap_fini(struct cmap *m)
{
    free(m->keys);
    free(m->vals);
}

/* --- state ------------------------------------------------------------------------ */

struct thr {
    int64_t tid, tgid; /* tgid -1: unknown */
    uint32_t name;
    int rank;          /* 0 none, 1 a comm, 2 the statedump's, fork's or procname */
};

struct frame {
    uint32_t name, cat;
    uint32_t shown; /* the name drawn when not `name` (a ROS 2 callback's symbol), or 0 */
    int64_t ts;
    bool func;
};

struct lane {
    struct tf_id pid, tid;
    char pid_s[64], tid_s[64];
    struct frame *v;
    size_t n, cap;
    bool lost;         /* events were lost on it (named in the note) */
    uint32_t stream;   /* of its latest event */
};

struct cpu {
    bool on, unknown;  /* a thread switched in; who, unknown since a loss */
    int64_t tid, since;
    uint32_t comm;
    struct frame det[MAX_DETAIL];
    int kind[MAX_DETAIL]; /* CTF_SYS_IN, CTF_SOFT_IN, CTF_IRQ_IN */
    int n_det;
    bool seen, lost;
};

struct conv {
    struct ctf *x;
    const struct tf_tef_sink *sink;
    int pass;
    size_t idx;
    int64_t lo, hi;
    struct tf_buf args;
    struct cmap thr_of, lane_of;
    struct cmap sym_of; /* a ROS 2 callback's address -> its symbol's strtab id */
    struct thr *thrs;
    size_t n_thrs, cap_thrs;
    struct lane *lanes;
    size_t n_lanes, cap_lanes;
    struct cpu *cpus;
    size_t n_cpus;
    uint32_t c_sched, c_irq, c_soft, c_sys, c_ust, c_func;
    size_t n_events, n_open, n_unmatched;
};

static struct thr *thread(struct conv *v, int64_t tid)
{
    uint64_t k;
    if (cmap_get(&v->thr_of, (uint64_t)tid, &k))
        return &v->thrs[k];
    if (!TF_GROW(v->thrs, v->n_thrs, v->cap_thrs) || !cmap_put(&v->thr_of, (uint64_t)tid, v->n_thrs))
        return NULL;
    struct thr *t = &v->thrs[v->n_thrs++];
    *t = (struct thr){tid, -1, 0, 0};
    return t;
}

static bool name_thread(struct conv *v, int64_t tid, int64_t tgid, uint32_t name, int rank)
{
    struct thr *t = thread(v, tid);
    if (!t)
        return false;
    if (tgid >= 0 && (t->tgid < 0 || rank >= 2))
        t->tgid = tgid;
    if (name && rank >= t->rank) {
        t->name = name;
        t->rank = rank;
    }
    return true;
}

static const char *str(const struct conv *v, uint32_t id)
{
    return tf_strtab_str(&v->x->strs, id);
}

/* A process's name: its main thread's. */
static const char *proc_name(struct conv *v, int64_t pid)
{
    uint64_t k;
    if (pid >= 0 && cmap_get(&v->thr_of, (uint64_t)pid, &k) && v->thrs[k].name)
        return str(v, v->thrs[k].name);
    return NULL;
}

static struct cpu *cpu_of(struct conv *v, int32_t cpu)
{
    if (cpu < 0 || cpu >= MAX_CPUS)
        return NULL;
    if ((size_t)cpu >= v->n_cpus) {
        struct cpu *c = realloc(v->cpus, (size_t)(cpu + 1) * sizeof *c);
        if (!c)
            return NULL;
        memset(c + v->n_cpus, 0, ((size_t)(cpu + 1) - v->n_cpus) * sizeof *c);
        v->cpus = c;
        v->n_cpus = (size_t)cpu + 1;
    }
    return &v->cpus[cpu];
}

/* --- records ----------------------------------------------------------------------- */

static bool emit(struct conv *v, struct tf_tef_rec *r)
{
    r->idx = v->idx++;
    if (v->pass == 1 && r->kind != TF_TEF_META)
        v->n_events++;
    if (v->pass == 2) {
        if (r->kind == TF_TEF_META)
            return true;
        if (r->kind == TF_TEF_SLICE) {
            int64_t end = r->ts + (r->dur > 0 ? r->dur : 0);
            if (r->ts > v->hi || (!r->open_end && end < v->lo))
                return true;
        } else if (r->kind == TF_TEF_INSTANT && r->ts > v->hi) {
            return true;
        }
    }
    return tf_tef_emit(v->sink, v->pass, v->x->file, r, v->x->d);
}


/* The thread that ran on cpu since c->since ends at ts. */
static bool run_ends(struct conv *v, size_t cpu, struct cpu *c, int64_t ts)
{
    if (!c->on || c->unknown || c->tid == 0 || ts < c->since)
        return true;
    char lab[32];
    struct tf_id lane;
    tf_cpu_lane(cpu, lab, sizeof lab, &lane);
    struct thr *t = thread(v, c->tid);
    if (!t)
        return tf_diag_oom(v->x->d, v->x->file);
    int64_t tgid = t->tgid >= 0 ? t->tgid : c->tid;
    const char *pname = proc_name(v, tgid);
    struct tf_cpu_run run = {c->tid, tgid, c->since, ts, pname,
                             c->comm ? str(v, c->comm) : t->name ? str(v, t->name) : ""};
    struct tf_tef_rec r;
    char alt[32];
    if (!tf_cpu_run_rec(&run, v->pass, &lane, &v->args, alt, &r))
        return tf_diag_oom(v->x->d, v->x->file);
    /* coloured by process as the Perfetto loader colours it (Paul Tol's
     * muted scheme by the process's name, its pid when it has none) */
    static const uint32_t muted[] = {0xCC6677, 0x332288, 0xDDCC77, 0x117733, 0x88CCEE,
                                     0x882255, 0x44AA99, 0x999933, 0xAA4499};
    char pidtxt[24];
    snprintf(pidtxt, sizeof pidtxt, "%lld", (long long)tgid);
    const char *key = pname ? pname : pidtxt;
    r.has_rgb = true;
    r.rgb = muted[tf_fnv1a(key, strlen(key)) % (sizeof muted / sizeof muted[0])];
    return emit(v, &r);
}

/* A B/E slice on lane (pid, tid) from f to ts (open_end: never closed). */
static bool slice(struct conv *v, const struct tf_id *pid, const struct tf_id *tid,
                  const struct frame *f, int64_t ts, unsigned depth, bool open_end)
{
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'B';
    r.pid = *pid;
    r.tid = *tid;
    r.name = str(v, f->shown ? f->shown : f->name);
    r.cat = str(v, f->cat);
    r.ts = f->ts;
    r.dur = open_end || ts < f->ts ? 0 : ts - f->ts;
    r.has_dur = !open_end;
    r.open_end = open_end;
    r.depth = depth;
    v->n_open += open_end && v->pass == 1;
    return emit(v, &r);
}

/* The range [ts, end] lost on lane (pid, tid): a slice of category "lost". */
static bool lost_range(struct conv *v, const struct tf_id *pid, const struct tf_id *tid,
                       int64_t ts, int64_t end, uint64_t n)
{
    char name[48];
    snprintf(name, sizeof name, "%llu events lost", (unsigned long long)n);
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'X';
    r.pid = *pid;
    r.tid = *tid;
    r.name = name;
    r.cat = TF_LOST_CAT;
    r.ts = ts;
    r.dur = end > ts ? end - ts : 0;
    r.has_dur = true;
    r.has_rgb = true;
    r.rgb = TF_LOST_COLOR;
    return emit(v, &r);
}

/* --- the CPUs ---------------------------------------------------------------------- */

static bool detail_close(struct conv *v, size_t cpu, struct cpu *c, int down_to, int64_t ts)
{
    char lab[32];
    struct tf_id lane;
    tf_cpu_lane(cpu, lab, sizeof lab, &lane);
    while (c->n_det > down_to) {
        c->n_det--;
        if (!slice(v, &lane, &lane, &c->det[c->n_det], ts, (unsigned)c->n_det + 2, false))
            return false;
    }
    return true;
}

static bool on_switch(struct conv *v, const struct ctf_ev *e)
{
    struct cpu *c = cpu_of(v, e->cpu);
    if (!c)
        return e->cpu < 0 || e->cpu >= MAX_CPUS ? true : tf_diag_oom(v->x->d, v->x->file);
    size_t cpu = (size_t)e->cpu;
    c->seen = true;
    if (c->on && c->unknown) { /* after a loss: who ran is the one switched out */
        c->unknown = false;
        c->tid = e->a;
        c->comm = e->c;
    }
    if (!detail_close(v, cpu, c, 0, e->ts) || !run_ends(v, cpu, c, e->ts))
        return false;
    c->on = true;
    c->tid = e->b;
    c->since = e->ts;
    c->comm = e->name;
    return true;
}

static bool on_detail(struct conv *v, const struct ctf_ev *e)
{
    struct cpu *c = cpu_of(v, e->cpu);
    if (!c)
        return e->cpu < 0 || e->cpu >= MAX_CPUS ? true : tf_diag_oom(v->x->d, v->x->file);
    size_t cpu = (size_t)e->cpu;
    c->seen = true;
    int in = e->kind == CTF_SYS_IN || e->kind == CTF_SOFT_IN || e->kind == CTF_IRQ_IN;
    int open = e->kind == CTF_SYS_OUT ? CTF_SYS_IN : e->kind == CTF_SOFT_OUT ? CTF_SOFT_IN
                                                                              : CTF_IRQ_IN;
    if (in) {
        if (c->n_det == MAX_DETAIL)
            return true;
        uint32_t cat = e->kind == CTF_SYS_IN ? v->c_sys : e->kind == CTF_SOFT_IN ? v->c_soft
                                                                                 : v->c_irq;
        c->det[c->n_det] = (struct frame){.name = e->name, .cat = cat, .ts = e->ts};
        c->kind[c->n_det++] = e->kind;
        return true;
    }
    /* the innermost open frame of its kind, and any opened inside it */
    int i = c->n_det;
    while (i > 0 && c->kind[i - 1] != open)
        i--;
    if (i == 0) {
        v->n_unmatched += v->pass == 1;
        return true;
    }
    return detail_close(v, cpu, c, i - 1, e->ts);
}

/* --- user space -------------------------------------------------------------------- */

/* The lane of a user-space event: its thread (vtid), else its stream. */
static struct lane *lane_of(struct conv *v, const struct ctf_ev *e)
{
    const struct ctf_stream *st = &v->x->streams[e->stream];
    uint64_t key = e->tid >= 0 ? (uint64_t)e->tid : ((uint64_t)1 << 63) | e->stream;
    uint64_t k;
    if (cmap_get(&v->lane_of, key, &k))
        return &v->lanes[k];
    if (!TF_GROW(v->lanes, v->n_lanes, v->cap_lanes) || !cmap_put(&v->lane_of, key, v->n_lanes))
        return NULL;
    struct lane *ln = &v->lanes[v->n_lanes++];
    memset(ln, 0, sizeof *ln);
    if (e->tid >= 0) {
        struct thr *t = thread(v, e->tid);
        int64_t pid = e->pid >= 0 ? e->pid : t && t->tgid >= 0 ? t->tgid : e->tid;
        ln->pid = (struct tf_id){TF_ID_NUM, pid, NULL};
        ln->tid = (struct tf_id){TF_ID_NUM, e->tid, NULL};
    } else {
        const char *tn = str(v, st->trace);
        snprintf(ln->pid_s, sizeof ln->pid_s, "%s", *tn ? tn : "trace");
        snprintf(ln->tid_s, sizeof ln->tid_s, "%s", str(v, st->name));
        ln->pid = (struct tf_id){TF_ID_STR, 0, ln->pid_s};
        ln->tid = (struct tf_id){TF_ID_STR, 0, ln->tid_s};
    }
    return ln;
}

static bool on_user(struct conv *v, const struct ctf_ev *e)
{
    struct lane *ln = lane_of(v, e);
    if (!ln)
        return tf_diag_oom(v->x->d, v->x->file);
    ln->stream = e->stream;
    if (e->kind == CTF_INSTANT) {
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_INSTANT;
        r.ph = 'i';
        r.scope = 't';
        r.pid = ln->pid;
        r.tid = ln->tid;
        r.name = str(v, e->name);
        r.cat = str(v, v->c_ust);
        r.ts = e->ts;
        return emit(v, &r);
    }
    if (e->kind == CTF_BEGIN) {
        if (!TF_GROW(ln->v, ln->n, ln->cap))
            return tf_diag_oom(v->x->d, v->x->file);
        uint64_t sym = 0;
        if (e->func == 2)
            cmap_get(&v->sym_of, (uint64_t)e->a, &sym);
        bool func = e->func == 1;
        ln->v[ln->n++] =
            (struct frame){e->name, func ? v->c_func : v->c_ust, (uint32_t)sym, e->ts, func};
        return true;
    }
    /* an end: the innermost open frame of its pair */
    size_t i = ln->n;
    while (i > 0 && (e->func == 1 ? !ln->v[i - 1].func : ln->v[i - 1].name != e->name))
        i--;
    if (i == 0) {
        v->n_unmatched += v->pass == 1;
        return true;
    }
    struct frame f = ln->v[i - 1];
    memmove(ln->v + i - 1, ln->v + i, (ln->n - i) * sizeof *ln->v);
    ln->n--;
    return slice(v, &ln->pid, &ln->tid, &f, e->ts, (unsigned)i, false);
}

/* --- lost events ------------------------------------------------------------------- */

static bool on_lost(struct conv *v, const struct ctf_ev *e)
{
    const struct ctf_stream *st = &v->x->streams[e->stream];
    if (st->kernel) {
        struct cpu *c = cpu_of(v, e->cpu);
        if (!c)
            return e->cpu < 0 || e->cpu >= MAX_CPUS ? true : tf_diag_oom(v->x->d, v->x->file);
        size_t cpu = (size_t)e->cpu;
        c->seen = c->lost = true;
        if (!detail_close(v, cpu, c, 0, e->ts) || !run_ends(v, cpu, c, e->ts))
            return false;
        char lab[32];
        struct tf_id lane;
        tf_cpu_lane(cpu, lab, sizeof lab, &lane);
        c->on = c->unknown = true;
        c->since = e->b;
        return lost_range(v, &lane, &lane, e->ts, e->b, (uint64_t)e->a);
    }
    /* user space: on each lane this stream fed last */
    for (size_t i = 0; i < v->n_lanes; i++) {
        struct lane *ln = &v->lanes[i];
        if (ln->stream != e->stream)
            continue;
        ln->lost = true;
        if (!lost_range(v, &ln->pid, &ln->tid, e->ts, e->b, (uint64_t)e->a))
            return false;
    }
    return true;
}

/* --- names ------------------------------------------------------------------------- */

static bool learn_names(struct conv *v)
{
    const struct ctf *x = v->x;
    for (size_t i = 0; i < x->n_ev; i++) {
        const struct ctf_ev *e = &x->ev[i];
        bool ok = true;
        if (e->kind == CTF_NAME)
            ok = name_thread(v, e->a, e->b, e->name, 2);
        else if (e->kind == CTF_SWITCH) {
            ok = (!e->b || name_thread(v, e->b, -1, e->name, 1)) &&
                 (!e->a || name_thread(v, e->a, -1, e->c, 1));
        }
        if (!ok)
            return tf_diag_oom(x->d, x->file);
    }
    return true;
}

static bool names(struct conv *v)
{
    struct tf_tef_rec r;
    struct tf_buf b;
    tf_buf_init(&b);
    struct cmap named;
    memset(&named, 0, sizeof named);
    bool ok = true;
    for (size_t i = 0; ok && i < v->n_thrs; i++) {
        const struct thr *t = &v->thrs[i];
        if (!t->name)
            continue;
        int64_t pid = t->tgid >= 0 ? t->tgid : t->tid;
        struct tf_id p = {TF_ID_NUM, pid, NULL}, tid = {TF_ID_NUM, t->tid, NULL};
        /* a process is named by its main thread, else (user space, whose
         * vpid is no vtid of the trace) by its first thread named */
        uint64_t seen;
        if (pid == t->tid || (!proc_name(v, pid) && !cmap_get(&named, (uint64_t)pid, &seen))) {
            if (!cmap_put(&named, (uint64_t)pid, 1)) {
                ok = tf_diag_oom(v->x->d, v->x->file);
                break;
            }
            ok = tf_tef_name_rec(&r, &b, "process_name", &p, NULL, str(v, t->name))
                     ? emit(v, &r)
                     : tf_diag_oom(v->x->d, v->x->file);
            if (!ok)
                break;
        }
        ok = tf_tef_name_rec(&r, &b, "thread_name", &p, &tid, str(v, t->name))
                 ? emit(v, &r)
                 : tf_diag_oom(v->x->d, v->x->file);
    }
    /* CPU lanes after every thread, as the Perfetto loader orders them */
    for (size_t i = 0; ok && i < v->n_cpus; i++) {
        if (!v->cpus[i].seen)
            continue;
        char lab[32];
        struct tf_id pid;
        tf_cpu_lane(i, lab, sizeof lab, &pid);
        tf_buf_clear(&b);
        tf_buf_printf(&b, "{\"sort_index\":%zu}", 1000000 + i);
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_META;
        r.ph = 'M';
        r.name = "process_sort_index";
        r.pid = pid;
        r.args = (const unsigned char *)b.data;
        r.args_len = b.len;
        ok = b.oom ? tf_diag_oom(v->x->d, v->x->file) : emit(v, &r);
    }
    tf_buf_fini(&b);
    cmap_fini(&named);
    return ok;
}

/* --- the passes -------------------------------------------------------------------- */

static void reset(struct conv *v)
{
    v->idx = 0;
    for (size_t i = 0; i < v->n_cpus; i++) {
        v->cpus[i].on = v->cpus[i].unknown = false;
        v->cpus[i].n_det = 0;
    }
    for (size_t i = 0; i < v->n_lanes; i++)
        v->lanes[i].n = 0;
}

static bool run_pass(struct conv *v, int pass)
{
    reset(v);
    v->pass = pass;
    const struct ctf *x = v->x;
    bool ok = pass != 1 || names(v);
    for (size_t i = 0; ok && i < x->n_ev; i++) {
        const struct ctf_ev *e = &x->ev[i];
        switch (e->kind) {
        case CTF_SWITCH: ok = on_switch(v, e); break;
        case CTF_NAME: break;
        case CTF_SYMBOL:
            ok = cmap_put(&v->sym_of, (uint64_t)e->a, e->name) || tf_diag_oom(x->d, x->file);
            break;
        case CTF_LOST: ok = on_lost(v, e); break;
        case CTF_BEGIN:
        case CTF_END:
        case CTF_INSTANT: ok = on_user(v, e); break;
        default: ok = on_detail(v, e); break;
        }
    }
    /* what never ended: a CPU's last thread is not drawn (nothing says
     * until when), a user-space slice runs to the end */
    for (size_t i = 0; ok && i < v->n_lanes; i++) {
        struct lane *ln = &v->lanes[i];
        while (ok && ln->n) {
            ln->n--;
            ok = slice(v, &ln->pid, &ln->tid, &ln->v[ln->n], 0, (unsigned)ln->n + 1, true);
        }
    }
    return ok;
}

/* The note naming the lanes where events were lost. */
static bool lost_note(struct conv *v)
{
    struct tf_buf b;
    tf_buf_init(&b);
    size_t n = 0;
    for (size_t i = 0; i < v->n_cpus; i++)
        if (v->cpus[i].lost)
            tf_buf_printf(&b, "%sCPU %zu", n++ ? ", " : "", i);
    for (size_t i = 0; i < v->n_lanes; i++) {
        if (!v->lanes[i].lost)
            continue;
        if (v->lanes[i].tid.kind == TF_ID_STR)
            tf_buf_printf(&b, "%s%s", n++ ? ", " : "", v->lanes[i].tid.str);
        else
            tf_buf_printf(&b, "%sthread %lld", n++ ? ", " : "", v->lanes[i].tid.num);
    }
    bool ok = true;
    if (n) {
        char *lanes = b.data ? strdup(b.data) : NULL;
        tf_buf_clear(&b);
        tf_buf_printf(&b, "events lost (hatched) on %s", lanes ? lanes : "");
        free(lanes);
        struct tf_tef_rec r;
        memset(&r, 0, sizeof r);
        r.kind = TF_TEF_NOTE;
        r.name = b.data;
        ok = b.oom ? tf_diag_oom(v->x->d, v->x->file) : emit(v, &r);
    }
    tf_buf_fini(&b);
    return ok;
}

static void conv_free(struct conv *v)
{
    tf_buf_fini(&v->args);
    cmap_fini(&v->thr_of);
    cmap_fini(&v->lane_of);
    cmap_fini(&v->sym_of);
    for (size_t i = 0; i < v->n_lanes; i++)
        free(v->lanes[i].v);
    free(v->lanes);
    free(v->thrs);
    free(v->cpus);
}

bool tf_ctf_convert(struct ctf *x, const struct tf_tef_sink *sink)
{
    struct conv v;
    memset(&v, 0, sizeof v);
    v.x = x;
    v.sink = sink;
    tf_buf_init(&v.args);
    v.c_sched = tf_ctf_str(x, "sched");
    v.c_irq = tf_ctf_str(x, "irq");
    v.c_soft = tf_ctf_str(x, "softirq");
    v.c_sys = tf_ctf_str(x, "syscall");
    v.c_ust = tf_ctf_str(x, "user space");
    v.c_func = tf_ctf_str(x, "function");
    struct tf_diag *d = x->d;
    bool ok = learn_names(&v) && run_pass(&v, 1) && lost_note(&v);
    if (ok && v.n_events == 0)
        ok = tf_diag_error(d, TF_EBADINPUT,
                           "%s: a CTF trace with no event to draw (no sched_switch, no "
                           "user-space event%s)",
                           x->file,
                           x->n_lost || x->n_lost_packets ? "; its events were all lost" : "");
    if (ok) {
        v.lo = INT64_MIN;
        v.hi = INT64_MAX;
        if (sink->window && !sink->window(sink->ctx, &v.lo, &v.hi, d)) {
            tf_diag_prefix(d, x->file);
            ok = false;
        }
    }
    ok = ok && run_pass(&v, 2);
    if (ok && sink->finish && !sink->finish(sink->ctx, d)) {
        tf_diag_prefix(d, x->file);
        ok = false;
    }
    if (ok && x->n_lost_packets)
        tf_diag_warn(d, "%s: %llu events and %llu packets were discarded by the tracer (lost): "
                        "their ranges are drawn hatched",
                     x->file, (unsigned long long)x->n_lost,
                     (unsigned long long)x->n_lost_packets);
    else if (ok && x->n_lost)
        tf_diag_warn(d, "%s: %llu events were discarded by the tracer (lost): their ranges are "
                        "drawn hatched",
                     x->file, (unsigned long long)x->n_lost);
    else if (ok && v.n_open)
        tf_diag_warn(d, "%s: %zu slice%s never ended: drawn to the window's end", x->file,
                     v.n_open, v.n_open == 1 ? "" : "s");
    conv_free(&v);
    return ok;
}
