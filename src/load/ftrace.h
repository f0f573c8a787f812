/* ftrace.h - the Linux kernel's ftrace text, as `cat
 * /sys/kernel/tracing/trace`, `trace-cmd report`, Android's atrace and
 * systrace write it, read by content, plain or gzip'd, line by line, into
 * the same records as a Perfetto trace's ftrace (pftrace.h): CPU lanes
 * "CPU N" from sched_switch, atrace marks (tracing_mark_write, print, and
 * Android 4.1's event "0") as thread slices, counters and async slices,
 * cpu_frequency / cpu_idle as the CPU lanes' counters, other events as
 * instants on their CPU's lane.
 *
 * Forms read:
 *   - text: `# tracer:` headers (or trace-cmd's `version = 6`, `cpus=N`),
 *     then lines `TASK-PID (TGID) [CPU] FLAGS TIMESTAMP: EVENT: FIELDS`,
 *     the TGID and FLAGS columns optional;
 *   - systrace HTML: the text of its `<script class="trace-data">` blocks
 *     (JSON blocks among them are the host's own and are passed over), or
 *     of the older JavaScript string `var linuxPerfData = "..."`;
 *   - a Chrome JSON trace's "systemTraceEvents" string (tf_ftrace_text_*,
 *     called by tef.c): drawn with the JSON's events on its clock (an
 *     atrace `trace_event_clock_sync: parent_ts=S` line maps the two).
 */
#ifndef TF_LOAD_FTRACE_H
#define TF_LOAD_FTRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/diag.h"
#include "load/input.h"
#include "model/trace.h"

/* Whether the first n bytes of a (decompressed) input begin ftrace text
 * or a systrace HTML page. */
bool tf_ftrace_looks(const unsigned char *head, size_t n);

/* Reads the trace from `in` (at offset 0; it is read three times) into
 * the generic mode's sink in keep->tef. */
bool tf_load_ftrace(struct tf_input *in, const char *file, const struct tf_keep *keep,
                    struct tf_trace *out, struct tf_diag *d);

/* A Chrome trace's "systemTraceEvents" string: `json` its bytes as
 * written (quotes and escapes).  NULL when out of memory or not a string
 * (said). */
struct tf_ftrace_text;
struct tf_ftrace_text *tf_ftrace_text_new(const char *file, const struct tf_tef_sink *sink,
                                          const unsigned char *json, size_t len,
                                          struct tf_diag *d);
/* Pass 1 (its records' idx from idx_base on), before the sink's window;
 * pass 2, before its finish.  No event line is no error. */
bool tf_ftrace_text_index(struct tf_ftrace_text *t, size_t idx_base);
bool tf_ftrace_text_collect(struct tf_ftrace_text *t, int64_t lo, int64_t hi);
void tf_ftrace_text_free(struct tf_ftrace_text *t);

#endif
