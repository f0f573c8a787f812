/* cpu_runs.c - a CPU lane and a thread's run on it; see cpu_runs.h. */
#include "load/cpu_runs.h"

#include <stdio.h>
#include <string.h>

#include "base/escape.h"

void tf_cpu_lane(size_t cpu, char *lab, size_t n, struct tf_id *id)
{
    snprintf(lab, n, "CPU %zu", cpu);
    *id = (struct tf_id){TF_ID_STR, 0, lab};
}

bool tf_cpu_run_rec(const struct tf_cpu_run *run, int pass, const struct tf_id *lane,
                    struct tf_buf *args, char alt[32], struct tf_tef_rec *r)
{
    if (pass == 2) {
        tf_buf_clear(args);
        tf_buf_printf(args, "{\"tid\":%lld,\"pid\":%lld", (long long)run->tid,
                      (long long)run->tgid);
        if (run->process) {
            tf_buf_puts(args, ",\"process\":");
            tf_buf_json_str(args, run->process);
        }
        tf_buf_putc(args, '}');
        if (args->oom)
            return false;
    }
    const char *comm = run->comm ? run->comm : "";
    if (!*comm) {
        snprintf(alt, 32, "tid %lld", (long long)run->tid);
        comm = alt;
    }
    memset(r, 0, sizeof *r);
    r->kind = TF_TEF_SLICE;
    r->ph = 'X';
    r->pid = *lane;
    r->tid = *lane;
    r->name = comm;
    r->cat = "sched";
    r->ts = run->since;
    r->dur = run->end - run->since;
    r->has_dur = true;
    if (pass == 2) {
        r->args = (const unsigned char *)args->data;
        r->args_len = args->len;
    }
    return true;
}
