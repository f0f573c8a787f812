/* rocpd.h - ROCm's rocpd databases (rocprofv3 --output-format rocpd, the
 * default of ROCm 7) and rocprof (v1)'s results.db, read through
 * libsqlite3 and drawn as Nsight Systems exports are: the rows become the
 * records of nsys_rows.h, the generic mode's (model/trace.h).
 *
 * rocpd is read only through its views: the data views kernels, regions,
 * memory_copies, memory_allocations and samples for the rows, and
 * rocpd_metadata, rocpd_info_agent, rocpd_info_queue, rocpd_info_stream,
 * rocpd_info_process, processes and threads for what they name; never the
 * tables rocpd_<name>_<uuid> under them.  A view or column a schema
 * version lacks is read as absent; a version whose views cannot give the
 * rows' times is named in the message.  rocprof (v1)'s tables (HIP, HSA,
 * OPS, COPY, KERN, rocTX) are read as they are.
 *
 * What becomes what:
 *   - kernels: on a lane "GPU N / queue Q" per GPU and HSA queue (N: the
 *     agent's type_index, the number rocm-smi shows), or "GPU N / stream
 *     S" per HIP stream when the run used streams; classified by name as
 *     every format's kernels are (rules/kernels.h);
 *   - memory copies "Memcpy HtoD (CPU 0 -> GPU 0)" on their stream's lane,
 *     or their queue's, else "GPU N / copies" (the GPU among their two
 *     agents, the destination when both are); allocations on "GPU N /
 *     memory", drawn but no GPU work;
 *   - HIP, HSA, RCCL ... API regions on their thread, in their category
 *     (HIP_RUNTIME_API_EXT, ...); roctx ranges (regions of a MARKER
 *     category with a message) as user annotations, roctx marks (samples)
 *     as instants;
 *   - an API region and the GPU work of the same correlation (the
 *     events' stack_id: rocprofiler's internal correlation id) the two ends
 *     of a flow (--flows);
 *   - processes and threads by their (node, pid, tid); with several nodes
 *     the GPUs and processes carry the host's name;
 *   - a rank's place in its job (rank, world size) from its process's
 *     environment (Open MPI, MPICH, Slurm, torchrun variables), so the
 *     databases of a job's ranks make one figure on one clock.
 * Times are the profiler's nanoseconds; --from/--to count from the first
 * drawable event.
 */
#ifndef TF_LOAD_ROCPD_H
#define TF_LOAD_ROCPD_H

#include <stdbool.h>

#include "base/diag.h"
#include "load/sqlite.h"
#include "model/trace.h"

enum tf_rocpd_kind {
    TF_ROCPD_NONE = 0, /* neither (an export, or no trace: load/nsys.h says) */
    TF_ROCPD_V3,       /* rocprofv3's rocpd: rocpd_metadata and its views */
    TF_ROCPD_ROCPROF1  /* rocprof (v1)'s results.db */
};

/* Which of the two the open database is; false with the message for a
 * rocpd database that cannot be read (its views dropped; rocmProfileData's
 * RPD trace). */
bool tf_rocpd_kind_of(sqlite3 *db, const char *file, enum tf_rocpd_kind *kind,
                      struct tf_diag *d);

/* Reads the open database of that kind into the generic mode's sink in
 * keep->tef; `file` names it in messages. */
bool tf_load_rocpd(sqlite3 *db, const char *file, enum tf_rocpd_kind kind,
                   const struct tf_keep *keep, struct tf_trace *out, struct tf_diag *d);

#endif
