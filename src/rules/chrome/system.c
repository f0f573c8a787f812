/* system.c - the generic Chrome mode's rules for a system trace: one whose
 * CPU lanes ("CPU N", slices of category "sched", each the thread that ran
 * and args.process its process) show the kernel's scheduling.  The same
 * rules for every loader that gives CPU lanes (Perfetto's, LTTng's, ftrace
 * text's): they read the trace model only, namely the CPU lanes, the
 * process of each thread, and its parent's pid when the loader knows the
 * process tree (model/trace.h: has_ppid on a process's name record).
 *
 * Lanes.  Beside the CPUs a figure has room for a few threads: those whose
 * slices cover the most time in the window, the kernel's threads after the
 * users' of the same time (lanes.c keeps the ones picked in the author's
 * order, under their processes).  A kernel thread is a child of kthreadd
 * (pid 2) or kthreadd itself; where the trace has no process tree, one
 * named like the kernel's (kernel_names: kworker/N:M, sugov:N, ...).
 *
 * Counters.  A system trace has hundreds of counter tracks; those that
 * vary the most in the window come first (counters.c measures each track's
 * variation: its time-weighted standard deviation over its largest
 * magnitude), and by default none when the CPU lanes and the threads
 * already fill the figure.
 *
 * Colours.  A CPU lane's slice is of its process's class (rows.c), so a
 * dense span's shares are processes.  The processes with the most CPU
 * time in the window (c->cpu: what --stats lists as cpu_processes) each
 * get a colour of their own and a legend entry, at most
 * TF_CHROME_LEGEND_PROCS; the others share one grey, "other processes".
 * colors.c asks this file which class a process is.  Idle time is no
 * slice: it stays empty.
 *
 * Nothing here calls the mode's other files: lanes.c and colors.c call it.
 */
#include "rules/chrome/chrome_int.h"

#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "rules/ivfold.h"

bool tf_chrome_cpu_lane(const struct chrome *c, size_t i)
{
    const struct tf_id *pid = &c->procs[c->thrs[c->lanes[i].thread].proc].pid;
    if (pid->kind != TF_ID_STR || strncmp(pid->str, "CPU ", 4) != 0 || !pid->str[4])
        return false;
    for (const char *q = pid->str + 4; *q; q++)
        if (*q < '0' || *q > '9')
            return false;
    return true;
}

/* The names of the kernel's threads, where the trace has no process tree. */
static const char *const kernel_names[] = {
    "kworker/*", "sugov:*", "ksoftirqd/*", "migration/*", "irq/*",
};

bool tf_chrome_kernel_thread(const struct chrome *c, size_t t)
{
    const struct thr *th = &c->thrs[t];
    const struct proc *p = &c->procs[th->proc];
    if (p->pid.kind == TF_ID_NUM && p->pid.num == 2)
        return true; /* kthreadd */
    if (p->has_ppid)
        return p->ppid == 2;
    const char *name = th->name ? th->name : p->name;
    if (!name)
        return false;
    for (size_t i = 0; i < sizeof kernel_names / sizeof kernel_names[0]; i++)
        if (fnmatch(kernel_names[i], name, 0) == 0)
            return true;
    return false;
}

int64_t tf_chrome_lane_busy(struct chrome *c, size_t i)
{
    struct lane *ln = &c->lanes[i];
    if (ln->counter)
        return 0;
    if (!ln->busy_sorted) {
        tf_ivset_normalize(&ln->busy);
        ln->busy_sorted = true;
    }
    int64_t ns = c->fold.any ? tf_ivfold_len(&c->fold, (uint32_t)i) : 0;
    if (!c->fine_decided)
        tf_chrome_busy_ticks(c);
    for (size_t k = 0; k < ln->busy.n; k++) { /* in busy ticks (stats.c) */
        int64_t lo = ln->busy.v[k].lo > c->bw0 ? ln->busy.v[k].lo : c->bw0;
        int64_t hi = ln->busy.v[k].hi < c->bw1 ? ln->busy.v[k].hi : c->bw1;
        if (hi > lo)
            ns += hi - lo;
    }
    return ns;
}

struct ranked {
    size_t lane, pos;
    int64_t busy;
    double vary;
    bool kernel;
};

/* Most busy first, then the users' threads, then the author's order. */
static int by_busy(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;
    if (a->busy != b->busy)
        return a->busy > b->busy ? -1 : 1;
    if (a->kernel != b->kernel)
        return a->kernel ? 1 : -1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

/* Most varying first, then the author's order. */
static int by_vary(const void *x, const void *y)
{
    const struct ranked *a = x, *b = y;
    if (a->vary != b->vary)
        return a->vary > b->vary ? -1 : 1;
    return (a->pos > b->pos) - (a->pos < b->pos);
}

bool tf_chrome_system_keep(struct chrome *c, const size_t *lanes, size_t n, size_t room,
                           bool counters, bool *keep)
{
    struct ranked *v = malloc((n ? n : 1) * sizeof *v);
    if (!v)
        return false;
    for (size_t i = 0; i < n; i++) {
        const struct lane *ln = &c->lanes[lanes[i]];
        v[i] = (struct ranked){.lane = i, .pos = i};
        if (counters)
            v[i].vary = ln->vary;
        else {
            v[i].busy = tf_chrome_lane_busy(c, lanes[i]);
            v[i].kernel = tf_chrome_kernel_thread(c, ln->thread);
        }
        keep[i] = false;
    }
    if (n > 1)
        qsort(v, n, sizeof *v, counters ? by_vary : by_busy);
    for (size_t i = 0; i < n && i < room; i++)
        keep[v[i].lane] = true;
    free(v);
    return true;
}

/* --- the CPU lanes' colours ------------------------------------------------------ */

static int by_cpu_time(const void *x, const void *y)
{
    const struct cpu_time *a = x, *b = y;
    if (a->ns != b->ns)
        return a->ns > b->ns ? -1 : 1;
    return (a->proc > b->proc) - (a->proc < b->proc);
}

size_t tf_chrome_cpu_rank(const struct chrome *c, uint32_t cls, int64_t *ns)
{
    if (cls >= c->n_cpu_of_str || !c->cpu_of_str[cls])
        return SIZE_MAX;
    const struct cpu_time *me = &c->cpu[c->cpu_of_str[cls] - 1];
    *ns = me->ns;
    size_t before = 0;
    for (size_t k = 0; k < c->n_cpu; k++)
        before += by_cpu_time(&c->cpu[k], me) < 0;
    return before;
}

bool tf_chrome_cpu_class(const struct chrome *c, uint32_t cls)
{
    return cls < c->n_cpu_of_str && c->cpu_of_str[cls];
}
