/* ctf.h - CTF traces (LTTng kernel and user space, perf data convert
 * --to-ctf, barectf, DPDK), read through libbabeltrace2 (loaded when
 * first needed) for the generic mode.
 *
 * What becomes what.  A kernel trace's sched_switch events (the CPU from
 * the packet context's cpu_id, or perf's perf_cpu) make lanes "CPU N" as
 * the Perfetto loader's ftrace does: each switched-in thread's time a
 * slice named by its comm, coloured by its process, idle (tid 0) left
 * empty; names from lttng_statedump_process_state, sched_process_fork and
 * the comms.  With --kernel-detail, interrupts and system calls nest as
 * rows under each CPU.  A user-space trace gets a lane per thread (vtid;
 * without one, per stream): entry/exit pairs as slices (cyg-profile
 * functions by address, *_entry/_exit, *_begin/_end, *.begin/.end,
 * *_start/_end), other events as instants.  Discarded events are counted
 * in one warning, and their ranges are drawn as such, on the lanes named
 * in a note.
 */
#ifndef TF_LOAD_CTF_H
#define TF_LOAD_CTF_H

#include <stdbool.h>

#include "base/diag.h"
#include "model/trace.h"

/* Whether `path` names a CTF trace: a folder with a metadata file (or
 * folders below it with some: an LTTng session), or a metadata file;
 * recognised by the metadata's content. */
bool tf_ctf_is_trace(const char *path);

/* Reads the trace at `path` into the generic mode's sink in keep->tef;
 * `file` names it in messages.  Failures are one message naming it. */
bool tf_load_ctf(const char *path, const char *file, const struct tf_keep *keep,
                 struct tf_trace *out, struct tf_diag *d);

#endif
