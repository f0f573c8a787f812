/* rocpd_src.c - where each kind of database keeps its rows: for every
 * source, the view (rocprof v1: the table) and which of its columns gives
 * which of the converter's fields (rocpd_int.h).  Facts of the formats:
 * rocprofiler-sdk's data_views.sql (kernels, memory_copies,
 * memory_allocations, regions, samples) and rocprof's tblextr.py (HIP,
 * HSA, OPS, COPY, KERN, rocTX).
 */
#include "load/rocpd_int.h"

/* A roctx message, in the JSON of the event's extdata (rocprofv3 writes
 * {"message": ...} for the ranges and marks of MARKER_CORE_RANGE_API). */
#define MESSAGE "CASE WHEN json_valid(%s) THEN json_extract(%s, '$.message') END"

const struct rsrc_def tf_rocpd_v3_srcs[] = {
    {.view = "kernels",
     .kind = RK_KERNEL,
     .col = {[RC_START] = "start", [RC_END] = "end", [RC_NAME] = "name",
             [RC_NAME_ID] = "kernel_id", [RC_NID] = "nid", [RC_PID] = "pid", [RC_TID] = "tid",
             [RC_AGENT] = "agent_abs_index", [RC_TI] = "agent_type_index",
             [RC_ATYPE] = "agent_type", [RC_QUEUE] = "queue_id", [RC_STREAM] = "stream_id",
             [RC_CORR] = "stack_id", [RC_GX] = "grid_x", [RC_GY] = "grid_y", [RC_GZ] = "grid_z",
             [RC_BX] = "workgroup_x", [RC_BY] = "workgroup_y", [RC_BZ] = "workgroup_z"},
     .times_view = "rocpd_kernel_dispatch",
     .lean = RL_KERNEL},
    {.view = "memory_copies",
     .kind = RK_COPY,
     .col = {[RC_START] = "start", [RC_END] = "end", [RC_NAME] = "name", [RC_NID] = "nid",
             [RC_PID] = "pid", [RC_TID] = "tid", [RC_AGENT] = "dst_agent_abs_index",
             [RC_AGENT2] = "src_agent_abs_index", [RC_TI] = "dst_agent_type_index",
             [RC_TI2] = "src_agent_type_index", [RC_ATYPE] = "dst_agent_type",
             [RC_ATYPE2] = "src_agent_type", [RC_QUEUE] = "queue_id",
             [RC_STREAM] = "stream_id", [RC_CORR] = "stack_id", [RC_BYTES] = "size"},
     .times_view = "rocpd_memory_copy",
     .lean = RL_MEMCPY},
    {.view = "memory_allocations",
     .kind = RK_ALLOC,
     .col = {[RC_START] = "start", [RC_END] = "end", [RC_NID] = "nid", [RC_PID] = "pid",
             [RC_TID] = "tid", [RC_AGENT] = "agent_abs_index", [RC_TI] = "agent_type_index",
             [RC_ATYPE] = "agent_type", [RC_QUEUE] = "queue_id",
             [RC_STREAM] = "stream_id", [RC_BYTES] = "size", [RC_TYPE] = "type",
             [RC_LEVEL] = "level", [RC_ADDR] = "address"},
     .times_view = "rocpd_memory_allocate",
     .lean = RL_NONE},
    {.view = "regions",
     .kind = RK_REGION,
     .col = {[RC_START] = "start", [RC_END] = "end", [RC_NAME] = "name", [RC_CAT] = "category",
             [RC_MSG] = "extdata", [RC_NID] = "nid", [RC_PID] = "pid", [RC_TID] = "tid",
             [RC_CORR] = "stack_id"},
     .times_view = "rocpd_region",
     /* only a marker's extdata is parsed */
     .expr = {[RC_MSG] = "CASE WHEN \"category\" LIKE '%%MARKER%%' AND json_valid(%s) THEN "
                         "json_extract(%s, '$.message') END"},
     .lean = RL_NAME},
    {.view = "samples",
     .kind = RK_MARK,
     .col = {[RC_START] = "timestamp", [RC_END] = "timestamp", [RC_NAME] = "name",
             [RC_CAT] = "category", [RC_MSG] = "extdata", [RC_NID] = "nid", [RC_PID] = "pid",
             [RC_TID] = "tid"},
     .expr = {[RC_MSG] = MESSAGE},
     .filter = "\"category\" LIKE '%MARKER%'",
     .lean = RL_NAME},
};
const size_t tf_rocpd_v3_n_srcs = sizeof tf_rocpd_v3_srcs / sizeof tf_rocpd_v3_srcs[0];

/* rocprof (v1): OPS holds the GPU work of the HIP calls, named after their
 * kernels (tblextr.py patches them in); KERN its dispatch records (names
 * in double quotes), which are the same kernels when OPS has them. */
const struct rsrc_def tf_rocpd_v1_srcs[] = {
    {.view = "OPS",
     .kind = RK_KERNEL,
     .col = {[RC_START] = "BeginNs", [RC_END] = "EndNs", [RC_NAME] = "Name", [RC_PID] = "pid",
             [RC_TID] = "tid", [RC_AGENT] = "dev-id", [RC_QUEUE] = "queue-id",
             [RC_STREAM] = "stream-id", [RC_CORR] = "Index"},
     .lean = RL_NAME},
    {.view = "KERN",
     .kind = RK_KERNEL,
     .col = {[RC_START] = "BeginNs", [RC_END] = "EndNs", [RC_NAME] = "KernelName",
             [RC_PID] = "pid", [RC_TID] = "tid", [RC_AGENT] = "gpu-id", [RC_QUEUE] = "queue-id"},
     .expr = {[RC_NAME] = "trim(%s, '\"')"},
     .lean = RL_NAME,
     .fallback = true},
    {.view = "COPY",
     .kind = RK_COPY,
     .col = {[RC_START] = "BeginNs", [RC_END] = "EndNs", [RC_NAME] = "Name", [RC_PID] = "pid",
             [RC_TID] = "tid", [RC_AGENT] = "dev-id", [RC_QUEUE] = "queue-id",
             [RC_STREAM] = "stream-id", [RC_CORR] = "Index"},
     .lean = RL_MEMCPY},
    {.view = "HIP",
     .kind = RK_CALL,
     .col = {[RC_START] = "BeginNs", [RC_END] = "EndNs", [RC_NAME] = "Name", [RC_PID] = "pid",
             [RC_TID] = "tid", [RC_CORR] = "Index"},
     .expr = {[RC_CAT] = "'HIP_RUNTIME_API'"},
     .lean = RL_NAME},
    /* HSA's Index counts its own records: no correlation with OPS */
    {.view = "HSA",
     .kind = RK_CALL,
     .col = {[RC_START] = "BeginNs", [RC_END] = "EndNs", [RC_NAME] = "Name", [RC_PID] = "pid",
             [RC_TID] = "tid"},
     .expr = {[RC_CAT] = "'HSA_API'"},
     .lean = RL_NAME},
    {.view = "rocTX",
     .kind = RK_RANGE,
     .col = {[RC_START] = "BeginNs", [RC_END] = "EndNs", [RC_NAME] = "Name", [RC_PID] = "pid",
             [RC_TID] = "tid"},
     .lean = RL_NAME},
};
const size_t tf_rocpd_v1_n_srcs = sizeof tf_rocpd_v1_srcs / sizeof tf_rocpd_v1_srcs[0];
