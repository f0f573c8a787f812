/* cpu_runs.h - what the loaders of system traces (Perfetto's ftrace,
 * ftrace text, CTF kernel traces) share of a CPU lane: its id and the
 * record of a thread's run on it, so the lanes and their slices are the
 * same whatever read them. */
#ifndef TF_LOAD_CPU_RUNS_H
#define TF_LOAD_CPU_RUNS_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "model/trace.h"

/* The lane "CPU n": its label in lab[n] and its id (pointing at lab). */
void tf_cpu_lane(size_t cpu, char *lab, size_t n, struct tf_id *id);

/* A thread's run on a CPU, from since to end. */
struct tf_cpu_run {
    int64_t tid, tgid;   /* the thread and its process (tgid: the tid when unknown) */
    int64_t since, end;
    const char *process; /* the process's name, or NULL */
    const char *comm;    /* the thread's name, or "" */
};

/* The run's slice on lane into r: named by its comm ("tid N" without one,
 * written in alt), category "sched"; in pass 2 its args
 * {"tid","pid","process"} written in args.  False: out of memory. */
bool tf_cpu_run_rec(const struct tf_cpu_run *run, int pass, const struct tf_id *lane,
                    struct tf_buf *args, char alt[32], struct tf_tef_rec *r);

#endif
