/* pftrace.h - Perfetto's protobuf traces (.perfetto-trace, .pftrace, .pb:
 * Android's traced, the Perfetto SDK, Rust's tracing-perfetto, ...), read
 * by content, plain or gzip'd, as a stream of TracePackets (pb.h reads the
 * wire format; no protobuf library) and handed to the generic mode's sink
 * as a Chrome trace's records would be (model/trace.h).
 *
 * What becomes what:
 *   - track events (TracePacket.track_event) on their track
 *     (track_uuid, else the sequence's trace_packet_defaults): a thread
 *     track's on the thread's lane "process / thread"; a custom track's on
 *     a lane named by it and the custom tracks above it (parent_uuid),
 *     under the process or thread it hangs from, else on its own;
 *     SLICE_BEGIN/END pairs per track as slices, INSTANT as instants,
 *     COUNTER (and extra counter values) as counter samples of the track;
 *     names and categories inline or interned per sequence
 *     (trusted_packet_sequence_id; SEQ_INCREMENTAL_STATE_CLEARED drops the
 *     tables); debug annotations as the slice's args (tooltips); flow_ids
 *     and terminating_flow_ids as flows (--flows); legacy events (B, E, X,
 *     I, i, C) as their JSON would be;
 *   - ftrace: sched_switch and compact_sched as lanes "CPU 0".."CPU N",
 *     the running thread a slice named by its comm in its process's
 *     category, the idle task (pid 0) no slice; atrace (B|, E|, C|, S|, F|
 *     in print and zero events) as slices and counters on their threads
 *     and processes; cpu_frequency and cpu_idle as counters of the CPU
 *     lanes ("cpufreq", "cpuidle");
 *   - process_tree, track descriptors and comms name processes and threads;
 *   - GPU counters (gpu_counter_event) as counters of "GPU N", the ftrace
 *     gpu_frequency event as its "gpufreq" (off as cpu_frequency is), and
 *     render stages (gpu_render_stage_event) as slices on "GPU N / QUEUE".
 * Times are ns on the trace clock (BOOTTIME unless a ClockSnapshot names
 * another), converted through the snapshots; --from/--to count from the
 * first drawable event.
 */
#ifndef TF_LOAD_PFTRACE_H
#define TF_LOAD_PFTRACE_H

#include <stdbool.h>
#include <stddef.h>

#include "base/diag.h"
#include "load/input.h"
#include "model/trace.h"

/* Whether the first n bytes of a (decompressed) input begin a Perfetto
 * trace: a field-1 length-delimited packet whose first field is a
 * plausible tag, and not text. */
bool tf_pftrace_looks(const unsigned char *head, size_t n);

/* Reads the trace from `in` (at offset 0; it is read twice) into the
 * generic mode's sink in keep->tef. */
bool tf_load_pftrace(struct tf_input *in, const char *file, const struct tf_keep *keep,
                     struct tf_trace *out, struct tf_diag *d);

#endif
