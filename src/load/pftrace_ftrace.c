/* pftrace_ftrace.c - the Linux kernel's view in a Perfetto trace: ftrace
 * bundles (sched_switch, compact_sched, print and zero events carrying
 * atrace, cpu_frequency, cpu_idle, task_newtask / task_rename comms) and
 * process_tree (names, and each process's parent: model/trace.h's
 * has_ppid); see pftrace.h (what becomes what).
 *
 * CPU lanes.  Each CPU remembers the task it last switched in and since
 * when; the next switch on that CPU ends it: a slice on lane "CPU N" named
 * by the task's comm, in its process's category, unless it is the idle
 * task (pid 0).  Time before a CPU's first switch, and after its last, is
 * not drawn (nothing says what ran).
 *
 * Atrace (print and zero events) is read by atrace.c, which the ftrace
 * text loader shares.  GPU counters, frequencies and render stages are
 * pftrace_gpu.c's.
 */
#include "load/pftrace_int.h"

#include "load/cpu_runs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/escape.h"

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
    tf_cpu_lane(cpu, lab, sizeof lab, &lane);
    const struct pf_thread *t = pf_thread(p, c->tid);
    if (!t)
        return tf_diag_oom(p->d, p->file);
    int64_t tgid = t->tgid >= 0 ? t->tgid : c->tid;
    /* (coloured by process, and named in the legend, by the rules: one
     * colour for each process of the most CPU time, rules/chrome/system.c) */
    struct tf_cpu_run run = {c->tid, tgid, c->since, ts, pf_proc_name(p, tgid),
                             c->comm ? pf_s(p, c->comm) : t->name ? pf_s(p, t->name) : ""};
    struct tf_tef_rec r;
    char alt[32];
    if (!tf_cpu_run_rec(&run, p->pass, &lane, &p->args, alt, &r))
        return tf_diag_oom(p->d, p->file);
    return pf_emit(p, &r);
}

bool pf_sched_switch(struct pf *p, uint64_t cpu, int64_t ts, int64_t next, uint32_t comm)
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

bool pf_cpu_lost(struct pf *p, uint64_t cpu, int64_t from, int64_t to, uint64_t n)
{
    struct pf_cpu *c = cpu_of(p, cpu);
    if (!c)
        return cpu >= MAX_CPUS ? true : tf_diag_oom(p->d, p->file);
    if (!run_ends(p, (size_t)cpu, c, from))
        return false;
    c->on = false;
    if (to <= from)
        return true; /* lost between two events of one time: no range */
    char lab[32], name[48];
    struct tf_id lane;
    tf_cpu_lane((size_t)cpu, lab, sizeof lab, &lane);
    if (n)
        snprintf(name, sizeof name, "%llu events lost", (unsigned long long)n);
    else
        snprintf(name, sizeof name, "events lost");
    struct tf_tef_rec r;
    memset(&r, 0, sizeof r);
    r.kind = TF_TEF_SLICE;
    r.ph = 'X';
    r.pid = lane;
    r.tid = lane;
    r.name = name;
    r.cat = TF_LOST_CAT;
    r.ts = from;
    r.dur = to > from ? to - from : 0;
    r.has_dur = true;
    r.has_rgb = true;
    r.rgb = TF_LOST_COLOR;
    return pf_emit(p, &r);
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

bool pf_cpu_counter(struct pf *p, uint64_t cpu, const char *what, int64_t ts, double v)
{
    if (cpu >= MAX_CPUS)
        return true;
    if (!cpu_of(p, cpu))
        return tf_diag_oom(p->d, p->file);
    char lab[32];
    struct tf_id lane;
    tf_cpu_lane((size_t)cpu, lab, sizeof lab, &lane);
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
                    !pf_atrace_line(p, pid, (const char *)g.data, g.len, ts))
                    return false;
            if (j < 0)
                return pf_pb_fail(p, &q);
            break;
        }
        case 4: /* sched_switch: prev_comm 1, prev_pid 2, next_comm 5, next_pid 6 */
            ok = sub_fields(p, &sub, v, s, 8) &&
                 pf_sched_switch(p, cpu, ts, (int32_t)v[6], s[5]);
            if (ok && v[2] && s[1])
                pf_name_thread(p, (int32_t)v[2], -1, s[1], 1);
            break;
        case 11: /* cpu_frequency: state 1, cpu_id 2 */
            if (p->other_lanes)
                break; /* off when the figure has other lanes */
            ok = sub_fields(p, &sub, v, s, 3) && pf_cpu_counter(p, v[2], "cpufreq", ts, (double)v[1]);
            break;
        case 13: /* cpu_idle */
            if (p->other_lanes)
                break;
            ok = sub_fields(p, &sub, v, s, 3);
            if (ok)
                ok = pf_cpu_counter(p, v[2], "cpuidle", ts,
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
                ok = pf_atrace_push(p, 'B', ts, pid, tgid, s[2], 0, 0);
            else if (flag == 2)
                ok = pf_atrace_push(p, 'E', ts, pid, tgid, 0, 0, 0);
            else if (flag == 4)
                ok = pf_atrace_push(p, 'C', ts, pid, tgid, s[2], (double)(int64_t)v[4], 0);
            else if (flag == 8 || flag == 16)
                ok = pf_atrace_push(p, flag == 8 ? 'S' : 'F', ts, pid, tgid, s[2], 0, (int64_t)v[4]);
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
        ok = pf_sched_switch(p, cpu, pf_time(p, 6, t), next, c);
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
        int64_t id = 0, tgid = -1, ppid = -1;
        uint32_t name = 0;
        while ((j = tf_pb_next(&sub, &g)) > 0) {
            if (g.num == 1 && g.wt == TF_PB_VARINT)
                id = (int32_t)g.v;
            else if (f.num == 1 && g.num == 2 && g.wt == TF_PB_VARINT)
                ppid = (int32_t)g.v;
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
            struct pf_proc *pr = ppid >= 0 ? pf_proc(p, id) : NULL;
            if (pr) { /* the rules tell the kernel's threads by it */
                pr->has_ppid = true;
                pr->ppid = ppid;
            }
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
    return pf_atrace_end(p);
}

void pf_ftrace_reset(struct pf *p)
{
    for (size_t i = 0; i < p->n_cpus; i++)
        p->cpus[i].on = false;
    pf_atrace_reset(p);
}
